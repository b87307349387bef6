#!/usr/bin/env python3
"""traceview.py - draw the scheduler traces found in a serial log.

The kernel prints a trace (docs/trace.md) as a block of lines:

    trace: begin 236 events, 0 lost, 2 cpus
    trace: 20612532 cpu0 switch pid 5 rr prio 49
    ...
    trace: end

Usage:
    tools/traceview.py build/test-logs/trace_rr_1cpu.log -o rr.html
    tools/traceview.py --text serial.log      # per-CPU table per task
    make run ... | tee log; tools/traceview.py log

The HTML file is self-contained (inline SVG drawn by a little JavaScript,
no network): one lane per CPU with a bar per running stint, coloured by
policy and labelled by pid; marks for wake-ups, stair drops, migrations
and the rest; below it each task's priority over time, where a NORMAL hog
walks down the staircase one stair per quantum. Hover for details; zoom
with the buttons, by dragging across the timeline, or with ?from=MS&to=MS
in the address. Python 3 standard library only.
"""
import argparse
import html
import json
import re
import sys

EVENTS = ("switch", "wakeup", "sleep", "stair_drop", "slice_end", "preempt",
          "yield", "fork", "migrate", "nice", "iso_throttle", "smt_idle")
POLICIES = ("normal", "fifo", "rr", "batch", "iso", "idle", "-")

BEGIN = re.compile(r"^trace: begin (\d+) events(?:, (\d+) lost)?(?:, (\d+) cpus)?")
EVENT = re.compile(r"^trace: (\d+) cpu(\d+) (\w+) pid (-?\d+) (\S+) (\w+) (-?\d+)$")
END = re.compile(r"^trace: end\b")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Block:
    """One begin..end block: its events and where it was in the log."""

    def __init__(self, line, declared, lost, ncpus):
        self.line, self.declared, self.lost, self.ncpus = line, declared, lost, ncpus
        self.events = []        # dicts, in the order printed (time order)
        self.ended = False


def parse(lines, name, warn):
    """The blocks in a log; bad lines are reported through warn() and skipped."""
    blocks, cur = [], None
    for no, raw in enumerate(lines, 1):
        text = ANSI.sub("", raw).strip()
        m = BEGIN.match(text)
        if m:
            if cur and not cur.ended:
                warn(f"{name}:{cur.line}: trace block has no 'trace: end' before the next begin")
            cur = Block(no, int(m[1]), int(m[2] or 0), int(m[3] or 0))
            blocks.append(cur)
            continue
        if not cur or cur.ended or not text.startswith("trace:"):
            continue            # other console output: not ours
        if END.match(text):
            cur.ended = True
            continue
        m = EVENT.match(text)
        if not m or m[3] not in EVENTS:
            warn(f"{name}:{no}: malformed trace line skipped: {text!r}")
            continue
        cur.events.append(dict(t=int(m[1]), cpu=int(m[2]), ev=m[3], pid=int(m[4]),
                               policy=m[5], argname=m[6], arg=int(m[7]), line=no))
    for b in blocks:
        if not b.ended:
            warn(f"{name}:{b.line}: trace block has no 'trace: end' (log cut short?); "
                 f"using the {len(b.events)} events read")
        elif len(b.events) != b.declared:
            warn(f"{name}:{b.line}: trace block says {b.declared} events, read {len(b.events)}")
    return blocks


