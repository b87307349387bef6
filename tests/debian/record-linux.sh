#!/usr/bin/env bash
# record-linux.sh - run tests/debian/procps.sh on Debian's Linux 6.1
# (build/linux, tools/get-linux.sh) in the same QEMU as the test case
# (two CPUs, 256M), with the same Debian packages, and write Linux's
# transcript to tests/debian/procps.linux.out; with --check, compare it
# with this kernel's last run instead of writing it (shapes.py). With
# "python" first: tests/debian/pyipc.py under Debian's python3.11 instead,
# into tests/debian/pyipc.linux.out (--check: diff with our last run);
# with "files": tests/debian/files.sh into files.linux.out.
#
#   tests/debian/record-linux.sh [python|files] [--check]
set -eu
cd "$(dirname "$0")/../.."
out=build/debian/linux
mod=build/debian/procps.tar run=/bin/busybox:sh:/bin/procps.sh name=procps
if [ "${1:-}" = python ]; then
	mod=build/debian/python.tar run=/usr/bin/python3.11:-B:/bin/pyipc.py name=pyipc
	shift
elif [ "${1:-}" = files ]; then
	mod=build/debian/files.tar run=/bin/busybox:sh:/bin/files.sh name=files
	shift
fi
[ -f "$mod" ] || { echo "record-linux: no $mod: run the case (tests/harness.py debian*) first"; exit 2; }
vmlinuz=$(tools/get-linux.sh)
rm -rf "$out" && mkdir -p "$out/root"
tar -x -C "$out/root" -f build/initrd.tar
tar -x -C "$out/root" -f "$mod"
(cd "$out/root" && find . | cpio -o -H newc 2>/dev/null) >"$out/linux.cpio"
timeout 300 qemu-system-i386 -display none -monitor none -serial stdio -no-reboot \
	-accel tcg -smp 2,sockets=1,cores=2,threads=1 -m 256M -kernel "$vmlinuz" \
	-initrd "$out/linux.cpio" -append "console=ttyS0 quiet panic=-1 rdinit=/bin/init \
tests=none run=$run then=exit" </dev/null >"$out/serial.log" 2>&1 || true
# the script's lines only: from the first section to its end marker
tr -d '\r' <"$out/serial.log" | sed -n '/^=== /,/^=== end$/p' >"$out/$name.out"
grep -q '^=== end$' "$out/$name.out" || { echo "record-linux: Linux did not finish (see $out/serial.log)"; exit 1; }
if [ "${1:-}" = --check ] && [ $name = procps ]; then
	python3 tests/debian/shapes.py "$out/procps.out" build/test-logs/debian_procps_util_linux.log
elif [ "${1:-}" = --check ] && [ $name = files ]; then
	python3 tests/debian/shapes.py "$out/files.out" build/test-logs/debian_files.log
elif [ "${1:-}" = --check ]; then
	tr -d '\r' <build/test-logs/debian_python_ipc.log | sed -n '/^=== /,/^=== end$/p' |
		diff "$out/$name.out" -
else
	cp "$out/$name.out" tests/debian/$name.linux.out
	echo "recorded tests/debian/$name.linux.out ($(grep -c '^=== ' "$out/$name.out") sections)"
fi
