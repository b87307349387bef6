#!/usr/bin/env python3
"""Host tests of staircase-sim --replay (docs/simulator.md, "Replaying a
kernel trace") on traces recorded on the kernel (tests/host-tools/data/).

    python3 tests/host-tools/test_replay.py

The round trip must hold on each recorded trace; a what-if must be able to
break it; docs/tour.md's what-if section (§11) is typed here; and each kind of broken trace (truncated, one event dropped, two
switch-ins on one CPU, lost events, reordered, an older kernel's) must give
exactly one line naming the first bad record by line and byte offset, and
exit status 2. One line per test, then "N passed, N failed".
"""
import atexit
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostlib  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SIM = os.path.join(REPO, "build", "sim", "staircase-sim")
DATA = os.path.join(HERE, "data")
# make trace PROG=/bin/pipetest: a writer and a reader woken by it (pipe)
PIPE = os.path.join(DATA, "kernel-replay-pipetest.log")


def unpacked(name):
    """A gzipped trace of DATA, unpacked to a file removed at exit."""
    with gzip.open(os.path.join(DATA, name), "rt") as f, \
            tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as out:
        out.write(f.read())
    atexit.register(os.unlink, out.name)
    return out.name


# make trace PROG=/bin/sched_interactive SMP=2: a task that runs 1 ms and
# sleeps 9 ms beside two hogs, all pinned to cpu0 of two (gzip: 340 KB)
INTERACTIVE = unpacked("kernel-replay-interactive-2cpu.log.gz")
# make trace PROG=/bin/NAME, one CPU: 94 tasks, most running well under a
# tick, and init asleep from 0.92 s to the end (signals); a BATCH task
# that runs 0.2 ms in all (sched_batch); 50 tasks of about 0.3 ms each
# (forktree)
SIGNALS = unpacked("kernel-replay-signals.log.gz")
BATCH = unpacked("kernel-replay-sched_batch.log.gz")
FORKTREE = unpacked("kernel-replay-forktree.log.gz")
# make trace PROG=/bin/sched_rr SMP=2: two RR hogs that pin themselves to
# cpu0 (affinity events), one of them forked on cpu1 and run there first
RR2 = unpacked("kernel-replay-rr-2cpu.log.gz")
# make trace PROG=/bin/sched_interactive SMP=2 recorded to memory in real
# time on a busy host: cpu0 lost 394 ticks (lost_ticks events), the two
# hogs unevenly (229 and 155)
STALLS = unpacked("kernel-replay-interactive-2cpu-stalls.log.gz")
# make trace PROG=/bin/sched_yield (recorded to memory: nothing lost), cut
# after its first part: a NORMAL hog and a NORMAL task that yields (3 times)
YIELD = os.path.join(DATA, "kernel-replay-yield-normal.log")
# the same on one CPU (docs/tour.md §11 replays it; make replay unpacks it)
INTERACTIVE_1CPU = os.path.join(DATA, "kernel-replay-interactive-1cpu.log.gz")
# make trace PROG=/bin/threads, cut around its exec from a thread: pid 94
# execs, takes its leader's pid 93 (a pid_change event), runs on as 93
THREADS_PID = os.path.join(DATA, "kernel-replay-threads-pid-change.log")
# make trace PROG=/bin/sched_yield, cut around its second part's start: the
# parent (pid 3) wakes two FIFO yielders (7, then 6) in one pipe write
YIELD_FIFO = os.path.join(DATA, "kernel-replay-yield-fifo-wake.log")
BAD_LINE = re.compile(r"^(\S+):(\d+): byte (\d+): (.+)$")

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def sim(*args):
    if not os.access(SIM, os.X_OK):
        subprocess.run(["make", "--no-print-directory", "-C", os.path.join(REPO, "tools", "sim")],
                       check=True, capture_output=True)
    return subprocess.run([SIM, *args], capture_output=True, text=True, timeout=60)


def lines_of(path):
    with open(path) as f:
        return f.read().splitlines(keepends=True)


def replay_broken(lines, *extra):
    """Write lines to a file, replay it; (result, its path, its text)."""
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write("".join(lines))
    try:
        return sim("--replay", f.name, "--check", *extra), f.name, "".join(lines)
    finally:
        os.unlink(f.name)


