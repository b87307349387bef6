#!/usr/bin/env bash
# tools/bench/profile.sh - make profile's entry: tools/bench/profile.py PROG ARGS...
# (docs/bench.md). PROG is /bin/pathlen, ARGS a figure and a count, e.g.
#   tools/bench/profile.sh /bin/pathlen yield 100
#   tools/bench/profile.sh /bin/pathlen fork 5
cd "$(dirname "$0")/../.." && exec python3 tools/bench/profile.py "$@"
