#!/usr/bin/env python3
"""traceview.py - draw the scheduler traces found in a log, and export them.

The kernel prints a trace (docs/trace.md) as a block of lines, on the
console (`trace dump`) or streamed to COM2 (`trace run` when there is one):

    trace: begin 236 events, 0 lost, 2 cpus          (a stream: begin stream, 2 cpus)
    trace: 20612532 cpu0 switch pid 5 rr prio 49 comm=sched_rr prio=49 ...
    ...
    trace: end                                       (a stream: end, 236 events, 0 lost)

Usage:
    tools/traceview.py LOG -o trace.html       # the viewer: one HTML file, no network
    tools/traceview.py LOG --ftrace t.ftrace   # Linux ftrace text (Perfetto, chrome://tracing)
    tools/traceview.py LOG --json t.json       # Chrome trace-event JSON with that text inside
    tools/traceview.py --text LOG              # per-CPU table per task
    tools/traceview.py --compare REC REP -o both.html [--json both.json]
                                               # two runs one above the other (a replay)

The viewer: one lane per CPU (a bar per running stint, in the task's own
colour, the policy as a pattern, a run-queue depth strip beneath, wake-up
latency brackets, marks for the scheduler's events), one row per task with
its stair over time (solid while it runs, dashed while it waits on a queue,
a label at each change saying why), filters by task, policy and CPU, and
the statistics of a range you drag across. Zoomed out, stints are summed
per pixel column. Lost events and reused pids are flagged, not refused.
Python 3 standard library only.
"""
import argparse
import html
import json
import re
import sys

EVENTS = ("switch", "wakeup", "sleep", "stair_drop", "slice_end", "preempt",
          "yield", "fork", "migrate", "nice", "iso_throttle", "smt_idle", "affinity",
          "pid_change", "lost_ticks")
POLICIES = ("normal", "fifo", "rr", "batch", "iso", "idle", "-")
# Events after which a task's prio may have changed, and why (the viewer's labels).
REASONS = {"stair_drop": "stair drop", "slice_end": "slice end", "nice": "nice/policy",
           "yield": "yield", "wakeup": "wake-up", "fork": "fork", "switch": "picked",
           "migrate": "moved", "smt_idle": "SMT hold-off", "preempt": "preempt",
           "sleep": "sleep", "iso_throttle": "ISO throttle", "affinity": "affinity",
           "pid_change": "pid change", "lost_ticks": "lost ticks"}

BEGIN = re.compile(r"^trace: begin (?:(\d+) events(?:, (\d+) lost)?(?:, (\d+) cpus)?"
                   r"|stream, (\d+) cpus)")
EVENT = re.compile(r"^trace: (\d+) cpu(\d+) (\w+) pid (-?\d+) (\S+) (\w+) (-?\d+)"
                   r"((?: [a-z_]+=\S*)*)$")
LOST = re.compile(r"^trace: lost cpu(\d+) (\d+) events$")
END = re.compile(r"^trace: end\b(?:, (\d+) events, (\d+) lost)?")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
INT_FIELDS = ("prio", "burst", "slice", "on", "cur", "cur_prio")


class Block:
    """One begin..end block: its events and where it was in the log."""

    def __init__(self, line, declared, lost, ncpus, stream=False):
        self.line, self.declared, self.lost, self.ncpus = line, declared, lost, ncpus
        self.stream = stream
        self.events = []        # dicts, sorted by time once parsed
        self.lost_marks = []    # (index of the next event, cpu, count): a stream's full ring
        self.ended = False


def parse_fields(text):
    """' comm=x prio=3' -> {'comm': 'x', 'prio': 3}."""
    out = {}
    for word in text.split():
        key, _, value = word.partition("=")
        if key in INT_FIELDS:
            try:
                value = int(value)
            except ValueError:
                continue
        out[key] = value
    return out


def parse(lines, name, warn):
    """The blocks in a log; bad lines are reported through warn() and skipped."""
    blocks, cur = [], None
    for no, raw in enumerate(lines, 1):
        text = ANSI.sub("", raw).strip()
        m = BEGIN.match(text)
        if m:
            if cur and not cur.ended:
                warn(f"{name}:{cur.line}: trace block has no 'trace: end' before the next begin")
            if m[4] is not None:
                cur = Block(no, None, 0, int(m[4]), stream=True)
            else:
                cur = Block(no, int(m[1]), int(m[2] or 0), int(m[3] or 0))
            blocks.append(cur)
            continue
        if not cur or cur.ended or not text.startswith("trace:"):
            continue            # other console output: not ours
        m = END.match(text)
        if m:
            cur.ended = True
            if m[1] is not None:
                cur.declared, cur.lost = int(m[1]), int(m[2])
            continue
        m = LOST.match(text)
        if m:
            cur.lost_marks.append((len(cur.events), int(m[1]), int(m[2])))
            continue
        m = EVENT.match(text)
        if not m or m[3] not in EVENTS:
            warn(f"{name}:{no}: malformed trace line skipped: {text!r}")
            continue
        e = dict(t=int(m[1]), cpu=int(m[2]), ev=m[3], pid=int(m[4]), policy=m[5],
                 argname=m[6], arg=int(m[7]), line=no)
        e.update(parse_fields(m[8]))
        cur.events.append(e)
    for b in blocks:
        if not b.ended:
            warn(f"{name}:{b.line}: trace block has no 'trace: end' (log cut short?); "
                 f"using the {len(b.events)} events read")
        elif b.declared is not None and len(b.events) != b.declared:
            warn(f"{name}:{b.line}: trace block says {b.declared} events, read {len(b.events)}")
        # A stream merges each drain in time order, but a CPU may publish
        # an older record after a drain has looked: sort (stably).
        times = [e["t"] for e in b.events]
        if any(x > y for x, y in zip(times, times[1:])):
            order = sorted(range(len(b.events)), key=lambda i: b.events[i]["t"])
            where = {old: new for new, old in enumerate(order)}
            b.events = [b.events[i] for i in order]
            b.lost_marks = [(where.get(i, len(b.events)), c, n) for i, c, n in b.lost_marks]
    return blocks


# ---- analysis ---------------------------------------------------------------

class Task:
    def __init__(self, key, pid, gen):
        self.key, self.pid, self.gen = key, pid, gen
        self.names = []         # in order; a change without an exit is an exec
        self.policies = []
        self.policy = None
        self.state = None       # None (not seen yet), "run", "wait", "sleep", "dead"
        self.cpu = None
        self.since = 0
        self.segs = []          # [t0, t1, "run"/"wait", cpu]
        self.prio = []          # [t, prio, event, burst, slice, line]
        self.woke = None        # time of the wake-up not yet followed by a run
        self.exiting = False

    @property
    def name(self):
        return self.names[-1] if self.names else "?"

    def set_name(self, comm):
        if comm and comm not in ("-", "idle") and (not self.names or self.names[-1] != comm):
            self.names.append(comm)

    def set_policy(self, policy):
        if policy in POLICIES[:5] and policy != self.policy:
            self.policy = policy
            if policy not in self.policies:
                self.policies.append(policy)
            return True
        return False

    def go(self, t, state, cpu):
        """Move to state (on cpu) at time t, closing the segment before."""
        if self.state in ("run", "wait") and t > self.since:
            self.segs.append([self.since, t, self.state, self.cpu])
        if state != self.state or cpu != self.cpu:
            self.since = t
        self.state, self.cpu = state, cpu