def analyse(block):
    """Running stints per CPU, marks, and each task's priority over time.
    Times are ns from the block's first event."""
    ev = block.events
    t0 = ev[0]["t"] if ev else 0
    t1 = ev[-1]["t"] - t0 if ev else 0
    ncpus = max([block.ncpus] + [e["cpu"] + 1 for e in ev])
    running = {}                # cpu -> the open stint
    stints, marks, prio = [], [], {}
    last_seen = {}
    for e in ev:
        t = e["t"] - t0
        if e["pid"] > 0:
            last_seen[e["pid"]] = t
            if e["argname"] == "prio":
                prio.setdefault(e["pid"], []).append([t, e["arg"]])
        if e["ev"] == "switch":
            if e["cpu"] in running:
                running[e["cpu"]]["end"] = t
            s = dict(cpu=e["cpu"], start=t, end=t1, pid=e["pid"], policy=e["policy"],
                     prio=e["arg"])
            running[e["cpu"]] = s
            stints.append(s)
        else:
            marks.append(dict(t=t, cpu=e["cpu"], ev=e["ev"], pid=e["pid"], policy=e["policy"],
                              argname=e["argname"], arg=e["arg"], line=e["line"]))
    for pid, pts in prio.items():
        pts.append([last_seen[pid], pts[-1][1]])   # hold the last value to the end
    return dict(t1=t1, ncpus=ncpus, stints=stints, marks=marks, prio=prio,
                line=block.line, events=len(ev), lost=block.lost)


def summary(a):
    """Per CPU, per pid: [run ns, runs, stair drops, migrations onto it,
    policy]. The policy is the last one seen (a test's hogs start NORMAL
    and then switch to the policy they test)."""
    table = {}

    def row(cpu, pid, policy):
        r = table.setdefault(cpu, {}).setdefault(pid, [0, 0, 0, 0, policy])
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
        table = summary(a)
        for cpu in range(a["ncpus"]):
            out.write(f"cpu{cpu}\n  {'pid':>5} {'policy':<7} {'run ms':>10} {'share':>6} "
                      f"{'runs':>6} {'avg ms':>8} {'stair drops':>11} {'migrations in':>13}\n")
            rows = sorted(table.get(cpu, {}).items(), key=lambda kv: -kv[1][0])
            for pid, (run, runs, drops, moves, policy) in rows:
                share = 100 * run / a["t1"] if a["t1"] else 0
                avg = run / runs / 1e6 if runs else 0
                out.write(f"  {pid:>5} {policy:<7} {run / 1e6:>10.3f} {share:>5.1f}% "
                          f"{runs:>6} {avg:>8.3f} {drops:>11} {moves:>13}\n")


def write_html(blocks, name, out):
    data = [analyse(b) for b in blocks]
    out.write(PAGE.replace("@TITLE@", html.escape(name))
                  .replace("@DATA@", json.dumps(data, separators=(",", ":"))
                           .replace("</", "<\\/")))


PAGE = r"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>trace: @TITLE@</title>
<style>
body { font: 13px sans-serif; margin: 12px; color: #222; }
h1 { font-size: 17px; margin: 0 0 6px; }
#bar { margin: 6px 0; } #bar button, #bar input, #bar select { font: inherit; }
#bar input { width: 80px; }
#legend span { display: inline-block; margin: 2px 10px 2px 0; }
#legend .sw { width: 12px; height: 12px; vertical-align: -2px; margin-right: 4px; }
#tip { position: fixed; pointer-events: none; background: #ffd; border: 1px solid #999;
       padding: 3px 6px; display: none; white-space: pre; font: 12px monospace; }
