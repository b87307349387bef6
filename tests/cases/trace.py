"""The scheduler trace (docs/trace.md): record a run, read it back.

    trace_rr_1x2x1   2 CPUs; `trace run /bin/sched_rr` records the two
                     SCHED_RR hogs of sched_rr on CPU 0 and dumps them on
                     the console (no COM2 here). The dump must parse with
                     tools/traceview.py (no malformed line, none lost),
                     show switches on both CPUs, and on CPU 0 the RR rule
                     itself (staircase.md §7.2): consecutive switches
                     between the hogs alternate, one quantum (10 ms) apart.
                     Its ftrace export must keep the line rules of Perfetto
                     and catapult (tests/host-tools/ftrace_rules.py), every
                     sched_switch naming both tasks.
    trace_crosscheck_1x1x1
                     1 CPU, COM2: `trace run spin 3 + nice -n 10 spin 3 +
                     sleeper 1 9 3` streams to COM2. The stream must parse
                     with nothing lost, its exports keep the rules, and
                     each program's share of the CPU must be within 10
                     points of the simulator's on the same workload
                     (tools/sim/examples/crosscheck.wl), whose trace must
                     export to the same event vocabulary.

Virtual time (-icount), as the suite cases: the 10 ms is the guest's own
clock, whatever the host's load. The cases leave the drawing and the
exports of their traces beside their logs: build/test-logs/NAME.html,
.ftrace, .json (and NAME.com2.log, the stream).
"""
import json
import os
import re
import subprocess
import sys

from harness import Case, REPO

sys.path.insert(0, os.path.join(REPO, "tools"))
sys.path.insert(0, os.path.join(REPO, "tests", "host-tools"))
import traceview  # noqa: E402
import ftrace_rules  # noqa: E402

ICOUNT = ["-icount", "shift=2,sleep=off"]
QUANTUM_MS = 10         # RR at hz=1000 (docs/staircase.md §4)


