# tools/bench/sched.sh - make bench's scheduling-quality, boot, memory and
# size figures (issue 12, docs/bench.md, "Scheduling quality"). Sourced by
# tools/bench/run.sh after its own steps: it uses run.sh's QEMU, out,
# vmlinuz, linux_version, step and wait_qemu, and the initramfs
# $out/linux.cpio that run.sh packed (build/user/bin, so /bin/schedbench
# and /bin/periodic are in it).
#
# /bin/schedbench (user/tests/schedbench.c) on both kernels, batched into
# few boots:
#   icount0  -icount shift=0,sleep=off -smp 1 (the guest TSC counts
#            instructions): boot, mem, picknext; SB_REPS boots (3), the
#            report takes the median of each figure
#   icount2  -icount shift=2,sleep=off -smp 1 (virtual time, 4 ns per
#            instruction): latency, periodic, fair, ingo; one boot
#   pipe2    real time (no icount) -smp 2: pipe2, SB_PIPE2_RUNS (7) times
#            in one boot; the report takes the median
#   procfork real time -smp 2: /bin/procfork (user/tests/procfork.c),
#            forks beside 2 /proc reader threads, SB_PROCFORK_RUNS (5)
#            runs of SB_PROCFORK_S (5) seconds in one boot; the median
# then the staircase's prediction of fair and ingo from the simulator
# (tools/bench/fair.wl, tools/sim/examples/ingo.wl, same windows), the
# image sizes, and, with KVM=1, pathlen under -accel kvm when this host
# can (not on kvm_pvm hosts: it says so and goes on).
#
# Writes $out/sb-*.txt, $out/sim-*.txt, $out/sizes.txt, $out/kvm.txt; the
# serial logs are $out/sb-*.serial.log. Sizes, overridable from the
# environment: SB_LAT (latency sleeps, 10000), SB_PERIODIC (seconds per
# case, 5), SB_FAIR and SB_INGO (ms, 5000).

SB_REPS=${SB_REPS:-3}
SB_LAT=${SB_LAT:-10000}
SB_PERIODIC=${SB_PERIODIC:-5}
SB_FAIR=${SB_FAIR:-5000}
SB_INGO=${SB_INGO:-5000}
SB_PIPE2_RUNS=${SB_PIPE2_RUNS:-7}
SB_PROCFORK_RUNS=${SB_PROCFORK_RUNS:-5}
SB_PROCFORK_S=${SB_PROCFORK_S:-5}

# schedbench's figure lines from a serial log: "name value unit" and
# "name n/a (why)", between init's "running /bin/schedbench" and
# "/bin/schedbench exited" lines (Linux's console may add its own).
cut_schedbench() {	# LOG OUT [PROGRAM: schedbench, or procfork]
	local prog=${3:-schedbench}
	tr -d '\r' <"$1" |
		sed -n "\\#^init: running /bin/$prog\$#,\\#^init: /bin/$prog \\(exited\\|killed\\)#p" |
		grep -E '^[a-z][a-z0-9_]* (n/a( .*)?|-?[0-9]+ [a-z]+( \(.*\))?|[A-Za-z0-9_?]+ policy)$' >"$2" || true
	if [ ! -s "$2" ]; then
		echo "bench: WARNING: no schedbench figures in $1 (the report says 'not measured')" >&2
		tail -n 20 "$1" >&2
	fi
	if grep -q 'killed by signal\|exited with status [1-9]' "$1"; then
		echo "bench: WARNING: a schedbench run failed in $1:" >&2
		grep 'killed by signal\|exited with status [1-9]' "$1" >&2
	fi
}

# Boot one QEMU in the background and print a progress line for each
# schedbench subcommand as it starts (its "# name: ..." header).
sb_qemu() {	# NAME LABEL TIMEOUT QEMU-ARGS...
	local name=$1 label=$2 limit=$3 log pid seen=0 n
	shift 3
	log="$out/sb-$name.serial.log"
	wait_qemu
	timeout "$limit" "$QEMU" -display none -monitor none -serial stdio -no-reboot "$@" \
		</dev/null >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		n=$(grep -c '^# [a-z0-9]*:' "$log" || true)
		while [ "$seen" -lt "$n" ]; do
			seen=$((seen + 1))
			step "  $label: $(grep '^# [a-z0-9]*:' "$log" | sed -n "${seen}p" |
				tr -d '\r' | cut -c3- | cut -c1-90)"
		done
	done
	wait "$pid" || true
}

