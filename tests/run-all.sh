#!/usr/bin/env bash
# run-all.sh MODE [QEMU-TESTS-COMMAND] - run the test stages of `make test`
# (MODE full), `make test-all` (all: full plus the cases tagged "all" and
# every lab's boot), `make test-quick` (quick) or `make test-unit` (unit), print
# each stage's own results, and end with the combined line
# "N passed, N failed" (plus ", N skipped"). Exit non-zero if anything
# failed, or if a stage could not run at all.
#
# Stages: host unit tests of sched/ (tests/unit), of the kernel's pure C
# (tests/host) and of the host tools (tests/host-tools), that every cited
# document is in the repository (tests/host-tools/test_citations.py), that
# every rule of the rule books names tests that exist (test_rulemap.py), the simulator's
# examples (tools/sim/test.sh), the replay of kernel traces in the simulator
# (tests/host-tools/test_replay.py), the trace exports against Perfetto's and
# catapult's line rules (tests/host-tools/test_ftrace.py), the shell run on the
# host through a pty (tests/host-tools/test_sh.py), make bench's schedbench
# command line and report and make lineage's report
# (tests/host-tools/test_schedbench.py), tools/testcov.py's report and
# errors (tests/host-tools/test_testcov.py), that every
# exercise of the docs still applies as a mutant (tools/mutate/run.sh --check
# --exercises: the text it edits and the test it names exist), then (full only)
# the labs' self-test (tools/lab/selftest.py, docs/labs.md), the viewer in
# headless Chromium (tests/host-tools/test_browser.py), the
# QEMU cases (pytest over tests/cases: tests/cases/conftest.py, a JUnit XML
# report in build/test-logs/qemu-junit.xml) and the differential run of the
# conformance programs against Linux.
#
# First line: how our i386 programs run on this host (tools/run-i386 --setup:
# native, qemu-i386, or skip with the reason), installing qemu-user if it is
# needed and can be; the stages that run them on the host read it from
# RUN_I386_MODE. Last lines: each stage's wall-clock time, then the total.
mode=${1:-full}
qemu_tests=${2:-}
passed=0 failed=0 skipped=0 broken=0
log=build/test-logs
mkdir -p "$log"
times=()
start_all=$(date +%s)

i386=$(tools/run-i386 --setup)
export RUN_I386_MODE=$i386
echo "i386 programs on this host: $i386 (tools/run-i386; docs/testing.md)"

# What the browser, QEMU and linux-diff stages download (Chromium, and in
# one apt session Debian's Linux 6.1 image, busybox-static, libc6 and the
# packages of the Debian and field cases: tools/prefetch.sh) is fetched in
# the background while the CPU builds and tests; the browser stage waits
# for it (one apt at a time: they would fight over its lock).
prefetch=
case $mode in
full|all)
	tools/prefetch.sh >"$log/prefetch.out" 2>&1 &
	prefetch=$! ;;
esac
prefetched() { [ -n "$prefetch" ] && wait "$prefetch"; prefetch=; }

# stage NAME COMMAND...: run it, echo its output, add up its closing line.
stage() {
	name=$1; shift
	echo "=== $name"
	t0=$(date +%s)
	"$@" 2>&1 | tee "$log/stage-$name.out"
	rc=${PIPESTATUS[0]}
	times+=("$(printf '%-16s %4ds' "$name" $(($(date +%s) - t0)))")
	line=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$log/stage-$name.out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "--- $name: no result line (exit status $rc): counted as 1 failure"
		failed=$((failed + 1)); broken=1
		return
	fi
	p=$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')
	f=$(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')
	s=$(echo "$line" | grep -oE '[0-9]+ skipped' | grep -oE '[0-9]+')
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "--- $name: exit status $rc with no failed case: counted as 1 failure"
		failed=$((failed + 1))
	fi
}

[ -f tests/unit/Makefile ] && stage sched-unit make --no-print-directory -C tests/unit
[ -f tests/host/Makefile ] && stage kernel-unit make --no-print-directory -C tests/host
[ -f tests/host-tools/test_traceview.py ] && stage host-tools python3 tests/host-tools/test_traceview.py
[ -f tests/host-tools/test_uapi.py ] && stage uapi python3 tests/host-tools/test_uapi.py
[ -f tests/host-tools/test_citations.py ] && stage citations python3 tests/host-tools/test_citations.py
[ -f tests/host-tools/test_rulemap.py ] && stage rulemap python3 tests/host-tools/test_rulemap.py
[ -f tests/host-tools/test_layout.py ] && stage layout python3 tests/host-tools/test_layout.py
[ -f tools/sim/Makefile ] && stage sim make --no-print-directory -C tools/sim test
[ -f tests/host-tools/test_replay.py ] && stage replay python3 tests/host-tools/test_replay.py
[ -f tests/host-tools/test_ftrace.py ] && stage trace-export python3 tests/host-tools/test_ftrace.py
[ -f tests/host-tools/test_run_i386.py ] && stage run-i386 python3 tests/host-tools/test_run_i386.py
[ -f tests/host-tools/test_sh.py ] && stage shell-host python3 tests/host-tools/test_sh.py
[ -f tests/host-tools/test_schedbench.py ] && stage schedbench-host python3 tests/host-tools/test_schedbench.py
[ -f tests/host-tools/test_testcov.py ] && stage testcov python3 tests/host-tools/test_testcov.py
[ -f tools/mutate/exercises.txt ] && stage exercises tools/mutate/run.sh --check --exercises

# The QEMU cases: pytest, a QEMU per core (pytest-xdist), quiet (each case
# prints its own line), the JUnit XML for CI.
qemu() {
	[ -n "$qemu_tests" ] || return 0
	stage qemu $qemu_tests -q -n auto --junitxml="$log/qemu-junit.xml" "$@"
}

case $mode in
quick) qemu -m quick ;;
full|all)
	# make test-all boots every lab's student tree; make test only builds
	# them (their kernels differ from this one only in the sched/ lines cut
	# out, which grade's freestanding build of sched/ compiles)
	boot=none; [ "$mode" = all ] && boot=all
	[ -f tools/lab/selftest.py ] && stage labs python3 tools/lab/selftest.py --boot $boot
	prefetched
	[ -f tests/host-tools/test_browser.py ] && stage browser python3 tests/host-tools/test_browser.py
	# cases tagged "all" repeat what others check (docs/testing.md)
	if [ "$mode" = all ]; then
		qemu
	else
		qemu -m "not all"
	fi
	[ -x tests/linux-diff.sh ] && stage linux-diff tests/linux-diff.sh
	;;
esac

echo "=== time per stage (wall clock)"
printf '  %s\n' "${times[@]}"
printf '  %-16s %4ds\n' total $(($(date +%s) - start_all))
echo "==="
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$broken" -eq 0 ]
