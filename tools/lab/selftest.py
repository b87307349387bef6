#!/usr/bin/env python3
"""selftest.py - the labs test themselves (the `labs` stage of make test).

    python3 tools/lab/selftest.py [--boot LAB|none] [--keep] [-j N]

For every lab: `make lab` writes its student tree into a temporary
directory; the tree must be a git repository of one commit with the
handout on top and no trace of the lab's solution (its SOLUTION blocks, its
tools/lab/NAME/solution/ files, the lines only its solution has); `make
grade QUICK=1` there must build (the host unit tests, the simulator, sched/
for the kernel), score below full marks (the stub really is a stub) and
pass every unit test outside the lab's list (the stub breaks nothing else,
so the list is complete). In a tree as the labs write it with every
solution (this one less its LAB markers), `make grade LAB=NAME QUICK=1`
must give full marks, with the same maximum. Every student tree (--boot: all by
default, one lab, or none) also builds its kernel and boots to the shell
in QEMU, in virtual time. `make lab` must refuse an unknown lab and list the labs,
and grade.py --seed must refuse this tree (it would redate its sources).

One line per check, then "N passed, N failed"; exit status 1 if any
failed. In a lab's own tree (.lab, .lab-solution) there is nothing to
check: one skip. The twelve trees' host builds start from the objects of
one tree as the labs write them (grade.py --seed), so each recompiles only
its lab's files. Python 3 standard library only.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import labs      # noqa: E402
import markers   # noqa: E402

SCORE = re.compile(r"^Score: (\d+)/(\d+) - (?:full marks|not yet full marks)$", re.M)


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, ok, name, detail="", note=""):
        """detail says why a check failed; note is shown when it passed."""
        if ok:
            self.passed += 1
            print(f"ok - {name}" + (f" # {note}" if note else ""), flush=True)
        else:
            self.failed += 1
            print(f"not ok - {name} # {detail}", flush=True)
        return ok


def run(cmd, cwd, timeout=900):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), time.monotonic() - t0
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode(errors="replace"), time.monotonic() - t0


def solution_only_lines(lab):
    """{path: lines that only the lab's solution has} for its stubbed regions."""
    out = {}
    for path in {p for p, _ in markers.regions_by_lab().get(lab, [])}:
        items = markers.load(path)
        for i, region in enumerate(items):
            if not isinstance(region, markers.Region) or region.lab != lab or \
                    region.stub is None:
                continue
            elsewhere = set()
            for j, it in enumerate(items):
                if isinstance(it, str):
                    elsewhere.add(it.strip())
                elif j != i:
                    elsewhere.update(l.strip() for l in it.live)
            stub = {l.strip() for l in region.stub}
            lines = {l.strip() for l in region.live
                     if len(l.strip()) >= 16 and l.strip() not in elsewhere | stub}
            out.setdefault(path, set()).update(lines)
    return out


def check_sources(check):
    """No stub or solution in the sources students read: they live in
    tools/lab/LAB/{stub,solution}-regions/ (markers.py refuses them)."""
    found = []
    for f in markers.tree_files():
        if f.endswith(markers.SOURCE_EXT) and not f.startswith("tools/lab/"):
            with open(os.path.join(ROOT, f), encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    if markers.BLOCK.match(line):
                        found.append(f"{f}:{n}")
    check(not found, "no lab stub or solution in the sources (tools/lab/LAB/*-regions/ "
          "hold them)", ", ".join(found[:4]))


def check_tree(check, name, dest):
    """What a student tree must and must not hold."""
    rc, log, _ = run(["git", "log", "--oneline"], dest)
    rc2, status, _ = run(["git", "status", "--porcelain"], dest)
    check(rc == 0 and len(log.strip().split("\n")) == 1 and rc2 == 0 and not status.strip(),
          f"{name}: the student tree is a git repository of one commit, nothing left over",
          f"log {log.strip()[:80]!r}, status {status.strip()[:80]!r}")
    with open(os.path.join(ROOT, labs.LABS[name].handout), encoding="utf-8") as f:
        handout = f.read()
    with open(os.path.join(dest, "README-LAB.md"), encoding="utf-8") as f:
        readme = f.read()
    with open(os.path.join(dest, ".lab")) as f:
        dot_lab = f.read().strip()
    check(dot_lab == name and readme.split("\n")[0] == handout.split("\n")[0] and
          len(readme) >= len(handout) - 200,
          f"{name}: README-LAB.md is the handout, .lab names the lab", f".lab {dot_lab!r}")
    leaks, own_markers = [], 0
    unique = solution_only_lines(name)
    for d, dirs, files in os.walk(dest):
        dirs[:] = [x for x in dirs if x != ".git"]
        for fn in files:
            path = os.path.join(d, fn)
            rel = os.path.relpath(path, dest)
            if markers.is_solution_only(rel):
                leaks.append(rel)
                continue
            if not rel.endswith(markers.SOURCE_EXT) or rel.startswith("tools/lab/"):
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for m in re.finditer(r"/\* LAB (\w+) (BEGIN|END|STUB|SOLUTION)\b", text):
                if m.group(1) != name or m.group(2) in ("STUB", "SOLUTION"):
                    leaks.append(f"{rel}: LAB {m.group(1)} {m.group(2)}")
                else:
                    own_markers += 1
            have = {l.strip() for l in text.split("\n")}
            leaks += [f"{rel}: {l!r}" for l in sorted(unique.get(rel, set()) & have)]
    for rel in unique:
        if not os.path.exists(os.path.join(dest, rel)):
            leaks.append(f"{rel} is missing")
    check(not leaks, f"{name}: no trace of the solution in the student tree",
          "; ".join(leaks[:4]))
    wanted = bool(markers.regions_by_lab().get(name))
    check(own_markers > 0 or not wanted,
          f"{name}: the lab's markers show the student where to work", "none",
          f"{own_markers} marker lines")


def grade(cwd, lab=None, extra=(), seed=None):
    cmd = [sys.executable, os.path.join(cwd, "tools", "lab", "grade.py"), "--quick"]
    cmd += ["--seed", seed] if seed else []
    cmd += (["--lab", lab] if lab else []) + list(extra)
    rc, out, secs = run(cmd, cwd)
    m = SCORE.search(out)
    return rc, out, secs, (int(m.group(1)), int(m.group(2))) if m else None


def item_ok(out, prefix):
    line = next((l for l in out.split("\n") if l.startswith(prefix)), "")
    return bool(line) and " ok " in line, line


def main():
    ap = argparse.ArgumentParser(description="the labs test themselves")
    ap.add_argument("--boot", default="all",
                    help="the lab whose student tree boots: all (default), one lab, or none (no QEMU)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary trees")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()
    check = Checks()
    if any(os.path.exists(os.path.join(ROOT, f)) for f in (".lab", ".lab-solution")):
        print("skip - this is a lab's tree: the labs are checked in the solution tree")
        print("0 passed, 0 failed, 1 skipped")
        return 0
    t0 = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="labs-selftest-")
    try:
        check_sources(check)
        rc, out, _ = run([sys.executable, os.path.join(HERE, "lab.py"), "no_such_lab",
                          "--dest", os.path.join(tmp, "x")], ROOT)
        check(rc == 2 and all(n in out for n in labs.NAMES) and not os.path.exists(
              os.path.join(tmp, "x")), "make lab refuses an unknown lab and lists the labs",
              f"exit status {rc}: {out.strip()[:200]!r}")
        # --seed redates the sources that match the seed: never this tree's
        rc, out, _ = run([sys.executable, os.path.join(HERE, "grade.py"), "--lab",
                          labs.NAMES[0], "--quick", "--seed", tmp], ROOT)
        check(rc not in (0, None) and "refused" in out,
              "grade.py --seed refuses the project's own tree (its LAB markers)",
              f"exit status {rc}: {out.strip()[-200:]!r}")
        # The objects every tree's host builds start from (grade.py --seed):
        # those of a tree as the labs write them (no LAB markers, every
        # lab's solution), from which each student tree differs in its
        # lab's parts only.
        base = os.path.join(tmp, "base")
        markers.make_tree(base, labs.NAMES[0], "solution", labs.NAMES)
        for cmd in (["make", "-s", "-j2", "-C", "tests/unit", "build/unit_tests"],
                    ["make", "-s", "-j2", "-C", "tools/sim"]):
            rc, out, _ = run(cmd, base)
            check(rc == 0, f"a lab tree's host builds, the objects the others start from "
                  f"({' '.join(cmd[4:])})", out.strip()[-300:])
        trees = {}
        for name in labs.NAMES:
            dest = os.path.join(tmp, f"{name}-lab")
            rc, out, secs = run([sys.executable, os.path.join(HERE, "lab.py"), name,
                                 "--dest", dest], ROOT)
            if check(rc == 0, f"{name}: make lab writes the student tree ({secs:.1f} s)",
                     f"exit status {rc}: {out.strip()[-200:]}"):
                trees[name] = dest
                check_tree(check, name, dest)

        # Each lab's solution is graded in that tree too: it is this tree
        # less its LAB markers (comments), so its objects are already
        # built; graded here, every lab recompiled the unit suite (this
        # tree's marked files differ from it), 60 s of make test. A lab
        # with a reference solution of its own (files of tools/lab/NAME/)
        # is graded from here, in the reference tree grade.py makes.
        def solutions():
            return {name: grade(ROOT if markers.has_reference_parts(name) else base, name,
                                seed=base) for name in labs.NAMES}

        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            sol = pool.submit(solutions)
            stubs = {name: pool.submit(grade, dest, seed=base) for name, dest in trees.items()}
            booting = [n for n in trees if args.boot in ("all", n)]
            boots = {n: pool.submit(run, [sys.executable, "tools/lab/grade.py", "--boot-only"],
                                    trees[n], 600) for n in booting}
            sol = sol.result()
            stubs = {n: f.result() for n, f in stubs.items()}
            boots = {n: f.result() for n, f in boots.items()}

        for name in labs.NAMES:
            rc, out, secs, score = sol[name]
            shown = f"Score {score[0]}/{score[1]}" if score else "no score"
            failing = [l.strip()[:200] for l in out.split("\n") if " FAIL " in l]
            check(rc == 0 and score and score[0] == score[1],
                  f"{name}: the solution scores full marks ({secs:.0f} s)",
                  f"{shown}; " + " | ".join(failing[:3]) if failing else out.strip()[-300:],
                  shown)
            if name not in stubs:
                continue
            src, sout, ssecs, sscore = stubs[name]
            builds = [l for l in sout.split("\n") if l.startswith("build")]
            check(builds and all(" ok " in l for l in builds),
                  f"{name}: the student tree builds (host tests, simulator, sched/ for i686)",
                  "; ".join(l for l in builds if " ok " not in l)[:300] or sout.strip()[-300:])
            ok_others, line = item_ok(sout, "unit  all the other host unit tests")
            check(ok_others, f"{name}: the stub breaks no unit test outside the lab's list",
                  line.strip()[:300])
            full = score[1] if score else None
            shown = f"Score {sscore[0]}/{sscore[1]}, exit status {src}" if sscore else ""
            check(src == 1 and sscore and sscore[0] < sscore[1] and sscore[1] == full,
                  f"{name}: the stub scores below full marks ({ssecs:.0f} s)",
                  (shown + (f" (the solution's maximum is {full})" if full else ""))
                  or sout.strip()[-300:], shown)
        for name, (rc, out, secs) in boots.items():
            check(rc == 0 and SCORE.search(out) is not None,
                  f"{name}: the student tree's kernel boots to the shell ({secs:.0f} s)",
                  out.strip()[-400:])
    finally:
        if args.keep:
            print(f"# kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"# {time.monotonic() - t0:.0f} s")
    print(f"{check.passed} passed, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
