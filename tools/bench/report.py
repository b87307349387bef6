#!/usr/bin/env python3
"""report.py - make bench's table and plot (issue 12, docs/bench.md).

Reads three "name value unit" files written by /bin/pathlen (this kernel's
default build, its DEBUG=0 build, Linux), writes a Markdown table and an
SVG bar plot (written by hand: python3's standard library only), and prints
the table.
"""
import argparse
import datetime
import html
import os
import re

import schedreport

# Figure name -> (label, target in instructions or None). Targets: issue
# 12, and issue 40's (the policy table always called: yield up to 2,500,
# getpid up to 110 with the readable C dispatcher; fork kept at 20,000).
FIGURES = [
    ("getpid", "getpid", 110),
    ("yield", "sched_yield, 2 processes on CPU 0, per call", 2500),
    ("pipe", "1-byte pipe round trip, 2 processes", 8000),
    ("fork", "fork + exit + wait", 20000),
    ("exec", "fork + exec + wait (/bin/pathlen exit0)", None),
]

# What make profile showed for each missed target (docs/bench.md).
CAUSES = {
    "getpid": "make profile ARGS=\"getpid 5000\": kernel 86 per call, user 15. "
              "The C dispatcher syscall() is 57: the six-argument call through "
              "the table (12 loads and stores, one per argument, for a call "
              "that takes none) 13, its frame and three saved registers 13, "
              "the return-to-user checks (need_resched, a pending signal, a "
              "sigsuspend mask to restore, an interrupted call to restart) about 20, "
              "the table lookup and syscall_nr about 10; the entry and exit asm 24 "
              "(segment registers and pushad, as Linux's i386 entry); "
              "sys_getpid 4. Meeting 85 means dispatching in assembly with the "
              "user's registers pushed as the arguments (Linux's old "
              "entry_32.S); we keep the C dispatcher a student can read.",
}


# xv6 (x86), measured the same way elsewhere (issue 12): instructions per
# operation under QEMU -icount shift=0; not measured by make bench.
XV6 = {"getpid": 1396, "pipe": 27247, "fork": 1988343}


WAKELAT = re.compile(r"^(?:not )?ok \d+ - (\S+) # cpu \d+, (\S+) beside .*?"
                     r"late avg (\d+) / p99 (\d+) / max (\d+) us")


def load_wakelat(path):
    """wakelat's KTAP lines -> {case: (policy, avg, p99, max)}."""
    rows = {}
    try:
        with open(path) as f:
            for line in f:
                m = WAKELAT.match(line)
                if m:
                    rows[m.group(1)] = (m.group(2),) + tuple(int(x) for x in m.groups()[2:])
    except OSError:
        pass
    return rows


def wakelat_table(ours, linux, linux_version):
    if not ours and not linux:
        return "(wakelat was not measured in this run)"
    rows = ["| sleeper (beside 2 hogs, 2000 sleeps of 1 ms) | this kernel: policy, "
            "avg / p99 / max us late | Linux " + linux_version + ": policy, "
            "avg / p99 / max us late |", "|---|---|---|"]
    for case in sorted(set(ours) | set(linux), key=lambda c: list(ours).index(c)
                       if c in ours else 99):
        cells = []
        for side in (ours, linux):
            v = side.get(case)
            cells.append("-" if not v else f"{v[0]}: {v[1]:,} / {v[2]:,} / {v[3]:,}")
        rows.append(f"| {case} | {cells[0]} | {cells[1]} |")
    return "\n".join(rows)


XV6_NOTE = ("xv6 (x86): the figures measured the same way elsewhere (instructions "
            "per operation under QEMU `-icount shift=0`, given in issue 12), not "
            "measured by make bench; '-' where there is none.")


def load(path):
    vals = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1].isdigit():
                vals[parts[0]] = int(parts[1])
    return vals


def fmt(v):
    return "-" if v is None else f"{v:,}"


def table(ours, nodebug, linux, linux_version):
    rows = [f"| figure | this kernel (default) | DEBUG=0 | Linux {linux_version} "
            "| xv6 (x86) | ratio (default / Linux) | target | met? |",
            "|---|---:|---:|---:|---:|---:|---:|---|"]
    for key, label, target in FIGURES:
        o, n, l = ours.get(key), nodebug.get(key), linux.get(key)
        ratio = f"{o / l:.2f}x" if o and l else "-"
        if target is None:
            met = "(no target)"
        elif o is None:
            met = "not measured"
        else:
            met = "yes" if o <= target else f"**no** ({o / target:.1f}x the target)"
        rows.append(f"| {label} | {fmt(o)} | {fmt(n)} | {fmt(l)} | {fmt(XV6.get(key))} | {ratio} "
                    f"| {'<= ' + fmt(target) if target else '-'} | {met} |")
    return "\n".join(rows)