def analyse(block):
    """Everything the viewer, the table and the exports need, from one block.
    Times are ns from the block's first event."""
    ev = block.events
    t0 = ev[0]["t"] if ev else 0
    t1 = ev[-1]["t"] - t0 if ev else 0
    ncpus = max([block.ncpus] + [e["cpu"] + 1 for e in ev] +
                [e["on"] + 1 for e in ev if isinstance(e.get("on"), int)])
    tasks, by_pid, gens, notes = {}, {}, {}, []
    inconsistent = []

    def new_task(pid):
        gens[pid] = gens.get(pid, 0) + 1
        key = str(pid) if gens[pid] == 1 else f"{pid}#{gens[pid]}"
        tasks[key] = by_pid[pid] = Task(key, pid, gens[pid])
        return by_pid[pid]

    def task(pid, fork=False):
        if pid <= 0:
            return None
        old = by_pid.get(pid)
        if old is None:
            return new_task(pid)
        if fork and old.state is None:
            return old          # set up (policy, nice) before it was first queued
        if old.state == "dead" or fork:
            if fork and old.state != "dead":
                notes.append(f"pid {pid} forked again while the old one had not exited "
                             f"(lost events?): drawn as {pid}#{gens[pid] + 1}")
            else:
                notes.append(f"pid {pid} reused: drawn as {pid}#{gens[pid] + 1}")
            return new_task(pid)
        return old

    running = {}                # cpu -> Task, or None for idle
    stints, marks, lat, throttle = [], [], [], {}
    open_stint = {}

    def start_stint(cpu, t, tk, prio):
        s = dict(cpu=cpu, start=t, end=t1, pid=tk.pid if tk else 0,
                 key=tk.key if tk else "0", policy=(tk.policy or "normal") if tk else "idle",
                 prio=prio)
        stints.append(s)
        open_stint[cpu] = s

    def end_stint(cpu, t):
        s = open_stint.pop(cpu, None)
        if s:
            s["end"] = t

    def prio_point(tk, t, prio, evname, e):
        if tk is None or prio is None:
            return
        pts = tk.prio
        if pts and pts[-1][1] == prio and evname not in ("stair_drop", "slice_end", "nice"):
            return
        c = e.get("cpu")
        if (pts and pts[-1][1] != prio and tk.policy == "iso" and c in throttle and
                throttle[c][-1][0] <= t and throttle[c][-1][1] == t1):
            evname = "iso_throttle"     # its CPU runs ISO tasks as BATCH now (§7.5)
        pts.append([t, prio, evname, e.get("burst"), e.get("slice"), e.get("line")])

    # Who runs on each CPU when the trace begins: the first switch there
    # names the task it switches out; an earlier event executed there names
    # the task that ran it; an older log's first tick event (stair_drop,
    # slice_end) before any switch names the task it charged.
    first = {}
    for e in ev:
        c = e["cpu"]
        if "cur" in e and e.get("on", c) not in first:
            first[e.get("on", c)] = (e["cur"], e.get("cur_comm"), e.get("cur_policy"),
                                     e.get("cur_prio"))
        if c not in first and e["ev"] in ("stair_drop", "slice_end") and "cur" not in e:
            first[c] = (e["pid"], None, e["policy"], None)
        if c not in first and e["ev"] == "switch" and "cur" not in e:
            first[c] = None
        if len(first) >= ncpus:
            break
    for c, who in sorted(first.items()):
        if not who:
            continue
        pid, comm, policy, prio = who
        tk = task(pid)
        if tk:
            tk.set_name(comm)
            tk.set_policy(policy)
            tk.go(0, "run", c)
            prio_point(tk, 0, prio, "switch", {})
        running[c] = tk
        start_stint(c, 0, tk, prio)

    for e in ev:
        t, c, name = e["t"] - t0, e["cpu"], e["ev"]
        tk = None
        if e["pid"] > 0:
            tk = task(e["pid"], fork=(name == "fork"))
            tk.set_name(e.get("comm"))
        prio = e.get("prio", e["arg"] if e["argname"] == "prio" else None)
        if name == "switch":
            known = "cur" in e
            prev = running.get(c, "unknown")
            if known:
                claimed = task(e["cur"]) if e["cur"] > 0 else None
                if prev != "unknown" and prev is not claimed:
                    inconsistent.append(
                        f"cpu{c} at {t / 1e6:.3f} ms: switch out of pid {e['cur']}, but "
                        f"pid {prev.pid if prev else 0} was running")
                prev = claimed
                if prev:
                    prev.set_name(e.get("cur_comm"))
                    prio_point(prev, t, e.get("cur_prio"), "switch", {"line": e["line"]})
            end_stint(c, t)
            if prev not in (None, "unknown") and prev is not tk:
                state = e.get("cur_state")
                if state in ("S", "D", "T") or (state is None and prev.state == "sleep"):
                    prev.go(t, "sleep", c)
                elif state == "X" or prev.exiting:
                    prev.go(t, "dead", c)
                else:
                    prev.go(t, "wait", c)
            if tk:
                if tk.state is None:
                    tk.go(0, "wait", c)     # queued before the trace began
                tk.set_policy(e["policy"])
                if tk.woke is not None:
                    lat.append([c, tk.woke, t, tk.key])
                    tk.woke = None
                tk.go(t, "run", c)
                prio_point(tk, t, prio, name, e)
            running[c] = tk
            start_stint(c, t, tk, prio)
            continue
        if tk:
            changed = tk.set_policy(e["policy"])
            if changed and running.get(c) is tk and c in open_stint:
                end_stint(c, t)           # the bar follows a policy change mid-run
                start_stint(c, t, tk, prio)
            prio_point(tk, t, prio, name, e)
            if name in ("fork", "wakeup"):
                if name == "fork" or tk.state in (None, "sleep"):
                    tk.woke = t
                tk.go(t, "wait", c)
            elif name == "migrate":
                if tk.state in ("run", "wait"):
                    tk.go(t, tk.state, c)
                else:
                    tk.cpu = c
            elif name == "sleep":
                tk.exiting = e["arg"] == 4
                tk.go(t, "sleep", c)
            elif tk.state is None and name in ("stair_drop", "slice_end"):
                tk.go(0, "run", c)
        if name == "iso_throttle":
            if e["arg"]:
                throttle.setdefault(c, []).append([t, t1])
            elif throttle.get(c):
                throttle[c][-1][1] = t
        marks.append(dict(t=t, cpu=c, ev=name, pid=e["pid"], key=tk.key if tk else "0",
                          policy=e["policy"], argname=e["argname"], arg=e["arg"],
                          line=e["line"], prio=prio, burst=e.get("burst"),
                          slice=e.get("slice")))
    for tk in tasks.values():
        tk.go(t1, None, None)
    for s in stints:
        s["end"] = min(s["end"], t1)

    # Run-queue depth per CPU: tasks running or waiting there, step points.
    depth = []
    for c in range(ncpus):
        delta = {}
        for tk in tasks.values():
            for a, b, _, cpu in tk.segs:
                if cpu == c:
                    delta[a] = delta.get(a, 0) + 1
                    delta[b] = delta.get(b, 0) - 1
        pts, n = [[0, 0]], 0
        for t in sorted(delta):
            n += delta[t]
            if pts[-1][0] == t:
                pts[-1][1] = n
            else:
                pts.append([t, n])
        depth.append(pts)

    lost_marks = [[ev[i]["t"] - t0 if i < len(ev) else t1, c, n]
                  for i, c, n in block.lost_marks]
    if block.lost:
        notes.insert(0, f"{block.lost} events lost: " +
                     ("a full buffer refused them (marked in red on the lanes)"
                      if block.stream else "the ring overwrote the oldest; the trace "
                      "starts later than the recording"))
    if inconsistent:
        notes.append(f"{len(inconsistent)} switch(es) out of a task the trace did not "
                     f"have running (lost events?); first: {inconsistent[0]}")
    return dict(t0=t0, t1=t1, ncpus=ncpus, tasks=tasks, stints=stints, marks=marks,
                lat=lat, depth=depth, lost=block.lost, lost_marks=lost_marks,
                throttle=throttle, notes=notes, line=block.line, events=len(ev),
                stream=block.stream, inconsistent=inconsistent)


def summary(a):
    """Per CPU, per pid: [run ns, runs, stair drops, migrations onto it,
    policy, name]. The policy is the last one seen (a test's hogs start
    NORMAL and then switch to the policy they test)."""
    table = {}
    names = {tk.pid: tk.name for tk in a["tasks"].values()}

    def row(cpu, pid, policy):
        r = table.setdefault(cpu, {}).setdefault(pid, [0, 0, 0, 0, policy,
                                                        names.get(pid, "idle")])
        r[4] = policy
        return r
    for s in a["stints"]:
        r = row(s["cpu"], s["pid"], s["policy"])
        r[0] += s["end"] - s["start"]
        r[1] += 1
    for m in a["marks"]:
        col = {"stair_drop": 2, "migrate": 3}.get(m["ev"])
        if col:
            row(m["cpu"], m["pid"], m["policy"])[col] += 1
    return table


def print_text(blocks, out):
    for i, b in enumerate(blocks, 1):
        a = analyse(b)
        out.write(f"block {i} (line {a['line']}): {a['events']} events, {a['lost']} lost, "
                  f"{a['ncpus']} cpus, {a['t1'] / 1e6:.3f} ms\n")
        for note in a["notes"]:
            out.write(f"note: {note}\n")
        table = summary(a)
        for cpu in range(a["ncpus"]):
            out.write(f"cpu{cpu}\n  {'pid':>5} {'name':<15} {'policy':<7} {'run ms':>10} "
                      f"{'share':>6} {'runs':>6} {'avg ms':>8} {'stair drops':>11} "
                      f"{'migrations in':>13}\n")
            rows = sorted(table.get(cpu, {}).items(), key=lambda kv: -kv[1][0])
            for pid, (run, runs, drops, moves, policy, name) in rows:
                share = 100 * run / a["t1"] if a["t1"] else 0
                avg = run / runs / 1e6 if runs else 0
                out.write(f"  {pid:>5} {name[:15]:<15} {policy:<7} {run / 1e6:>10.3f} "
                          f"{share:>5.1f}% {runs:>6} {avg:>8.3f} {drops:>11} {moves:>13}\n")


# ---- exports: Linux ftrace text and Chrome trace-event JSON -------------------

# The flags column of every line, five characters as Linux prints them:
# irqs off (each event is recorded with the run-queue lock held, interrupts
# off), then need-resched, hard/soft irq, preempt depth and migrate-disable,
# which this kernel does not have ('.').
FLAGS = "d...."
FTRACE_EVENTS = ("sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
                 "sched_migrate_task", "sched_process_exit", "tracing_mark_write")


