#!/usr/bin/env python3
"""grade.py - make grade: run a lab's tests and print its score.

    make grade                      in a student tree (it knows its lab: .lab)
    make grade LAB=batch            in the solution tree
    make grade QUICK=1              host unit tests and simulator only (no QEMU)
    python3 tools/lab/grade.py [--lab NAME] [--quick]

What it runs, in order (docs/labs.md): the builds (host unit tests, the
simulator, and sched/ for the kernel, or with QEMU the whole kernel); the
lab's host unit tests one by one, then all the others together; the lab's
simulator checks; then (unless quick) a boot to the shell and the lab's user
programs in QEMU, in virtual time (-icount shift=2,sleep=off), so that the
result does not depend on how busy the machine is. One line per test with
its points and time, then one line, "Score: N/M - full marks" or
"Score: N/M - not yet full marks". Exit status 0 only at full marks, 1
below, 2 when it cannot grade (no such lab, a tree of another lab);
make grade turns 1 into 0 unless STRICT=1 (the Makefile says why).

In the solution tree, a lab whose solution is not the tree itself (policy:
its SOLUTION blocks and tools/lab/policy/) is graded in its reference tree,
made fresh under build/lab/solution-NAME. Everything it builds goes under
build/lab/ (and tests/unit/build/lab/), beside the normal builds.
Python 3 standard library only.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import labs      # noqa: E402
import markers   # noqa: E402

OUT = os.path.join(ROOT, "build", "lab")
UNIT_DIR = os.path.join(ROOT, "tests", "unit")
UNIT_BIN = os.path.join(UNIT_DIR, "build", "lab", "unit_tests")
SIM_BIN = os.path.join(OUT, "sim", "staircase-sim")
KERNEL_OUT = os.path.join(OUT, "kernel")
LOGS = os.path.join(OUT, "logs")
ICOUNT = ["-icount", "shift=2,sleep=off"]
TEST_LINE = re.compile(r"^(not ok|ok) \d+ - (\S+)(?: # (.*))?$")
WIDTH = 66


def lab_of_tree():
    """(lab, kind): the lab a student tree (.lab) or reference tree
    (.lab-solution) is of, or (None, None) in the solution tree."""
    for kind, name in (("student", ".lab"), ("reference", ".lab-solution")):
        path = os.path.join(ROOT, name)
        if os.path.isfile(path):
            with open(path) as f:
                return f.read().strip(), kind
    return None, None


def run(cmd, timeout, cwd=ROOT):
    """(exit status or None on timeout, output)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode(errors="replace")


class Grader:
    def __init__(self):
        self.got = self.total = 0

    def item(self, kind, name, points, ok, secs, detail=""):
        got = points if ok else 0
        self.got += got
        self.total += points
        label = name if len(name) <= WIDTH else name[:WIDTH - 3] + "..."
        status = "ok" if ok else "FAIL"
        pts = f"{got}/{points}" if points else "-"
        line = f"{kind:5} {label + ' ':.<{WIDTH + 1}} {status:4} {pts:>5} {secs:6.1f}s"
        if detail and (not ok or kind in ("sim", "qemu")):
            line += f"  {detail}"
        print(line, flush=True)
        return ok


# ---- builds -------------------------------------------------------------------

def build(g, name, cmd, timeout=600):
    t0 = time.monotonic()
    rc, out = run(cmd, timeout)
    ok = rc == 0
    g.item("build", name, 0, ok, time.monotonic() - t0,
           "" if ok else ("timeout" if rc is None else f"exit status {rc}"))
    if not ok:
        lines = [l for l in out.split("\n") if l.strip()]
        errors = [l for l in lines if "error" in l.lower()] or lines
        for l in errors[:15]:
            print(f"      | {l[:150]}")
    return ok


# ---- host unit tests -------------------------------------------------------------

def unit_results(args, timeout):
    """{name: (ok, why)} from one run of the unit tests; why of a crash."""
    rc, out = run([UNIT_BIN] + args, timeout, cwd=UNIT_DIR)
    results = {}
    for line in out.split("\n"):
        m = TEST_LINE.match(line)
        if m:
            results[m.group(2)] = (m.group(1) == "ok", m.group(3) or "")
    finished = re.search(r"^\d+ passed, \d+ failed$", out, re.M)
    if rc is None:
        why = f"timeout after {timeout} s"
    elif rc not in (0, 1) or not finished:
        crash = [l.strip() for l in out.split("\n")
                 if "Sanitizer" in l or "runtime error" in l or "Assertion" in l]
        why = "crashed: " + (crash[0][:140] if crash else f"exit status {rc}")
    else:
        why = None
    return results, why