# MEM (128M by default, as every run here): picknext's 4000 hogs are
# threads of one process and fit in 128 MiB on both kernels; schedbench
# raises threads-max (2,039 here at 128 MiB, Linux's rule) for the run.
ours_sb() {	# NAME LABEL TIMEOUT "ICOUNT-ARGS" SMP RUNLIST [MEM [PROGRAM]]
	# shellcheck disable=SC2086
	sb_qemu "$1" "$2" "$3" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-accel tcg $4 -smp "$5" -m "${7:-128M}" \
		-kernel build/kernel.elf -initrd build/initrd.tar \
		-append "tests=none run=$6 then=exit"
	cut_schedbench "$out/sb-$1.serial.log" "$out/sb-$1.txt" "${8:-schedbench}"
}

linux_sb() {	# NAME LABEL TIMEOUT "ICOUNT-ARGS" SMP RUNLIST [MEM [PROGRAM]]
	# shellcheck disable=SC2086
	sb_qemu "$1" "$2" "$3" -accel tcg $4 -smp "$5" -m "${7:-128M}" \
		-kernel "$vmlinuz" -initrd "$out/linux.cpio" \
		-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=$6 then=exit"
	cut_schedbench "$out/sb-$1.serial.log" "$out/sb-$1.txt" "${8:-schedbench}"
}

rm -f "$out"/sb-*.txt "$out"/sb-*.serial.log
printf 'reps %s\nlat_count %s\nperiodic_s %s\nfair_ms %s\ningo_ms %s\npipe2_runs %s\nprocfork_runs %s\nprocfork_s %s\n' \
	"$SB_REPS" "$SB_LAT" "$SB_PERIODIC" "$SB_FAIR" "$SB_INGO" "$SB_PIPE2_RUNS" \
	"$SB_PROCFORK_RUNS" "$SB_PROCFORK_S" >"$out/sb-params.txt"