def one_bad_line(result, path, text, want_line, want_words):
    """Exit 2, one line on stderr naming record want_line, at its byte."""
    err = result.stderr.strip().splitlines()
    assert result.returncode == 2, f"exit status {result.returncode}, stderr {err}"
    assert len(err) == 1, f"want one line, got {err}"
    m = BAD_LINE.match(err[0])
    assert m and m[1] == path, f"not FILE:LINE: byte N: what: {err[0]!r}"
    no, byte = int(m[2]), int(m[3])
    offset = len("".join(text.splitlines(keepends=True)[:no - 1]).encode())
    assert no == want_line, f"names line {no}, want {want_line}: {err[0]!r}"
    assert byte == offset, f"byte {byte} is not where line {no} starts ({offset})"
    assert want_words in m[4], f"want '{want_words}' in {m[4]!r}"


def events(lines, pred):
    """Indexes of event lines satisfying pred(line)."""
    return [i for i, l in enumerate(lines) if re.match(r"trace: \d+ cpu", l) and pred(l)]


def rows_of(stdout):
    """{pid: the report's row, split} (the last row of a pid used again)."""
    return {int(l.split()[1]): l.split() for l in stdout.splitlines()
            if re.match(r"\S+\s+\d+ [a-z>]+\s+\d+\.\d+ ", l)}


@test
def round_trip_holds_on_recorded_traces():
    for path in (PIPE, INTERACTIVE, SIGNALS, BATCH, FORKTREE, RR2, YIELD):
        r = sim("--replay", path, "--check")
        assert r.returncode == 0 and "the round trip holds" in r.stdout, \
            f"{os.path.basename(path)}: exit {r.returncode}\n{r.stdout}{r.stderr}"


@test
def pipe_reader_waits_for_its_writer():
    """The reader's 67 wake-ups are dependencies on the writer (reason
    pipe): replayed, it goes on as soon as the writer has written, not
    after a timed sleep of at least a tick each, so both end within 5 ms
    of when they ended on the kernel, having run their work within 2 ticks."""
    r = sim("--replay", PIPE, "--check")
    rows = [l.split() for l in r.stdout.splitlines() if re.match(r"pipetest\s+\d+ normal ", l)]
    assert len(rows) == 2, r.stdout
    for row in rows:
        rec, rep = float(row[3]), float(row[4])
        assert abs(rec - rep) <= 2.0, f"cpu ms {rec} recorded, {rep} replayed"
        end_rec, end_rep = float(row[8]), float(row[9])
        assert abs(end_rec - end_rep) <= 0.005, f"pid {row[1]} ends at {end_rep} s, recorded {end_rec} s"


@test
def a_run_shorter_than_a_tick_costs_its_length():
    """Time runs to the ns inside a tick: a task that runs 0.3 ms and exits
    lets the next one run in the same tick. forktree's 50 tasks of about
    0.3 ms each end within 1 ms of when they ended on the kernel (charged
    a tick each, the tree took 3 times longer), and every task's replayed
    CPU time is its recorded time to the µs."""
    r = sim("--replay", FORKTREE)
    rows = rows_of(r.stdout)
    kids = [row for pid, row in rows.items() if row[0] == "forktree"]
    assert len(kids) >= 50, len(kids)
    last_rec, last_rep = max(float(row[8]) for row in kids), max(float(row[9]) for row in kids)
    assert abs(last_rec - last_rep) <= 0.001, f"the tree ends at {last_rep} s, recorded {last_rec} s"
    for pid, row in rows.items():
        assert abs(float(row[3]) - float(row[4])) <= 0.001, f"pid {pid}: cpu ms {row[3]} recorded, {row[4]} replayed"


@test
def a_forked_task_starts_on_its_parents_stair():
    """A task whose fork is in the trace is forked in the replay as the
    kernel forks (sched_fork, docs/staircase.md §6.6): one stair below its
    parent's stair at that moment. forktree forks a tree of 50; in the
    replay each child's fork event is on its parent's (the recording's
    cur=) latest stair plus one; and the interactive trace's second hog,
    started a stair lower as on the kernel, ends with the first (3.0 s)."""
    parent = {}
    for line in lines_of(FORKTREE):
        m = re.match(r"trace: \d+ cpu\d+ fork pid (\d+) .* cur=(\d+) ", line)
        if m:
            parent[int(m[1])] = int(m[2])
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "rep.log")
        sim("--replay", FORKTREE, "--trace-out", out)
        prio, checked = {}, 0
        for line in lines_of(out):
            m = re.match(r"trace: \d+ cpu\d+ (\w+) pid (\d+) .* prio=(\d+) ", line)
            if not m:
                continue
            ev, pid, p = m[1], int(m[2]), int(m[3])
            if ev == "fork" and 100 <= prio.get(parent.get(pid), 0) < 139:
                assert p == prio[parent[pid]] + 1, f"pid {pid} forked on {p}, its parent on {prio[parent[pid]]}"
                checked += 1
            prio[pid] = p
    assert checked >= 50, f"{checked} forks checked"
    rows = rows_of(sim("--replay", unpacked("kernel-replay-interactive-1cpu.log.gz")).stdout)
    assert abs(float(rows[6][8]) - float(rows[6][9])) <= 0.020, rows[6]


