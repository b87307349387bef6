#!/usr/bin/env python3
"""testcov.py - which kernel code each QEMU case runs, and what only it runs.

    python3 tools/testcov.py run [PYTEST-ARGS...]   boot every case of make test
                                                    with QEMU logging the kernel
                                                    code it translates
    python3 tools/testcov.py report [CASE...]       what each case covers that
                                                    no other case does
    python3 tools/testcov.py together CASE...       what those cases together
                                                    cover that no other does

`run` is `tools/pytest tests/cases -m "not all"` (make test's QEMU stage;
add make's --iso build/test.iso for boot_iso, and -n 2) with
QEMU_EXTRA (tests/harness.py) set to `-d in_asm -dfilter TEXT -D
build/cov/CASE.log`: QEMU writes every block of kernel text it translates,
once per translation, so a case's log holds every kernel instruction the
case ran (and a few it only translated: the rest of a block a fault cut
short). It takes about twice a normal run.

`report` reads build/cov/*.log and, for each case (or the ones named),
prints the kernel instructions it ran that no other case ran, by
function, with the case's wall time from the JUnit XML: a case whose
unique count is 0 covers no path the others do not (docs/testing.md, "The
time budget", uses it with make mutate to choose what moves to make
test-all). TESTCOV_DIR moves build/cov. Coverage is of translated code, not of branches taken the
other way inside a block, and of one run: a case on real time can run a
rare path (a lost tick) once.
"""
import bisect
import glob
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COV = os.environ.get("TESTCOV_DIR", os.path.join(ROOT, "build", "cov"))
KERNEL = os.path.join(ROOT, "build", "kernel.elf")
ADDR = re.compile(r"^0x([0-9a-f]{8}):", re.M)


def symbols():
    """[(address, name)] of the kernel's functions, sorted; and its text's end."""
    out = subprocess.run(["nm", "-n", KERNEL], capture_output=True, text=True,
                         check=True).stdout
    syms = [(int(a, 16), n) for a, t, n in (l.split() for l in out.splitlines()
                                            if len(l.split()) == 3) if t in "Tt"]
    return syms


def text_range():
    out = subprocess.run(["readelf", "-SW", KERNEL], capture_output=True, text=True,
                         check=True).stdout
    m = re.search(r"\.text\s+PROGBITS\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", out)
    start, size = int(m.group(1), 16), int(m.group(2), 16)
    return start, start + size


def run(args):
    start, end = text_range()
    os.makedirs(COV, exist_ok=True)
    for f in glob.glob(os.path.join(COV, "*.log")):
        os.remove(f)
    env = dict(os.environ, QEMU_EXTRA=f"-d in_asm -dfilter 0x{start:x}..0x{end - 1:x} "
               f"-D {COV}/{{case}}.log")
    cmd = ["tools/pytest", "tests/cases", "-q", "-m", "not all",
           "--junitxml", os.path.join(COV, "junit.xml")] + args
    return subprocess.call(cmd, cwd=ROOT, env=env)


def covered(path):
    with open(path, errors="replace") as f:
        return {int(a, 16) for a in ADDR.findall(f.read())}


def case_times():
    try:
        tree = ET.parse(os.path.join(COV, "junit.xml"))
    except (OSError, ET.ParseError):
        return {}
    times = {}
    for c in tree.iter("testcase"):
        m = re.search(r"\[(.*)\]", c.get("name", ""))
        if m:
            times[m.group(1)] = float(c.get("time", 0))
    return times


def report(names):
    logs = sorted(glob.glob(os.path.join(COV, "*.log")))
    if not logs:
        print(f"testcov: no logs in {os.path.relpath(COV, ROOT)}: run `testcov.py run` first")
        return 2
    cov = {os.path.basename(p)[:-4]: covered(p) for p in logs}
    syms = symbols()
    addrs = [a for a, _ in syms]
    times = case_times()
    count = {}
    for s in cov.values():
        for a in s:
            count[a] = count.get(a, 0) + 1
    total = len(count)
    print(f"{len(cov)} cases, {total} kernel instructions run in all")
    rows = []
    for name in names or sorted(cov):
        if name not in cov:
            print(f"testcov: no log for {name}")
            return 2
        unique = sorted(a for a in cov[name] if count[a] == 1)
        funcs = {}
        for a in unique:
            i = bisect.bisect_right(addrs, a) - 1
            fn = syms[i][1] if i >= 0 else "?"
            funcs[fn] = funcs.get(fn, 0) + 1
        rows.append((times.get(name, 0.0), name, len(cov[name]), len(unique), funcs))
    rows.sort(reverse=True)
    print(f"{'case':40} {'s':>6} {'runs':>7} {'only it':>7}  where")
    for t, name, n, u, funcs in rows:
        where = ", ".join(f"{f} {c}" for f, c in sorted(funcs.items(), key=lambda x: -x[1])[:4])
        print(f"{name:40} {t:6.1f} {n:7d} {u:7d}  {where}")
    return 0


def together(names):
    """Instructions that only the named cases run, between them: what make
    test would no longer run if all of them moved to make test-all."""
    logs = {os.path.basename(p)[:-4]: p for p in glob.glob(os.path.join(COV, "*.log"))}
    missing = [n for n in names if n not in logs]
    if not names or missing:
        print(f"testcov: together needs cases that have logs: {', '.join(missing) or 'none named'}")
        return 2
    rest = set().union(*(covered(p) for n, p in logs.items() if n not in names))
    only = set().union(*(covered(logs[n]) for n in names)) - rest
    print(f"{len(only)} kernel instructions only {len(names)} cases run between them")
    return 0


def main(argv):
    cmds = {"run": run, "report": report, "together": together}
    if not argv or argv[0] not in cmds:
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    return cmds[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
