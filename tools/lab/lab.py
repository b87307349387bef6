#!/usr/bin/env python3
"""lab.py - make lab: write a student tree for one lab.

    make lab LAB=batch [DEST=../batch-lab] [CLEAN=1]
    python3 tools/lab/lab.py NAME [--dest DIR] [--clean]

The student tree (docs/labs.md) is a copy of this tree without build/ and
.git, in which the lab's regions (the LAB markers of sched/ and wherever a
lab has them) are replaced by their stubs, every other lab's region is left
as its solution, the lab's own files (tools/lab/NAME/tree/) are added and
no reference solution (SOLUTION blocks, tools/lab/*/solution/) is
left. On top: the handout, docs/labs/NAME.md, as README-LAB.md, and .lab,
which tells `make grade` the lab. It is a fresh git repository with one
commit, so that a student's changes are `git diff`. DEST defaults to
../NAME-lab beside this tree; it must not exist, or be empty. Files git
does not track (your notes, a scratch program) are copied too, and listed
with a warning; --clean (CLEAN=1) leaves them out.

Exit status 0, or 2 with the reason (an unknown lab: the list of labs).
Python 3 standard library only.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import labs      # noqa: E402
import markers   # noqa: E402


def handout_text(lab):
    """The handout as README-LAB.md at the top: relative links re-pointed."""
    with open(os.path.join(ROOT, lab.handout), encoding="utf-8") as f:
        text = f.read()
    base = os.path.dirname(lab.handout)

    def fix(m):
        target, _, anchor = m.group(1).partition("#")
        if not target or re.match(r"[a-z]+:|/", target):
            return m.group(0)
        target = os.path.normpath(os.path.join(base, target))
        return f"]({target}{'#' + anchor if anchor else ''})"
    return re.sub(r"\]\(([^)\s]+)\)", fix, text)


def git(dest, *args):
    subprocess.run(["git", "-c", "user.name=staircase lab", "-c", "user.email=lab@localhost",
                    "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"] + list(args),
                   cwd=dest, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make_student_tree(name, dest, leave_out=()):
    lab = labs.LABS[name]
    markers.make_tree(dest, name, "student", labs.NAMES, leave_out=leave_out)
    with open(os.path.join(dest, "README-LAB.md"), "w", encoding="utf-8") as f:
        f.write(handout_text(lab))
    with open(os.path.join(dest, ".lab"), "w") as f:
        f.write(name + "\n")
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", f"lab {name}: {lab.title} (see README-LAB.md)")


def main():
    ap = argparse.ArgumentParser(description="write a student tree for a lab (make lab)")
    ap.add_argument("lab", nargs="?", default="")
    ap.add_argument("--dest", default="", help="where (default ../LAB-lab beside this tree)")
    ap.add_argument("--clean", action="store_true",
                    help="leave out the files git does not track (default: copy them, with a warning)")
    args = ap.parse_args()
    if os.path.exists(os.path.join(ROOT, ".lab")) or \
            os.path.exists(os.path.join(ROOT, ".lab-solution")):
        print("lab: this is already a lab's tree; make labs from the solution tree")
        return 2
    if args.lab not in labs.LABS:
        what = f"no lab {args.lab!r}" if args.lab else "which lab? make lab LAB=NAME"
        print(f"lab: {what}; the labs are:")
        for x in labs.LABS.values():
            print(f"  {x.name:8} {x.title} (about {x.minutes // 60}h"
                  f"{x.minutes % 60:02d}; {x.handout})")
        return 2
    dest = os.path.abspath(args.dest or os.path.join(os.path.dirname(ROOT), f"{args.lab}-lab"))
    untracked = markers.untracked_files(ROOT)
    if untracked and not args.clean:
        shown = ", ".join(untracked[:5]) + (f" and {len(untracked) - 5} more" if len(untracked) > 5 else "")
        print(f"lab: warning: copying {len(untracked)} file(s) git does not track into the "
              f"student tree: {shown} (CLEAN=1 leaves them out)")
    try:
        make_student_tree(args.lab, dest, untracked if args.clean else ())
    except markers.MarkerError as e:
        print(f"lab: {e}")
        return 2
    except subprocess.CalledProcessError as e:
        print(f"lab: git failed in {dest}: {e.stderr.decode(errors='replace').strip()}")
        return 2
    print(f"lab {args.lab}: student tree in {dest} (README-LAB.md; make grade)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