@test
def a_task_asleep_at_the_end_sleeps_to_the_end():
    """signals' init (pid 1) is asleep from 0.92 s to the end of the trace
    (1.325 s): replayed, it sleeps to the end too, and ends with the
    trace, not when it went to sleep."""
    rows = rows_of(sim("--replay", SIGNALS).stdout)
    end_rec, end_rep = float(rows[1][8]), float(rows[1][9])
    assert abs(end_rec - end_rep) <= 0.005, f"init ends at {end_rep} s, recorded {end_rec} s"


@test
def an_affinity_event_pins_a_task_from_that_point():
    """sched_rr's second hog (pid 5) is forked on cpu1 and runs there once
    before it pins itself to cpu0: its fork says cpus=3 and an affinity
    event cpus 1 follows. Replayed, it pins itself at that point of its
    list and never runs on cpu1 after it, and the pair shares cpu0 (the
    round trip holds). The same trace without the events (a trace of an
    older kernel, still read) infers pinning from where pid 5 ran, both
    CPUs, and the round trip fails."""
    rec = lines_of(RR2)
    assert any(re.search(r" fork pid 5 .* cpus=3$", l) for l in rec), "no cpus= on pid 5's fork"
    assert any(" affinity pid 5 rr cpus 1 " in l or " affinity pid 5 normal cpus 1 " in l for l in rec)
    assert any(re.match(r"trace: \d+ cpu1 switch pid 5 ", l) for l in rec), "pid 5 never ran on cpu1"
    r = sim("--replay", RR2, "--check", "--trace")
    assert r.returncode == 0 and "the round trip holds" in r.stdout, r.stdout[-3000:]
    pinned = False
    for l in r.stdout.splitlines():
        pinned |= bool(re.match(r"trace: \d+ cpu\d affinity pid 5 \w+ cpus 1 ", l))
        assert not (pinned and re.match(r"trace: \d+ cpu1 switch pid 5 ", l)), l
    assert pinned, "the replay never pinned pid 5"
    old = [re.sub(r" cpus=\d+$", "", l.rstrip("\n")) + "\n" for l in rec if " affinity pid " not in l]
    r, _, text = replay_broken(old, "--check")
    assert r.returncode == 1 and "does NOT hold" in r.stdout, (r.returncode, text)


@test
def a_yield_is_replayed_as_a_yield():
    """The NORMAL task that yields (pid 5) runs 0.2 ms in 0.5 s beside a
    hog: each yield drops it to the bottom (docs/staircase.md §6.5). The
    replay yields where it did (3 yield events, as recorded) and it ends
    with the hog, at 0.501 s; replayed as work, it would end at 0.02 s."""
    r = sim("--replay", YIELD, "--check", "--trace")
    assert r.returncode == 0 and "the round trip holds" in r.stdout, r.stdout[-3000:]
    rec = sum(" yield pid 5 " in l for l in lines_of(YIELD))
    rep = sum(" yield pid 5 " in l for l in r.stdout.splitlines())
    assert rec == 3 and rep == rec, f"{rec} yields recorded, {rep} replayed"
    row = rows_of(r.stdout)[5]
    assert abs(float(row[9]) - 0.501) <= 0.005, row


@test
def a_thread_that_takes_its_leaders_pid_runs_on_as_that_pid():
    """pid_change: the thread's task goes on under the leader's pid (its
    row says 94>93) and does all its recorded work; without the event, as
    an older kernel recorded it, the switch-out as 93 is refused."""
    r = sim("--replay", THREADS_PID, "--check")
    assert r.returncode == 0, r.stdout + r.stderr
    row = [l.split() for l in r.stdout.splitlines() if l.split()[1:3] == ["94>93", "normal"]]
    assert len(row) == 1 and row[0][3] == row[0][4] == "0.727" and row[0][-1] == "ok", row
    assert rows_of(r.stdout)[93][3] == "0.095", "the leader keeps its own row"
    old = [l for l in lines_of(THREADS_PID) if " pid_change " not in l]
    at = events(old, lambda l: " switch " in l and " cur=93 " in l and "cur_state=X" in l)
    assert len(at) == 2
    one_bad_line(*replay_broken(old), at[1] + 1, "pid 93 is switched out, but pid 94 was switched in last")


