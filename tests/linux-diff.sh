#!/usr/bin/env bash
# linux-diff.sh - run the conformance programs on Linux and on our kernel and
# diff the two KTAP transcripts (issue 7; docs/testing.md).
#
#   tests/linux-diff.sh [PROGRAM...]     default: posix_sched abicheck faults
#                                        signals memmap, the glibc programs
#                                        built from user/glibc/ and every
#                                        other build/user/bin/posix_*
#
# The programs are static i386 Linux binaries. The Linux side is, in this
# order: Debian's i386 Linux 6.1 (linux-image-686, fetched by
# tools/get-linux.sh) booted in the same QEMU with our init and programs in
# an initramfs, all programs in one boot (LINUX_SIDE=qemu); else the host,
# when it runs i386 programs natively (tools/run-i386; under qemu-i386 the
# answers would be QEMU's user-mode emulation's, not Linux's) and we are
# root (posix_sched checks unprivileged rules after setuid(1000));
# else the transcript recorded on Linux 6.1, user/tests/expected/NAME.linux.ktap
# (user/glibc/NAME.linux.ktap for a glibc program),
# with a note saying so; a program with none of them is skipped.
# LINUX_SIDE=host or LINUX_SIDE=recorded forces one. The host may not be a
# plain Linux: this sandbox's host kernel has no iopl() (ENOSYS), which
# Linux 6.1 has (EPERM for an ordinary user). Our side boots QEMU with
# "tests=none run=/bin/NAME then=exit" and cuts the program's lines out of
# the serial log.
#
# Compared: the KTAP lines ("KTAP version", "1..N", "ok/not ok N - name #
# ...") and the exit status. Dropped before the diff: lines that say
# "kernel-specific" (rules only our kernel has, e.g. BATCH/ISO; Linux prints
# "# SKIP kernel-specific" there) and comment lines ("# ..."); lines that
# say "run-dependent" are compared without their "# ..." numbers.
#
# Output: one line per program, "ok N - NAME # ..." or "not ok N - NAME #
# ..." followed by the diff (-linux +ours), then "N passed, N failed" (plus
# ", N skipped"). Identical output with a "not ok" in it fails too: a check
# that fails alike on both kernels is a wrong check. Exit status 1 if
# anything failed.
# FIFO/RR: posix_sched only sets and reads back real-time priorities in
# short-lived children; nothing spins at real-time priority on the host.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-build/user/bin}
KERNEL=${KERNEL:-build/kernel.elf}
INITRD=${INITRD:-build/initrd.tar}
QEMU=${QEMU:-qemu-system-i386}
SMP=${SMP:-2,sockets=1,cores=2,threads=1}
TIMEOUT=${TIMEOUT:-120}
out=build/test-logs/linux-diff
mkdir -p "$out"

if [ $# -gt 0 ]; then
	progs="$*"
else
	progs="posix_sched abicheck faults signals memmap"
	# the glibc programs (user/glibc/), where make built them
	for n in $(ls user/glibc/*.c user/glibc-dyn/dynamic.c 2>/dev/null | sed 's|.*/||; s|\.c$||'); do
		[ -x "$BIN/$n" ] && progs="$progs $n"
	done
	for f in "$BIN"/posix_*; do
		[ -x "$f" ] || continue
		n=$(basename "$f")
		case " $progs " in *" $n "*) ;; *) progs="$progs $n" ;; esac
	done
	progs="$progs busybox"
fi
for f in "$KERNEL" "$INITRD"; do
	[ -f "$f" ] || { echo "linux-diff: $f not found: run make first"; exit 2; }
done

# "elfrun" execs the ELF loader's programs (tests/elf/mkelf.py), a module
# beside the initrd on both kernels.
case " $progs " in
*" elfrun "*)
	make --no-print-directory -s build/elf-cases.tar >"$out/elf-cases.err" 2>&1 ||
		{ echo "# NOTE: no build/elf-cases.tar (see $out/elf-cases.err): elfrun skipped"
		  progs=$(echo " $progs " | sed 's/ elfrun / /'); } ;;
esac

