#!/usr/bin/env bash
# get-linux.sh - fetch Debian's i386 Linux 6.1 kernel (linux-image-686) for
# the Linux side of the comparisons (tests/linux-diff.sh): the same static
# binaries boot on it in the same QEMU.
#
#   tools/get-linux.sh [DIR]        default DIR: build/linux
#
# Prints the path of the kernel image (DIR/vmlinuz) and exits 0, or says
# why it could not and exits 1. It uses only Debian's archive, through
# tools/get-deb.sh (the i386 architecture added for the download and
# removed again; nothing is installed). A kernel already in DIR is reused.
# Needs root (or sudo) for apt-get.
set -euo pipefail
dir=${1:-build/linux}
if [ -s "$dir/vmlinuz" ]; then
	echo "$dir/vmlinuz"
	exit 0
fi
mkdir -p "$dir"
# The meta package, and with it (-r reads its Depends) the versioned image
# it names; both stay in tools/get-deb.sh's cache, build/debs.
here=$(dirname "$0")
meta=$("$here/get-deb.sh" -r linux-image-686 | head -n 1) || exit 1
img=$(dpkg-deb -f "$meta" Depends | tr ',' '\n' |
      sed -n 's/^ *\(linux-image-[0-9][^ ]*-686\)\( .*\)\{0,1\}$/\1/p' | head -n 1)
[ -n "$img" ] || { echo "get-linux: $meta names no linux-image-*-686" >&2; exit 1; }
deb=$("$here/get-deb.sh" "$img") || exit 1
tmp=$(mktemp -d)
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './boot/vmlinuz-*'
mv "$tmp"/boot/vmlinuz-* "$dir/vmlinuz"
echo "${img#linux-image-}" >"$dir/version"
rm -rf "$tmp"
echo "$dir/vmlinuz"
