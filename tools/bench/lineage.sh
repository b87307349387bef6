#!/usr/bin/env bash
# tools/bench/lineage.sh - make lineage (issue 41, docs/lineage.md §5): one
# set of workloads on every class of lineage mode and on Linux 6.1 in the
# same QEMU, and bench/results/lineage.md plus lineage.svg from them.
#
#   make lineage            (make bench runs it too, at its end)
#
# One boot per column, each under -icount shift=2,sleep=off -smp 1 (virtual
# time, 4 ns per instruction: the figures do not depend on the host's
# load; one CPU, as tools/bench/field.sh, since Linux 6.1 does not boot
# under -icount with -smp 2 here), running through our init's run=:
#   /bin/lineage interactive, nice, ingo, fiftyp, thud, forkstorm
#       (user/tests/lineage.c, LINEAGE_MS each, 3000 by default)
# and then one more boot per column with -smp 2 in real time for
#   /bin/lineage smp (3 hogs on 2 CPUs)
# and, on the host, each class's pick-next cost in the simulator
# (staircase-sim --sched CLASS --picknext 1,10,100,1000,4000).
#   Debian's hackbench -p -g 2 -l 100 (pipes, processes) and cyclictest
#       -m -i 1000 -l 2000 -q beside 2 NORMAL hogs (/bin/beside), as
#       NORMAL and with -p 80 (FIFO), when build/field.tar can be made
#       (make's RT_DEBS; without it those rows say "not measured")
# The columns: sched=staircase, o1, sd, cfs, eevdf; sched=cfs again with
# Linux 6.1's numbers: Debian's HZ (250: its local timer interrupts over a
# 2 s spin) and the values of the tunables cfs shares with 6.1 (latency
# 6 ms, min granularity 0.75 ms, wake-up granularity 1 ms, no
# child-runs-first), for the faithfulness check (docs/lineage.md §5);
# Linux 6.1 itself (Debian's 686 kernel, build/linux/vmlinuz, our init as
# rdinit).
# Writes build/lineage/<column>.serial.log and the two results files.
set -euo pipefail
cd "$(dirname "$0")/../.."
QEMU=${QEMU:-qemu-system-i386}
LINEAGE_MS=${LINEAGE_MS:-3000}
out=build/lineage
res=bench/results
mkdir -p "$out" "$res"
t0=$(date +%s)
step() { echo "lineage: [$(( $(date +%s) - t0 ))s] $*"; }

make --no-print-directory build >"$out/build.log" 2>&1 || { tail -n 20 "$out/build.log"; exit 1; }
vmlinuz=$(tools/get-linux.sh) || { echo "lineage: no Linux kernel (tools/get-linux.sh)"; exit 1; }
linux_version=$(cat "$(dirname "$vmlinuz")/version" 2>/dev/null || echo 6.1)
field=
if make --no-print-directory build/field.tar >"$out/field-build.log" 2>&1; then
	field=build/field.tar
else
	step "no build/field.tar (packages not downloadable?): hackbench is not measured"
fi

run=
for w in interactive nice ingo fiftyp thud forkstorm; do
	run="$run${run:+,}/bin/lineage:$w:$LINEAGE_MS"
done
ct="/usr/bin/cyclictest:-m:-i:1000:-l:2000:-q"
[ -n "$field" ] && run="$run,/usr/bin/hackbench:-p:-g:2:-l:100,/bin/beside:2:$ct,/bin/beside:2:${ct/-m/-m:-p:80}"
icount="-icount shift=2,sleep=off"
limit=$(( LINEAGE_MS * 30 / 1000 + 240 ))

# ours COLUMN "KERNEL-PARAMETERS"
ours() {
	step "this kernel, $2"
	# shellcheck disable=SC2086
	timeout "$limit" "$QEMU" -display none -monitor none -serial stdio -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -accel tcg $icount -smp 1 -m 256M \
		-kernel build/kernel.elf -initrd "build/initrd.tar${field:+,$field}" \
		-append "$2 tests=none run=$run then=exit" </dev/null >"$out/$1.serial.log" 2>&1 || true
}

for c in staircase o1 sd cfs eevdf; do
	ours "$c" "sched=$c"
done
ours cfs61 "sched=cfs hz=250 sched_latency_ns=6000000 sched_min_granularity_ns=750000 \
sched_wakeup_granularity_ns=1000000 sched_child_runs_first=0"

# The SMP row: each column again on 2 CPUs, in real time (QEMU 7.2's
# -icount holds one vCPU while the other runs: docs/trace.md "Two CPUs").
smp_run="/bin/lineage:smp:$LINEAGE_MS"
smp_boot() {	# smp_boot COLUMN KERNEL INITRD "APPEND"
	# shellcheck disable=SC2086
	timeout "$limit" "$QEMU" -display none -monitor none -serial stdio -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -accel tcg -smp 2 -m 256M \
		-kernel "$2" -initrd "$3" -append "$4" </dev/null >"$out/$1.smp.serial.log" 2>&1 || true
}
for c in staircase o1 sd cfs eevdf; do
	step "this kernel, sched=$c, 3 hogs on 2 CPUs (real time)"
	smp_boot "$c" build/kernel.elf build/initrd.tar "sched=$c tests=none run=$smp_run then=exit"
done
step "this kernel, cfs with 6.1's numbers, 3 hogs on 2 CPUs (real time)"
smp_boot cfs61 build/kernel.elf build/initrd.tar "sched=cfs hz=250 sched_latency_ns=6000000 \
sched_min_granularity_ns=750000 sched_wakeup_granularity_ns=1000000 sched_child_runs_first=0 \
tests=none run=$smp_run then=exit"

step "Linux $linux_version, the same programs in its initramfs"
rm -rf "$out/initramfs" && mkdir -p "$out/initramfs/bin"
cp -a build/user/bin/. "$out/initramfs/bin/"	# keeps the glibc hard links
[ -n "$field" ] && tar -x -C "$out/initramfs" -f "$field"
(cd "$out/initramfs" && find . | cpio -o -H newc 2>/dev/null) >"$out/linux.cpio"
# shellcheck disable=SC2086
timeout "$limit" "$QEMU" -display none -monitor none -serial stdio -no-reboot \
	-accel tcg $icount -smp 1 -m 256M -kernel "$vmlinuz" -initrd "$out/linux.cpio" \
	-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=$run then=exit" \
	</dev/null >"$out/linux.serial.log" 2>&1 || true
step "Linux $linux_version, 3 hogs on 2 CPUs (real time)"
smp_boot linux "$vmlinuz" "$out/linux.cpio" \
	"console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=$smp_run then=exit"

# The pick-next row: each class on the simulator's fake machine (the same
# sched/ code), host ns per yield with 1 to 4,000 runnable hogs on one CPU.
step "pick-next cost per class (staircase-sim --picknext, host time)"
if make --no-print-directory -C tools/sim >"$out/sim-build.log" 2>&1; then
	for c in staircase o1 sd cfs eevdf; do
		build/sim/staircase-sim --sched "$c" --picknext 1,10,100,1000,4000 \
			>"$out/$c.picknext.log" 2>&1 || true
	done
else
	step "the simulator did not build ($out/sim-build.log): no pick-next row"
fi

step "writing $res/lineage.md and $res/lineage.svg"
python3 tools/bench/lineagereport.py --dir "$out" --ms "$LINEAGE_MS" \
	--linux-version "$linux_version" --md "$res/lineage.md" --svg "$res/lineage.svg"
step "done"
