#!/bin/sh
# run.sh - mutation check of sched/ against the host unit tests (make mutate).
# The work is done by mutate.py next to this file; see docs/testing.md,
# "Mutation testing (make mutate)".
exec python3 "$(dirname "$0")/mutate.py" "$@"
