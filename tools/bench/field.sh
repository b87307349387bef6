#!/usr/bin/env bash
# tools/bench/field.sh - the field's benchmarks on both kernels with the
# same command lines (issue 28; docs/bench.md, "The field's benchmarks"):
# Debian's i386 cyclictest, hackbench and stress-ng, unchanged, dynamically
# linked, from build/field.tar (make's RT_DEBS and STRESS_DEBS, a second
# initrd module here, unpacked into Linux's initramfs there).
#
#   make bench-field        (make bench runs it too, at its end)
#
# One boot of each kernel under -icount shift=2,sleep=off -smp 1 (virtual
# time: 4 ns per instruction, so a run repeats whatever the host's load;
# Linux 6.1 does not get past "Booting SMP configuration" under -icount
# with -smp 2 here, so one CPU: cyclictest -t has one thread), running,
# through our init's run=:
#   cyclictest -m -p 80 -i 1000 -l FIELD_LOOPS -t -q        idle
#   beside 2 cyclictest ...                                   beside 2 NORMAL hogs
#   hackbench -p -g 4 -l 200                                  pipes, processes
#   hackbench -p -T -g 4 -l 200                               pipes, threads
#   hackbench -g 4 -l 200, hackbench -T -g 4 -l 200          sockets (its default)
#   stress-ng --cpu 1 --timeout 5s --metrics-brief            NORMAL
#   stress-ng --sched fifo --cpu 1 --timeout 5s ...           FIFO
# stress-ng runs for a time as the field runs it (--timeout: alarm(),
# kernel/time/itimer.c); until Dec 2026 the rows ran to --cpu-ops 200, as this
# kernel had no alarm().
# Writes build/bench/field-{ours,linux}.serial.log and the section of
# bench/results/latest.md between its field markers.
set -euo pipefail
cd "$(dirname "$0")/../.."
QEMU=${QEMU:-qemu-system-i386}
FIELD_LOOPS=${FIELD_LOOPS:-1000}
out=build/bench
res=bench/results
mkdir -p "$out" "$res"
t0=$(date +%s)
step() { echo "bench-field: [$(( $(date +%s) - t0 ))s] $*"; }

make --no-print-directory build build/field.tar >"$out/field-build.log" 2>&1 ||
	{ echo "bench-field: no build/field.tar (packages not downloadable?):"; tail -n 3 "$out/field-build.log"; exit 1; }
vmlinuz=$(tools/get-linux.sh) || { echo "bench-field: no Linux kernel"; exit 1; }
linux_version=$(cat "$(dirname "$vmlinuz")/version" 2>/dev/null || echo 6.1)

ct="/usr/bin/cyclictest:-m:-p:80:-i:1000:-l:$FIELD_LOOPS:-t:-q"
sng="--cpu:1:--timeout:5s:--metrics-brief:--temp-path:/proc"
run="$ct,/usr/bin/hackbench:-p:-g:4:-l:200,/usr/bin/hackbench:-p:-T:-g:4:-l:200"
run="$run,/usr/bin/stress-ng:$sng,/usr/bin/stress-ng:--sched:fifo:--sched-prio:50:$sng,/bin/beside:2:$ct"
run="$run,/usr/bin/hackbench:-g:4:-l:200,/usr/bin/hackbench:-T:-g:4:-l:200"
icount="-icount shift=2,sleep=off"

step "this kernel: $run"
timeout "${FIELD_TIMEOUT:-400}" "$QEMU" -display none -monitor none -serial stdio -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 -accel tcg $icount -smp 1 -m 256M \
	-kernel build/kernel.elf -initrd build/initrd.tar,build/field.tar \
	-append "tests=none run=$run then=exit" </dev/null >"$out/field-ours.serial.log" 2>&1 || true

step "Linux $linux_version, the same programs in its initramfs"
rm -rf "$out/field-initramfs" && mkdir -p "$out/field-initramfs/bin"
cp -a build/user/bin/. "$out/field-initramfs/bin/"	# keeps the glibc hard links
tar -x -C "$out/field-initramfs" -f build/field.tar
(cd "$out/field-initramfs" && find . | cpio -o -H newc 2>/dev/null) >"$out/field-linux.cpio"
timeout "${FIELD_TIMEOUT:-400}" "$QEMU" -display none -monitor none -serial stdio -no-reboot \
	-accel tcg $icount -smp 1 -m 256M -kernel "$vmlinuz" -initrd "$out/field-linux.cpio" \
	-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=$run then=exit" \
	</dev/null >"$out/field-linux.serial.log" 2>&1 || true

step "writing the field section of $res/latest.md"
python3 tools/bench/fieldreport.py --ours "$out/field-ours.serial.log" \
	--linux "$out/field-linux.serial.log" --linux-version "$linux_version" \
	--loops "$FIELD_LOOPS" --latest "$res/latest.md"