@test
def a_wake_up_preempts_when_the_wakers_system_call_returns():
    """The kernel is not preemptible: the first FIFO task woken preempts
    the parent only when its write returns, after it has woken the second,
    so the two alternate from the start, recorded and replayed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "replay.log")
        r = sim("--replay", YIELD_FIFO, "--check", "--trace-out", out)
        assert r.returncode == 0, r.stdout + r.stderr
        for path in (YIELD_FIFO, out):
            ev = [l.split()[3:6] for l in lines_of(path) if re.match(r"trace: \d+ cpu", l)]
            go = ev.index(["wakeup", "pid", "7"])
            seq = [e[2] for e in ev[go:] if e[0] in ("wakeup", "switch")]
            assert seq[:2] == ["7", "6"], f"{path}: after the first wake-up {seq[:6]}"
            turns = [p for p in seq[2:] if p in ("6", "7")][:10]
            assert turns == ["7", "6"] * 5, f"{path}: the FIFO tasks' turns {turns}"


# A hog whose CPU stood still for 5 ticks (the kernel's lost_ticks, as a
# 2-CPU recording in real time has them when the host does not run a
# vCPU): its stint of 39 ms has 34 ticks of work, its slice goes 200 -> 166.
STALL_TRACE = """\
trace: begin stream, 1 cpus
trace: 1000000 cpu0 switch pid 3 normal prio 120 comm=hog prio=120 burst=0 slice=200 on=0 cur=0 cur_comm=idle cur_prio=141 cur_policy=idle cur_state=R
trace: 9000000 cpu0 lost_ticks pid 3 normal ticks 5 comm=hog prio=120 burst=0 slice=197 on=0 cur=3 cur_comm=hog cur_prio=120 cur_policy=normal
trace: 16000000 cpu0 stair_drop pid 3 normal prio 121 comm=hog prio=121 burst=0 slice=190 on=0 cur=3 cur_comm=hog cur_prio=120 cur_policy=normal
trace: 40000000 cpu0 sleep pid 3 normal state 4 comm=hog prio=121 burst=0 slice=166 on=0 cur=3 cur_comm=hog cur_prio=121 cur_policy=normal
trace: 40002000 cpu0 switch pid 0 idle prio 141 comm=idle prio=141 burst=0 slice=200 on=0 cur=3 cur_comm=hog cur_prio=121 cur_policy=normal cur_state=X
trace: end, 5 events, 0 lost
"""


@test
def lost_ticks_are_time_the_task_held_its_cpu_without_working():
    """The stall is taken out of the hog's work and replayed as time its
    CPU stands still (no tick): its first quantum ends 15 ms in, as
    recorded (10 ticks and the 5 lost), not 10, and it exits with the
    slice the kernel left it (166), having held the CPU 39 ms."""
    with tempfile.TemporaryDirectory() as tmp:
        log, out = os.path.join(tmp, "stall.log"), os.path.join(tmp, "replay.log")
        with open(log, "w") as f:
            f.write(STALL_TRACE)
        r = sim("--replay", log, "--check", "--trace-out", out)
        assert r.returncode == 0, r.stdout + r.stderr
        assert rows_of(r.stdout)[3][3:5] == ["39.002", "39.002"], rows_of(r.stdout)
        ev = [l.split() for l in lines_of(out) if re.match(r"trace: \d+ cpu", l)]
        drops = [int(e[1]) for e in ev if e[3] == "stair_drop"]
        assert drops[:2] == [15000000, 25000000], drops[:3]
        end = [e for e in ev if e[3] == "sleep" and e[5] == "3"]
        assert end and "slice=166" in end[-1], end
    r = sim("--replay", STALLS, "--check")
    assert r.returncode == 0, r.stdout
    r = replay_broken([l for l in lines_of(STALLS) if " lost_ticks " not in l])[0]
    assert r.returncode == 1, "without its lost_ticks the 2-CPU trace should fail: " + r.stdout


@test
def a_what_if_can_break_the_round_trip():
    """The interactive task (pid 4) made BATCH: it runs only when cpu0 is
    idle, so it ends after the hogs, not with them; the round trip no
    longer holds (exit 1), which shows --check can fail."""
    r = sim("--replay", INTERACTIVE, "--check", "--policy", "4=batch")
    assert r.returncode == 1 and "does NOT hold" in r.stdout, f"exit {r.returncode}\n{r.stdout}"
    row = next(l.split() for l in r.stdout.splitlines() if re.match(r"\S+\s+4\s", l))
    assert row[2] == "normal>batch" and row[-1] == "end", row
    same = sim("--replay", INTERACTIVE, "--policy", "4=batch")
    assert same.returncode == 0, "without --check a what-if is no failure"


@test
def what_if_options_and_their_errors():
    """--cpus replays on another machine (a task the 1-CPU recording ran
    on cpu0 is not pinned there); a bad --cpus, --nice or --policy is a
    bad command line (exit 1), a policy the scheduler lacks a bad replay (2)."""
    r = sim("--replay", INTERACTIVE, "--cpus", "1")
    assert r.returncode == 0 and "1 CPU (recorded on 2)" in r.stdout, r.stdout + r.stderr
    r = sim("--replay", PIPE, "--cpus", "2", "--nice", "3=+5", "--policy", "4=batch")
    assert r.returncode == 0 and "2 CPUs (recorded on 1)" in r.stdout, r.stdout + r.stderr
    assert re.search(r"^pipetest\s+4 normal>batch ", r.stdout, re.M), r.stdout
    r = sim("--replay", PIPE, "--cpus", "2", "--trace")
    on_cpu1 = {l.split()[5] for l in r.stdout.splitlines() if re.match(r"trace: \d+ cpu1 switch pid [1-9]", l)}
    assert on_cpu1, "on 2 CPUs no task of the 1-CPU recording ran on cpu1: pinned to cpu0?"
    for bad in (["--cpus", "0"], ["--nice", "3=x"], ["--policy", "3=bogus"], ["--duration", "1s"]):
        r = sim("--replay", PIPE, *bad)
        assert r.returncode == 1 and len(r.stderr.splitlines()) == 1, f"{bad}: {r.returncode} {r.stderr}"
    r = sim("--replay", PIPE, "--sched", "cfs", "--policy", "3=iso")
    assert r.returncode == 2 and "pid 3 would be iso, which cfs has not" in r.stderr, r.stderr


@test
def replayed_trace_reads_in_the_viewer_with_the_recorded_pids():
    """--trace prints the replay as the kernel's dump, with the recorded
    pids and names: traceview reads it without a warning, and its run
    times per pid are the report's replayed cpu ms."""
    sys.path.insert(0, os.path.join(REPO, "tools"))
    import traceview
    r = sim("--replay", INTERACTIVE, "--trace")
    warnings = []
    blocks = traceview.parse(r.stdout.splitlines(), "replay", warnings.append)
    assert r.returncode == 0 and len(blocks) == 1 and not warnings, (r.returncode, len(blocks), warnings[:2])
    ran, cur, since = {}, {}, {}
    for e in blocks[0].events:
        if e["ev"] == "switch":
            c = e["cpu"]
            if c in cur:
                ran[cur[c]] = ran.get(cur[c], 0) + e["t"] - since[c]
            cur[c], since[c] = e["pid"], e["t"]
    report = {int(l.split()[1]): float(l.split()[4]) for l in r.stdout.splitlines()
              if re.match(r"sched_interacti\s+\d+ normal ", l)}
    assert sorted(report) == [3, 4, 5, 6], report
    for pid, ms in report.items():
        assert abs(ran.get(pid, 0) / 1e6 - ms) <= 1.0, f"pid {pid}: trace {ran.get(pid, 0) / 1e6} ms, report {ms}"