svg text { font: 11px sans-serif; }
.axis line { stroke: #ccc; } .lane { fill: #f6f6f6; }
</style></head><body>
<h1>Scheduler trace: @TITLE@</h1>
<div id="info"></div>
<div id="bar">
 <select id="block"></select>
 from <input id="from"> to <input id="to"> ms <button id="go">show</button>
 <button id="in">zoom in</button> <button id="out">zoom out</button>
 <button id="left">&larr;</button> <button id="right">&rarr;</button>
 <button id="all">all</button> <i>(or drag across the timeline)</i>
</div>
<div id="legend"></div>
<svg id="timeline"></svg>
<h1>Priority over time <small>(lower number = more urgent; 100..139 are the stairs)</small></h1>
<svg id="prio"></svg>
<div id="tip"></div>
<script>
const DATA = @DATA@;
// Hue and saturation per policy; tasks of one policy differ in lightness
// (by pid) so that two hogs taking turns are told apart at a glance.
const HUE = {normal: [212, 40], fifo: [0, 70], rr: [28, 85], batch: [25, 30], iso: [110, 45], idle: [0, 0], "-": [0, 0]};
const colour = (policy, pid) => { const [h, s] = HUE[policy] || HUE["-"];
  return `hsl(${h},${s}%,${[46, 34, 58][pid % 3]}%)`; };
// Marks: what each event looks like on its CPU's lane.
const MARKS = {
  wakeup: ["wake-up", "#2a2"], sleep: ["sleep", "#888"], stair_drop: ["stair drop", "#000"],
  slice_end: ["slice end", "#a0a"], preempt: ["preempt", "#e15759"], yield: ["yield", "#07a"],
  fork: ["fork", "#2a2"], migrate: ["migrate", "#70c"], nice: ["nice/policy", "#07a"],
  iso_throttle: ["ISO throttle", "#f80"], smt_idle: ["SMT idle", "#d00"]};
const shown = new Set(["wakeup", "stair_drop", "slice_end", "migrate", "smt_idle", "preempt",
                       "iso_throttle", "fork", "yield"]);
const LEFT = 60, LANE = 46, NS = "http://www.w3.org/2000/svg";
const q = new URLSearchParams(location.search);
let bi = Math.min(Math.max(+(q.get("block") || 1), 1), DATA.length) - 1;
let from = 0, to = 0;

function el(parent, tag, attrs, tip) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (tip) e.dataset.tip = tip;
  parent.appendChild(e);
  return e;
}
const ms = ns => (ns / 1e6).toFixed(3);
function width() { return Math.max(600, document.body.clientWidth - LEFT - 60); }
function xOf(t) { return LEFT + (t - from) / (to - from) * width(); }

// Round tick spacing: 1, 2 or 5 times a power of ten, about 10 ticks.
function axis(svg, y0, y1) {
  const span = to - from, raw = span / 10, p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map(m => m * p).find(s => s >= raw);
  const g = el(svg, "g", {class: "axis"});
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) {
    el(g, "line", {x1: xOf(t), x2: xOf(t), y1: y0, y2: y1});
    el(g, "text", {x: xOf(t) + 2, y: y1 + 12}).textContent = (t / 1e6).toFixed(step < 1e6 ? 3 : 0) + " ms";
  }
}

function mark(g, m, y) {
  const x = xOf(m.t), c = MARKS[m.ev][1];
  const tip = `${ms(m.t)} ms  cpu${m.cpu}  ${m.ev}\npid ${m.pid} ${m.policy}  ${m.argname} ${m.arg}\nlog line ${m.line}`;
  const at = {
    wakeup: () => el(g, "path", {d: `M${x-4},${y+1}h8l-4,7z`, fill: c}, tip),
    sleep: () => el(g, "path", {d: `M${x},${y+38}v6`, stroke: c, "stroke-width": 2}, tip),
    stair_drop: () => el(g, "circle", {cx: x, cy: y + 12, r: 2.5, fill: "#fff", stroke: c}, tip),
    slice_end: () => el(g, "path", {d: `M${x},${y+8}v30`, stroke: c, "stroke-width": 2}, tip),
    preempt: () => el(g, "path", {d: `M${x-4},${y+45}h8l-4,-7z`, fill: c}, tip),
    migrate: () => el(g, "path", {d: `M${x},${y+2}l5,5l-5,5l-5,-5z`, fill: c}, tip),
    smt_idle: () => el(g, "path", {d: `M${x-4},${y+19}l8,8m0,-8l-8,8`, stroke: c, "stroke-width": 2}, tip),
  }[m.ev];
  if (at) return at();
  const letter = {yield: "y", fork: "+", nice: "n", iso_throttle: m.arg ? "T" : "t"}[m.ev];
  el(g, "text", {x: x - 3, y: y + 8, fill: c, "font-weight": "bold"}, tip).textContent = letter;
}

