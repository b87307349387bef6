#!/usr/bin/env python3
"""The exports of tools/traceview.py against the line rules of Perfetto,
catapult (chrome://tracing) and Linux, as tests/host-tools/ftrace_rules.py
restates them (neither tool can be installed here).

    python3 tests/host-tools/test_ftrace.py

Checks every exported line of: small hand-written logs, a real kernel
trace (tests/host-tools/data/, recorded with `trace run spin 1 + nice -n 10
spin 1 + sleeper 1 9 1` streaming to COM2 under -icount), and a trace of
every simulator example (built with make -C tools/sim if it is not there).
First it breaks each rule once on purpose, to show the checker notices.
One line per test, then "N passed, N failed". Standard library only.
"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tools"))
sys.path.insert(0, HERE)
import ftrace_rules  # noqa: E402
import hostlib  # noqa: E402
import test_traceview  # noqa: E402
import traceview  # noqa: E402

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def export(text):
    blocks = traceview.parse(text.splitlines(), "log", lambda w: None)
    return ("\n".join(traceview.ftrace_lines(blocks[0])) + "\n",
            traceview.json_trace(blocks[0], "log"))


def must_pass(text):
    ftrace, obj = export(text)
    problems = ftrace_rules.check_ftrace(ftrace) + ftrace_rules.check_json(obj)
    assert problems == [], problems[:3]
    return ftrace


GOOD = ("          sleeper-6       (      6) [000] d....     0.000004: sched_switch: "
        "prev_comm=sleeper prev_pid=6 prev_prio=120 prev_state=S ==> next_comm=hog "
        "next_pid=5 next_prio=120")
HEADER = "# tracer: nop\n#\n"

# (what is broken, the text, a word the problem must contain)
BROKEN = [
    ("no '# tracer' first", "#\n" + GOOD + "\n", "P1"),
    ("six flag characters", HEADER + GOOD.replace("d....", "d....."), "P3"),
    ("no flags column", HEADER + GOOD.replace(" d....", ""), "C4"),
    ("a flag catapult does not know", HEADER + GOOD.replace("d....", "q...."), "C4"),
    ("two blanks before the cpu", HEADER + GOOD.replace(") [000]", ")  [000]"), "P3"),
    ("a space in a name", HEADER + GOOD.replace("next_comm=hog", "next_comm=my hog"), "L1"),
    ("an '=' in a name", HEADER + GOOD.replace("next_comm=hog", "next_comm=a=b"), "P4"),
    ("a negative prio", HEADER + GOOD.replace("next_prio=120", "next_prio=-1"), "C5"),
    ("an unknown prev_state", HEADER + GOOD.replace("prev_state=S", "prev_state=Q"), "P5"),
    ("fields out of Linux's order", HEADER + GOOD.replace(
        "prev_pid=6 prev_prio=120", "prev_prio=120 prev_pid=6"), "L1"),
    ("target_cpu without three digits", HEADER + GOOD.split(": sched_switch")[0] +
     ": sched_wakeup: comm=hog pid=5 prio=120 target_cpu=0\n", "L2"),
    ("a bad counter", HEADER + GOOD.split(": sched_switch")[0] +
     ": tracing_mark_write: C|x|prio|120\n", "P7"),
    ("the tgid column dropped half-way", HEADER + GOOD + "\n" +
     GOOD.replace(" (      6)", ""), "C3/C4"),
]


@test
def each_rule_broken_once_is_caught():
    for what, text, rule in BROKEN:
        problems = ftrace_rules.check_ftrace(text)
        assert any(rule in p for p in problems), f"{what}: want {rule}, got {problems}"
    assert ftrace_rules.check_ftrace(HEADER + GOOD + "\n") == []


@test
def json_without_the_clock_line_is_caught():
    obj = {"traceEvents": [], "systemTraceEvents": HEADER + GOOD + "\n"}
    assert any("C7" in p for p in ftrace_rules.check_json(obj))
    assert ftrace_rules.check_json({"traceEvents": {}}) != []


@test
def hand_written_new_log_exports_within_the_rules():
    must_pass(test_traceview.NEW)


@test
def hand_written_old_log_exports_within_the_rules():
    must_pass(test_traceview.LOG)


@test
def kernel_trace_exports_within_the_rules():
    path = os.path.join(HERE, "data", "kernel-spin-nice-sleeper.log")
    with open(path) as f:
        ftrace = must_pass(f.read())
    names = ftrace_rules.event_names(ftrace)
    want = {"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
            "sched_process_exit", "tracing_mark_write"}
    assert want <= names, names
    first = ftrace.split("\n", 1)[0]
    assert first == "# tracer: nop", first
    for line in ftrace.splitlines():
        if ": sched_switch: " in line:
            assert "comm=<...>" not in line, line


sim = hostlib.run_sim


@test
def every_simulator_example_exports_within_the_rules():
    examples = sorted(glob.glob(os.path.join(REPO, "tools", "sim", "examples", "*.wl")))
    assert examples
    for wl in examples:
        ftrace = must_pass(sim("--trace", "--duration", "300ms", wl))
        assert "sched_switch" in ftrace_rules.event_names(ftrace), wl


def main():
    return hostlib.run_tests(TESTS)


if __name__ == "__main__":
    sys.exit(main())
