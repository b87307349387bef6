#!/usr/bin/env bash
# get-linux.sh - fetch Debian's i386 Linux 6.1 kernel (linux-image-686) for
# the Linux side of the comparisons (tests/linux-diff.sh): the same static
# binaries boot on it in the same QEMU.
#
#   tools/get-linux.sh [DIR]        default DIR: build/linux
#
# Prints the path of the kernel image (DIR/vmlinuz) and exits 0, or says
# why it could not and exits 1. It uses only Debian's archive: the i386
# architecture is added to dpkg for the one `apt-get download` (and
# removed again if it was not there before); nothing is installed. A
# kernel already in DIR is reused. Needs root (or sudo) for apt-get.
set -euo pipefail
dir=${1:-build/linux}
if [ -s "$dir/vmlinuz" ]; then
	echo "$dir/vmlinuz"
	exit 0
fi
mkdir -p "$dir"
SUDO=
if [ "$(id -u)" != 0 ]; then
	sudo -n true 2>/dev/null || { echo "get-linux: needs root or sudo for apt-get" >&2; exit 1; }
	SUDO="sudo -n"
fi
added=0
if ! dpkg --print-foreign-architectures | grep -qx i386; then
	$SUDO dpkg --add-architecture i386
	added=1
fi
cleanup() {
	if [ $added = 1 ]; then
		$SUDO dpkg --remove-architecture i386 || true
		$SUDO apt-get update -qq >/dev/null 2>&1 || true
	fi
}
trap cleanup EXIT
why=$($SUDO "$(dirname "$0")/apt-update.sh" 2>&1) || { echo "get-linux: ${why:-apt-get update failed}" >&2; exit 1; }
[ -z "$why" ] || echo "get-linux: $why" >&2
# linux-image-686 is a metapackage: its dependency names the image.
img=$(apt-cache depends linux-image-686:i386 2>/dev/null |
      sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-686\)\(:i386\)\{0,1\}$/\1/p' | head -n 1)
[ -n "$img" ] || { echo "get-linux: no linux-image-686:i386 in the archive" >&2; exit 1; }
tmp=$(mktemp -d)
(cd "$tmp" && apt-get download -q "$img:i386" >/dev/null 2>&1) ||
	{ rm -rf "$tmp"; echo "get-linux: apt-get download $img failed" >&2; exit 1; }
dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" --wildcards './boot/vmlinuz-*'
mv "$tmp"/boot/vmlinuz-* "$dir/vmlinuz"
echo "${img#linux-image-}" >"$dir/version"
rm -rf "$tmp"
echo "$dir/vmlinuz"