# "busybox": Debian's busybox-static (i386, unchanged; make's BUSYBOX=1
# fetches it) running tests/busybox/everyday.sh, every line compared. Both
# kernels get it beside the other programs: ours in a copy of the initrd.
BUSYBOX_BIN=${BUSYBOX_BIN:-build/busybox/busybox}
BB_SCRIPT=tests/busybox/everyday.sh
busybox_ready() {
	[ -f "$BUSYBOX_BIN" ] ||
		make --no-print-directory -s BUSYBOX=1 "$BUSYBOX_BIN" >"$out/busybox.err" 2>&1
}
run_of() {	# PROGRAM: init's run= entry for it
	if [ "$1" = busybox ]; then echo "/bin/busybox:sh:/bin/$(basename $BB_SCRIPT)"
	else echo "/bin/$1"; fi
}
bin_of() {	# PROGRAM: the name init reports it under
	[ "$1" = busybox ] && echo busybox || echo "$1"
}
have_bb=0
case " $progs " in
*" busybox "*)
	if busybox_ready; then
		have_bb=1
		mkdir -p "$out/bb/bin"
		cp "$BUSYBOX_BIN" "$BB_SCRIPT" "$out/bb/bin/"
		cp "$INITRD" "$out/initrd-busybox.tar"
		tar --format=ustar --owner=0 --group=0 -rf "$out/initrd-busybox.tar" -C "$out/bb" bin
	else
		echo "# NOTE: no busybox ($(tail -n 1 "$out/busybox.err")): busybox skipped"
		progs=$(echo " $progs " | sed 's/ busybox / /')
	fi ;;
esac

# "dynamic" (user/glibc-dyn/) needs Debian's libc6:i386 (ld.so, libc.so.6)
# on both kernels: its lib/ and usr/ go into a copy of our initrd and into
# Linux's initramfs.
have_libc6=0
case " $progs " in
*" dynamic "*)
	if deb=$(tools/get-deb.sh libc6 2>"$out/libc6.err"); then
		have_libc6=1
		rm -rf "$out/libc6" && mkdir -p "$out/libc6"
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$out/libc6" --exclude=./usr/share ./lib ./usr 2>/dev/null
		# an executable that is not ELF, as interp_notelf's interpreter
		# (longer than an ELF header: a shorter one is EIO on Linux)
		printf 'not an ELF file, %s\n' $(seq 1 20) >"$out/libc6/usr/lib/notelf"
		chmod 755 "$out/libc6/usr/lib/notelf"
		cp "$INITRD" "$out/initrd-dynamic.tar"
		tar --format=ustar --owner=0 --group=0 -rf "$out/initrd-dynamic.tar" -C "$out/libc6" lib usr
	else
		echo "# NOTE: no libc6:i386 ($(tail -n 1 "$out/libc6.err")): dynamic skipped"
		progs=$(echo " $progs " | sed 's/ dynamic / /')
	fi ;;
esac