def _comm(comm, pid, cpu):
    """A name as Linux prints it: the idle task is swapper/N; a name we
    never learnt is <...>, as ftrace prints a pid it has no name for."""
    if pid == 0:
        return f"swapper/{cpu}"
    if not comm or comm == "-":
        return "<...>"
    return re.sub(r"[\s=]", "_", comm)[:15]


def _stamp(ns):
    return f"{ns // 1000000000:5d}.{ns % 1000000000 // 1000:06d}"


def ftrace_lines(block):
    """The block as Linux ftrace text lines (with the tgid column, as
    `trace-cmd` / options/record-tgid print it; here a process has one
    thread, so tgid = pid). Only events Linux has are written, plus the
    stair of each task as a tracing_mark_write counter (C|pid|prio|N)."""
    ev = block.events
    ncpus = max([block.ncpus] + [e["cpu"] + 1 for e in ev])
    out = ["# tracer: nop",
           "#",
           f"# entries-in-buffer/entries-written: {len(ev)}/{len(ev) + block.lost}   #P:{ncpus}",
           "#",
           "#                                          _-----=> irqs-off/BH-disabled",
           "#                                         / _----=> need-resched",
           "#                                        | / _---=> hardirq/softirq",
           "#                                        || / _--=> preempt-depth",
           "#                                        ||| / _-=> migrate-disable",
           "#                                        |||| /     delay",
           "#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION",
           "#              | |           |       |   |||||     |         |"]
    names, prios, running, sleeping = {}, {}, {}, {}

    def name_of(pid, cpu):
        return _comm(names.get(pid), pid, cpu)

    def line(pid, cpu, ns, event, args):
        head = "<idle>" if pid == 0 else name_of(pid, cpu)
        tgid = "-------" if pid == 0 else str(pid)
        out.append(f"{head:>16}-{pid:<7} ({tgid:>7}) [{cpu:03d}] {FLAGS} "
                   f"{_stamp(ns)}: {event}: {args}")

    def counter(pid, prio, cur, cpu, ns):
        if pid > 0 and prio is not None and prios.get(pid) != prio:
            prios[pid] = prio
            line(cur, cpu, ns, "tracing_mark_write", f"C|{pid}|prio|{prio}")

    for e in ev:
        ns, c, name, pid = e["t"], e["cpu"], e["ev"], e["pid"]
        on = e.get("on", c)
        cur = e.get("cur", running.get(on, 0))
        if pid > 0 and e.get("comm") not in (None, "-", "idle"):
            names[pid] = e["comm"]
        if cur > 0 and e.get("cur_comm") not in (None, "-", "idle"):
            names[cur] = e["cur_comm"]
        prio = e.get("prio", e["arg"] if e["argname"] == "prio" else None)
        if prio is None:
            prio = prios.get(pid, 120)
        task = f"comm={name_of(pid, c)} pid={pid} prio={prio}"
        if name == "switch":
            prev = e.get("cur", running.get(c, 0))
            state = e.get("cur_state") or sleeping.pop(prev, "R+")
            sleeping.pop(prev, None)
            prev_prio = e.get("cur_prio", prios.get(prev, 120)) if prev else 120
            if prev == 0:
                state = "R"
            line(prev, c, ns, "sched_switch",
                 f"prev_comm={name_of(prev, c)} prev_pid={prev} prev_prio={prev_prio} "
                 f"prev_state={state} ==> next_comm={name_of(pid, c)} next_pid={pid} "
                 f"next_prio={prio}")
            running[c] = pid
            counter(pid, prio, pid, c, ns)
        elif name in ("wakeup", "fork"):
            if name == "wakeup":
                line(cur, on, ns, "sched_waking", f"{task} target_cpu={c:03d}")
                line(cur, on, ns, "sched_wakeup", f"{task} target_cpu={c:03d}")
            else:
                line(cur, on, ns, "sched_wakeup_new", f"{task} target_cpu={c:03d}")
            counter(pid, prio, cur, on, ns)
        elif name == "migrate":
            line(cur, on, ns, "sched_migrate_task",
                 f"{task} orig_cpu={e['arg']} dest_cpu={c}")
        elif name == "sleep":
            sleeping[pid] = {1: "S", 2: "D", 4: "X", 16: "T"}.get(e["arg"], "S")
            if e["arg"] == 4:
                line(pid, c, ns, "sched_process_exit", task)
        elif pid > 0:
            counter(pid, prio, cur, on, ns)
    return out


def write_ftrace(blocks, out, which=0):
    out.write("\n".join(ftrace_lines(blocks[which])) + "\n")


def json_trace(block, title):
    """Chrome trace-event JSON: names and the staircase's own events in
    traceEvents, the scheduler itself as ftrace text in systemTraceEvents
    (Perfetto and chrome://tracing read both). The text gets one comment
    line more than the .ftrace file: '# clock_type=LINUX_CLOCK_MONOTONIC',
    which tells catapult that its times and traceEvents' are one clock."""
    text = ftrace_lines(block)
    text.insert(1, "# clock_type=LINUX_CLOCK_MONOTONIC")
    events, names = [], {}
    for e in block.events:
        if e.get("cur", 0) > 0 and e.get("cur_comm") not in (None, "-", "idle"):
            names[e["cur"]] = e["cur_comm"]
        if e["pid"] > 0 and e.get("comm") not in (None, "-", "idle"):
            names[e["pid"]] = e["comm"]
    for pid, comm in sorted(names.items()):
        for kind in ("process_name", "thread_name"):
            events.append(dict(name=kind, ph="M", pid=pid, tid=pid, args=dict(name=comm)))
    for e in block.events:
        if e["ev"] in ("switch", "wakeup", "fork", "migrate", "sleep"):
            continue
        args = {"cpu": e["cpu"], e["argname"]: e["arg"]}
        for k in ("prio", "burst", "slice"):
            if k in e:
                args[k] = e[k]
        item = dict(name=e["ev"], cat="staircase", ph="i", ts=e["t"] / 1000,
                    pid=e["pid"], tid=e["pid"], args=args)
        item["s"] = "g" if e["pid"] <= 0 else "t"
        events.append(item)
    return dict(traceEvents=events, systemTraceEvents="\n".join(text) + "\n",
                displayTimeUnit="ns", metadata={"source": "tools/traceview.py", "trace": title})


def write_json(blocks, name, out, which=0):
    json.dump(json_trace(blocks[which], name), out, separators=(",", ":"))
    out.write("\n")


# ---- the page -----------------------------------------------------------------

def prio_axis(order):
    """The stairs every row is drawn against by default: from the highest
    stair any task stood on to the lowest, so rows can be compared."""
    prios = [p[1] for tk in order for p in tk.prio]
    if not prios:
        return [100, 140]
    lo, hi = min(prios), max(prios)
    return [lo - 2, hi + 2] if hi - lo < 4 else [lo, hi]


def page_data(a):
    """analyse() in the compact form the page's script reads."""
    order = sorted(a["tasks"].values(), key=lambda tk: (tk.pid, tk.gen))
    index = {tk.key: i for i, tk in enumerate(order)}
    ev_code = {n: i for i, n in enumerate(EVENTS)}
    pol = {n: i for i, n in enumerate(POLICIES)}
    tasks = [dict(key=tk.key, pid=tk.pid, name=tk.name, names=tk.names,
                  pol=[pol[p] for p in tk.policies] or [0]) for tk in order]
    stints = [[s["cpu"], s["start"], s["end"], index.get(s["key"], -1),
               pol.get(s["policy"], 0), s["prio"]]
              for s in sorted(a["stints"], key=lambda s: (s["cpu"], s["start"]))
              if s["end"] > s["start"] or s["start"] == a["t1"]]
    marks = [[m["t"], m["cpu"], ev_code[m["ev"]], index.get(m["key"], -1), m["arg"],
              m["line"], m["prio"], m["burst"], m["slice"], pol.get(m["policy"], 6)]
             for m in a["marks"]]
    # `trace run` itself sleeps from the start of the recording to its
    # end: its one wake-up is not a latency anyone waited for.
    recorder = [i for i, tk in enumerate(order) if tk.name == "trace"]
    return dict(t1=a["t1"], ncpus=a["ncpus"], line=a["line"], events=a["events"],
                axis=prio_axis(order), recorder=recorder,
                lost=a["lost"], stream=a["stream"], notes=a["notes"], tasks=tasks,
                stints=stints, marks=marks,
                prio=[[[p[0], p[1], ev_code.get(p[2], 0), p[3], p[4], p[5]] for p in tk.prio]
                      for tk in order],
                segs=[[[s[0], s[1], 0 if s[2] == "run" else 1, s[3]] for s in tk.segs]
                      for tk in order],
                depth=a["depth"], lat=[[c, w, r, index[k]] for c, w, r, k in a["lat"]],
                lostMarks=a["lost_marks"],
                throttle=[[c, x, y] for c, spans in sorted(a["throttle"].items())
                          for x, y in spans])


