#!/usr/bin/env bash
# run.sh - make ltp: build the LTP tests (tools/ltp/build.sh), run them on
# our kernel and on Linux 6.1 in the same QEMU (-smp 2 -m 512M, as root,
# the same binaries and runner), and write bench/results/ltp.md
# (tools/ltp/report.py).
#
#   LTP_SRC=DIR tools/ltp/run.sh [NAME...]    default: every test of the list
#
# The tests go in boots of at most LTP_CHUNK_MB (40) MiB of binaries each,
# the same boots on both kernels: ours gets build/initrd.tar and the
# chunk's tar as a second module, Linux a cpio of our init, our /etc
# (passwd, group: LTP looks up "nobody") and the chunk.
# init runs /ltp/ltprun on the chunk's list (tests=none run=... then=exit);
# the runner's lines come back over the serial port. KERNELS="ours linux"
# (the default) picks the sides; LTP_PARALLEL=1 boots both at once.
# Output: build/ltp/out/SIDE/N.serial.log (each boot), SIDE.results (a
# line per test: SUITE NAME RESULT DETAIL) and SIDE/NAME.log (its output).
# LTP_COLLECT=1: only cut the results out of the boots' logs again and
# write the report. A run of some tests only (NAME...) or one side
# writes no report, just its counts. The kernel and initrd are copied first, so a rebuild
# meanwhile does not change what the later boots run.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tools/ltp/config.sh
QEMU=${QEMU:-qemu-system-i386}
SMP=${SMP:-2,sockets=1,cores=2,threads=1}
KERNEL=${KERNEL:-build/kernel.elf}
INITRD=${INITRD:-build/initrd.tar}
KERNELS=${KERNELS:-ours linux}
CHUNK_MB=${LTP_CHUNK_MB:-40}
BOOT_S=${LTP_BOOT_S:-2400}
out=build/ltp/out
t_start=$(date +%s)

# One boot's files: the runner, its list, its tests and the helpers.
stage_boot() {	# N
	local d=$out/boots/$1 b
	mkdir -p "$d/ltp/bin" "$d/ltp/posix" "$d/bin"
	cp build/ltp/stage/ltprun "$d/ltp/"
	cp "$out/boots/$1.list" "$d/ltp/list"
	for b in getrusage03_child prctl06_execve; do
		cp build/ltp/stage/bin/$b "$d/ltp/bin/"
	done
	awk '{ for (i = 4; index($i, "="); i++) ; print $i }' "$d/ltp/list" | sed 's|^/ltp/||' |
		while read -r f; do cp "build/ltp/stage/$f" "$d/ltp/$f"; done
	tar --format=ustar --owner=0 --group=0 -cf "$out/boots/$1.tar" -C "$d" ltp
	# Linux's side: our init, and the users and groups our initrd has
	cp build/user/bin/init "$d/bin/"
	cp -r user/etc "$d/"
	(cd "$d" && find . | cpio -o -H newc 2>/dev/null) >"$out/boots/$1.cpio"
}

boot() {	# SIDE N
	local log=$out/$1/$2.serial.log run="run=/ltp/ltprun:/ltp/list then=exit"
	if [ "$1" = ours ]; then
		timeout "$BOOT_S" "$QEMU" -display none -monitor none -serial stdio \
			-no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
			-accel tcg -smp "$SMP" -m 512M -kernel "$KERNEL" \
			-initrd "$INITRD,$out/boots/$2.tar" -append "tests=none $run" \
			</dev/null >"$log" 2>"$out/$1/$2.qemu.stderr"
	else
		timeout "$BOOT_S" "$QEMU" -display none -monitor none -serial stdio \
			-no-reboot -accel tcg -smp "$SMP" -m 512M -kernel "$vmlinuz" \
			-initrd "$out/boots/$2.cpio" \
			-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none $run" \
			</dev/null >"$log" 2>"$out/$1/$2.qemu.stderr"
	fi
	echo "  BOOT    $1 $2/$nboots: $(grep -c '^ltp: result' "$log") results"
}

