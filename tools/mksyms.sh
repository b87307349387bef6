#!/bin/sh
# mksyms.sh NM ELF - print build/ksyms.asm: the kernel's function symbols,
# sorted by address, for kernel/debug/ksyms.c. With no ELF, an empty table (the
# first link pass).
nm=$1
elf=$2
echo 'section .ksyms'
echo 'global ksyms_count, ksyms_table'
echo 'align 4'
if [ -z "$elf" ]; then
	echo 'ksyms_count: dd 0'
	echo 'ksyms_table:'
	exit 0
fi
"$nm" -n "$elf" | awk '
	$2 ~ /^[tT]$/ { addr[n] = $1; name[n] = $3; n++ }
	END {
		printf "ksyms_count: dd %d\n", n
		print "ksyms_table:"
		for (i = 0; i < n; i++) printf "\tdd 0x%s, ksym_name_%d\n", addr[i], i
		for (i = 0; i < n; i++) printf "ksym_name_%d: db \"%s\", 0\n", i, name[i]
	}'