function drawTimeline(d) {
  const svg = document.getElementById("timeline"), h = d.ncpus * LANE + 30;
  svg.innerHTML = "";
  svg.setAttribute("width", LEFT + width() + 50);
  svg.setAttribute("height", h);
  axis(svg, 0, d.ncpus * LANE);
  for (let c = 0; c < d.ncpus; c++) {
    el(svg, "rect", {class: "lane", x: LEFT, y: c * LANE + 8, width: width(), height: 30});
    el(svg, "text", {x: 4, y: c * LANE + 28}).textContent = "cpu" + c;
  }
  for (const s of d.stints) {
    if (s.end < from || s.start > to || s.policy === "idle") continue;
    const x0 = xOf(Math.max(s.start, from)), x1 = xOf(Math.min(s.end, to)), y = s.cpu * LANE + 8;
    el(svg, "rect", {x: x0, y: y, width: Math.max(x1 - x0, 0.5), height: 30, fill: colour(s.policy, s.pid),
                     stroke: "#fff", "stroke-width": 0.5},
       `pid ${s.pid} (${s.policy}, prio ${s.prio}) on cpu${s.cpu}\n${ms(s.start)} - ${ms(s.end)} ms: ${ms(s.end - s.start)} ms`);
    if (x1 - x0 > 22)
      el(svg, "text", {x: x0 + 3, y: y + 26, fill: "#fff", "pointer-events": "none"}).textContent = s.pid;
  }
  const g = el(svg, "g", {});
  for (const m of d.marks)
    if (m.t >= from && m.t <= to && shown.has(m.ev)) mark(g, m, m.cpu * LANE);
}

function drawPrio(d) {
  const svg = document.getElementById("prio"), H = 260, pids = Object.keys(d.prio);
  svg.innerHTML = "";
  svg.setAttribute("width", LEFT + width() + 50);
  svg.setAttribute("height", H + 50 + 16 * Math.ceil(pids.length / 8));
  let lo = 141, hi = 0;
  for (const p of pids) for (const [, v] of d.prio[p]) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (lo > hi) return;
  lo = Math.max(0, lo - 1); hi = Math.min(141, hi + 1);
  const yOf = v => 10 + (v - lo) / (hi - lo) * H;
  axis(svg, 10, H + 10);
  const step = hi - lo > 40 ? 10 : hi - lo > 10 ? 5 : 1;
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step)
    el(svg, "text", {x: 4, y: yOf(v) + 4}).textContent = v;
  pids.forEach((p, i) => {
    const hue = `hsl(${(i * 137) % 360},65%,42%)`, pts = d.prio[p];
    let path = "";
    for (let k = 0; k < pts.length; k++) {
      const [t, v] = pts[k], next = k + 1 < pts.length ? pts[k + 1][0] : t;
      if (next < from || t > to) continue;
      const xa = xOf(Math.max(t, from)), xb = xOf(Math.min(next, to));
      path += `M${xa},${yOf(v)}H${xb}` + (k + 1 < pts.length && next <= to ? `V${yOf(pts[k + 1][1])}` : "");
    }
    el(svg, "path", {d: path, fill: "none", stroke: hue, "stroke-width": 2},
       `pid ${p}: priority over time`);
    const lx = LEFT + (i % 8) * 110, ly = H + 40 + 16 * Math.floor(i / 8);
    el(svg, "rect", {x: lx, y: ly - 9, width: 12, height: 10, fill: hue});
    el(svg, "text", {x: lx + 16, y: ly}).textContent = "pid " + p;
  });
}

function draw() {
  const d = DATA[bi];
  if (!(to > from)) { from = 0; to = Math.max(d.t1, 1); }
  document.getElementById("from").value = ms(from);
  document.getElementById("to").value = ms(to);
  document.getElementById("info").textContent =
    `block ${bi + 1} of ${DATA.length} (log line ${d.line}): ${d.events} events` +
    (d.lost ? `, ${d.lost} older ones lost` : "") + `, ${d.ncpus} CPUs, ${ms(d.t1)} ms`;
  drawTimeline(d);
  drawPrio(d);
}

