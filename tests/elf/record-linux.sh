#!/usr/bin/env bash
# record-linux.sh - run /bin/elfrun on Debian's Linux 6.1 (i386, in QEMU,
# as tests/linux-diff.sh boots it) over the ELF loader's test programs and
# record each program's outcome in tests/elf/SET.linux, which
# tests/elf/mkelf.py puts into the index as EXPECT.
#
#   tests/elf/record-linux.sh [SET...]    default: cases fuzz-1 ... fuzz-6
#
# SET is cases (/elf/cases, build/elf-cases.tar) or fuzz-SEED
# (build/elf-fuzz-SEED.tar); both are made here. The recorded file says which Linux ran.
set -euo pipefail
cd "$(dirname "$0")/../.."
sets=${*:-cases fuzz-1 fuzz-2 fuzz-3 fuzz-4 fuzz-5 fuzz-6}
out=build/test-logs/elf-linux
vmlinuz=$(tools/get-linux.sh)
rm -rf "$out" && mkdir -p "$out/initramfs/bin"
cp build/user/bin/* "$out/initramfs/bin/"
make --no-print-directory -s build/elf-cases.tar
cp -a build/elf-cases/elf "$out/initramfs/"
run=
for s in $sets; do
	case $s in
	fuzz-*)	make --no-print-directory -s "build/elf-$s.tar"
		cp -a "build/elf-$s/elf/$s" "$out/initramfs/elf/" ;;
	esac
	run="$run${run:+,}/bin/elfrun:/elf/$s"
done
(cd "$out/initramfs" && find . | cpio -o -H newc 2>/dev/null) >"$out/linux.cpio"
timeout 1800 qemu-system-i386 -display none -monitor none -serial stdio -no-reboot \
	-accel tcg -smp 2 -m 256M -kernel "$vmlinuz" -initrd "$out/linux.cpio" \
	-append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=$run then=exit" \
	</dev/null >"$out/serial.log" 2>&1 || true
version=$(cat "$(dirname "$vmlinuz")/version" 2>/dev/null || echo "?")
# The lines of each run, in order: "init: running /bin/elfrun" opens one.
tr -d '\r' <"$out/serial.log" | awk -v sets="$sets" -v dir=tests/elf -v ver="$version" '
	BEGIN { n = split(sets, s, " "); i = 0 }
	/^init: running \/bin\/elfrun/ {
		i++; f = dir "/" s[i] ".linux"
		print "# outcomes on Linux " ver " (Debian linux-image-686, QEMU), as uid 1000:" > f
		print "# tests/elf/record-linux.sh " s[i] > f
		next
	}
	i && /^ok [0-9]+ - / && $4 != "elf_outcomes_match_linux" {
		o = $6; if ($6 == "kernel-specific:") o = $7
		print $4, o > f
	}'
for s in $sets; do
	echo "$s: $(grep -vc '^#' "tests/elf/$s.linux") outcomes recorded in tests/elf/$s.linux"
done