def unit_tests(g, lab, have_binary):
    for name in lab.unit:
        t0 = time.monotonic()
        if not have_binary:
            g.item("unit", name, labs.UNIT, False, 0, "the unit tests did not build")
            continue
        results, why = unit_results([name], 30)
        if name in results:
            ok, detail = results[name]
        else:
            ok, detail = False, why or "no such test in tests/unit"
        g.item("unit", name, labs.UNIT, ok, time.monotonic() - t0, detail)
    t0 = time.monotonic()
    if not have_binary:
        g.item("unit", "all the other host unit tests still pass", labs.OTHERS, False, 0,
               "the unit tests did not build")
        return
    results, why = unit_results([], 300)
    others = [n for n in results if n not in lab.unit]
    if why:     # a crash or a hang cut the run short: the rest one by one
        seen = set(results)
        _, listing = run(["sh", "-c", "grep -ho '^TEST([a-z0-9_]*)' test_*.c"], 30, cwd=UNIT_DIR)
        for n in re.findall(r"TEST\(([a-z0-9_]+)\)", listing):
            if n not in seen and n not in lab.unit:
                one, why1 = unit_results([n], 30)
                results[n] = one.get(n, (False, why1 or "did not run"))
                others.append(n)
    bad = [n for n in others if not results[n][0]]
    detail = f"{len(others) - len(bad)} of {len(others)} pass"
    if bad:
        detail += "; not ok: " + ", ".join(f"{n} ({results[n][1][:80]})" for n in bad[:3])
        if len(bad) > 3:
            detail += f" and {len(bad) - 3} more"
    g.item("unit", f"all the other host unit tests still pass ({len(others)})", labs.OTHERS,
           not bad and bool(others), time.monotonic() - t0, detail)


# ---- the simulator -------------------------------------------------------------------

class Report:
    """staircase-sim's report: one row per task, one per CPU, and the trace."""

    def __init__(self, text):
        self.lines = text.split("\n")
        self.tasks, self.cpus = {}, {}
        section = None
        for line in self.lines:
            f = line.split()
            if f[:2] == ["task", "pid"]:
                section = "tasks"
            elif f[:2] == ["cpu", "pkg/core/thr"]:
                section = "cpus"
            elif section == "tasks" and len(f) == 13 and f[5].endswith("%"):
                self.tasks[f[0]] = dict(policy=f[2], cpu=float(f[5][:-1]), runs=int(f[6]),
                                        avg_wait=float(f[7]), max_wait=float(f[8]),
                                        wake_avg=float(f[9]), wake_max=float(f[10]),
                                        stair=int(f[11]), burst=int(f[12]))
            elif section == "cpus" and len(f) >= 5 and f[0].startswith("cpu"):
                self.cpus[f[0]] = [float(x[:-1]) for x in f[2:5]]

    def task(self, name):
        return self.tasks.get(name)

    def cpu(self, name):
        t = self.tasks.get(name)
        return t["cpu"] if t else None


def sim_checks(g, lab, have_binary):
    for s in lab.sim:
        t0 = time.monotonic()
        if not have_binary:
            g.item("sim", s.name, s.points, False, 0, "the simulator did not build")
            continue
        rc, out = run([SIM_BIN] + s.args + [s.workload], 60)
        if rc != 0:
            first = next((l for l in out.split("\n") if l.strip()), "")
            how = "timeout" if rc is None else \
                f"killed by signal {-rc}" if rc < 0 else f"exit status {rc}"
            g.item("sim", s.name, s.points, False, time.monotonic() - t0,
                   f"{how}: {first[:150]}" if first else how)
            continue
        try:
            ok, detail = s.check(Report(out))
        except Exception as e:         # a report it cannot read is a failure
            ok, detail = False, f"could not read the report: {type(e).__name__}: {e}"
        g.item("sim", s.name, s.points, ok, time.monotonic() - t0, detail)


# ---- QEMU -------------------------------------------------------------------------------

