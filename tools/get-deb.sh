#!/usr/bin/env bash
# get-deb.sh - download Debian packages of another architecture (i386 by
# default) into a cache, without installing them: what the Linux peer
# kernel, Debian's busybox and the field's benchmarks come from.
#
#   tools/get-deb.sh [-a ARCH] [-d DIR] PACKAGE...
#
# Prints the path of each package's .deb (DIR, default build/debs) and
# exits 0, or says why on stderr and exits 1. A .deb already in DIR is
# reused without asking apt. Otherwise the architecture is added to dpkg
# for the download and removed again after if it was not there before
# (apt's lists refreshed both times, through tools/apt-update.sh); nothing
# is installed. Needs root (or password-less sudo) only when it downloads.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
arch=i386 dir=build/debs
usage() { sed -n '2,13s/^# \{0,1\}//p' "$0"; exit "${1:-2}"; }
while getopts a:d:h opt; do
	case $opt in
	a) arch=$OPTARG ;;
	d) dir=$OPTARG ;;
	h) usage 0 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "get-deb: no package named (-h for help)" >&2; exit 2; }
mkdir -p "$dir"

cached() {	# PACKAGE: its .deb in the cache, or nothing
	local f
	for f in "$dir/$1"_*_"$arch".deb "$dir/$1"_*_all.deb; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 0
}
missing=()
for p in "$@"; do [ -n "$(cached "$p")" ] || missing+=("$p"); done

if [ ${#missing[@]} -gt 0 ]; then
	SUDO=
	if [ "$(id -u)" != 0 ]; then
		sudo -n true 2>/dev/null || { echo "get-deb: needs root or sudo for apt-get" >&2; exit 1; }
		SUDO="sudo -n"
	fi
	added=0
	if [ "$(dpkg --print-architecture)" != "$arch" ] &&
	   ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
		$SUDO dpkg --add-architecture "$arch"
		added=1
	fi
	cleanup() {
		if [ $added = 1 ]; then
			$SUDO dpkg --remove-architecture "$arch" || true
			$SUDO "$here/apt-update.sh" >/dev/null 2>&1 || true
		fi
	}
	trap cleanup EXIT
	why=$($SUDO "$here/apt-update.sh" 2>&1) || { echo "get-deb: ${why:-apt-get update failed}" >&2; exit 1; }
	[ -z "$why" ] || echo "get-deb: $why" >&2
	for p in "${missing[@]}"; do
		err=$(cd "$dir" && apt-get download -q "$p:$arch" 2>&1 >/dev/null) ||
			{ echo "get-deb: apt-get download $p:$arch failed: $(echo "$err" | tail -n 1)" >&2; exit 1; }
	done
fi
for p in "$@"; do cached "$p"; done