function legend() {
  const L = document.getElementById("legend");
  for (const p of ["normal", "fifo", "rr", "batch", "iso"])
    L.insertAdjacentHTML("beforeend", `<span><svg class="sw"><rect width="12" height="12" fill="${colour(p, 0)}"/></svg>SCHED_${p.toUpperCase()}</span>`);
  L.insertAdjacentHTML("beforeend", "<br>marks: ");
  for (const ev in MARKS) {
    const s = document.createElement("span");
    s.innerHTML = `<label style="color:${MARKS[ev][1]}"><input type="checkbox" ${shown.has(ev) ? "checked" : ""}>${MARKS[ev][0]}</label>`;
    s.querySelector("input").onchange = e => { e.target.checked ? shown.add(ev) : shown.delete(ev); draw(); };
    L.appendChild(s);
  }
}

function zoom(f) { const c = (from + to) / 2, h = (to - from) * f / 2; from = Math.max(0, c - h); to = c + h; draw(); }
function pan(f) { const s = (to - from) * f; from += s; to += s; draw(); }
document.getElementById("in").onclick = () => zoom(0.5);
document.getElementById("out").onclick = () => zoom(2);
document.getElementById("left").onclick = () => pan(-0.5);
document.getElementById("right").onclick = () => pan(0.5);
document.getElementById("all").onclick = () => { from = to = 0; draw(); };
document.getElementById("go").onclick = () => {
  from = +document.getElementById("from").value * 1e6; to = +document.getElementById("to").value * 1e6; draw(); };
const sel = document.getElementById("block");
DATA.forEach((d, i) => sel.add(new Option(`block ${i + 1}`, i)));
sel.value = bi;
sel.onchange = () => { bi = +sel.value; from = to = 0; draw(); };

// Drag across the timeline to zoom into that range.
let dragFrom = null;
const tl = document.getElementById("timeline");
const tOf = ev => from + (ev.clientX - tl.getBoundingClientRect().left - LEFT) / width() * (to - from);
tl.onmousedown = ev => { dragFrom = tOf(ev); ev.preventDefault(); };
tl.onmouseup = ev => {
  const t = tOf(ev);
  if (dragFrom !== null && Math.abs(xOf(t) - xOf(dragFrom)) > 5) {
    from = Math.max(0, Math.min(t, dragFrom)); to = Math.max(t, dragFrom); draw();
  }
  dragFrom = null;
};

// Hover: every drawn thing carries its details in data-tip.
const tip = document.getElementById("tip");
document.onmousemove = ev => {
  const t = ev.target.dataset && ev.target.dataset.tip;
  tip.style.display = t ? "block" : "none";
  if (t) { tip.textContent = t; tip.style.left = ev.clientX + 14 + "px"; tip.style.top = ev.clientY + 10 + "px"; }
};
window.onresize = draw;

if (q.get("from") !== null) from = +q.get("from") * 1e6;
if (q.get("to") !== null) to = +q.get("to") * 1e6;
legend();
draw();
</script></body></html>
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description="Draw the scheduler traces in a serial log.")
    ap.add_argument("log", nargs="?", default="-", help="the serial log (default: stdin)")
    ap.add_argument("-o", "--output", default="trace.html", help="HTML file to write (trace.html)")
    ap.add_argument("--text", action="store_true", help="print a per-CPU summary table instead")
    args = ap.parse_args(argv)

    def warn(msg):
        print(f"traceview: {msg}", file=sys.stderr)

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
    with open(args.output, "w") as out:
        write_html(blocks, name, out)
    print(f"traceview: wrote {args.output}: {len(blocks)} block(s), "
          f"{sum(len(b.events) for b in blocks)} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
