#!/usr/bin/env bash
# prefetch.sh - fetch and unpack, in the background of make test, what its
# later stages download: Chromium (the browser stage), and every Debian
# i386 package the QEMU cases and linux-diff use - Linux 6.1's image,
# busybox-static, libc6, rt-tests and stress-ng (build/field.tar), and the
# three Debian modules of tests/cases/debian.py - in ONE apt session.
#
#   tools/prefetch.sh     (tests/run-all.sh runs it; its output goes to
#                          build/test-logs/prefetch.out)
#
# Each tools/get-deb.sh call that must download adds the i386 architecture,
# refreshes apt's lists, and removes both again after: on a fresh machine
# that is two `apt-get update`s with i386's lists downloaded, and the cases
# made eight such calls while QEMU ran. Here the architecture is added
# and the lists refreshed once, every package is downloaded into
# build/debs, and both are put back; every later call, here or in a case's
# prepare, finds its packages there and asks apt nothing. A failure here
# only loses the head start: the stage that needs a package fetches it
# again and says why it cannot.
set -u
cd "$(dirname "$0")/.."
tools/ensure-deps.sh chromium

# The session: the lock tools/get-deb.sh takes, the i386 architecture
# and one refresh of the lists, held until the last download is done and
# put back then (GET_DEB_SESSION tells get-deb.sh not to do it itself).
SUDO=
[ "$(id -u)" = 0 ] || SUDO="sudo -n"
added=0
session_end() {
	if [ $added = 1 ]; then
		$SUDO dpkg --remove-architecture i386 || true
		$SUDO tools/apt-update.sh >/dev/null 2>&1 || true
	fi
}
if [ -n "$(ls build/linux/vmlinuz 2>/dev/null)" ] && [ -f build/field.tar ] &&
   [ -f build/debian/python.tar ]; then
	:	# a warm tree: nothing to download
elif command -v flock >/dev/null && { [ -z "$SUDO" ] || sudo -n true 2>/dev/null; }; then
	exec 9>"${TMPDIR:-/tmp}/get-deb.i386.lock"
	flock 9
	trap session_end EXIT
	if ! dpkg --print-foreign-architectures | grep -qx i386 &&
	   [ "$(dpkg --print-architecture)" != i386 ]; then
		$SUDO dpkg --add-architecture i386 && added=1
	fi
	if $SUDO tools/apt-update.sh; then
		export GET_DEB_SESSION=i386
	else	# no session: get-deb.sh tries on its own, so let go of its lock
		session_end
		trap - EXIT
		added=0
		exec 9>&-
	fi
fi

tools/get-linux.sh
tools/get-deb.sh busybox-static $(make -s --no-print-directory print-debs) >/dev/null
debian=$(python3 -c 'import sys; sys.path[:0] = ["tests", "tests/cases"]
import debian; print(debian.ALL_DEBS)')
tools/get-deb.sh -r $debian $(make -s --no-print-directory print-essential) >/dev/null
session_end
trap - EXIT
added=0
unset GET_DEB_SESSION
exec 9>&-

make --no-print-directory BUSYBOX=1 build/busybox/busybox
make --no-print-directory build/rt-tests.tar build/field.tar
python3 -c 'import sys; sys.path[:0] = ["tests", "tests/cases"]
import debian
for prepare in (debian.prepare, debian.prepare_python, debian.prepare_files):
    why = prepare()
    print(why or prepare.__name__ + ": ready")'
