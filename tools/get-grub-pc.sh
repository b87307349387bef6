#!/usr/bin/env bash
# get-grub-pc.sh [DIR] - GRUB's BIOS modules (/usr/lib/grub/i386-pc) for
# hosts whose Debian has no grub-pc-bin (arm64: it is built for amd64 and
# i386 only). The modules are i386 code whatever the host is, so the amd64
# package's files serve: fetched with apt-get download (amd64 architecture
# added for the download, removed after, as tools/get-linux.sh does with
# i386), unpacked into DIR (default build/grub/i386-pc), never installed.
# make's ISO rule hands DIR to grub-mkrescue (-d). Prints DIR.
set -euo pipefail
dir=${1:-build/grub/i386-pc}
if [ -s "$dir/modinfo.sh" ]; then
	echo "$dir"
	exit 0
fi
SUDO=
if [ "$(id -u)" != 0 ]; then
	sudo -n true 2>/dev/null || { echo "get-grub-pc: needs root or sudo for apt-get" >&2; exit 1; }
	SUDO="sudo -n"
fi
arch=amd64
added=0
if [ "$(dpkg --print-architecture)" != $arch ] &&
   ! dpkg --print-foreign-architectures | grep -qx $arch; then
	$SUDO dpkg --add-architecture $arch
	added=1
fi
tmp=$(mktemp -d)
cleanup() {
	rm -rf "$tmp"
	if [ $added = 1 ]; then
		$SUDO dpkg --remove-architecture $arch || true
		$SUDO apt-get update -qq >/dev/null 2>&1 || true
	fi
}
trap cleanup EXIT
why=$($SUDO "$(dirname "$0")/apt-update.sh" 2>&1) || { echo "get-grub-pc: ${why:-apt-get update failed}" >&2; exit 1; }
[ -z "$why" ] || echo "get-grub-pc: $why" >&2
(cd "$tmp" && apt-get download -q grub-pc-bin:$arch >/dev/null 2>&1) ||
	{ echo "get-grub-pc: apt-get download grub-pc-bin:$arch failed" >&2; exit 1; }
dpkg-deb -x "$tmp"/grub-pc-bin_*.deb "$tmp/x"
mkdir -p "$(dirname "$dir")"
rm -rf "$dir"
mv "$tmp/x/usr/lib/grub/i386-pc" "$dir"
echo "$dir"
