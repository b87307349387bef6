#!/usr/bin/env bash
# tools/bench/scale.sh - does the kernel scale with the CPUs? (issue 29,
# docs/bench.md "Scaling"; make bench SCALE=1 runs it after make bench, or
# run it alone after make build).
#
# k workers, worker i pinned to CPU i, each looping one operation for
# 1.5 s in real time (/bin/schedbench scalefork|scalepipe|scalegetpid K:
# fork + exit + wait, a 1-byte pipe ping-pong with a partner on the same
# CPU, getpid), k = 1, 2, 4, ... up to SCALE_CPUS (default 8) vCPUs of
# multi-threaded TCG: the total operations per second, on this kernel and
# on Linux 6.1 (tools/get-linux.sh) booted the same way. On this kernel the
# lock statistics are on (lockstat on), read after each operation's k =
# SCALE_CPUS run: contended acquisitions per 100 operations, by class.
#
# Host cores matter: each vCPU is a host thread. With fewer host cores
# than vCPUs + 1, the figures say how QEMU shares the host, not how the
# kernel scales; the report then prints "not comparable: vCPUs share host
# cores" instead of a scaling claim, and only the lock statistics
# (contentions per operation, which do not depend on host speed) guide.
#
# Writes bench/results/scale.md and build/bench/scale-*.serial.log.
set -u
cd "$(dirname "$0")/../.."
QEMU=${QEMU:-qemu-system-i386}
CPUS=${SCALE_CPUS:-8}
out=build/bench res=bench/results
mkdir -p "$out" "$res"
ops="fork pipe getpid"
ks=""; k=1
while [ "$k" -le "$CPUS" ]; do ks="$ks $k"; k=$((k * 2)); done
[ "${ks##* }" = "$CPUS" ] || ks="$ks $CPUS"

for f in build/kernel.elf build/initrd.tar build/user/bin/schedbench; do
	[ -f "$f" ] || { echo "scale: $f not found: run make build first" >&2; exit 2; }
done

# The run= list: each operation at each k; ours also reads the locks.
runlist() {	# ours|linux
	local l="" op k
	[ "$1" = ours ] && l="/bin/lockstat:on,"
	for op in $ops; do
		[ "$1" = ours ] && l="$l/bin/lockstat:reset,"
		for k in $ks; do l="$l/bin/schedbench:scale$op:$k,"; done
		[ "$1" = ours ] && l="$l/bin/lockstat:-n:4,"
	done
	echo "${l%,}"
}

boot() {	# NAME KERNEL INITRD APPEND-PREFIX
	echo "scale: $1 at -smp $CPUS (real time, multi-threaded TCG)" >&2
	timeout 900 "$QEMU" -display none -monitor none -serial stdio -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -accel tcg,thread=multi \
		-smp "$CPUS,sockets=1,cores=$CPUS,threads=1" -m 512M \
		-kernel "$2" -initrd "$3" \
		-append "$4 tests=none run=$(runlist "$1") then=exit" \
		</dev/null 2>&1 | tr -d '\r' >"$out/scale-$1.serial.log"
}

boot ours build/kernel.elf build/initrd.tar ""
linux=no
if vmlinuz=$(tools/get-linux.sh 2>/dev/null); then
	rm -rf "$out/scale-initramfs" && mkdir -p "$out/scale-initramfs/bin"
	cp -a build/user/bin/. "$out/scale-initramfs/bin/"	# keeps the glibc hard links
	(cd "$out/scale-initramfs" && find . | cpio -o -H newc 2>/dev/null) >"$out/scale-linux.cpio"
	boot linux "$vmlinuz" "$out/scale-linux.cpio" "console=ttyS0 quiet panic=-1 rdinit=/bin/init"
	linux=yes
fi

fig() {	# KERNEL OP K
	awk -v n="scale_$2_$3" '$1 == n && $3 == "ops" { print $2 }' "$out/scale-$1.serial.log"
}
host=$(nproc)
{
	echo "# Scaling (tools/bench/scale.sh, $(date -u +%Y-%m-%d))"
	echo
	echo "Operations per second, k workers pinned one per CPU, 1.5 s each,"
	echo "-smp $CPUS, multi-threaded TCG, $("$QEMU" --version | head -n 1)."
	echo "Host: $host cores."
	if [ "$host" -lt $((CPUS + 1)) ]; then
		echo
		echo "**not comparable: vCPUs share host cores** ($CPUS vCPUs on $host"
		echo "cores): the columns show how QEMU shares the host, not how the"
		echo "kernel scales. The lock statistics below are the guide."
	fi
	echo
	printf '| operation | kernel |'; for k in $ks; do printf ' k=%s |' "$k"; done
	printf ' %s vs 1 |\n|---|---|' "$CPUS"; for k in $ks; do printf -- '---:|'; done; echo '---:|'
	for op in $ops; do
		for kern in ours linux; do
			[ $kern = linux ] && [ $linux = no ] && continue
			printf '| %s | %s |' "$op" "$([ $kern = ours ] && echo this || echo 'Linux 6.1')"
			for k in $ks; do printf ' %s |' "$(fig $kern $op "$k")"; done
			a=$(fig $kern $op 1) b=$(fig $kern $op "$CPUS")
			if [ -n "$a" ] && [ -n "$b" ] && [ "$a" -gt 0 ]; then
				printf ' %s |\n' "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1fx", b / a }')"
			else
				echo ' |'
			fi
		done
	done
	echo
	echo "Lock statistics on this kernel, k = $CPUS (the 4 most contended classes"
	echo "after each operation's runs; contentions per 100 operations of all its"
	echo "k runs):"
	echo
	echo '| operation | class | contentions | acquisitions | per 100 ops |'
	echo '|---|---|---:|---:|---:|'
	i=0
	for op in $ops; do
		i=$((i + 1))
		total=0
		for k in $ks; do total=$((total + $(fig ours $op "$k" || echo 0) * 3 / 2)); done
		# the i-th lockstat table of the log is this operation's
		awk -v want="$i" -v op="$op" -v total="$total" '
			/^lock_stat version/ { block++ }
			/^init: / { if (block == want) done = 1 }
			block == want && !done && /^ +[^ ].*: +[0-9]/ {
				name = $0; sub(/: +[0-9].*$/, "", name); sub(/^ +/, "", name)
				rest = $0; sub(/^.*: +/, "", rest); split(rest, v, " +")
				printf "| %s | %s | %s | %s | %.2f |\n", op, name, v[2], v[8], total ? v[2] * 100 / total : 0
			}' "$out/scale-ours.serial.log"
	done
} >"$res/scale.md"
cat "$res/scale.md"