def report_rows(stdout):
    """{pid: (cpu ms recorded, cpu ms replayed)} of a replay's report."""
    rows = {}
    for line in stdout.splitlines():
        w = line.split()
        if len(w) > 5 and w[1].isdigit() and re.match(r"-?\d+\.\d+$", w[3]):
            rows[int(w[1])] = (float(w[3]), float(w[4]))
    return rows


def compared(rec, *args):
    """Replay rec with args; (the report, the page's data, the JSON) of
    traceview --compare of the recording and the replay's --trace-out."""
    sys.path.insert(0, os.path.join(REPO, "tools"))
    import traceview
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "rep.log")
        r = sim("--replay", rec, *args, "--trace-out", out)
        assert r.returncode == 0 and not r.stdout.startswith("trace:"), r.stdout[:200] + r.stderr
        html, js = os.path.join(d, "both.html"), os.path.join(d, "both.json")
        v = subprocess.run([sys.executable, os.path.join(REPO, "tools", "traceview.py"), "--compare",
                            rec, out, "-o", html, "--json", js], capture_output=True, text=True)
        assert v.returncode == 0 and not v.stderr, v.stdout + v.stderr
        with open(html) as f:
            data = json.loads(re.search(r"^const DATA = (.*);$", f.read(), re.M)[1])
        with open(js) as f:
            perfetto = json.load(f)
    return r.stdout, data, perfetto