def svg(ours, nodebug, linux, linux_version, path):
    series = [("this kernel (default)", ours, "#d95f02"),
              ("this kernel (DEBUG=0)", nodebug, "#fdb863"),
              (f"Linux {linux_version}", linux, "#1b9e77")]
    bar_h, gap, left, width = 16, 22, 250, 430
    group_h = bar_h * len(series) + gap
    top = 50
    h = top + group_h * len(FIGURES) + 40
    w = left + width + 120
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="10" y="20" font-size="14" font-weight="bold">Instructions per '
           f'operation (QEMU -icount shift=0, 1 CPU); each figure scaled to its '
           f'largest bar</text>']
    for i, (name, _, color) in enumerate(series):
        x = 10 + i * 200
        out.append(f'<rect x="{x}" y="30" width="12" height="12" fill="{color}"/>')
        out.append(f'<text x="{x + 16}" y="40">{html.escape(name)}</text>')
    x = 10 + len(series) * 200
    out.append(f'<line x1="{x}" y1="36" x2="{x + 14}" y2="36" stroke="black" '
               f'stroke-width="2" stroke-dasharray="4,2"/>')
    out.append(f'<text x="{x + 18}" y="40">target</text>')
    for g, (key, label, target) in enumerate(FIGURES):
        y0 = top + g * group_h + 10
        vals = [s[1].get(key) for s in series]
        scale_max = max([v for v in vals if v] + [target or 0, 1])
        out.append(f'<text x="10" y="{y0 + bar_h * 1.5 + 4}">'
                   f'{html.escape(label[:38])}</text>')
        for i, (name, data, color) in enumerate(series):
            v = data.get(key)
            y = y0 + i * bar_h
            bw = 0 if not v else width * v / scale_max
            out.append(f'<rect x="{left}" y="{y}" width="{bw:.1f}" '
                       f'height="{bar_h - 2}" fill="{color}"/>')
            out.append(f'<text x="{left + bw + 4:.1f}" y="{y + bar_h - 4}">'
                       f'{fmt(v)}</text>')
        if target:
            tx = left + width * target / scale_max
            out.append(f'<line x1="{tx:.1f}" y1="{y0 - 3}" x2="{tx:.1f}" '
                       f'y2="{y0 + bar_h * len(series) + 1}" stroke="black" '
                       f'stroke-width="2" stroke-dasharray="4,2"/>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser()
    for a in ("ours", "nodebug", "linux", "md", "svg"):
        ap.add_argument("--" + a, required=True)
    ap.add_argument("--linux-version", default="6.1")
    ap.add_argument("--qemu", default="qemu-system-i386")
    ap.add_argument("--wakelat-ours", default="")
    ap.add_argument("--wakelat-linux", default="")
    ap.add_argument("--sched", default="", help="tools/bench/sched.sh's directory")
    ap.add_argument("--sched-svg", default="", help="prefix of its plots (PREFIX-*.svg)")
    args = ap.parse_args()
    ours, nodebug, linux = load(args.ours), load(args.nodebug), load(args.linux)
    ver = args.linux_version.split("-")[0]
    t = table(ours, nodebug, linux, ver)
    wl_ours, wl_linux = load_wakelat(args.wakelat_ours), load_wakelat(args.wakelat_linux)
    svg(ours, nodebug, linux, ver, args.svg)
    missed = [k for k, _, tg in FIGURES if tg and ours.get(k, tg + 1) > tg]
    with open(args.md, "w") as f:
        f.write("# make bench: latest results\n\n")
        f.write(f"Written by `make bench` (tools/bench/run.sh) on "
                f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC. "
                f"{args.qemu}, `-icount shift=0,sleep=off -smp 1`: the guest TSC "
                f"counts instructions, so every figure is instructions per "
                f"operation, the median of 9 repetitions of /bin/pathlen "
                f"(user/tests/pathlen.c), the same static binary on both "
                f"kernels. Linux is Debian's linux-image-686 "
                f"({args.linux_version}). Targets: issue 12, for the default "
                f"build. How to read it, and the profiles behind the misses: "
                f"[docs/bench.md](../../docs/bench.md).\n\n")
        f.write(t + "\n\n" + XV6_NOTE + "\n\n![bar plot](latest.svg)\n\n")
        f.write("## Wake-up latency (scheduling, virtual time)\n\n"
                "/bin/wakelat (user/tests/wakelat.c), cyclictest-style, under "
                "`-icount shift=2,sleep=off -smp 1` (4 ns per instruction): "
                "how late a 1 ms sleep ends, beside 2 CPU hogs. The second "
                "sleeper asks for SCHED_FIFO as uid 1000: granted as ISO here, "
                "refused on Linux (it stays NORMAL). One run, not a median.\n\n")
        f.write(wakelat_table(wl_ours, wl_linux, ver) + "\n\n")
        if missed:
            f.write("## Missed targets\n\nThe causes, from `make profile` "
                    "(profiles of 2026-12-04; details and the profiles in "
                    "docs/bench.md, \"Missed targets\"):\n\n")
            for k in missed:
                f.write(f"- **{k}**: {ours[k]:,} against <= "
                        f"{dict((a, c) for a, _, c in FIGURES)[k]:,}. "
                        f"{CAUSES.get(k, 'no profile yet.')}\n")
        if args.sched:
            f.write("\n" + schedreport.sections(
                args.sched, ver, os.path.basename(args.sched_svg or "latest")))
    if args.sched and args.sched_svg:
        schedreport.svgs(args.sched, args.sched_svg, ver)
    print(t)
    print()
    print(wakelat_table(wl_ours, wl_linux, ver))
    if args.sched:
        print()
        print(schedreport.summary(args.sched, ver))


if __name__ == "__main__":
    main()