# Short names: init looks them up in its own directory (/bin). The whole
# command line must fit the kernel's 1,023 bytes (kernel/init/bootparam.h; a
# longer one is reported and cut), with the other parameters beside run=.
sb=schedbench
icount0="-icount shift=0,sleep=off"
icount2="-icount shift=2,sleep=off"
runs0="$sb:boot,$sb:mem:512,$sb:picknext"
runs2="$sb:latency:$SB_LAT,$sb:periodic:$SB_PERIODIC,$sb:fair:$SB_FAIR,$sb:ingo:$SB_INGO"
runs_pipe2=$sb:pipe2
for _ in $(seq 2 "$SB_PIPE2_RUNS"); do runs_pipe2="$runs_pipe2,$sb:pipe2"; done
runs_pf=procfork:$SB_PROCFORK_S:2
for _ in $(seq 2 "$SB_PROCFORK_RUNS"); do runs_pf="$runs_pf,procfork:$SB_PROCFORK_S:2"; done
for r in "$runs0" "$runs2" "$runs_pipe2" "$runs_pf"; do
	if [ $(( ${#r} + 4 )) -ge 900 ]; then
		echo "bench: run=$r is too long for the kernel's command line (1,023 bytes in all): fewer SB_PIPE2_RUNS" >&2
		exit 1
	fi
done

for r in $(seq 1 "$SB_REPS"); do
	step "schedbench boot, mem, picknext on this kernel (-icount shift=0, 1 CPU), run $r of $SB_REPS"
	ours_sb "ours-icount0-$r" "this kernel" 600 "$icount0" 1 "$runs0"
done
for r in $(seq 1 "$SB_REPS"); do
	step "schedbench boot, mem, picknext on Linux $linux_version (-icount shift=0, 1 CPU), run $r of $SB_REPS"
	linux_sb "linux-icount0-$r" "Linux" 600 "$icount0" 1 "$runs0"
done
step "schedbench latency, periodic, fair, ingo on this kernel (-icount shift=2, 1 CPU)"
ours_sb ours-icount2 "this kernel" 900 "$icount2" 1 "$runs2"
step "schedbench latency, periodic, fair, ingo on Linux $linux_version (-icount shift=2, 1 CPU)"
linux_sb linux-icount2 "Linux" 900 "$icount2" 1 "$runs2"
step "schedbench pipe2 on this kernel (real time, no icount, 2 CPUs), $SB_PIPE2_RUNS runs"
ours_sb ours-pipe2 "this kernel" 300 "" 2 "$runs_pipe2"
step "schedbench pipe2 on Linux $linux_version (real time, no icount, 2 CPUs), $SB_PIPE2_RUNS runs"
linux_sb linux-pipe2 "Linux" 300 "" 2 "$runs_pipe2"
# A monitor must not stall the others (issue 46): forks beside /proc readers.
pf_limit=$(( SB_PROCFORK_RUNS * (SB_PROCFORK_S + 10) + 120 ))
step "procfork on this kernel (real time, 2 CPUs), $SB_PROCFORK_RUNS runs of $SB_PROCFORK_S s"
ours_sb ours-procfork "this kernel" "$pf_limit" "" 2 "$runs_pf" 128M procfork
step "procfork on Linux $linux_version (real time, 2 CPUs), $SB_PROCFORK_RUNS runs of $SB_PROCFORK_S s"
linux_sb linux-procfork "Linux" "$pf_limit" "" 2 "$runs_pf" 128M procfork

step "the staircase's prediction: the simulator on fair's and ingo's workloads (make sim)"
make --no-print-directory sim >"$out/build-sim.log" 2>&1 ||
	{ echo "bench: WARNING: make sim failed, no prediction" >&2; tail -n 5 "$out/build-sim.log" >&2; }
if [ -x build/sim/staircase-sim ]; then
	build/sim/staircase-sim --duration "${SB_FAIR}ms" tools/bench/fair.wl >"$out/sim-fair.txt" 2>&1 || true
	build/sim/staircase-sim --duration "${SB_INGO}ms" tools/sim/examples/ingo.wl >"$out/sim-ingo.txt" 2>&1 || true
fi

step "image sizes (build/kernel.elf sections, $vmlinuz)"
python3 tools/bench/elfsize.py build/kernel.elf >"$out/sizes.txt"
echo "linux_bzimage $(wc -c <"$vmlinuz") bytes" >>"$out/sizes.txt"

# Wall clock under KVM: only when asked for (make bench KVM=1) and only
# with hardware KVM; /dev/kvm from kvm_pvm cannot run a 32-bit guest
# with 32-bit paging (docs/hardware-notes.md §7), so say so and go on.
rm -f "$out/kvm.txt" "$out"/kvm-*.txt
if [ "${BENCH_KVM:-0}" = 1 ]; then
	why=
	if [ ! -d /sys/module/kvm_intel ] && [ ! -d /sys/module/kvm_amd ]; then
		if [ -d /sys/module/kvm_pvm ]; then
			why="/dev/kvm here is kvm_pvm, not kvm_intel or kvm_amd: it cannot run this 32-bit kernel, docs/hardware-notes.md §7"
		else
			why="no hardware KVM: no kvm_intel or kvm_amd module loaded"
		fi
	elif [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		why="/dev/kvm is not accessible"
	fi
	if [ -n "$why" ]; then
		step "KVM=1: no wall-clock columns: $why; going on without them"
		echo "kvm n/a ($why)" >"$out/kvm.txt"
	else
		step "KVM=1: pathlen on this kernel under -accel kvm (TSC ticks, wall clock)"
		wait_qemu
		timeout 300 "$QEMU" -display none -monitor none -serial stdio -no-reboot \
			-device isa-debug-exit,iobase=0xf4,iosize=0x04 -accel kvm -cpu host -smp 1 -m 128M \
			-kernel build/kernel.elf -initrd build/initrd.tar \
			-append "tests=none run=/bin/pathlen then=exit" \
			</dev/null >"$out/kvm-ours.serial.log" 2>&1 || true
		(cut_pathlen "$out/kvm-ours.serial.log" "$out/kvm-ours.txt") || true
		step "KVM=1: pathlen on Linux $linux_version under -accel kvm"
		wait_qemu
		timeout 300 "$QEMU" -display none -monitor none -serial stdio -no-reboot \
			-accel kvm -cpu host -smp 1 -m 256M \
			-kernel "$vmlinuz" -initrd "$out/linux.cpio" \
			-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=/bin/pathlen then=exit" \
			</dev/null >"$out/kvm-linux.serial.log" 2>&1 || true
		(cut_pathlen "$out/kvm-linux.serial.log" "$out/kvm-linux.txt") || true
		echo "kvm ok" >"$out/kvm.txt"
	fi
else
	echo "kvm n/a (not asked for: make bench KVM=1)" >"$out/kvm.txt"
fi
