#!/usr/bin/env bash
# debs-tar.sh - Debian i386 packages unpacked into one ustar archive, a
# second initrd module (the kernel adds a module's files beside the
# initrd's; tests/harness.py's Case(modules=...) and make bench-field
# pass it): what the field's benchmarks need without rebuilding the
# initrd with DEBS=.
#
#   tools/debs-tar.sh OUT.tar PACKAGE...
#
# The packages come from tools/get-deb.sh (its cache, build/debs, or a
# download); their documentation is left out, symbolic links kept. Exits
# 1 with get-deb's reason when a package cannot be had.
set -euo pipefail
out=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
debs=$("$(dirname "$0")/get-deb.sh" "$@")
for deb in $debs; do
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --exclude=./usr/share
done
tar --format=ustar --owner=0 --group=0 -cf "$out.tmp" -C "$tmp" $(ls "$tmp")
mv "$out.tmp" "$out"