def qemu_cases(lab):
    """[(points, name, Case)] from the tree's own harness (tests/harness.py)."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import harness
    one = labs.ONE_CPU
    cases = [(labs.BOOT, "boots to the shell; spin 1 runs; exit powers off",
              harness.Case("lab_boot_to_shell", smp=one, append="tests=none", timeout=60,
                           qemu_args=ICOUNT,
                           send=[(r"^\$ ", b"spin 1\r"),
                                 (r"got \d+ ms CPU.*\n(?:.*\n)*?\$ ", b"exit\r")],
                           expect_order=[r"^spin\[\d+\]: \d+ ms wall, got \d+ ms CPU",
                                         r"^init exited: status 0$"]))]
    for i, b in enumerate(lab.qemu, 1):
        append = f"tests=none {b.append} run={b.run} then=exit".replace("  ", " ")
        done = r"^init exited: status \d+$" if b.judge else r"^init exited: status 0$"
        cases.append((b.points, b.name,
                      harness.Case(f"lab_{lab.name}_{i}", smp=b.smp, append=append,
                                   expect=[done] + b.expect, timeout=b.timeout,
                                   exit_code=None if b.judge else 1, check=b.judge,
                                   qemu_args=ICOUNT if b.icount else [])))
    return harness, cases


def qemu(g, lab, have_kernel, boot_only=False):
    harness, cases = qemu_cases(lab)
    if boot_only:
        cases = cases[:1]

    class Args:
        qemu = "qemu-system-i386"
        kernel = os.path.join(KERNEL_OUT, "kernel.elf")
        initrd = os.path.join(KERNEL_OUT, "initrd.tar")
        iso = ""
        log_dir = LOGS
    os.makedirs(LOGS, exist_ok=True)
    have_qemu = shutil.which(Args.qemu) is not None
    for points, name, case in cases:
        if not have_kernel or not have_qemu:
            g.item("qemu", name, points, False, 0,
                   "the kernel did not build" if have_qemu else f"no {Args.qemu}")
            continue
        log = os.path.join(LOGS, case.name + ".log")
        r = harness.Run(case, Args, log)
        r.run()
        problems = harness.judge(case, r)
        with open(log, errors="replace") as f:
            text = f.read()
        oks = re.findall(r"^ok \d+ - (\S+)", text, re.M)
        bad = re.findall(r"^not ok \d+ - (.*)$", text, re.M)
        if problems:
            detail = "; ".join(bad[:2] + problems[:2])[:400]
            detail += f"  (log: {os.path.relpath(log, ROOT)})"
        else:
            detail = r.note or (f"{len(oks)} checks ok" if oks else "")
        g.item("qemu", name, points, not problems, r.elapsed, detail)


# ---- main -------------------------------------------------------------------------------

# The host builds' objects (tests/unit and tools/sim build one object per
# source, with a .d file of what it read). Each: the Makefile's folder, the
# objects' folder in the seed tree and in this one, and the latter as the
# Makefile names it (each .d file's target).
SEEDED = (("tests/unit", "tests/unit/build/obj", "tests/unit/build/lab/obj", "build/lab/obj"),
          ("tools/sim", "build/sim/obj", "build/lab/sim/obj", "../../build/lab/sim/obj"))


def same_file(a, b):
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


def has_lab_markers(root):
    """Does sched/ still carry the labs' markers? The solution tree does;
    the trees make lab writes of it do not (a student's keeps .lab)."""
    d = os.path.join(root, "sched")
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.endswith((".c", ".h")):
            with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                if "/* LAB " in fh.read():
                    return True
    return False


def seed_objects(seed):
    """Start this tree's host builds from the objects of the tree at seed
    (selftest.py grades twelve trees that differ from one another in a
    lab's files): copy them, dated after every file they were made from
    that this tree has byte for byte as seed has it, which are dated
    before; make then recompiles only what the lab changed, and what reads
    it (the objects' .d files list what each read)."""
    before, after = 1_000_000_000, 1_500_000_000
    for mdir, src, dst, named in SEEDED:
        src, dst = os.path.join(seed, src), os.path.join(ROOT, dst)
        if not os.path.isdir(src):
            continue
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst)
        read = set()
        for f in os.listdir(dst):
            path = os.path.join(dst, f)
            if f.endswith(".d"):	# "OBJECT: what it read": the object as named here
                with open(path, encoding="utf-8") as fh:
                    deps = fh.read().split(":", 1)[1]
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(f"{named}/{f[:-2]}.o:{deps}")
                read.update(d for d in deps.replace("\\\n", " ").split()
                            if not d.endswith(":"))
            os.utime(path, (after, after))
        for d in read:
            rel = os.path.relpath(os.path.normpath(os.path.join(ROOT, mdir, d)), ROOT)
            here = os.path.join(ROOT, rel)
            if not rel.startswith("..") and same_file(here, os.path.join(seed, rel)):
                os.utime(here, (before, before))