@test
def compare_page_draws_both_runs_in_one_view():
    """traceview --compare: one block, the recording's CPU lanes and task
    rows above the replay's, each labelled, on one time axis; each pid's
    running time in each group is the report's cpu ms (within a tick's
    rounding of the trace's µs: 0.05 ms)."""
    report, data, _ = compared(INTERACTIVE, "--set", "rr_interval=50")
    assert len(data) == 1, f"{len(data)} blocks: the runs are not in one view"
    d = data[0]
    assert [g["label"] for g in d["groups"]] == ["recorded", "replayed"], d["groups"]
    assert d["cpuLabels"] == ["recorded cpu0", "recorded cpu1", "replayed cpu0", "replayed cpu1"], d["cpuLabels"]
    groups = [t["group"] for t in d["tasks"]]
    assert groups == sorted(groups, key=["recorded", "replayed"].index), "recorded rows are not all above"
    ran = {}
    for cpu, a, b, task, *_ in d["stints"]:
        if task >= 0 and d["tasks"][task]["pid"] > 0:
            key = (d["tasks"][task]["group"], d["tasks"][task]["pid"])
            assert (cpu < 2) == (key[0] == "recorded"), f"{key} drawn on {d['cpuLabels'][cpu]}"
            ran[key] = ran.get(key, 0) + b - a
    for pid, (rec, rep) in report_rows(report).items():
        for group, ms in (("recorded", rec), ("replayed", rep)):
            got = ran.get((group, pid), 0) / 1e6
            assert abs(got - ms) <= 0.05, f"{group} pid {pid}: page {got:.3f} ms, report {ms} ms"


@test
def compare_json_has_recorded_and_replayed_processes():
    """--compare --json: Chrome trace-event JSON of two processes, named
    recorded and replayed, a thread per CPU in each; the slices of a pid
    in each process add up to the report's cpu ms, and every task has a
    stair (prio) counter in both."""
    report, _, j = compared(PIPE, "--set", "rr_interval=5")
    names = {e["pid"]: e["args"]["name"] for e in j["traceEvents"] if e["name"] == "process_name"}
    assert names == {1: "recorded", 2: "replayed"}, names
    ran, counters = {}, set()
    for e in j["traceEvents"]:
        assert isinstance(e.get("ph"), str) and "pid" in e and (e["ph"] == "M" or isinstance(e["ts"], (int, float))), e
        if e["ph"] == "X":
            assert e["dur"] > 0 and e["tid"] // 1000 == e["pid"], e
            key = (names[e["pid"]], e["args"]["pid"])
            ran[key] = ran.get(key, 0) + e["dur"] / 1000
        elif e["ph"] == "C":
            counters.add((names[e["pid"]], e["name"]))
    rows = report_rows(report)
    assert sorted(rows) == [2, 3, 4], rows
    for pid, (rec, rep) in rows.items():
        assert abs(ran.get(("recorded", pid), 0) - rec) <= 0.05, (pid, ran.get(("recorded", pid)), rec)
        assert abs(ran.get(("replayed", pid), 0) - rep) <= 0.05, (pid, ran.get(("replayed", pid)), rep)
    for group in ("recorded", "replayed"):
        assert {n.split("(")[-1] for g, n in counters if g == group} >= {"2)", "3)", "4)"}, counters