def compare_data(parts):
    """Runs drawn in one view, one above the other, on one time axis (each
    from its own first event): parts is [(label, page_data)], the first
    one's CPU lanes and task rows on top. A task keeps its colour across
    the runs (by pid and generation), and every lane, row and note says
    which run it is."""
    out = dict(t1=max(d["t1"] for _, d in parts), ncpus=0, line=parts[0][1]["line"],
               events=sum(d["events"] for _, d in parts), lost=sum(d["lost"] for _, d in parts),
               stream=any(d["stream"] for _, d in parts),
               axis=[min(d["axis"][0] for _, d in parts), max(d["axis"][1] for _, d in parts)],
               recorder=[], notes=[], tasks=[], stints=[], marks=[], prio=[], segs=[], depth=[],
               lat=[], lostMarks=[], throttle=[], cpuLabels=[], groups=[])
    colour_of = {}
    for label, d in parts:
        co, to = out["ncpus"], len(out["tasks"])
        task = lambda i: i + to if i >= 0 else i  # noqa: E731
        out["groups"].append(dict(label=label, cpus=[co, d["ncpus"]], tasks=[to, len(d["tasks"])],
                                  events=d["events"], t1=d["t1"]))
        out["cpuLabels"] += [f"{label} cpu{c}" for c in range(d["ncpus"])]
        out["notes"] += [f"{label}: {n}" for n in d["notes"]]
        out["recorder"] += [task(i) for i in d["recorder"]]
        for t in d["tasks"]:
            col = colour_of.setdefault(t["key"], len(colour_of))
            out["tasks"].append(dict(t, group=label, col=col))
        out["stints"] += [[c + co, a, b, task(i)] + rest for c, a, b, i, *rest in d["stints"]]
        out["marks"] += [[t, c + co, ev, task(i)] + rest for t, c, ev, i, *rest in d["marks"]]
        out["prio"] += d["prio"]
        out["segs"] += [[[a, b, st, c + co] for a, b, st, c in segs] for segs in d["segs"]]
        out["depth"] += d["depth"]
        out["lat"] += [[c + co, w, r, task(i)] for c, w, r, i in d["lat"]]
        out["lostMarks"] += [[t, c + co, n] for t, c, n in d["lostMarks"]]
        out["throttle"] += [[c + co, a, b] for c, a, b in d["throttle"]]
        out["ncpus"] += d["ncpus"]
    out["marks"].sort(key=lambda m: m[0])
    return out


def compare_json(parts, title):
    """Chrome trace-event JSON of runs side by side on one timeline: each
    run (parts: [(label, analyse())]) is a process named by its label, with
    a thread per CPU holding a slice per stint of running (named by the
    task) and a counter per task of its stair (prio). Perfetto and
    chrome://tracing draw each process as a group of tracks."""
    events = []
    for g, (label, a) in enumerate(parts):
        pid = g + 1
        events.append(dict(name="process_name", ph="M", pid=pid, tid=0, args=dict(name=label)))
        events.append(dict(name="process_sort_index", ph="M", pid=pid, tid=0, args=dict(sort_index=g)))
        for c in range(a["ncpus"]):
            tid = pid * 1000 + c
            events.append(dict(name="thread_name", ph="M", pid=pid, tid=tid, args=dict(name=f"cpu{c}")))
            events.append(dict(name="thread_sort_index", ph="M", pid=pid, tid=tid, args=dict(sort_index=c)))
        for s in a["stints"]:
            if s["pid"] <= 0 or s["end"] <= s["start"]:
                continue
            tk = a["tasks"][s["key"]]
            events.append(dict(name=f"{tk.name} ({tk.pid})", cat=label, ph="X", ts=s["start"] / 1000,
                               dur=(s["end"] - s["start"]) / 1000, pid=pid, tid=pid * 1000 + s["cpu"],
                               args=dict(pid=tk.pid, policy=s["policy"], prio=s["prio"])))
        for tk in sorted(a["tasks"].values(), key=lambda tk: (tk.pid, tk.gen)):
            for t, prio, *_ in tk.prio:
                events.append(dict(name=f"prio {tk.name} ({tk.key})", cat=label, ph="C", ts=t / 1000,
                                   pid=pid, args=dict(prio=prio)))
    return dict(traceEvents=events, displayTimeUnit="ns",
                metadata={"source": "tools/traceview.py --compare", "trace": title,
                          "runs": [label for label, _ in parts]})


def write_compare(files, labels, output, json_out, warn):
    """The first block of each file, one above the other: the page, and
    the JSON if asked. False if a file has no trace."""
    parts = []
    for path, label in zip(files, labels):
        with open(path, errors="replace") as f:
            blocks = parse(f.read().splitlines(), path, warn)
        if not blocks:
            warn(f"{path}: no trace found (no 'trace: begin' line)")
            return False
        parts.append((label, analyse(blocks[0])))
    title = " vs ".join(f"{label} {path}" for path, label in zip(files, labels))
    if output:
        data = compare_data([(label, page_data(a)) for label, a in parts])
        with open(output, "w") as out:
            write_page(out, title, [data])
        print(f"traceview: wrote {output}: {', '.join(labels)} one above the other, "
              f"{data['events']} events")
    if json_out:
        with open(json_out, "w") as out:
            json.dump(compare_json(parts, title), out, separators=(",", ":"))
            out.write("\n")
        print(f"traceview: wrote {json_out}: {', '.join(labels)} as two processes, Chrome trace-event JSON")
    return True


def write_html(blocks, name, out):
    write_page(out, name, [page_data(analyse(b)) for b in blocks])


def write_page(out, name, data):
    out.write(PAGE.replace("@TITLE@", html.escape(name))
                  .replace("@EVENTS@", json.dumps(EVENTS))
                  .replace("@POLICIES@", json.dumps(POLICIES))
                  .replace("@REASONS@", json.dumps(REASONS))
                  .replace("@DATA@", json.dumps(data, separators=(",", ":"))
                           .replace("</", "<\\/")))