def grade_reference(lab, argv):
    """The solution tree: grade the lab's reference tree, made fresh."""
    dest = os.path.join(OUT, f"solution-{lab}")
    shutil.rmtree(dest, ignore_errors=True)
    markers.make_tree(dest, lab, "solution", labs.NAMES)
    with open(os.path.join(dest, ".lab-solution"), "w") as f:
        f.write(lab + "\n")
    print(f"(lab {lab}'s solution is its SOLUTION blocks and tools/lab/{lab}/: "
          f"grading its reference tree {os.path.relpath(dest, ROOT)})", flush=True)
    return subprocess.call([sys.executable, os.path.join(dest, "tools", "lab", "grade.py")] + argv)


def main():
    ap = argparse.ArgumentParser(description="grade a lab (make grade)")
    ap.add_argument("--lab", default="", help="the lab (in the solution tree)")
    ap.add_argument("--quick", action="store_true",
                    help="host unit tests and simulator only: no kernel build, no QEMU")
    ap.add_argument("--boot-only", action="store_true",
                    help="only build the kernel and boot it to the shell (selftest.py)")
    ap.add_argument("--seed", metavar="TREE",
                    help="start the host builds from TREE's objects (selftest.py)")
    args = ap.parse_args()
    tree_lab, kind = lab_of_tree()
    name = args.lab or tree_lab
    if tree_lab and args.lab and args.lab != tree_lab:
        print(f"grade: this is a tree of lab {tree_lab}; it grades that lab only "
              f"(make grade, without LAB=)")
        return 2
    if not name:
        print(f"grade: which lab? make grade LAB=NAME, one of: {' '.join(labs.NAMES)}")
        return 2
    if name not in labs.LABS:
        print(f"grade: no lab {name!r}; the labs are: {' '.join(labs.NAMES)}")
        return 2
    lab = labs.LABS[name]
    if kind is None and markers.has_reference_parts(name):
        return grade_reference(name, ["--lab", name] + (["--quick"] if args.quick else []) +
                               (["--boot-only"] if args.boot_only else []) +
                               (["--seed", args.seed] if args.seed else []))

    where = {"student": "README-LAB.md", "reference": "reference solution"}.get(kind,
                                                                                "solution tree")
    print(f"== lab {name}: {lab.title} ({lab.handout}; {where})")
    if args.quick:
        print("   quick: host unit tests and the simulator only; the QEMU part is not run "
              "or counted")
    t_start = time.monotonic()
    g = Grader()
    if args.boot_only:
        have_kernel = build(g, "the kernel and its initrd",
                            ["make", "-s", "--no-print-directory", "-j2",
                             "BUILD=build/lab/kernel", "build"])
        qemu(g, lab, have_kernel, boot_only=True)
        return score_line(g)
    if args.seed:
        if kind is None and has_lab_markers(ROOT):
            sys.exit("grade.py: --seed redates the sources that match the seed tree; this "
                     "tree still has its /* LAB markers (the project's own, not a lab's "
                     "tree): refused")
        seed_objects(os.path.abspath(args.seed))
    have_unit = build(g, "host unit tests (tests/unit, ASan and UBSan)",
                      ["make", "-s", "--no-print-directory", "-j2", "-C", "tests/unit",
                       "BUILD=build/lab", "build/lab/unit_tests"])
    have_sim = build(g, "the simulator (tools/sim)",
                     ["make", "-s", "--no-print-directory", "-j2", "-C", "tools/sim",
                      "OUT=../../build/lab/sim"])
    if args.quick:
        build(g, "sched/ for the kernel (i686, freestanding, -Werror)",
              ["make", "-s", "--no-print-directory", "-C", "tests/unit", "BUILD=build/lab",
               "cross"])
        have_kernel = False
    else:
        have_kernel = build(g, "the kernel and its initrd",
                            ["make", "-s", "--no-print-directory", "-j2",
                             "BUILD=build/lab/kernel", "build"])
    unit_tests(g, lab, have_unit)
    sim_checks(g, lab, have_sim)
    if not args.quick:
        qemu(g, lab, have_kernel)
    print(f"time: {time.monotonic() - t_start:.0f} s")
    return score_line(g)


def score_line(g):
    """The last line, plain for a student; the exit status for a script."""
    full = g.got == g.total
    print(f"Score: {g.got}/{g.total} - {'full marks' if full else 'not yet full marks'}")
    return 0 if full else 1


if __name__ == "__main__":
    sys.exit(main())