def rr_trace_check(name):
    def check(log):
        warnings = []
        blocks = traceview.parse(log.splitlines(), name, warnings.append)
        if len(blocks) != 1:
            return False, f"want one trace block, found {len(blocks)}"
        if warnings:
            return False, "; ".join(warnings[:3])
        b = blocks[0]
        if b.lost:
            return False, f"{b.lost} events lost (ring too small for this run?)"
        switches = [e for e in b.events if e["ev"] == "switch"]
        cpus = sorted({e["cpu"] for e in switches})
        if cpus != [0, 1]:
            return False, f"switch events on cpus {cpus}, want [0, 1]"

        rr = [e for e in switches if e["cpu"] == 0 and e["policy"] == "rr"]
        if len(rr) < 80:
            return False, f"{len(rr)} switches to RR tasks on cpu0 in 1 s, want >= 80"
        repeats = sum(x["pid"] == y["pid"] for x, y in zip(rr, rr[1:]))
        gaps = sorted(y["t"] - x["t"] for x, y in zip(rr, rr[1:]))
        median_ms = gaps[len(gaps) // 2] / 1e6
        msg = (f"{len(rr)} RR switches on cpu0, {repeats} not alternating, "
               f"median turn {median_ms:.2f} ms (want {QUANTUM_MS})")
        if repeats > 2:
            return False, msg
        if abs(median_ms - QUANTUM_MS) > 0.5:
            return False, msg
        problems = export_and_check(blocks, name)
        if problems:
            return False, "; ".join(problems[:3])
        return True, msg
    return check


LOGS = os.path.join(REPO, "build", "test-logs")


def export_and_check(blocks, name):
    """Write NAME.html, .ftrace, .json beside the log; the export's problems
    under the restated Perfetto/catapult/Linux rules, and switches that do
    not name both tasks."""
    with open(os.path.join(LOGS, name + ".html"), "w") as f:
        traceview.write_html(blocks, name, f)
    lines = traceview.ftrace_lines(blocks[0])
    text = "\n".join(lines) + "\n"
    with open(os.path.join(LOGS, name + ".ftrace"), "w") as f:
        f.write(text)
    obj = traceview.json_trace(blocks[0], name)
    with open(os.path.join(LOGS, name + ".json"), "w") as f:
        json.dump(obj, f)
    problems = ftrace_rules.check_ftrace(text) + ftrace_rules.check_json(obj)
    if lines[0] != "# tracer: nop":
        problems.append(f"first line {lines[0]!r}")
    switches = [ln for ln in lines if ": sched_switch: " in ln]
    unnamed = [ln for ln in switches if "comm=<...>" in ln or "comm= " in ln]
    if not switches or unnamed:
        problems.append(f"{len(switches)} sched_switch lines, {len(unnamed)} without both names"
                        + (f": {unnamed[0].strip()}" if unnamed else ""))
    return problems


# The cross-check: the same three programs in the simulator and in QEMU.
CROSS_WL = os.path.join(REPO, "tools", "sim", "examples", "crosscheck.wl")
CROSS_TASKS = ("hog", "nicehog", "sleeper")       # crosscheck.wl, in fork order
# make trace's stairs example (the Makefile's TRACE_EXAMPLE_stairs, read
# from there so that the first trace README shows is the one checked here)
with open(os.path.join(REPO, "Makefile")) as _f:
    CROSS_RUN = re.search(r"^TRACE_EXAMPLE_stairs := (\S+)$", _f.read(), re.M)[1]
CROSS_POINTS = 10


sys.path.insert(0, os.path.join(REPO, "tests", "host-tools"))
from hostlib import run_sim  # noqa: E402


def kernel_shares(block):
    """Each program's share of the CPU in the window where all three ran:
    from the last one's fork to the first one's exit."""
    ev = block.events
    tracer = next(e["cur"] for e in ev if e["ev"] == "fork")
    kids = [e["pid"] for e in ev if e["ev"] == "fork" and e["cur"] == tracer][:3]
    start = max(e["t"] for e in ev if e["ev"] == "fork" and e["pid"] in kids)
    ends = [e["t"] for e in ev if e["ev"] == "sleep" and e["arg"] == 4 and e["pid"] in kids]
    end = min(ends) if len(ends) == 3 else ev[-1]["t"]
    run, cur, since = {k: 0 for k in kids}, None, start
    for e in ev:
        t = min(max(e["t"], start), end)
        if e["ev"] == "switch" and e["cpu"] == 0:
            if cur in run:
                run[cur] += t - since
            cur, since = e["pid"], t
    if cur in run:
        run[cur] += end - since
    return [100.0 * run[k] / (end - start) for k in kids], (end - start) / 1e6


def stairs_shown(block):
    """The page make trace draws: some task visibly descends the stairs
    (stair drops in the export), and every row shares one stair axis."""
    d = traceview.page_data(traceview.analyse(block))
    drops = {}
    for m in d["marks"]:
        if traceview.EVENTS[m[2]] == "stair_drop":
            drops[m[3]] = drops.get(m[3], 0) + 1
    problems = []
    if max(drops.values(), default=0) < 5:
        problems.append(f"stair drops per task {drops}: no task walks down the stairs")
    lo, hi = d["axis"]
    prios = [p[1] for row in d["prio"] for p in row]
    if not prios or min(prios) < lo or max(prios) > hi or hi - lo < 10:
        problems.append(f"rows' shared axis {d['axis']} does not cover the stairs {min(prios, default=None)}.."
                        f"{max(prios, default=None)}")
    return problems


def replay_fields(block):
    """What a replay needs (docs/trace.md): every wakeup names its reason
    and its waker's generation, and the sleeper's wake-ups, its sleeps'
    ends, say timer."""
    ev = block.events
    tracer = next(e["cur"] for e in ev if e["ev"] == "fork")
    sleeper = [e["pid"] for e in ev if e["ev"] == "fork" and e["cur"] == tracer][2]
    wakes = [e for e in ev if e["ev"] == "wakeup"]
    problems = [f"line {e['line']}: wakeup without reason= or cur_gen="
                for e in wakes if "reason" not in e or "cur_gen" not in e][:1]
    reasons = {str(e.get("reason")) for e in wakes if e["pid"] == sleeper}
    if len([e for e in wakes if e["pid"] == sleeper]) < 100 or reasons != {"timer"}:
        problems.append(f"the sleeper's wake-ups say {sorted(reasons)}, want 100 or more, all timer")
    return problems


def com2_path(name):
    return os.path.join(LOGS, name + ".com2.log")


def com2_blocks(name):
    """The blocks the case's COM2 log holds, and the reader's warnings."""
    path = com2_path(name)
    warnings = []
    with open(path, errors="replace") as f:
        blocks = traceview.parse(f.read().splitlines(), path, warnings.append)
    return blocks, warnings


def crosscheck(name):
    def check(log):
        blocks, warnings = com2_blocks(name)
        if len(blocks) != 1 or not blocks[0].stream:
            return False, f"want one streamed block on COM2, found {len(blocks)}"
        if warnings or blocks[0].lost:
            return False, "; ".join(warnings[:3]) or f"{blocks[0].lost} events lost"
        if "trace: begin" in log:
            return False, "the trace was dumped on the console, not streamed"
        problems = export_and_check(blocks, name) + stairs_shown(blocks[0]) + replay_fields(blocks[0])
        if problems:
            return False, "; ".join(problems[:3])
        got, window = kernel_shares(blocks[0])
        report = run_sim(CROSS_WL)
        want = []
        for task in CROSS_TASKS:
            m = re.search(rf"^{task}\s+\d+\s+\S+\s+-?\d+\s+\S+\s+([0-9.]+)%", report, re.M)
            want.append(float(m[1]))
        msg = ", ".join(f"{t} {g:.1f}% (sim {w:.1f}%)" for t, g, w in zip(CROSS_TASKS, got, want))
        msg += f" over {window:.0f} ms"
        if any(abs(g - w) > CROSS_POINTS for g, w in zip(got, want)):
            return False, f"shares differ by more than {CROSS_POINTS} points: {msg}"
        sim_text = "\n".join(traceview.ftrace_lines(traceview.parse(
            run_sim("--trace", "--duration", "1s", CROSS_WL).splitlines(), "sim", print)[0]))
        sim_names = ftrace_rules.event_names(sim_text)
        kernel_names = ftrace_rules.event_names("\n".join(traceview.ftrace_lines(blocks[0])))
        if sim_names - kernel_names:
            return False, f"the simulator exports {sorted(sim_names - kernel_names)}, the kernel not"
        bad = ftrace_rules.check_ftrace(sim_text)
        if bad:
            return False, "simulator export: " + "; ".join(bad[:3])
        return True, msg + f"; vocabulary {len(kernel_names)} events, simulator's a subset"
    return check


def dump_lost_check(name):
    """A dump whose ring overflowed says how many records each CPU lost,
    right after its begin line, and the replay refuses it there, in one
    line naming that line (docs/trace.md, docs/simulator.md)."""
    def check(log):
        lines = log.splitlines()
        begin = next((i for i, l in enumerate(lines) if l.startswith("trace: begin ")), None)
        if begin is None:
            return False, "no trace: begin line"
        m = re.match(r"trace: begin (\d+) events, (\d+) lost, 1 cpus$", lines[begin])
        if not m or int(m[2]) == 0:
            return False, f"want a dump that lost events: {lines[begin]!r}"
        want = f"trace: lost cpu0 {m[2]} events"
        if lines[begin + 1] != want:
            return False, f"line after begin is {lines[begin + 1]!r}, want {want!r}"
        path = os.path.join(LOGS, name + ".dump.log")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([os.path.join(REPO, "build", "sim", "staircase-sim"), "--replay", path],
                           capture_output=True, text=True, timeout=60)
        err = r.stderr.strip().splitlines()
        where = f"{path}:{begin + 2}: byte {len(chr(10).join(lines[:begin + 1])) + 1}: cpu0 lost {m[2]} events"
        if r.returncode != 2 or len(err) != 1 or not err[0].startswith(where):
            return False, f"replay: exit {r.returncode}, {err[:2]}, want one line starting {where!r}"
        return True, f"{m[1]} events, {m[2]} lost, said per CPU; the replay refuses it at line {begin + 2}"
    return check


def memory_check(name):
    """trace run -m keeps the events in memory and sends them after the
    program: /bin/threads, whose live stream loses about 10,000 of its
    21,000 events, loses none (docs/trace.md, "Recording to memory"), and
    every fork says the child's allowed CPUs (cpus=, for a replay). Then
    the recording just made is replayed: its round trip must hold
    (docs/simulator.md), through the exec from a thread (pid_change)."""
    def check(log):
        blocks, warnings = com2_blocks(name)
        if len(blocks) != 1 or not blocks[0].stream:
            return False, f"want one streamed block on COM2, found {len(blocks)}"
        ev = blocks[0].events
        if warnings or blocks[0].lost:
            return False, "; ".join(warnings[:3]) or f"{blocks[0].lost} events lost, of {len(ev) + blocks[0].lost}"
        forks = [e for e in ev if e["ev"] == "fork"]
        if len(ev) < 15000 or not forks or any("cpus" not in e for e in forks):
            return False, f"{len(ev)} events (want 15,000 or more), {len(forks)} forks, some without cpus="
        changes = sum(e["ev"] == "pid_change" for e in ev)
        r = subprocess.run([os.path.join(REPO, "build", "sim", "staircase-sim"), "--replay", com2_path(name), "--check"],
                           capture_output=True, text=True, timeout=60)
        verdict = (r.stdout.strip().splitlines() or [""])[-1]
        if r.returncode != 0 or not changes:
            return False, f"replay --check: exit {r.returncode}, {verdict[:120] or r.stderr.strip()[:200]}; {changes} pid_change"
        m = re.search(r"(\d+) of (\d+) tasks", verdict)
        return True, (f"{len(ev)} events, none lost, {len(forks)} forks with cpus=, {changes} pid_change; "
                      f"replayed: the round trip holds, {m[1] if m else '?'} of {m[2] if m else '?'} tasks off")
    return check


CASES = [
    Case("trace_rr_1x2x1", smp="2,sockets=1,cores=2,threads=1",
         append="tests=none run=/bin/trace:run:/bin/sched_rr then=exit",
         expect=[r"^init exited: status 0\b", r"^trace: begin \d+ events",
                 r"^ok 1 - rr_hogs_alternate_each_quantum\b"],
         expect_order=[r"^trace: begin ", r"^trace: end$",
                       r"^trace run: /bin/sched_rr exited with status 0$"],
         forbid=[r"^not ok "], check=rr_trace_check("trace_rr_1x2x1"),
         qemu_args=ICOUNT, timeout=120, tags=("trace",)),
    Case("trace_crosscheck_1x1x1", smp="1,sockets=1,cores=1,threads=1",
         append=f"tests=none run=/bin/trace:run:{CROSS_RUN} then=exit",
         expect=[r"^init exited: status 0\b", r"^trace: COM2 found",
                 r"^trace run: \d+ events streamed to COM2$"],
         forbid=[r"^not ok "], check=crosscheck("trace_crosscheck_1x1x1"),
         qemu_args=ICOUNT + ["-serial", "file:build/test-logs/trace_crosscheck_1x1x1.com2.log"],
         timeout=120, tags=("trace",)),
    Case("trace_memory_1x1x1", smp="1,sockets=1,cores=1,threads=1",
         append="tests=none run=/bin/trace:run:-m:/bin/threads then=exit",
         expect=[r"^init exited: status 0\b",
                 r"^trace run: \d+ events recorded in memory, then sent to COM2$"],
         forbid=[r"^not ok ", r"^watchdog: "], check=memory_check("trace_memory_1x1x1"),
         qemu_args=ICOUNT + ["-serial", "file:build/test-logs/trace_memory_1x1x1.com2.log"],
         timeout=120, tags=("trace",)),
    # 30 s of QEMU for one line of the dump: make test-all only
    Case("trace_dump_lost_1x1x1", smp="1,sockets=1,cores=1,threads=1",
         append="tests=none run=/bin/trace:run:-c:/bin/sched_yield then=exit",
         expect=[r"^init exited: status 0\b", r"^trace: lost cpu0 \d+ events$"],
         forbid=[r"^not ok "], check=dump_lost_check("trace_dump_lost_1x1x1"),
         qemu_args=ICOUNT, timeout=150, tags=("trace", "all")),
]