PAGE = r"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>trace: @TITLE@</title>
<style>
body { font: 13px sans-serif; margin: 12px; color: #222; }
h1 { font-size: 17px; margin: 0 0 6px; } h2 { font-size: 14px; margin: 14px 0 4px; }
h2 small { font-weight: normal; color: #555; }
#bar { margin: 6px 0; } #bar button, #bar input, #bar select { font: inherit; }
#bar input { width: 80px; }
.note { background: #fff4d6; border: 1px solid #e0b000; padding: 3px 8px; margin: 3px 0; }
.jserror { background: #fdd; border: 1px solid #c00; padding: 3px 8px; margin: 3px 0; }
#filters { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 6px 0; }
#filters fieldset { border: 1px solid #ccc; padding: 2px 8px 4px; margin: 0; }
#filters legend { font-size: 12px; color: #555; }
#filters label { display: inline-block; margin: 1px 8px 1px 0; white-space: nowrap; }
.sw { width: 14px; height: 12px; vertical-align: -2px; margin-right: 3px; }
#tip { position: fixed; pointer-events: none; background: #ffd; border: 1px solid #999;
       padding: 3px 6px; display: none; white-space: pre; font: 12px monospace; z-index: 2; }
svg text { font: 11px sans-serif; } svg .small { font: 9px sans-serif; }
.axis line { stroke: #ddd; } .lane { fill: #f4f4f4; } .taskrow { fill: #f8f8f8; }
#stats table { border-collapse: collapse; } #stats td, #stats th { padding: 1px 8px; text-align: right; }
#stats th { border-bottom: 1px solid #999; } #stats td:first-child, #stats th:first-child { text-align: left; }
</style></head><body>
<script>
// Any script error is written into the page: a page that cannot draw says so
// (and the browser test looks for these).
window.addEventListener("error", ev => {
  const box = document.getElementById("errors") || document.body;
  const div = document.createElement("div");
  div.className = "jserror";
  div.textContent = "script error: " + ev.message + " (line " + ev.lineno + ")";
  box.appendChild(div);
});
</script>
<h1>Scheduler trace: @TITLE@</h1>
<div id="errors"></div>
<div id="info"></div>
<div id="notes"></div>
<div id="bar">
 <select id="block"></select>
 from <input id="from"> to <input id="to"> ms <button id="go">show</button>
 <button id="in">zoom in</button> <button id="out">zoom out</button>
 <button id="left">&larr;</button> <button id="right">&rarr;</button>
 <button id="all">all</button>
 <button id="zsel" disabled>zoom to selection</button> <button id="csel" disabled>clear selection</button>
 <i>drag across the lanes or rows to select a range (its statistics are below); double-click it to zoom</i>
</div>
<div id="filters">
 <fieldset><legend>tasks (colour)</legend><span id="ftasks"></span></fieldset>
 <fieldset><legend>policies (pattern)</legend><span id="fpol"></span></fieldset>
 <fieldset><legend>CPUs</legend><span id="fcpu"></span></fieldset>
 <fieldset><legend>marks</legend><span id="fmarks"></span></fieldset>
 <fieldset><legend>stairs</legend><label><input type="checkbox" id="rowzoom"> zoom each row to its own stairs</label></fieldset>
</div>
<svg id="defs" width="0" height="0" style="position:absolute">
 <defs>
  <pattern id="pat-fifo" width="6" height="6" patternUnits="userSpaceOnUse"><path d="M-1,7 L7,-1" stroke="#fff" stroke-width="1.6" opacity="0.85"/></pattern>
  <pattern id="pat-rr" width="6" height="6" patternUnits="userSpaceOnUse"><path d="M-1,-1 L7,7" stroke="#fff" stroke-width="1.6" opacity="0.85"/></pattern>
  <pattern id="pat-batch" width="6" height="6" patternUnits="userSpaceOnUse"><path d="M0,3 H6" stroke="#fff" stroke-width="1.6" opacity="0.85"/></pattern>
  <pattern id="pat-iso" width="5" height="5" patternUnits="userSpaceOnUse"><circle cx="2.5" cy="2.5" r="1.2" fill="#fff" opacity="0.9"/></pattern>
 </defs>
</svg>
<h2>CPUs <small>a bar per stint of running, in the task's colour; the policy is the pattern;
 grey strip: tasks running or waiting on that CPU; bracket: wake-up until it ran</small>
 <small id="tlnote" style="color:#a60"></small></h2>
<svg id="timeline"></svg>
<h2>Tasks: the stair over time <small>higher = more urgent; solid: running, dashed: waiting on a
 queue, gap: asleep; each change is labelled with its reason; hover for the values</small></h2>
<svg id="rows"></svg>
<h2>Statistics <small id="range"></small></h2>
<div id="stats"></div>
<div id="tip"></div>
<div id="rendered" hidden></div>
<script>
const EVENTS = @EVENTS@, POLICIES = @POLICIES@, REASONS = @REASONS@;
const DATA = @DATA@;
const NS = "http://www.w3.org/2000/svg", LEFT = 170, LANE = 32, DEPTH = 14, GAP = 10, ROW = 46, TOP = 20;
const MARKS = {
  wakeup: ["wake-up", "#2a2"], sleep: ["sleep", "#888"], stair_drop: ["stair drop", "#000"],
  slice_end: ["slice end", "#a0a"], preempt: ["preempt", "#e15759"], yield: ["yield", "#07a"],
  fork: ["fork", "#2a2"], migrate: ["migrate", "#70c"], nice: ["nice/policy", "#07a"],
  iso_throttle: ["ISO throttle", "#f80"], smt_idle: ["SMT idle", "#d00"],
  affinity: ["affinity", "#70c"], pid_change: ["pid change", "#07a"],
  lost_ticks: ["lost ticks", "#d00"]};
const ABBR = {stair_drop: "drop", slice_end: "slice", nice: "nice", yield: "yield", wakeup: "wake",
  fork: "fork", switch: "pick", migrate: "move", iso_throttle: "ISO", smt_idle: "smt",
  preempt: "pre", sleep: "sleep", affinity: "cpus", pid_change: "pid",
  lost_ticks: "lost"};
const shown = new Set(["wakeup", "stair_drop", "slice_end", "migrate", "smt_idle", "preempt",
                       "iso_throttle", "fork", "yield", "nice", "affinity", "pid_change", "lost_ticks"]);
const hidden = {task: new Set(), pol: new Set(), cpu: new Set()};
const q = new URLSearchParams(location.search);
let bi = Math.min(Math.max(+(q.get("block") || 1), 1), DATA.length) - 1;
let from = 0, to = 0, sel = null, byCpu = [];

// A task's colour; in a comparison (DATA[..].groups) a task keeps its
// colour in every run (tasks[i].col).
const hue = k => k < 0 ? "#bbb" : `hsl(${(k * 137.508) % 360},62%,${k % 2 ? 40 : 52}%)`;
const colour = i => { const t = i >= 0 && DATA[bi].tasks[i]; return hue(t && t.col !== undefined ? t.col : i); };
const cpuName = (d, c) => d.cpuLabels ? d.cpuLabels[c] : "cpu" + c;
const groupOf = (d, c) => d.groups ? d.groups.findIndex(g => c >= g.cpus[0] && c < g.cpus[0] + g.cpus[1]) : -1;
const fill = p => `url(#pat-${POLICIES[p]})`;
const ms = ns => (ns / 1e6).toFixed(3);
const us = ns => (ns / 1e3).toFixed(1);
function el(parent, tag, attrs, tip) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (tip) e.dataset.tip = tip;
  parent.appendChild(e);
  return e;
}
function width() { return Math.max(600, document.documentElement.clientWidth - LEFT - 70); }
function xOf(t) { return LEFT + (t - from) / (to - from) * width(); }
function tOf(px) { return from + (px - LEFT) / width() * (to - from); }
// First index i in the sorted array a with key(a[i]) > v.
function upper(a, v, key) { let lo = 0, hi = a.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (key(a[m]) > v) hi = m; else lo = m + 1; } return lo; }
function taskName(d, i) {
  return i < 0 ? "idle" : (d.tasks[i].group ? d.tasks[i].group + ": " : "") + `${d.tasks[i].name} (${d.tasks[i].pid})`; }
function taskShown(d, i) {
  return i >= 0 && !hidden.task.has(i) && d.tasks[i].pol.some(p => !hidden.pol.has(p)); }
function prioAt(pts, t) { const i = upper(pts, t, p => p[0]) - 1; return pts[Math.max(i, 0)]; }

function axis(svg, y0, y1) {
  const span = to - from, raw = span / 10, p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map(m => m * p).find(s => s >= raw);
  const g = el(svg, "g", {class: "axis"});
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) {
    el(g, "line", {x1: xOf(t), x2: xOf(t), y1: y0, y2: y1});
    el(g, "text", {x: xOf(t) + 2, y: y0 - 6}).textContent = (t / 1e6).toFixed(step < 1e6 ? 3 : 0) + " ms";
  }
}

function markTip(d, m) {
  const [t, c, ev, task, arg, line, prio, burst, slice] = m, name = EVENTS[ev];
  let s = `${ms(t)} ms  ${cpuName(d, c)}  ${name}\n${taskName(d, task)}  ${POLICIES[m[9]]}`;
  if (prio !== null && prio !== undefined) s += `  prio ${prio}`;
  if (burst !== null && burst !== undefined) s += `  burst ${burst}  slice ${slice}`;
  const argname = {sleep: "state", preempt: "delayed", migrate: "from cpu", iso_throttle: "on",
                   affinity: "cpus (mask)", pid_change: "old pid", lost_ticks: "ticks lost"}[name];
  if (argname) s += `\n${argname} ${arg}`;
  return s + `\nlog line ${line}`;
}

function mark(g, d, m, y) {
  const x = xOf(m[0]), name = EVENTS[m[2]], c = MARKS[name][1], tip = markTip(d, m);
  const at = {
    wakeup: () => el(g, "path", {d: `M${x-4},${y+1}h8l-4,7z`, fill: c}, tip),
    sleep: () => el(g, "path", {d: `M${x},${y+LANE-6}v6`, stroke: c, "stroke-width": 2}, tip),
    stair_drop: () => el(g, "circle", {cx: x, cy: y + 12, r: 2.5, fill: "#fff", stroke: c}, tip),
    slice_end: () => el(g, "path", {d: `M${x},${y+6}v${LANE-8}`, stroke: c, "stroke-width": 2}, tip),
    preempt: () => el(g, "path", {d: `M${x-4},${y+LANE}h8l-4,-7z`, fill: c}, tip),
    migrate: () => el(g, "path", {d: `M${x},${y+2}l5,5l-5,5l-5,-5z`, fill: c}, tip),
    smt_idle: () => el(g, "path", {d: `M${x-4},${y+12}l8,8m0,-8l-8,8`, stroke: c, "stroke-width": 2}, tip),
  }[name];
  if (at) return at();
  const letter = {yield: "y", fork: "+", nice: "n", iso_throttle: m[4] ? "T" : "t", affinity: "a",
                  pid_change: "p", lost_ticks: "L"}[name];
  el(g, "text", {x: x - 3, y: y + 9, fill: c, "font-weight": "bold"}, tip).textContent = letter;
}

// Zoomed out, a lane would be a smear of thin bars: sum each task's (and
// policy's) running time per 2-pixel column instead and stack the shares.
function aggregate(svg, d, list, i0, y) {
  const W = width(), px = 2, nb = Math.ceil(W / px), span = (to - from) / nb, cols = [];
  for (let i = i0; i < list.length && list[i][1] < to; i++) {
    const s = list[i];
    if (s[3] < 0 || !taskShown(d, s[3]) || hidden.pol.has(s[4])) continue;
    const a = Math.max(s[1], from), b = Math.min(s[2], to), key = s[3] * 8 + s[4];
    for (let k = Math.floor((a - from) / span); k < nb && from + k * span < b; k++) {
      const lo = Math.max(a, from + k * span), hi = Math.min(b, from + (k + 1) * span);
      if (hi <= lo) continue;
      const col = cols[k] || (cols[k] = new Map());
      col.set(key, (col.get(key) || 0) + hi - lo);
    }
  }
  let n = 0;
  cols.forEach((col, k) => {
    let yb = y + LANE;
    for (const key of [...col.keys()].sort((p, r) => p - r)) {
      const h = LANE * col.get(key) / span, task = Math.floor(key / 8), pol = key % 8;
      const tip = `${ms(from + k * span)} - ${ms(from + (k + 1) * span)} ms, cpu lane\n` +
        `${taskName(d, task)} ${POLICIES[pol]}: ${(100 * col.get(key) / span).toFixed(0)}% of the column`;
      el(svg, "rect", {class: "agg", x: LEFT + k * px, y: yb - h, width: px, height: h, fill: colour(task)}, tip);
      if (pol > 0) el(svg, "rect", {x: LEFT + k * px, y: yb - h, width: px, height: h, fill: fill(pol), "pointer-events": "none"});
      yb -= h; n++;
    }
  });
  return n;
}

function drawTimeline(d) {
  const svg = document.getElementById("timeline"), cpus = [];
  for (let c = 0; c < d.ncpus; c++) if (!hidden.cpu.has(c)) cpus.push(c);
  const H = LANE + DEPTH + GAP;
  svg.innerHTML = "";
  svg.setAttribute("width", LEFT + width() + 40);
  svg.setAttribute("height", TOP + cpus.length * H + 6);
  axis(svg, TOP, TOP + cpus.length * H);
  let maxDepth = 1;
  const summed = new Set();
  for (const c of cpus) for (const [, n] of d.depth[c]) maxDepth = Math.max(maxDepth, n);
  cpus.forEach((c, r) => {
    const y = TOP + r * H, list = byCpu[c];
    el(svg, "rect", {class: "lane", x: LEFT, y: y, width: width(), height: LANE}, cpuName(d, c));
    el(svg, "text", {x: 4, y: y + 20}).textContent = cpuName(d, c);
    if (r > 0 && groupOf(d, c) !== groupOf(d, cpus[r - 1]))
      el(svg, "line", {class: "groupline", x1: 0, x2: LEFT + width(), y1: y - 6, y2: y - 6, stroke: "#333", "stroke-width": 1.5});
    for (const [tc, a, b] of d.throttle)
      if (tc === c && b > from && a < to)
        el(svg, "rect", {x: xOf(Math.max(a, from)), y: y - 3, width: Math.max(xOf(Math.min(b, to)) - xOf(Math.max(a, from)), 1),
                         height: 3, fill: "#f80"}, `cpu${c} throttles ISO tasks ${ms(a)} - ${ms(b)} ms`);
    const i0 = upper(list, from, s => s[2]);
    let count = 0;
    for (let i = i0; i < list.length && list[i][1] < to; i++) count++;
    const agg = count > width() / 3;
    if (agg) {
      summed.add(c);
      aggregate(svg, d, list, i0, y);
      el(svg, "text", {class: "small", x: 4, y: y + 31, fill: "#777"}).textContent = "summed per column";
    } else {
      for (let i = i0; i < list.length && list[i][1] < to; i++) {
        const [, s0, s1, task, pol, prio] = list[i];
        if (task < 0 || !taskShown(d, task) || hidden.pol.has(pol)) continue;
        const x0 = xOf(Math.max(s0, from)), x1 = xOf(Math.min(s1, to)), w = Math.max(x1 - x0, 0.5);
        const tip = `${taskName(d, task)}  ${POLICIES[pol]}, prio ${prio} when picked, on ${cpuName(d, c)}\n` +
                    `${ms(s0)} - ${ms(s1)} ms: ran ${ms(s1 - s0)} ms`;
        el(svg, "rect", {class: "bar", x: x0, y: y, width: w, height: LANE, fill: colour(task), stroke: "#fff", "stroke-width": 0.5}, tip);
        if (pol > 0) el(svg, "rect", {x: x0, y: y, width: w, height: LANE, fill: fill(pol), "pointer-events": "none"});
        if (w > 8 * d.tasks[task].name.length + 20)
          el(svg, "text", {x: x0 + 3, y: y + 20, fill: "#fff", "pointer-events": "none"}).textContent = taskName(d, task);
      }
    }
    // the run-queue depth strip
    let path = `M${LEFT},${y + LANE + DEPTH}`, pts = d.depth[c];
    const k0 = Math.max(upper(pts, from, p => p[0]) - 1, 0), yd = n => y + LANE + DEPTH - n / maxDepth * (DEPTH - 2);
    for (let k = k0; k < pts.length && pts[k][0] < to; k++) {
      const xa = xOf(Math.max(pts[k][0], from)), xb = xOf(Math.min(k + 1 < pts.length ? pts[k + 1][0] : d.t1, to));
      path += `L${xa},${yd(pts[k][1])}L${xb},${yd(pts[k][1])}`;
    }
    path += `L${xOf(Math.min(to, d.t1))},${y + LANE + DEPTH}z`;
    const strip = el(svg, "path", {class: "depth", d: path, fill: "#bbb"});
    strip.dataset.cpu = c;
    el(svg, "rect", {x: LEFT, y: y + LANE, width: width(), height: DEPTH, fill: "transparent", class: "depthhover"}).dataset.cpu = c;
    el(svg, "text", {class: "small", x: 4, y: y + LANE + 11, fill: "#777"}).textContent = `runnable (max ${maxDepth})`;
    for (const [lc, t, n] of d.lostMarks)
      if (lc === c && t >= from && t <= to)
        el(svg, "rect", {x: xOf(t) - 1, y: y - 2, width: 3, height: LANE + 4, fill: "#d00"}, `cpu${c}: ${n} events lost before ${ms(t)} ms (the buffer was full)`);
    if (agg) return;
    for (const [lc, tw, tr, task] of d.lat)
      if (lc === c && tr >= from && tw <= to && taskShown(d, task) && xOf(tr) - xOf(tw) > 1.5)
        el(svg, "path", {d: (tw >= from ? `M${xOf(tw)},${y + 4}v-4` : `M${LEFT},${y}`) +
                            (tr <= to ? `H${xOf(tr)}v4` : `H${LEFT + width()}`),
                         fill: "none", stroke: colour(task), "stroke-width": 1.5},
           `${taskName(d, task)}: woke at ${ms(tw)} ms, ran at ${ms(tr)} ms on cpu${c}\nwake-up latency ${us(tr - tw)} us`);
  });
  const g = el(svg, "g", {}), rowOf = {};
  cpus.forEach((c, r) => rowOf[c] = r);
  const inView = d.marks.slice(upper(d.marks, from - 1, m => m[0]), upper(d.marks, to, m => m[0]));
  const note = document.getElementById("tlnote");
  note.textContent = summed.size ? " (zoomed out: running time summed per 2-pixel column; zoom in to see each stint and the marks)" :
    inView.length > 4000 ? ` (${inView.length} marks: zoom in to see them)` : "";
  if (inView.length <= 4000) {
    for (const m of inView)
      if (rowOf[m[1]] !== undefined && !summed.has(m[1]) && shown.has(EVENTS[m[2]]) &&
          (m[3] < 0 || taskShown(d, m[3])))
        mark(g, d, m, TOP + rowOf[m[1]] * H);
  }
  drawSelection(svg, TOP, cpus.length * H);
}

// One row per task: its stair as a step line, only while it is runnable.
function drawRows(d) {
  const svg = document.getElementById("rows"), list = [];
  for (let i = 0; i < d.tasks.length; i++) if (taskShown(d, i)) list.push(i);
  svg.innerHTML = "";
  svg.setAttribute("width", LEFT + width() + 40);
  svg.setAttribute("height", TOP + list.length * ROW + 6);
  axis(svg, TOP, TOP + list.length * ROW);
  list.forEach((i, r) => {
    const y = TOP + r * ROW, task = d.tasks[i], pts = d.prio[i], c = colour(i);
    const segs = d.segs[i].filter(s => !hidden.cpu.has(s[3]));
    const bg = el(svg, "rect", {class: "taskrow", x: LEFT, y: y + 2, width: width(), height: ROW - 4});
    bg.dataset.task = i;
    el(svg, "rect", {x: 4, y: y + 8, width: 12, height: 12, fill: c});
    el(svg, "text", {x: 20, y: y + 18}).textContent = `${task.name} (${task.key})`;
    if (r > 0 && task.group !== d.tasks[list[r - 1]].group)
      el(svg, "line", {class: "groupline", x1: 0, x2: LEFT + width(), y1: y, y2: y, stroke: "#333", "stroke-width": 1.5});
    el(svg, "text", {class: "small", x: 20, y: y + 32, fill: "#555"}).textContent = (task.group ? task.group + "; " : "") +
      task.pol.map(p => POLICIES[p]).join(" > ") + (task.names.length > 1 ? "  was " + task.names.slice(0, -1).join(", ") : "");
    if (!pts.length) return;
    // One stair axis for every row (d.axis), so rows compare; the
    // "zoom each row" box gives each row its own range instead.
    let [lo, hi] = d.axis;
    if (document.getElementById("rowzoom").checked) {
      lo = Math.min(...pts.map(p => p[1])); hi = Math.max(...pts.map(p => p[1]));
      if (hi - lo < 4) { lo -= 2; hi += 2; }
    }
    const yOf = v => y + 6 + (v - lo) / (hi - lo) * (ROW - 14);
    el(svg, "text", {class: "small", x: LEFT - 24, y: y + 10, fill: "#777"}).textContent = lo;
    el(svg, "text", {class: "small", x: LEFT - 24, y: y + ROW - 5, fill: "#777"}).textContent = hi;
    const p0 = upper(pts, from, p => p[0]), p1 = upper(pts, to, p => p[0]);
    if (p1 - p0 > width() / 2) {
      // zoomed out: the range of stairs in each 2-pixel column
      const px = 2, nb = Math.ceil(width() / px), span = (to - from) / nb, band = [];
      for (let k = p0; k < p1; k++) {
        const b = Math.floor((pts[k][0] - from) / span), v = pts[k][1];
        const cur = band[b] || (band[b] = [v, v]);
        cur[0] = Math.min(cur[0], v); cur[1] = Math.max(cur[1], v);
      }
      let last = prioAt(pts, from)[1];
      for (let b = 0; b < nb; b++) {
        const t = from + b * span, st = segs.find(s => s[0] < t + span && s[1] > t);
        const [a, z] = band[b] || [last, last];
        if (band[b]) last = pts[Math.min(upper(pts, t + span, p => p[0]), pts.length) - 1][1];
        if (!st) continue;
        el(svg, "rect", {class: "stair", x: LEFT + b * px, y: yOf(a) - 1, width: px, height: yOf(z) - yOf(a) + 2,
                         fill: c, opacity: st[2] === 0 ? 1 : 0.45});
      }
    } else {
      for (const [s0, s1, st] of segs) {
        if (s1 < from || s0 > to) continue;
        const a = Math.max(s0, from), b = Math.min(s1, to);
        let v = prioAt(pts, a)[1], path = `M${xOf(a)},${yOf(v)}`;
        for (let k = upper(pts, a, p => p[0]); k < pts.length && pts[k][0] < b; k++) {
          path += `H${xOf(pts[k][0])}V${yOf(pts[k][1])}`;
          v = pts[k][1];
        }
        path += `H${xOf(b)}`;
        el(svg, "path", {class: "stair", d: path, fill: "none", stroke: c, "stroke-width": st === 0 ? 2.5 : 1.5,
                         "stroke-dasharray": st === 0 ? "none" : "4 3", opacity: st === 0 ? 1 : 0.6,
                         "pointer-events": "none"});
      }
      let lastX = -1e9, lastV = null;
      for (let k = Math.max(p0 - 1, 0); k < p1; k++) {
        const [t, v, ev] = pts[k], x = xOf(t);
        const changed = lastV !== null && v !== lastV;
        lastV = v;
        if (!changed || t < from || x - lastX < 34) continue;
        lastX = x;
        el(svg, "text", {class: "small", x: x + 2, y: Math.max(yOf(v) - 2, y + 9), fill: "#333", "pointer-events": "none"})
          .textContent = ABBR[EVENTS[ev]] || EVENTS[ev];
      }
    }
  });
  drawSelection(svg, TOP, list.length * ROW);
}

function drawSelection(svg, y, h) {
  if (!sel) return;
  const a = Math.max(sel[0], from), b = Math.min(sel[1], to);
  if (b <= a) return;
  el(svg, "rect", {x: xOf(a), y: y, width: xOf(b) - xOf(a), height: h, fill: "rgba(40,90,220,0.12)",
                   stroke: "rgba(40,90,220,0.6)", "pointer-events": "none"});
}

// What a task row says at time t.
function rowTip(d, i, t) {
  const task = d.tasks[i], p = prioAt(d.prio[i], t), segs = d.segs[i];
  const s = segs[Math.max(upper(segs, t, x => x[0]) - 1, 0)];
  const where = s && s[0] <= t && t < s[1] ? (s[2] === 0 ? `running on ${cpuName(d, s[3])}` : `waiting on ${cpuName(d, s[3])}'s queue`)
                                           : "asleep (or not there)";
  let out = `${ms(t)} ms  ${taskName(d, i)}\n${where}`;
  if (p) {
    out += `\nprio ${p[1]}` + (p[3] !== null && p[3] !== undefined ? `  burst ${p[3]}  slice ${p[4]}` : "");
    out += `\nsince ${ms(p[0])} ms: ${REASONS[EVENTS[p[2]]] || EVENTS[p[2]]}` + (p[5] ? ` (log line ${p[5]})` : "");
  }
  return out;
}

function depthTip(d, c, t) {
  const pts = d.depth[c], p = pts[Math.max(upper(pts, t, x => x[0]) - 1, 0)];
  return `${ms(t)} ms  ${cpuName(d, c)}: ${p[1]} task(s) running or waiting`;
}

function stats(d) {
  const a = sel ? sel[0] : from, b = sel ? sel[1] : to, span = Math.max(b - a, 1), rows = {};
  const R = i => rows[i] || (rows[i] = {run: 0, runs: 0, wakes: 0, lat: 0, max: 0, drops: 0, ends: 0, moves: 0});
  const busy = new Array(d.ncpus).fill(0);
  for (const [c, s0, s1, task] of d.stints) {
    const o = Math.min(s1, b) - Math.max(s0, a);
    if (o <= 0) continue;
    if (task >= 0) { R(task).run += o; busy[c] += o; if (s0 >= a) R(task).runs++; }
  }
  for (const [, tw, tr, task] of d.lat)
    if (tr >= a && tr <= b) { const r = R(task); r.wakes++; r.lat += tr - tw; r.max = Math.max(r.max, tr - tw); }
  for (const m of d.marks) {
    if (m[0] < a || m[0] > b || m[3] < 0) continue;
    const name = EVENTS[m[2]];
    if (name === "stair_drop") R(m[3]).drops++;
    else if (name === "slice_end") R(m[3]).ends++;
    else if (name === "migrate") R(m[3]).moves++;
  }
  document.getElementById("range").textContent = `${sel ? "of the selection" : "of the view"}: ${ms(a)} - ${ms(b)} ms (${ms(b - a)} ms)`;
  let h = "<table><tr><th>task</th><th>run ms</th><th>share of a CPU</th><th>runs</th><th>wake-ups</th>" +
          "<th>avg latency us</th><th>max latency us</th><th>stair drops</th><th>slice ends</th><th>migrations in</th></tr>";
  for (const i of Object.keys(rows).map(Number).sort((x, y) => rows[y].run - rows[x].run)) {
    if (!taskShown(d, i)) continue;
    const r = rows[i];
    h += `<tr><td><svg class="sw"><rect width="14" height="12" fill="${colour(i)}"/></svg>${taskName(d, i).replace(/</g, "&lt;")}</td>` +
         `<td>${ms(r.run)}</td><td>${(100 * r.run / span).toFixed(1)}%</td><td>${r.runs}</td><td>${r.wakes}</td>` +
         (d.recorder.includes(i) ? `<td>-</td><td>- (the recorder)</td>` :
          `<td>${r.wakes ? us(r.lat / r.wakes) : "-"}</td><td>${r.wakes ? us(r.max) : "-"}</td>`) +
         `<td>${r.drops}</td><td>${r.ends}</td><td>${r.moves}</td></tr>`;
  }
  h += "</table><p>" + busy.map((x, c) => `${cpuName(d, c)} busy ${(100 * x / span).toFixed(1)}%`).join(", ") + "</p>";
  document.getElementById("stats").innerHTML = h;
}

function draw() {
  const d = DATA[bi];
  if (!(to > from)) { from = 0; to = Math.max(d.t1, 1); }
  document.getElementById("from").value = ms(from);
  document.getElementById("to").value = ms(to);
  document.getElementById("zsel").disabled = document.getElementById("csel").disabled = !sel;
  document.getElementById("info").textContent = d.groups ?
    d.groups.map((g, k) => `${k ? "below" : "above"}, ${g.label}: ${g.events} events, ${g.cpus[1]} CPUs, ` +
                           `${g.tasks[1]} tasks, ${ms(g.t1)} ms`).join("; ") + " (one time axis, each from its first event)" :
    `block ${bi + 1} of ${DATA.length} (log line ${d.line})${d.stream ? ", streamed" : ""}: ${d.events} events` +
    (d.lost ? `, ${d.lost} lost` : "") + `, ${d.ncpus} CPUs, ${d.tasks.length} tasks, ${ms(d.t1)} ms`;
  drawTimeline(d);
  drawRows(d);
  stats(d);
  const r = document.getElementById("rendered");
  r.dataset.lanes = document.querySelectorAll("#timeline .lane").length;
  r.dataset.rows = document.querySelectorAll("#rows .taskrow").length;
  r.dataset.stairs = document.querySelectorAll("#rows .stair").length;
  r.dataset.bars = document.querySelectorAll("#timeline .bar, #timeline .agg").length;
  r.dataset.statrows = document.querySelectorAll("#stats tr").length - 1;
  r.dataset.grouplines = document.querySelectorAll(".groupline").length;
  r.textContent = "rendered";
}

function setup() {
  const d = DATA[bi];
  byCpu = [];
  for (let c = 0; c < d.ncpus; c++) byCpu.push([]);
  for (const s of d.stints) byCpu[s[0]].push(s);
  const notes = document.getElementById("notes");
  notes.innerHTML = "";
  for (const n of d.notes) {
    const div = document.createElement("div");
    div.className = "note";
    div.textContent = n;
    notes.appendChild(div);
  }
  const check = (box, label, on, toggle, swatch) => {
    const l = document.createElement("label");
    l.innerHTML = `<input type="checkbox" ${on ? "checked" : ""}>${swatch || ""}`;
    l.appendChild(document.createTextNode(label));
    l.querySelector("input").onchange = e => { toggle(e.target.checked); draw(); };
    box.appendChild(l);
  };
  const ft = document.getElementById("ftasks"), fp = document.getElementById("fpol");
  const fc = document.getElementById("fcpu"), fm = document.getElementById("fmarks");
  ft.innerHTML = fp.innerHTML = fc.innerHTML = fm.innerHTML = "";
  d.tasks.forEach((t, i) => check(ft, (t.group ? t.group + ": " : "") + `${t.name} (${t.key})`, !hidden.task.has(i),
    on => on ? hidden.task.delete(i) : hidden.task.add(i),
    `<svg class="sw"><rect width="14" height="12" fill="${colour(i)}"/></svg>`));
  const pols = new Set();
  for (const t of d.tasks) for (const p of t.pol) pols.add(p);
  for (const p of [...pols].sort())
    check(fp, POLICIES[p].toUpperCase(), !hidden.pol.has(p), on => on ? hidden.pol.delete(p) : hidden.pol.add(p),
      `<svg class="sw"><rect width="14" height="12" fill="#777"/><rect width="14" height="12" fill="${fill(p)}"/></svg>`);
  for (let c = 0; c < d.ncpus; c++)
    check(fc, cpuName(d, c), !hidden.cpu.has(c), on => on ? hidden.cpu.delete(c) : hidden.cpu.add(c));
  for (const ev in MARKS)
    check(fm, MARKS[ev][0], shown.has(ev), on => on ? shown.add(ev) : shown.delete(ev),
      `<span style="color:${MARKS[ev][1]}">&#9632;</span>`);
}

function zoom(f) { const c = (from + to) / 2, h = (to - from) * f / 2; from = Math.max(0, c - h); to = c + h; draw(); }
function pan(f) { const s = (to - from) * f; from += s; to += s; draw(); }
document.getElementById("in").onclick = () => zoom(0.5);
document.getElementById("out").onclick = () => zoom(2);
document.getElementById("left").onclick = () => pan(-0.5);
document.getElementById("right").onclick = () => pan(0.5);
document.getElementById("all").onclick = () => { from = to = 0; draw(); };
document.getElementById("rowzoom").onchange = () => draw();
document.getElementById("go").onclick = () => {
  from = +document.getElementById("from").value * 1e6; to = +document.getElementById("to").value * 1e6; draw(); };
document.getElementById("zsel").onclick = () => { if (sel) { [from, to] = sel; sel = null; draw(); } };
document.getElementById("csel").onclick = () => { sel = null; draw(); };
const blocks = document.getElementById("block");
DATA.forEach((d, i) => blocks.add(new Option(`block ${i + 1}`, i)));
blocks.value = bi;
blocks.onchange = () => { bi = +blocks.value; from = to = 0; sel = null; setup(); draw(); };

// Drag across the lanes or the rows to select; double-click to zoom to it.
let dragFrom = null;
for (const id of ["timeline", "rows"]) {
  const svg = document.getElementById(id);
  const tAt = ev => tOf(ev.clientX - svg.getBoundingClientRect().left);
  svg.onmousedown = ev => { dragFrom = tAt(ev); ev.preventDefault(); };
  svg.onmouseup = ev => {
    const t = tAt(ev);
    if (dragFrom !== null && Math.abs(xOf(t) - xOf(dragFrom)) > 4) {
      sel = [Math.max(0, Math.min(t, dragFrom)), Math.max(t, dragFrom)]; draw();
    }
    dragFrom = null;
  };
  svg.ondblclick = () => { if (sel) { [from, to] = sel; sel = null; draw(); } };
}

// Hover: drawn things carry their details in data-tip; rows and depth
// strips compute theirs from the time under the pointer.
const tip = document.getElementById("tip");
document.onmousemove = ev => {
  const e = ev.target, d = DATA[bi];
  let t = e.dataset && e.dataset.tip;
  if (!t && e.dataset && (e.dataset.task !== undefined || e.dataset.cpu !== undefined)) {
    const svg = e.ownerSVGElement, at = tOf(ev.clientX - svg.getBoundingClientRect().left);
    t = e.dataset.task !== undefined ? rowTip(d, +e.dataset.task, at) : depthTip(d, +e.dataset.cpu, at);
  }
  tip.style.display = t ? "block" : "none";
  if (t) { tip.textContent = t; tip.style.left = ev.clientX + 14 + "px"; tip.style.top = ev.clientY + 10 + "px"; }
};
window.onresize = draw;

if (q.get("from") !== null) from = +q.get("from") * 1e6;
if (q.get("to") !== null) to = +q.get("to") * 1e6;
if (q.get("sel") !== null) {            // ?sel=A,B (ms): select that range, as a drag would
  const [a, b] = q.get("sel").split(",").map(v => +v * 1e6);
  if (b > a) sel = [a, b];
}
setup();
draw();
</script></body></html>
"""


def compare_main(args, warn):
    """--compare RECORDED REPLAYED: the page (and --json), or --text of each."""
    labels = ("recorded", "replayed")
    if args.ftrace or args.log != "-":
        warn("--compare takes its two logs, and no --ftrace (Linux's text has one run's CPUs)")
        return 1
    try:
        if args.text:
            for path, label in zip(args.compare, labels):
                with open(path, errors="replace") as f:
                    blocks = parse(f.read().splitlines(), path, warn)
                print(f"{label}: {path}")
                print_text(blocks[:1], sys.stdout)
            return 0
        output = args.output or (None if args.json else "compare.html")
        return 0 if write_compare(args.compare, labels, output, args.json, warn) else 1
    except OSError as e:
        warn(f"{e.filename or 'output'}: {e.strerror}")
        return 1


def main(argv=None):
    ap = argparse.ArgumentParser(description="Draw the scheduler traces in a log, or export them.")
    ap.add_argument("log", nargs="?", default="-", help="the serial log (default: stdin)")
    ap.add_argument("-o", "--output", help="HTML file to write (trace.html if no export is asked for)")
    ap.add_argument("--ftrace", metavar="OUT", help="write Linux ftrace text (Perfetto, chrome://tracing)")
    ap.add_argument("--json", metavar="OUT", help="write Chrome trace-event JSON (Perfetto, chrome://tracing)")
    ap.add_argument("--block", type=int, default=1, help="the block to export (default 1)")
    ap.add_argument("--text", action="store_true", help="print a per-CPU summary table instead")
    ap.add_argument("--compare", nargs=2, metavar=("RECORDED", "REPLAYED"),
                    help="draw two logs' first blocks one above the other in one view "
                         "(-o, default compare.html; --json: the two as two processes)")
    args = ap.parse_args(argv)

    def warn(msg):
        print(f"traceview: {msg}", file=sys.stderr)

    if args.compare:
        return compare_main(args, warn)

    try:
        if args.log == "-":
            name, lines = "<stdin>", sys.stdin.read().splitlines()
        else:
            with open(args.log, errors="replace") as f:
                name, lines = args.log, f.read().splitlines()
    except OSError as e:
        warn(f"cannot read {args.log}: {e.strerror}")
        return 1
    blocks = parse(lines, name, warn)
    if not blocks:
        warn(f"{name}: no trace found (no 'trace: begin' line); record one with "
             "`trace run PROGRAM` or the boot parameter trace=1 (docs/trace.md)")
        return 1
    if args.text:
        print_text(blocks, sys.stdout)
        return 0
    if not 1 <= args.block <= len(blocks):
        warn(f"--block {args.block}: the log has {len(blocks)} block(s)")
        return 1
    which = args.block - 1
    if args.ftrace:
        with open(args.ftrace, "w") as out:
            write_ftrace(blocks, out, which)
        print(f"traceview: wrote {args.ftrace}: block {args.block}, Linux ftrace text")
    if args.json:
        with open(args.json, "w") as out:
            write_json(blocks, name, out, which)
        print(f"traceview: wrote {args.json}: block {args.block}, Chrome trace-event JSON")
    if args.output or not (args.ftrace or args.json):
        output = args.output or "trace.html"
        with open(output, "w") as out:
            write_html(blocks, name, out)
        print(f"traceview: wrote {output}: {len(blocks)} block(s), "
              f"{sum(len(b.events) for b in blocks)} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
