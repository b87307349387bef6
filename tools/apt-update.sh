#!/usr/bin/env bash
# apt-update.sh - apt-get update that survives a fresh machine's first
# minutes and a mirror caught mid-sync. Run it as root (or under sudo).
#
#   tools/apt-update.sh          exit 0 when the package lists can be used
#
# Waits up to 2 minutes for apt's locks (a boot-time apt-daily or
# unattended-upgrades job holds them) and tries again 15 s later when apt
# fails, 4 tries in all. When the only errors are index files that did not
# download (seen: Debian's security mirror serving an i386 Packages file of
# the wrong size, "Mirror sync in progress?"), the other lists are fresh and
# apt uses them: it says so in one line on stderr and exits 0, and a package
# only that index held is then reported missing by the caller. Otherwise it
# prints apt's last error line and exits 1. Used by tools/ensure-deps.sh,
# tools/get-linux.sh and tools/get-grub-pc.sh.
set -u
case ${1:-} in -h|--help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
err=$(mktemp)
trap 'rm -f "$err"' EXIT
# only_index_errors: every "E:" line is a failed index download
only_index_errors() {
	! grep '^E:' "$err" | grep -qvE '^E: (Failed to fetch .*/(by-hash|binary-[a-z0-9]+|i18n)/|Some index files failed to download)'
}
for try in 1 2 3 4; do
	apt-get -o DPkg::Lock::Timeout=120 update -qq >/dev/null 2>"$err" && exit 0
	if [ $try -ge 2 ] && only_index_errors; then
		echo "apt-update: using the lists that downloaded; $(grep '^E: Failed to fetch' "$err" |
			sed 's/^E: Failed to fetch \([^ ]*\).*/\1/' | head -n 3 | tr '\n' ' ')did not" >&2
		exit 0
	fi
	[ $try = 4 ] || sleep 15
done
msg=$(grep -E '^(E|Err|W):' "$err" | tail -n 1)
[ -n "$msg" ] || msg=$(tail -n 1 "$err")
echo "apt-get update: ${msg:-failed}" >&2
exit 1
