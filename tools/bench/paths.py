#!/usr/bin/env python3
"""paths.py - make paths: the files a real timer tick and a real
sched_setscheduler run code in, measured, for docs/scheduler.md.

    tools/bench/paths.py [--kernel ELF] [--no-docs]

Each path is /bin/pathlen's figure (user/tests/pathlen.c) profiled twice
by tools/bench/profile.py --files, with COUNT and 2 x COUNT operations:

    tick      a NORMAL hog spinning in user mode for COUNT ms (-icount
              shift=7: a tick every ~8,000 instructions), so the kernel
              runs only ticks, some of which end a quantum (§6.1)
    setsched  sched_setscheduler() of a sleeping child, to SCHED_BATCH and
              back in turn (§7.6)

What the two runs share (the boot's last steps, the program's "begin" and
"end" lines on the console) cancels in their difference; a file is on the
path when the second run spent at least one instruction per extra
operation more in it. Writes build/paths/NAME.md and, unless --no-docs,
the table between <!-- paths:NAME --> and <!-- /paths:NAME --> in
docs/scheduler.md. Exit status 1 when a profile fails.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATHS = (
    # name, icount shift, COUNT, what one operation is
    ("tick", 7, 20, "millisecond of a spinning NORMAL hog"),
    ("setsched", 0, 10, "sched_setscheduler() call"),
)


def profile(kernel, name, shift, count):
    """{file: instructions} of one profiled run. QEMU's log is now and
    then cut short (a run with hardly anything logged): tried again."""
    for _ in range(3):
        files = profile_once(kernel, name, shift, count)
        if sum(files.values()) >= 1000:
            return files
    sys.exit(f"paths: profiling {name} {count}: QEMU's log was empty three times")


def profile_once(kernel, name, shift, count):
    out = os.path.join(ROOT, "build", "paths", f"{name}-{count}.files")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench", "profile.py"),
                        "--top", "0", "--kernel", kernel, "--shift", str(shift),
                        "--files", out, "/bin/pathlen", name, str(count)],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode or not os.path.exists(out):
        sys.exit(f"paths: profiling {name} {count} failed:\n{r.stdout}{r.stderr}")
    files = {}
    with open(out) as f:
        for line in f:
            if not line.startswith("#"):
                path, n = line.split()
                files[path] = int(n)
    return files


def pair(kernel, name, shift, count):
    """The runs of COUNT and 2 x COUNT operations, once they agree: the
    second logged more, and less than three times as much (the first
    run's fixed part is most of it). Tried up to four times."""
    for _ in range(4):
        small = profile(kernel, name, shift, count)
        big = profile(kernel, name, shift, 2 * count)
        s, b = sum(small.values()), sum(big.values())
        if s < b < 3 * s:
            return small, big
        print(f"paths: {name}: {s:,} and {b:,} instructions logged do not "
              f"agree; again", file=sys.stderr)
    sys.exit(f"paths: {name}: no two runs agreed")


def table(name, count, what, small, big):
    """The markdown for one path: files whose instructions grew by at
    least one per extra operation, most first."""
    rows = sorted(((big.get(f, 0) - small.get(f, 0)) / count, f)
                  for f in set(big) | set(small))
    rows = [(per, f) for per, f in rows if per >= 1]
    rows.sort(key=lambda r: (-r[0], r[1]))
    lines = [f"Measured by `make paths` (tools/bench/paths.py): **{len(rows)} files "
             f"run code** per {what}, instructions per operation:", "",
             "| file | insn/op |", "|---|---:|"]
    lines += [f"| `{f}` | {per:,.0f} |" for per, f in rows]
    return "\n".join(lines) + "\n"


def put_in_docs(name, text):
    path = os.path.join(ROOT, "docs", "scheduler.md")
    with open(path) as f:
        doc = f.read()
    begin, end = f"<!-- paths:{name} -->\n", f"<!-- /paths:{name} -->"
    pat = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pat.search(doc):
        sys.exit(f"paths: docs/scheduler.md has no {begin.strip()} ... {end} block")
    doc = pat.sub(lambda m: begin + text + end, doc)
    with open(path, "w") as f:
        f.write(doc)


def main():
    ap = argparse.ArgumentParser(description="the files a tick and a sched_setscheduler run")
    ap.add_argument("--kernel", default="build/kernel.elf")
    ap.add_argument("--no-docs", action="store_true", help="leave docs/scheduler.md alone")
    a = ap.parse_args()
    for name, shift, count, what in PATHS:
        small, big = pair(a.kernel, name, shift, count)
        text = table(name, count, what, small, big)
        with open(os.path.join(ROOT, "build", "paths", f"{name}.md"), "w") as f:
            f.write(text)
        print(f"== {name}\n{text}")
        if not a.no_docs:
            put_in_docs(name, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
