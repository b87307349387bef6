#!/usr/bin/env bash
# build.sh - build make ltp's tests from an LTP tree: LTP's syscalls tests
# of tools/ltp/config.sh's directories and the listed Open POSIX
# conformance interfaces, static i386 with the distribution's toolchain
# (i686-linux-gnu-gcc, glibc), and the in-guest runner (ltprun.c).
#
#   LTP_SRC=DIR tools/ltp/build.sh      default DIR: build/ltp-src
#
# LTP_SRC is a tree of the pinned release (LTP_TAG in config.sh), built
# in place (configure, lib/, the test directories); where it is missing
# and LTP_GIT names an LTP git directory, the tag is extracted from it
# (git archive), else cloned from GitHub. Idempotent: make skips what is
# built. Output, in build/ltp/:
#   stage/ltprun, stage/bin/*   runner and stripped syscalls tests (and
#                               the helpers they exec)
#   stage/posix/*               stripped Open POSIX tests
#   tests.list                  ltprun's list: SUITE NAME LIMIT [ENV] PROGRAM ARGS
# Exits 1 saying why when the tree or toolchain is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/ltp/config.sh
src=${LTP_SRC:-build/ltp-src}
out=build/ltp
cross=i686-linux-gnu-
log=$out/logs
mkdir -p "$out" "$log"
die() { echo "ltp build: $*" >&2; exit 1; }

command -v ${cross}gcc >/dev/null || die "no ${cross}gcc (apt-get install gcc-i686-linux-gnu libc6-dev-i386-cross)"
for t in autoconf automake m4 make pkg-config; do
	command -v $t >/dev/null || die "no $t (apt-get install autoconf automake m4 make pkg-config)"
done

# The tree: extracted or cloned at LTP_TAG when it is not there.
if [ ! -f "$src/configure.ac" ]; then
	mkdir -p "$src"
	if [ -n "${LTP_GIT:-}" ]; then
		git --git-dir="$LTP_GIT" archive "$LTP_TAG" | tar -x -C "$src"
	else
		rmdir "$src" 2>/dev/null || true
		git clone -q --depth 1 --branch "$LTP_TAG" \
			https://github.com/linux-test-project/ltp "$src" ||
			die "no LTP tree in $src: set LTP_SRC to an LTP $LTP_TAG tree (or LTP_GIT to a git directory)"
	fi
fi
ver=$(cat "$src/VERSION" 2>/dev/null || echo unknown)
[ "$ver" = "$LTP_TAG" ] || echo "ltp build: NOTE: $src is LTP $ver, pinned is $LTP_TAG" >&2
src=$(cd "$src" && pwd)
posix=$src/testcases/open_posix_testsuite

# LTP proper: configured for the cross toolchain, static.
if [ ! -f "$src/include/mk/config.mk" ]; then
	echo "  LTP     configure ($ver)"
	(cd "$src" && make autotools &&
	 ./configure --host=i686-linux-gnu CC=${cross}gcc CFLAGS="-O2 -g0" \
		LDFLAGS=-static) >"$log/configure.log" 2>&1 ||
		die "configure failed: $log/configure.log"
fi
echo "  LTP     lib"
nice -n 15 make -C "$src/lib" -j2 >"$log/lib.log" 2>&1 || die "lib failed: $log/lib.log"
for d in $LTP_SYSCALL_DIRS; do
	echo "  LTP     syscalls/$d"
	nice -n 15 make -C "$src/testcases/kernel/syscalls/$d" -j2 \
		>"$log/syscalls-$d.log" 2>&1 || die "syscalls/$d failed: $log/syscalls-$d.log"
done

# Open POSIX: its own configure and Makefiles; a test that does not
# compile is left out by its Makefile ("compile FAILED; SKIPPING").
if [ ! -f "$posix/include/mk/config.mk" ]; then
	echo "  POSIX   configure"
	(cd "$posix" && ./configure --host=i686-linux-gnu CC=${cross}gcc \
		CFLAGS="-O2 -g0" LDFLAGS=-static) >"$log/posix-configure.log" 2>&1 ||
		die "Open POSIX configure failed: $log/posix-configure.log"
fi
[ -f "$posix/conformance/interfaces/timer_settime/Makefile" ] ||
	(cd "$posix" && top_srcdir=. ./scripts/generate-makefiles.sh) >"$log/posix-gen.log" 2>&1
nice -n 15 make -C "$posix/lib" CC=${cross}gcc AR=${cross}ar RANLIB=${cross}ranlib \
	CFLAGS=-O2 all >"$log/posix-lib.log" 2>&1 || die "Open POSIX lib failed"
pdirs=$(ls "$posix/conformance/interfaces" | grep -E "$LTP_POSIX_DIRS")
for d in $pdirs; do
	echo "  POSIX   $d"
	nice -n 15 make -C "$posix/conformance/interfaces/$d" -j2 all \
		>"$log/posix-$d.log" 2>&1 || die "Open POSIX $d failed: $log/posix-$d.log"
done

# The runner.
rm -rf "$out/stage" && mkdir -p "$out/stage/bin" "$out/stage/posix"
${cross}gcc -static -O2 -Wall -Wextra -Werror -s -o "$out/stage/ltprun" tools/ltp/ltprun.c

# The syscalls tests: their runtest/syscalls lines (a commented-out line
# is left out), and every other program their directories build, which
# the tests exec (getrusage03_child, prctl06_execve).
list=$out/tests.list
: >"$list"
for d in $LTP_SYSCALL_DIRS; do
	dir=$src/testcases/kernel/syscalls/$d
	for c in "$dir"/*.c; do
		b=$(basename "$c" .c)
		[ -x "$dir/$b" ] || continue
		${cross}strip -o "$out/stage/bin/$b" "$dir/$b"
		awk -v b="$b" -v lim="$LTP_LIMIT_S" -v envs="$LTP_TEST_ENV" '$1 !~ /^#/ && $2 == b {
			env = ""; k = split(envs, e, " ")
			for (i = 1; i <= k; i++) if (index(e[i], $1 ":") == 1)
				env = env " " substr(e[i], length($1) + 2)
			printf "syscalls %s %s%s /ltp/bin/%s", $1, lim, env, $2
			for (i = 3; i <= NF; i++) printf " %s", $i
			printf "\n" }' "$src/runtest/syscalls" >>"$list"
	done
done
sort -o "$list" "$list"
for d in $pdirs; do
	for t in $(cd "$posix/conformance/interfaces/$d" && find . -name '*.run-test' | sort); do
		n=$(basename "$t" .run-test)
		${cross}strip -o "$out/stage/posix/$n" "$posix/conformance/interfaces/$d/$t"
		echo "posix $n $LTP_LIMIT_S /ltp/posix/$n" >>"$list"
	done
done
echo "$ver" >"$out/version"
echo "  LTP     $(grep -c '^syscalls' "$list") syscalls tests, $(grep -c '^posix' "$list") Open POSIX tests: $list"
