#!/usr/bin/env bash
# get-deb.sh - download Debian packages of another architecture (i386 by
# default) into a cache, without installing them: what the Linux peer
# kernel, Debian's busybox and the field's benchmarks come from.
#
#   tools/get-deb.sh [-a ARCH] [-d DIR] [-r] PACKAGE...
#
# Prints the path of each package's .deb (DIR, default build/debs) and
# exits 0, or says why on stderr and exits 1 ("package P not found" for a
# name the archive does not have). A .deb already in DIR is reused without
# asking apt. Otherwise the architecture is added to dpkg for the download
# and removed again after if it was not there before (apt's lists
# refreshed both times, through tools/apt-update.sh); nothing is
# installed. Needs root (or password-less sudo) only when it downloads.
# -r: also every library the packages need, recursively: their Depends
# and Pre-Depends (the first of alternatives), read from the cached .debs'
# own control fields, followed only into packages of Section libs (what a
# dynamically linked program loads: libc6, zlib1g, libtinfo6...); the
# rest (init-system-helpers, debconf, util-linux-extra...) is downloaded
# to read its Section but left out: nothing a program runs needs it in the
# initrd. One line per package, the named ones first. GET_DEB_SESSION=ARCH
# (tools/prefetch.sh): apt is already set up for ARCH; touch nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
arch=i386 dir=build/debs recurse=0
usage() { sed -n '2,20s/^# \{0,1\}//p' "$0"; exit "${1:-2}"; }
while getopts a:d:rh opt; do
	case $opt in
	a) arch=$OPTARG ;;
	d) dir=$OPTARG ;;
	r) recurse=1 ;;
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

# apt is set up once, on the first download, and put back on exit.
SUDO= added=0 ready=0
cleanup() {
	if [ $added = 1 ]; then
		$SUDO dpkg --remove-architecture "$arch" || true
		$SUDO "$here/apt-update.sh" >/dev/null 2>&1 || true
	fi
}
apt_ready() {
	[ $ready = 1 ] && return 0
	# Inside tools/prefetch.sh's session: it holds the lock, added the
	# architecture and refreshed the lists, and puts them back at its end.
	if [ "${GET_DEB_SESSION:-}" = "$arch" ]; then
		ready=1
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		sudo -n true 2>/dev/null || { echo "get-deb: needs root or sudo for apt-get" >&2; exit 1; }
		SUDO="sudo -n"
	fi
	# One download at a time (make test's prefetch and a case may both
	# fetch): another's cleanup would remove the architecture mid-way.
	if command -v flock >/dev/null; then
		exec 9>"${TMPDIR:-/tmp}/get-deb.$arch.lock"
		flock 9
	fi
	if [ "$(dpkg --print-architecture)" != "$arch" ] &&
	   ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
		$SUDO dpkg --add-architecture "$arch"
		added=1
	fi
	trap cleanup EXIT
	local why
	why=$($SUDO "$here/apt-update.sh" 2>&1) || { echo "get-deb: ${why:-apt-get update failed}" >&2; exit 1; }
	[ -z "$why" ] || echo "get-deb: $why" >&2
	ready=1
}

# The names of those of the packages the archive has for ARCH ("p:ARCH"
# given, "Architecture: ARCH" back; for all, bare names and "all"): one
# apt-cache call for the lot, since each call reads apt's whole cache.
available() {	# ARCH-OR-all NAME...
	local want=$1; shift
	apt-cache show --no-all-versions "$@" 2>/dev/null |
		awk -v a="$want" '/^Package: /{p=$2} /^Architecture: /{if ($2 == a) print p}' |
		sort -u
}

fetch() {	# PACKAGE...: download those not in the cache, in one apt-get
	local p q err missing=() names=() have all
	for p in "$@"; do
		[ -n "$(cached "$p")" ] && continue
		case " ${missing[*]} " in *" $p "*) continue ;; esac
		missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	apt_ready
	have=" $(available "$arch" "${missing[@]/%/:$arch}" | tr '\n' ' ') "
	all=" $(available all "${missing[@]}" | tr '\n' ' ') "
	for p in "${missing[@]}"; do
		if [[ $have == *" $p "* ]]; then
			names+=("$p:$arch")
		elif [[ $all == *" $p "* ]]; then
			names+=("$p")		# an Architecture: all package goes by its bare name
		else
			echo "get-deb: package $p not found (no $p:$arch in Debian's archive)" >&2
			exit 1
		fi
	done
	err=$(cd "$dir" && apt-get download -q "${names[@]}" 2>&1 >/dev/null) ||
		{ echo "get-deb: apt-get download ${names[*]} failed: $(echo "$err" | tail -n 1)" >&2; exit 1; }
}

# The packages a .deb depends on: "a (>= 1) | b, c:any" -> a c
deps() {	# DEB
	{ dpkg-deb -f "$1" Pre-Depends; dpkg-deb -f "$1" Depends; } | tr ',' '\n' |
		sed -e 's/|.*//' -e 's/(.*)//' -e 's/:[a-z0-9]*//' -e 's/[[:space:]]//g' |
		grep . || true
}

want=("$@")
fetch "$@"
if [ $recurse = 1 ]; then
	level=("$@") seen=" $* "
	while [ ${#level[@]} -gt 0 ]; do
		next=()
		for p in "${level[@]}"; do
			for d in $(deps "$(cached "$p")"); do
				case $seen in *" $d "*) continue ;; esac
				seen="$seen$d "
				next+=("$d")
			done
		done
		[ ${#next[@]} -gt 0 ] || break
		fetch "${next[@]}"
		level=()
		for d in "${next[@]}"; do
			[ "$(dpkg-deb -f "$(cached "$d")" Section)" = libs ] || continue
			level+=("$d")
			want+=("$d")
		done
	done
fi
for p in "${want[@]}"; do cached "$p"; done
