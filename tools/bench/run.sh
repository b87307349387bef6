#!/usr/bin/env bash
# tools/bench/run.sh - make bench (issue 12, docs/bench.md): path lengths of
# this kernel (default build and DEBUG=0) beside Debian's Linux 6.1 i386,
# the same static binary (/bin/pathlen) in the same QEMU, under
# -icount shift=0,sleep=off -smp 1, where the guest TSC counts instructions;
# /bin/wakelat's wake-up latencies on both, in virtual time (shift=2); then
# tools/bench/sched.sh: /bin/schedbench's scheduling-quality, boot and
# memory figures, image sizes, the simulator's prediction, and KVM=1.
#
#   tools/bench/run.sh            (make bench; BENCH_KVM=1: make bench KVM=1)
#
# Writes bench/results/latest.md, latest.svg and latest-*.svg; serial logs
# in build/bench/. Needs: make's build, tools/get-linux.sh (cached in
# build/linux), cpio, qemu-system-i386, python3. Takes no lock of its own
# (wait_qemu only counts QEMUs): on a machine whose users share one, run it
# under that lock (flock LOCKFILE make bench).
set -euo pipefail
cd "$(dirname "$0")/../.."
QEMU=${QEMU:-qemu-system-i386}
out=build/bench
res=bench/results
mkdir -p "$out" "$res"
t0=$(date +%s)
step() { echo "bench: [$(( $(date +%s) - t0 ))s] $*"; }

# Other engineers share this machine: at most 2 QEMUs at a time.
wait_qemu() {
	while [ "$(pgrep -c qemu-system || true)" -ge 2 ]; do
		step "2 or more QEMUs running, waiting"
		sleep 20
	done
}

# The program's lines from a serial log (init prints "init: running
# /bin/pathlen" before and "init: /bin/pathlen exited ..." after).
cut_pathlen() {	# LOG OUT
	tr -d '\r' <"$1" |
		sed -n '\#^init: running /bin/pathlen$#,\#^init: /bin/pathlen \(exited\|killed\)#p' |
		grep -E '^[a-z_]+ [0-9]+ [a-z]+$' >"$2" || true
	[ -s "$2" ] || { echo "bench: no figures in $1" >&2; tail -n 20 "$1" >&2; exit 1; }
}

ours() {	# BUILD-DIR NAME
	wait_qemu
	timeout 300 "$QEMU" -display none -monitor none -serial stdio -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -accel tcg \
		-icount shift=0,sleep=off -smp 1 -m 128M \
		-kernel "$1/kernel.elf" -initrd "$1/initrd.tar" \
		-append "tests=none run=/bin/pathlen then=exit" \
		</dev/null >"$out/$2.serial.log" 2>&1 || true
	cut_pathlen "$out/$2.serial.log" "$out/$2.txt"
}

step "building this kernel (default build, make build)"
make --no-print-directory build >"$out/build.log" 2>&1 ||
	{ tail -n 20 "$out/build.log"; exit 1; }
step "building this kernel with DEBUG=0 (build/nodebug)"
make --no-print-directory BUILD=build/nodebug DEBUG=0 build >"$out/build-nodebug.log" 2>&1 ||
	{ tail -n 20 "$out/build-nodebug.log"; exit 1; }
step "fetching Linux 6.1 (tools/get-linux.sh, cached in build/linux)"
vmlinuz=$(tools/get-linux.sh) || { echo "bench: no Linux kernel"; exit 1; }
linux_version=$(cat "$(dirname "$vmlinuz")/version" 2>/dev/null || echo 6.1)

step "pathlen on this kernel (default build)"
ours build ours
step "pathlen on this kernel (DEBUG=0)"
ours build/nodebug nodebug

step "pathlen on Linux $linux_version (initramfs, our init as rdinit)"
rm -rf "$out/initramfs" && mkdir -p "$out/initramfs/bin"
# -a keeps the glibc programs' hard links to one binary (/bin/glibctests):
# copied apart they made the cpio 50 MB, more than Linux unpacks in 128 MiB
cp -a build/user/bin/. "$out/initramfs/bin/"
(cd "$out/initramfs" && find . | cpio -o -H newc 2>/dev/null) >"$out/linux.cpio"
wait_qemu
timeout 300 "$QEMU" -display none -monitor none -serial stdio -no-reboot \
	-accel tcg -icount shift=0,sleep=off -smp 1 -m 256M \
	-kernel "$vmlinuz" -initrd "$out/linux.cpio" \
	-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=/bin/pathlen then=exit" \
	</dev/null >"$out/linux.serial.log" 2>&1 || true
cut_pathlen "$out/linux.serial.log" "$out/linux.txt"

# Scheduling: /bin/wakelat (cyclictest-style 1 ms sleeps beside 2 hogs)
# in virtual time, -icount shift=2 (4 ns per instruction). Its KTAP lines
# are kept as they are; report.py takes the avg / p99 / max out of them.
cut_wakelat() {	# LOG OUT
	tr -d '\r' <"$1" |
		sed -n '\#^init: running /bin/wakelat$#,\#^init: /bin/wakelat \(exited\|killed\)#p' |
		grep -E '^(not )?ok [0-9]+ - ' >"$2" || true
}
step "wakelat on this kernel (default build, -icount shift=2)"
wait_qemu
timeout 300 "$QEMU" -display none -monitor none -serial stdio -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 -accel tcg \
	-icount shift=2,sleep=off -smp 1 -m 128M \
	-kernel build/kernel.elf -initrd build/initrd.tar \
	-append "tests=none run=/bin/wakelat then=exit" \
	</dev/null >"$out/ours-wakelat.serial.log" 2>&1 || true
cut_wakelat "$out/ours-wakelat.serial.log" "$out/ours-wakelat.txt"
step "wakelat on Linux $linux_version (-icount shift=2)"
wait_qemu
timeout 300 "$QEMU" -display none -monitor none -serial stdio -no-reboot \
	-accel tcg -icount shift=2,sleep=off -smp 1 -m 256M \
	-kernel "$vmlinuz" -initrd "$out/linux.cpio" \
	-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=/bin/wakelat then=exit" \
	</dev/null >"$out/linux-wakelat.serial.log" 2>&1 || true
cut_wakelat "$out/linux-wakelat.serial.log" "$out/linux-wakelat.txt"

# Scheduling quality, boot, memory, sizes, KVM=1: tools/bench/sched.sh.
. tools/bench/sched.sh

step "writing $res/latest.md, $res/latest.svg and $res/latest-*.svg"
python3 tools/bench/report.py --ours "$out/ours.txt" --nodebug "$out/nodebug.txt" \
	--linux "$out/linux.txt" --linux-version "$linux_version" \
	--wakelat-ours "$out/ours-wakelat.txt" --wakelat-linux "$out/linux-wakelat.txt" \
	--sched "$out" --sched-svg "$res/latest" \
	--qemu "$("$QEMU" --version | head -n 1)" \
	--md "$res/latest.md" --svg "$res/latest.svg"
step "done"
