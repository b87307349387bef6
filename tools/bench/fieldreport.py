#!/usr/bin/env python3
"""fieldreport.py - the field's benchmarks' section of bench/results/latest.md
(tools/bench/field.sh): cyclictest, hackbench and stress-ng on this kernel
and Linux 6.1 from the two serial logs, this / Linux / ratio per row.

Each program's lines are cut from the log between init's "running PATH"
and its "PATH exited" line, in the order field.sh ran them. The section
replaces whatever stands between the markers (or is added at the end)."""
import argparse
import re
import time

BEGIN, END = "<!-- field:begin -->", "<!-- field:end -->"
RUNS = ["cyclictest", "hackbench_p", "hackbench_pT", "stressng_cpu",
        "stressng_fifo", "cyclictest_hogs", "hackbench_s", "hackbench_sT"]


def sections(path):
    """The output of each program init ran, in order."""
    out, cur = [], None
    for line in open(path, errors="replace").read().replace("\r", "").splitlines():
        if line.startswith("init: running "):
            cur = []
            out.append(cur)
        elif re.match(r"init: \S+ (exited|killed)", line):
            if cur is not None:
                cur.append(line)
            cur = None
        elif cur is not None:
            cur.append(line)
    return dict(zip(RUNS, out))


def cyclictest(lines):
    """(max of the threads' Max, mean of their Avg), us; the T: lines."""
    t = [ln for ln in lines if ln.startswith("T:")]
    mx = [int(m.group(1)) for ln in t if (m := re.search(r"Max:\s*(\d+)", ln))]
    av = [int(m.group(1)) for ln in t if (m := re.search(r"Avg:\s*(\d+)", ln))]
    if not mx:
        return None, None, t
    return max(mx), sum(av) / len(av), t


def hackbench(lines):
    for ln in lines:
        if m := re.match(r"Time:\s*([\d.]+)", ln):
            return float(m.group(1))
    return None


def stressng(lines):
    """(bogo ops, bogo ops/s in real time) of the cpu stressor."""
    for ln in lines:
        m = re.search(r"metrc: \[\d+\] cpu\s+(\d+)\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+([\d.]+)", ln)
        if m:
            return int(m.group(1)), float(m.group(3))
    return None, None


def fmt(v, nd=0):
    if v is None:
        return "-"
    return f"{v:,.{nd}f}"


def ratio(a, b):
    return f"{a / b:.2f}x" if a is not None and b else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True)
    ap.add_argument("--linux", required=True)
    ap.add_argument("--linux-version", default="6.1")
    ap.add_argument("--loops", default="1000")
    ap.add_argument("--latest", required=True)
    a = ap.parse_args()
    o, l = sections(a.ours), sections(a.linux)
    rows, raw = [], []
    for key, what in (("cyclictest", "idle"), ("cyclictest_hogs", "beside 2 NORMAL hogs (`beside 2 cyclictest ...`)")):
        om, oa, ot = cyclictest(o.get(key, []))
        lm, la, lt = cyclictest(l.get(key, []))
        cmd = f"`cyclictest -m -p 80 -i 1000 -l {a.loops} -t -q`, {what}"
        rows.append((cmd + ": max latency (us, worst thread)", fmt(om), fmt(lm), ratio(om, lm)))
        rows.append((cmd + ": average latency (us, mean of the threads)", fmt(oa, 1), fmt(la, 1), ratio(oa, la)))
        raw.append((what, ot, lt))
    for key, cmd in (("hackbench_p", "`hackbench -p -g 4 -l 200` (pipes, processes): seconds"),
                     ("hackbench_pT", "`hackbench -p -T -g 4 -l 200` (pipes, threads): seconds"),
                     ("hackbench_s", "`hackbench -g 4 -l 200` (socket pairs, processes): seconds"),
                     ("hackbench_sT", "`hackbench -T -g 4 -l 200` (socket pairs, threads): seconds")):
        ov, lv = hackbench(o.get(key, [])), hackbench(l.get(key, []))
        rows.append((cmd, fmt(ov, 3), fmt(lv, 3), ratio(ov, lv)))
    for key, cmd in (("stressng_cpu", "`stress-ng --cpu 1 --timeout 5s --metrics-brief`: bogo ops/s"),
                     ("stressng_fifo", "`stress-ng --sched fifo --sched-prio 50 --cpu 1 --timeout 5s --metrics-brief`: bogo ops/s")):
        (oo, ov), (lo, lv) = stressng(o.get(key, [])), stressng(l.get(key, []))
        rows.append((cmd + f" (ops: {fmt(oo)} / {fmt(lo)})", fmt(ov, 2), fmt(lv, 2), ratio(ov, lv)))
    t = [BEGIN, "## The field's benchmarks (Debian's rt-tests and stress-ng, virtual time)", "",
         f"Written by `make bench-field` (tools/bench/field.sh) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
         "Debian bookworm's i386 rt-tests 2.4 and stress-ng 0.15.06, unchanged and dynamically linked, "
         "the same files and command lines on both kernels, one boot each under "
         "`-icount shift=2,sleep=off -smp 1 -m 256M`: **every row is virtual time** (4 ns per instruction, "
         "one CPU: Linux 6.1 does not bring up a second CPU under -icount here), so the figures repeat. "
         f"Linux is Debian's linux-image-686 ({a.linux_version}). One run, not a median. "
         "How to read them against published figures: [docs/bench.md](../../docs/bench.md), \"The field's benchmarks\".", "",
         f"| benchmark | this kernel | Linux {a.linux_version} | ratio (this / Linux) |", "|---|---:|---:|---:|"]
    t += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} |" for r in rows]
    t += ["", "cyclictest's own lines (T: thread (tid) P:priority I:interval C:cycles Min Act Avg Max, us):", ""]
    for what, ot, lt in raw:
        t += [f"- {what}, this kernel:", ""] + ["      " + x for x in ot] + ["", f"- {what}, Linux:", ""] + ["      " + x for x in lt] + [""]
    t.append(END)
    sec = "\n".join(t)
    try:
        text = open(a.latest).read()
    except FileNotFoundError:
        text = ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + sec + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + sec + "\n"
    open(a.latest, "w").write(text)
    print("\n".join(t[6:6 + 2 + len(rows)]))


if __name__ == "__main__":
    main()