@test
def make_replay_writes_the_side_by_side_page():
    """make replay writes build/trace/NAME.replay.{log,html,json} whatever
    the verdict, and fails when the round trip does not hold."""
    out = os.path.join(REPO, "build", "trace", "kernel-replay-interactive-1cpu.replay")
    for ext in (".log", ".html", ".json"):
        if os.path.exists(out + ext):
            os.unlink(out + ext)
    r = subprocess.run(["make", "--no-print-directory", "-C", REPO, "replay", f"TRACE={INTERACTIVE_1CPU}",
                        "CHECK=1", "SET=policy:4=batch"], capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "does NOT hold" in r.stdout, f"exit {r.returncode}\n{r.stdout[-600:]}{r.stderr}"
    assert f"wrote {os.path.relpath(out, REPO)}.html: recorded, replayed one above the other" in r.stdout, r.stdout[-400:]
    for ext in (".log", ".html", ".json"):
        assert os.path.getsize(out + ext) > 1000, out + ext


def stair_tenths(points, span):
    """The report's rule, in Python: points [(ns, prio, runnable)] of one
    task; per tenth of span, the mean prio while runnable, or None."""
    sums, times = [0.0] * 10, [0.0] * 10
    for k, (a, prio, runnable) in enumerate(points):
        b = points[k + 1][0] if k + 1 < len(points) else span
        for i in range(10):
            o = min(b, span * (i + 1) / 10) - max(a, span * i / 10)
            if runnable and o > 0:
                sums[i] += o * prio
                times[i] += o
    return [round(sums[i] / times[i]) if times[i] else None for i in range(10)]


def stair_points(path):
    """{pid: [(ns from the first event, prio, runnable)]} from a trace's
    events: woken or forked, runnable; a sleep event, not; the stair is
    the prio= of each event of that pid. And the span, first to last event."""
    ev = [l.split() for l in lines_of(path) if re.match(r"trace: \d+ cpu\d+ ", l)]
    t0, t1 = int(ev[0][1]), int(ev[-1][1])
    pts = {}
    for w in ev:
        pid, prio = int(w[5]), next((int(x[5:]) for x in w if x.startswith("prio=")), None)
        if pid <= 0 or prio is None:
            continue
        p = pts.setdefault(pid, [])
        runnable = {"fork": True, "wakeup": True, "sleep": False}.get(w[3], p[-1][2] if p else True)
        p.append((int(w[1]) - t0, prio, runnable))
    return pts, t1 - t0


@test
def stairs_over_time_are_the_traces():
    """The report's stairs: per task, a line recorded and a line replayed,
    the mean stair while runnable in each tenth of the run; each value is
    what the recording's events, and the replay's (--trace-out), say
    (within 1 of rounding); the interactive task (pid 4) stays on 120,
    the hogs stand lower on average after the first tenth."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "rep.log")
        r = sim("--replay", INTERACTIVE, "--trace-out", out)
        rep_pts, rep_span = stair_points(out)
    rec_pts, rec_span = stair_points(INTERACTIVE)
    lines = r.stdout.split("\nstairs ")[1].splitlines()
    assert "10%" in lines[0] and "100%" in lines[0], lines[0]
    rows, pid = {}, None
    for line in lines[1:]:
        w = line.split()
        if len(w) == 13 and w[2] == "rec":
            pid = int(w[1])
        if len(w) >= 11 and w[-11] in ("rec", "rep"):
            rows[(pid, w[-11])] = [None if x == "-" else int(x) for x in w[-10:]]
    assert sorted({p for p, _ in rows}) == [2, 3, 4, 5, 6], rows
    end_rep = max(float(l.split()[9]) for l in r.stdout.splitlines() if re.match(r"\S+\s+\d+ normal ", l))
    for (pid, which), got in rows.items():
        pts, span = (rec_pts, rec_span) if which == "rec" else (rep_pts, round(end_rep * 1e9))
        want = stair_tenths(pts[pid], span)
        assert [g is None for g in got] == [w is None for w in want], (pid, which, got, want)
        assert all(g is None or abs(g - w) <= 1 for g, w in zip(got, want)), (pid, which, got, want)
    for which in ("rec", "rep"):
        assert set(rows[(4, which)]) == {120}, f"the interactive task left the top stair: {rows[(4, which)]}"
        assert min(rows[(5, which)][1:]) > 125, f"a hog on the top stairs: {rows[(5, which)]}"


def p99_of(out, pid):
    """(p50, p99) replayed of pid in a replay's report."""
    row = next(l.split() for l in out.splitlines() if re.match(rf"\S+\s+{pid} normal ", l))
    return float(row[13]), float(row[15])


@test
def tour_what_if_section_typed():
    """docs/tour.md §11, typed on the host as tests/cases/tour.py types the
    rest at the kernel's shell: each "$ " line of its ```console host
    block is run in the repository, and each line shown under it must
    match a line of the real output, in order (numbers are wildcards);
    then the fact the section teaches, with the real numbers: the
    interactive task's (pid 4) p99 wake-up latency is longer at
    rr_interval 50 than at 5 (by a tick at least), its p50 unchanged."""
    sys.path[:0] = [os.path.join(REPO, "tests"), os.path.join(REPO, "tests", "cases")]
    import tour
    steps = tour.tour_steps(info="console host")
    assert [c.split()[:2] for c, *_ in steps] == [["make", "replay"]] * 2, steps
    log = ""
    for cmd, *_ in steps:
        r = subprocess.run(["bash", "-c", cmd], cwd=REPO, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"{cmd}: exit {r.returncode}\n{r.stderr}"
        log += f"$ {cmd}\n{r.stdout}{r.stderr}"
    outs = tour.outputs(log, steps)

    def facts(_steps, outs):
        (p50_5, p99_5), (p50_50, p99_50) = p99_of(outs[0], 4), p99_of(outs[1], 4)
        problems = []
        if not p99_50 >= p99_5 + 1:
            problems.append(f"p99 at rr_interval 50 is {p99_50} ms, at 5 {p99_5} ms: want it longer")
        if abs(p50_50 - p50_5) > 1:
            problems.append(f"p50 moved: {p50_5} ms at 5, {p50_50} ms at 50")
        return problems
    ok, why = tour.check_tour(log, "console host", facts)
    assert ok, why


@test
def truncated_trace_names_its_last_record():
    lines = lines_of(PIPE)
    cut = events(lines, lambda l: True)[len(events(lines, lambda l: True)) // 2]
    r, path, text = replay_broken(lines[:cut + 1])
    one_bad_line(r, path, text, cut + 1, "truncated")


@test
def truncated_in_a_line_names_that_line():
    lines = lines_of(PIPE)
    cut = events(lines, lambda l: True)[10]
    r, path, text = replay_broken(lines[:cut] + [lines[cut][:25]])
    one_bad_line(r, path, text, cut + 1, "not a trace record")


@test
def one_switch_dropped_names_the_next_switch_of_that_cpu():
    lines = lines_of(PIPE)
    switches = events(lines, lambda l: " cpu0 switch " in l)
    drop = switches[len(switches) // 2]
    broken = lines[:drop] + lines[drop + 1:]
    r, path, text = replay_broken(broken)
    one_bad_line(r, path, text, switches[len(switches) // 2 + 1], "a record is missing")


@test
def one_wakeup_dropped_names_the_switch_in_of_the_sleeper():
    lines = lines_of(PIPE)
    wakes = events(lines, lambda l: " wakeup " in l)
    drop = wakes[len(wakes) // 2]
    pid = re.search(r" pid (\d+) ", lines[drop])[1]
    after = events(lines, lambda l: f" switch pid {pid} " in l)
    nxt = min(i for i in after if i > drop)
    r, path, text = replay_broken(lines[:drop] + lines[drop + 1:])
    one_bad_line(r, path, text, nxt, "its wakeup is missing")


@test
def two_switch_ins_on_one_cpu():
    lines = lines_of(PIPE)
    at = events(lines, lambda l: " cpu0 switch pid 3 " in l)[5]
    twin = re.sub(r" switch pid 3 ", " switch pid 4 ", lines[at])
    r, path, text = replay_broken(lines[:at + 1] + [twin] + lines[at + 1:])
    one_bad_line(r, path, text, at + 2, "was switched in last")


@test
def lost_events_are_named_and_lenient_goes_on():
    lines = lines_of(PIPE)
    at = events(lines, lambda l: True)[20]
    broken = lines[:at] + ["trace: lost cpu0 3 events\n"] + lines[at:]
    r, path, text = replay_broken(broken)
    one_bad_line(r, path, text, at + 1, "lost 3 events")
    r, _, _ = replay_broken(broken, "--lenient")
    assert r.returncode in (0, 1) and "going on" in r.stderr and "bad records passed over" in r.stdout, \
        f"--lenient: exit {r.returncode}\n{r.stdout}{r.stderr}"


@test
def reordered_records_of_one_cpu():
    lines = lines_of(PIPE)
    ev = events(lines, lambda l: " cpu0 " in l)
    i = next(k for k in range(10, len(ev)) if ev[k + 1] == ev[k] + 1 and
             lines[ev[k]].split()[1] != lines[ev[k + 1]].split()[1])
    a, b = ev[i], ev[i + 1]
    broken = lines[:a] + [lines[b], lines[a]] + lines[b + 1:]
    r, path, text = replay_broken(broken)
    one_bad_line(r, path, text, a + 2, "reordered")


@test
def a_trace_of_an_older_kernel_is_refused():
    lines = [re.sub(r" reason=\w+ cur_gen=\d+", "", l) for l in lines_of(PIPE)]
    first = events(lines, lambda l: " wakeup " in l)[0]
    r, path, text = replay_broken(lines)
    one_bad_line(r, path, text, first + 1, "older kernel")


def main():
    return hostlib.run_tests(TESTS)


if __name__ == "__main__":
    sys.exit(main())
