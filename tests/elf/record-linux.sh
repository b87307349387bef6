#!/usr/bin/env bash
# record-linux.sh - run /bin/elfrun on Debian's Linux 6.1 (i386, in QEMU,
# as tests/linux-diff.sh boots it) over the ELF loader's test programs and
# record each program's outcome in tests/elf/SET.linux, which
# tests/elf/mkelf.py puts into the index as EXPECT.
#
#   tests/elf/record-linux.sh [SET...]    default: cases fuzz-1 ... fuzz-6
#
# SET is cases (/elf/cases, build/elf-cases.tar) or fuzz-SEED
# (build/elf-fuzz-SEED.tar); both are made here. The recorded file says
# which Linux ran. With cases, a second boot (the index now holding what
# was just recorded) writes user/glibc/elfrun.linux.ktap, the transcript
# tests/linux-diff.sh falls back on where no Linux can boot.
set -euo pipefail
cd "$(dirname "$0")/../.."
sets=${*:-cases fuzz-1 fuzz-2 fuzz-3 fuzz-4 fuzz-5 fuzz-6}
out=build/test-logs/elf-linux
vmlinuz=$(tools/get-linux.sh)
version=$(cat "$(dirname "$vmlinuz")/version" 2>/dev/null || echo "?")

# boot SETS...: Linux runs /bin/elfrun over each; the serial log is $out/serial.log.
boot() {
	rm -rf "$out" && mkdir -p "$out/initramfs/bin"
	cp -a build/user/bin/. "$out/initramfs/bin/"	# keeps the glibc hard links
	rm -f build/elf-cases.tar
	make --no-print-directory -s build/elf-cases.tar
	cp -a build/elf-cases/elf "$out/initramfs/"
	local run= s
	for s in "$@"; do
		case $s in
		fuzz-*)	rm -f "build/elf-$s.tar"
			make --no-print-directory -s "build/elf-$s.tar"
			cp -a "build/elf-$s/elf/$s" "$out/initramfs/elf/" ;;
		esac
		run="$run${run:+,}/bin/elfrun:/elf/$s"
	done
	(cd "$out/initramfs" && find . | cpio -o -H newc 2>/dev/null) >"$out/linux.cpio"
	timeout 1800 qemu-system-i386 -display none -monitor none -serial stdio -no-reboot \
		-accel tcg -smp 2 -m 256M -kernel "$vmlinuz" -initrd "$out/linux.cpio" \
		-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=$run then=exit" \
		</dev/null >"$out/serial.log" 2>&1 || true
}

boot $sets
# The lines of each run, in order: "init: running /bin/elfrun" opens one.
# A line is "[not ]ok N - NAME # OUTCOME ..." or "... # kernel-specific: OUTCOME ...".
tr -d '\r' <"$out/serial.log" | awk -v sets="$sets" -v dir=tests/elf -v ver="$version" '
	BEGIN { split(sets, s, " "); i = 0 }
	/^init: running \/bin\/elfrun/ {
		i++; f = dir "/" s[i] ".linux"
		print "# outcomes on Linux " ver " (Debian linux-image-686, QEMU), as uid 1000:" > f
		print "# tests/elf/record-linux.sh " s[i] > f
		next
	}
	i && /^(not )?ok [0-9]+ - / {
		sub(/^not /, "")
		if ($4 == "elf_outcomes_match_linux") next
		o = $6; if ($6 == "kernel-specific:") o = $7
		sub(/,$/, "", o)
		print $4, o > f
	}'
for s in $sets; do
	echo "$s: $(grep -vc '^#' "tests/elf/$s.linux") outcomes recorded in tests/elf/$s.linux"
done
case " $sets " in
*" cases "*)
	boot cases
	tr -d '\r' <"$out/serial.log" | grep -E '^(KTAP version|1\.\.|(not )?ok )' \
		>user/glibc/elfrun.linux.ktap
	echo "cases: $(grep -c '^ok' user/glibc/elfrun.linux.ktap) ok lines in user/glibc/elfrun.linux.ktap"
	! grep -q '^not ok' user/glibc/elfrun.linux.ktap ;;
esac