# A side's results and each test's output, cut from its boots' logs; a
# test that started but has no result line is LOST (the boot ended).
collect() {	# SIDE
	local side=$1
	cat "$out/$side"/*.serial.log | tr -d '\r' | awk -v dir="$out/$side" '
		/^ltp: start / { name = $4; file = dir "/" name ".log"; printf "" > file; started[name] = $3; next }
		/^ltp: result / { r[$4] = $5; d = ""; for (i = 6; i <= NF; i++) d = d " " $i
				  detail[$4] = d; if (file) close(file); file = ""; next }
		file { print >> file }
		END { for (n in started) print started[n], n, (n in r ? r[n] : "LOST"), (n in r ? detail[n] : "") }' |
		sort -k1,1 -k2,2 >"$out/$side.results"
	awk '{ print $1, $2 }' "$out/tests.list" | while read -r s n; do
		grep -q "^$s $n " "$out/$side.results" || echo "$s $n NOTRUN"
	done >>"$out/$side.results"
}

# The tests, and the boots they go in (by the size of their binaries).
prepare() {	# [NAME...]
rm -rf "$out" && mkdir -p "$out/boots"
cp "$KERNEL" "$out/kernel.elf" && cp "$INITRD" "$out/initrd.tar"
KERNEL=$out/kernel.elf INITRD=$out/initrd.tar
list=build/ltp/tests.list
if [ $# -gt 0 ]; then
	pat=$(printf ' %s |' "$@")
	grep -E "${pat%|}" "$list" >"$out/tests.list"
	touch "$out/partial"		# no report from a part
else
	cp "$list" "$out/tests.list"
fi
(cd build/ltp/stage && stat -c '%s /ltp/%n' bin/* posix/*) >"$out/sizes"
awk -v max=$((CHUNK_MB * 1024 * 1024)) -v dir="$out/boots" '
	FILENAME ~ /sizes$/ { size[$2] = $1; next }
	{ for (i = 4; index($i, "="); i++) ;
	  if (n == 0 || sum + size[$i] > max) { n++; sum = 0 }
	  sum += size[$i]; print > (dir "/" n ".list") }' "$out/sizes" "$out/tests.list"
}


main() {
if [ "${LTP_COLLECT:-0}" != 1 ]; then
tools/ltp/build.sh || exit 1
[ -f "$KERNEL" ] && [ -f "$INITRD" ] && [ -x build/user/bin/init ] ||
	{ echo "ltp: $KERNEL, $INITRD or build/user/bin/init missing: run make first"; exit 2; }
case " $KERNELS " in *" linux "*)
	vmlinuz=$(tools/get-linux.sh) || { echo "ltp: no Linux 6.1 kernel (tools/get-linux.sh)"; exit 1; } ;;
esac

prepare "$@"
nboots=$(ls "$out/boots"/*.list | wc -l)
for n in $(seq 1 "$nboots"); do stage_boot "$n"; done
for side in $KERNELS; do mkdir -p "$out/$side"; done
echo "  LTP     $(wc -l <"$out/tests.list") tests in $nboots boots per kernel: $KERNELS"
for n in $(seq 1 "$nboots"); do
	if [ "${LTP_PARALLEL:-0}" = 1 ]; then
		for side in $KERNELS; do boot "$side" "$n" & done
		wait
	else
		for side in $KERNELS; do boot "$side" "$n"; done
	fi
done
echo "$(( $(date +%s) - t_start ))" >"$out/seconds"
fi
for side in $KERNELS; do collect "$side"; done
if [ ! -f "$out/partial" ] && [ "$KERNELS" = "ours linux" ]; then
	python3 tools/ltp/report.py "$out" bench/results/ltp.md
else
	for side in $KERNELS; do awk '{ print $3 }' "$out/$side.results" | sort | uniq -c |
		sed "s/^/  $side /"; done
fi
}

main "$@"
