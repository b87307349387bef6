#!/usr/bin/env python3
"""Nothing in the repository cites a file that is not in it.

    python3 tests/host-tools/test_citations.py

Looks through every tracked text file for the places a document is cited:
a docs/ file name ending in .md anywhere, relative Markdown links `[text](path)` in .md
files, and the names of documents that live only outside the project
(the course's staircase-spec.md, a ../shared or seeds/ path). A cited file
must exist; an outside name must not appear at all. It also checks that
every "staircase.md §N" or "§N.M" names a section that docs/staircase.md
has, that no file of sched/ includes one outside sched/ (it must build
alone), and that no sched/*.c file but the policy files names a policy
(SCHED_NORMAL ...) or tests one (task_is_*). One line per check, then "N passed, N failed".
"""
import os
import re
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUTSIDE = re.compile(r"staircase-spec|\.\./shared|(?<![\w/-])seeds/")
DOC_REF = re.compile(r"\bdocs/([\w.-]+\.md)\b")
MD_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
SECTION_REF = re.compile(r"staircase\.md\s+((?:§\d+(?:\.\d+)?(?:,\s*)?)+)")


def tracked_files():
    out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    here = os.path.relpath(__file__, REPO)
    return [f for f in out if f and f != here
            and os.path.isfile(os.path.join(REPO, f))]


def read_text(path):
    try:
        with open(os.path.join(REPO, path), encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None


def staircase_sections():
    """Headings "## 6." / "### 6.7", and the numbered items of a section
    that is a list (section 11's items are cited as §11.N)."""
    text = read_text("docs/staircase.md") or ""
    found, section = set(), None
    for line in text.split("\n"):
        m = re.match(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", line)
        if m:
            found.add(m.group(1))
            section = m.group(1)
            continue
        m = re.match(r"^(\d+)\. \*\*", line)
        if m and section and "." not in section:
            found.add(f"{section}.{m.group(1)}")
    return found


def main():
    passed = failed = 0
    sections = staircase_sections()

    def result(ok, name, why=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok - {name}")
        else:
            failed += 1
            print(f"not ok - {name}: {why}")

    outside, missing, bad_sections = [], [], []
    for path in tracked_files():
        text = read_text(path)
        if text is None:
            continue
        for n, line in enumerate(text.split("\n"), 1):
            where = f"{path}:{n}"
            if OUTSIDE.search(line):
                outside.append(where)
            for doc in DOC_REF.findall(line):
                if not os.path.isfile(os.path.join(REPO, "docs", doc)):
                    missing.append(f"{where} docs/{doc}")
            if path.endswith(".md"):
                for link in MD_LINK.findall(line):
                    if re.match(r"[a-z]+:", link):
                        continue        # a URL, not a file
                    target = os.path.normpath(os.path.join(
                        REPO, os.path.dirname(path), link))
                    if not os.path.exists(target):
                        missing.append(f"{where} {link}")
            for refs in SECTION_REF.findall(line):
                for sec in re.findall(r"§(\d+(?:\.\d+)?)", refs):
                    if sec not in sections:
                        bad_sections.append(f"{where} §{sec}")
    # sched/'s includes: tests/host-tools/test_layout.py (the rooms).
    # Every policy difference lives in its policy file or the table
    # (sched/policy.h): the core names no policy and tests none.
    named = []
    for path in tracked_files():
        base = os.path.basename(path)
        if (path.startswith("sched/") and path.endswith(".c")
                and not base.startswith("policy")):
            for n, line in enumerate((read_text(path) or "").split("\n"), 1):
                code = re.sub(r"/\*.*?(\*/|$)|^\s*\*.*", "", line)
                for m in re.findall(r"\b(SCHED_(?:NORMAL|FIFO|RR|BATCH|ISO|IDLE\w*)|task_is_\w+)", code):
                    named.append(f"{path}:{n} {m}")
    result(not named, "no policy is named or tested outside sched/policy*",
           ", ".join(named[:10]))
    result(bool(sections), "docs/staircase.md has numbered sections")
    result(not outside, "no document outside the repository is cited",
           ", ".join(outside[:10]))
    result(not missing, "every cited file exists", ", ".join(missing[:10]))
    result(not bad_sections, "every staircase.md section cited exists",
           ", ".join(bad_sections[:10]))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