# A program's recorded Linux transcript: the project's programs keep theirs
# in user/tests/expected/, the glibc ones beside their source.
recorded() {	# PROGRAM
	local f
	for f in "user/tests/expected/$1.linux.ktap" "user/glibc/$1.linux.ktap" \
		 "user/glibc-dyn/$1.linux.ktap" \
		 "tests/busybox/everyday.linux.out"; do
		[ "$1" = busybox ] || [ "${f#tests/busybox}" = "$f" ] || continue
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# The program's lines and its exit status, from a serial log (our init
# prints "init: running /bin/P" before and "init: /bin/P exited ..." after).
cut_program() {	# LOG PROGRAM OUT
	tr -d '\r' <"$1" |
		sed -n "\#^init: running /bin/$2\$#,\#^init: /bin/$2 \(exited\|killed\)#p" >"$3"
	local st
	st=$(sed -n "s|^init: /bin/$2 exited with status \([0-9]*\).*|\1|p" "$3")
	[ -n "$st" ] && echo "exit status $st" >>"$3"
	return 0
}

# Linux 6.1 in QEMU: one boot runs every program through our init.
linux_qemu=0
side=${LINUX_SIDE:-qemu}
if [ "$side" = qemu ] && vmlinuz=$(tools/get-linux.sh 2>"$out/get-linux.err") &&
   command -v cpio >/dev/null; then
	rm -rf "$out/initramfs" && mkdir -p "$out/initramfs/bin"
	cp "$BIN"/* "$out/initramfs/bin/"
	# the ELF loader's programs (tests/elf/mkelf.py), for elfrun
	[ -d build/elf-cases/elf ] && cp -a build/elf-cases/elf "$out/initramfs/"
	[ $have_bb = 1 ] && cp "$out"/bb/bin/* "$out/initramfs/bin/"
	[ $have_libc6 = 1 ] && cp -a "$out"/libc6/lib "$out"/libc6/usr "$out/initramfs/"
	(cd "$out/initramfs" && find . | cpio -o -H newc 2>/dev/null) >"$out/linux.cpio"
	run=$(for p in $progs; do run_of "$p"; done | paste -sd, -)
	echo "# Linux side: Linux $(cat "$(dirname "$vmlinuz")/version" 2>/dev/null)" \
	     "(Debian linux-image-686) in QEMU, $SMP"
	(timeout 300 "$QEMU" -display none -monitor none -serial stdio -no-reboot \
		-accel tcg -smp "$SMP" -m 256M -kernel "$vmlinuz" -initrd "$out/linux.cpio" \
		-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=$run then=exit" \
		</dev/null >"$out/linux.serial.log" 2>"$out/linux.qemu.stderr") &
	linux_pid=$!
	linux_qemu=1
elif [ "$side" = qemu ]; then
	echo "# NOTE: no Linux 6.1 kernel to boot ($(tail -n 1 "$out/get-linux.err" 2>/dev/null)):" \
	     "trying the host"
fi

# Can the host run i386 programs (and as root)?
host=1
[ "$side" = recorded ] && host=0
if [ $linux_qemu = 1 ] || [ $host = 0 ]; then
	host=0
elif i386=${RUN_I386_MODE:-$(tools/run-i386 --mode)}; [ "${i386#skip}" != "$i386" ]; then
	host=0
	echo "# NOTE: this host cannot run i386 programs (${i386#skip: }):" \
	     "the Linux side is the recorded transcript" \
	     "(user/tests/expected/*.linux.ktap)"
elif [ "$i386" != native ]; then
	host=0
	echo "# NOTE: this host runs i386 programs only under $i386, whose answers" \
	     "are QEMU's, not Linux's (set_robust_list, isatty, RLIMIT_AS differ):" \
	     "the Linux side is the recorded transcript"
elif [ "$(id -u)" != 0 ]; then
	host=0
	echo "# NOTE: not root, so posix_sched's setuid cases would differ:" \
	     "the Linux side is the recorded transcript"
else
	echo "# Linux side: this host, $(uname -sr), programs run $i386"
fi

# The lines that are compared, from a transcript on stdin.
normalize() {
	tr -d '\r' |
	grep -E '^(KTAP version [0-9]+|1\.\.[0-9]+|(not )?ok [0-9]+ - |exit status )' |
	grep -v 'kernel-specific' |
	sed -E '/run-dependent/s/ # .*$/ # (numbers not compared)/'
}

# What is compared of a program: the KTAP lines and the exit status; of
# the busybox script, every line but init's own and Linux's kernel
# messages ("[    4.92] Kernel panic ...": when init exits after the last
# program, Linux's panic can overtake the serial port's queued output).
compared() {	# PROGRAM < transcript
	if [ "$1" = busybox ]; then
		tr -d '\r' | grep -v -E '^(init: |\[ *[0-9]+\.[0-9]+\] )'
	else
		normalize
	fi
}

# Boot our kernel once per program, in parallel: two QEMUs per host CPU
# at most (LINUX_DIFF_JOBS), beside Linux's. All 28 at once left a vCPU
# unscheduled for over a second on a 2-core CI host (docs/kernel.md,
# "Starting them"), which no boot should have to survive.
pids=
jobs_max=${LINUX_DIFF_JOBS:-$(( $(nproc 2>/dev/null || echo 2) * 2 ))}
for p in $progs; do
	while [ "$(jobs -rp | wc -l)" -gt "$jobs_max" ]; do
		wait -n 2>/dev/null || true
	done
	initrd=$INITRD
	[ "$p" = busybox ] && initrd=$out/initrd-busybox.tar
	[ "$p" = dynamic ] && initrd=$out/initrd-dynamic.tar
	[ "$p" = elfrun ] && initrd=$INITRD,build/elf-cases.tar
	(timeout "$TIMEOUT" "$QEMU" -display none -monitor none -serial stdio \
		-no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-accel tcg -smp "$SMP" -m 128M -kernel "$KERNEL" \
		-initrd "$initrd" -append "tests=none run=$(run_of "$p") then=exit" \
		</dev/null >"$out/$p.serial.log" 2>"$out/$p.qemu.stderr"
	 echo $? >"$out/$p.qemu.rc") &
	pids="$pids $!"
done

# Meanwhile, the Linux side.
[ $linux_qemu = 1 ] && wait "$linux_pid"
for p in $progs; do
	rm -f "$out/$p.linux.ktap"
	if [ $linux_qemu = 1 ]; then
		cut_program "$out/linux.serial.log" "$p" "$out/$p.linux.raw"
		if grep -q '^exit status' "$out/$p.linux.raw"; then
			compared "$p" <"$out/$p.linux.raw" >"$out/$p.linux.ktap"
			echo "Linux 6.1 in QEMU" >"$out/$p.linux.source"
		elif rec=$(recorded "$p"); then
			# Linux's boot ended before it (a slow host: TIMEOUT)
			{ cat "$rec"; echo "exit status 0"; } |
				compared "$p" >"$out/$p.linux.ktap"
			echo "recorded (Linux in QEMU did not reach it in ${TIMEOUT} s)" \
				>"$out/$p.linux.source"
		fi
	elif [ $host = 1 ] && { [ -x "$BIN/$p" ] || [ "$p" = busybox ]; }; then
		cmd="$BIN/$p"
		[ "$p" = busybox ] && cmd="$BUSYBOX_BIN sh $BB_SCRIPT"
		timeout 120 tools/run-i386 $cmd >"$out/$p.linux.raw" 2>&1
		echo "exit status $?" >>"$out/$p.linux.raw"
		compared "$p" <"$out/$p.linux.raw" >"$out/$p.linux.ktap"
		echo "host" >"$out/$p.linux.source"
	elif rec=$(recorded "$p"); then
		# recorded from programs that exited 0
		{ cat "$rec"; echo "exit status 0"; } |
			compared "$p" >"$out/$p.linux.ktap"
		echo "recorded" >"$out/$p.linux.source"
	fi
done
wait $pids

n=0 passed=0 failed=0 skipped=0
for p in $progs; do
	n=$((n + 1))
	log="$out/$p.serial.log"
	# our side: the program's own lines, and its exit status from init
	cut_program "$log" "$p" "$out/$p.ours.raw"
	st=$(sed -n 's/^exit status //p' "$out/$p.ours.raw")
	compared "$p" <"$out/$p.ours.raw" >"$out/$p.ours.ktap"

	if [ ! -f "$out/$p.linux.ktap" ]; then
		echo "ok $n - $p # SKIP no Linux transcript (host can't run it," \
		     "none recorded)"
		skipped=$((skipped + 1))
		continue
	fi
	src=$(cat "$out/$p.linux.source")
	if ! grep -q '^init: running' "$out/$p.ours.raw"; then
		echo "not ok $n - $p # our kernel never ran it (QEMU exit" \
		     "$(cat "$out/$p.qemu.rc"); see $log)"
		tail -n 15 "$log" | sed 's/^/    | /'
		failed=$((failed + 1))
		continue
	fi
	if [ -z "$st" ]; then
		echo "not ok $n - $p # did not exit normally on our kernel (see $log)"
		tail -n 15 "$log" | sed 's/^/    | /'
		failed=$((failed + 1))
		continue
	fi
	if [ "$p" != busybox ] && ! grep -q '^KTAP version' "$out/$p.ours.ktap"; then
		echo "not ok $n - $p # printed no KTAP on our kernel (exit status $st; see $log)"
		failed=$((failed + 1))
		continue
	fi
	lines=$(wc -l <"$out/$p.ours.ktap")
	# A check that fails the same way on both kernels is a wrong check
	# (or a rule neither keeps), not agreement.
	bad=$(grep -c '^not ok' "$out/$p.ours.ktap")
	if [ "$bad" -gt 0 ] && cmp -s "$out/$p.linux.ktap" "$out/$p.ours.ktap"; then
		echo "not ok $n - $p # $bad checks fail on both kernels alike (see $out/$p.ours.ktap)"
		grep '^not ok' "$out/$p.ours.ktap" | sed 's/^/    /'
		failed=$((failed + 1))
	elif diff -u --label "linux ($src)" --label "ours" "$out/$p.linux.ktap" \
		"$out/$p.ours.ktap" >"$out/$p.diff"; then
		echo "ok $n - $p # $lines lines identical (Linux: $src)"
		passed=$((passed + 1))
	else
		d=$(grep -c '^[-+][^-+]' "$out/$p.diff")
		echo "not ok $n - $p # $d lines differ (Linux: $src; -linux +ours)"
		sed 's/^/    /' "$out/$p.diff"
		failed=$((failed + 1))
	fi
done

if [ $skipped -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ $failed -eq 0 ]
