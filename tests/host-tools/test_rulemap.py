#!/usr/bin/env python3
"""Every rule of the rule books names the tests that check it, and they exist.

    python3 tests/host-tools/test_rulemap.py

The rule books are docs/staircase.md and each lineage class's
(docs/o1.md, sd.md, cfs.md, eevdf.md). A rule is a numbered section
("## 4. The numbers", "### 6.5 sched_yield") with no numbered section
under it, and each numbered item of staircase.md §11 ("6. **A call that
changes nothing changes nothing.**" is §11.6); §0 of staircase.md (its
sources and marks) is not one. Under each rule, before the next one, a
paragraph

    *Tests:* `yield_drops_to_139_then_runs_from_head_of_its_stair`,
    `policy_yield`

names its tests: a TEST of tests/unit or tests/host, a QEMU case of
tests/cases (tests/harness.py's names), or `sim:NAME.wl`, a simulator
example that tools/sim/test.sh runs. One line per book, then "N passed,
N failed"; a failure names each rule with no Tests line and each name
that is no test.
"""
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests"))
sys.path.insert(0, HERE)
import harness  # noqa: E402
from hostlib import run_tests  # noqa: E402

BOOKS = ["staircase.md", "o1.md", "sd.md", "cfs.md", "eevdf.md"]
HEADING = re.compile(r"^(#{2,4}) (\d+(?:\.\d+)*)\.? ", re.M)
LIST_ITEM = re.compile(r"^(\d+)\. \*\*", re.M)
TESTS = re.compile(r"^\s*\*Tests:\*(.*?)(?:\n\s*\n|\Z)", re.M | re.S)
NAME = re.compile(r"`([^`]+)`")
NOT_RULES = {("staircase.md", "0")}     # sources and marks
LISTED = {("staircase.md", "11")}        # its numbered items are the rules


def rules(book, text):
    """[(number, title, body)] of the book's rules, in order."""
    heads = [(m.start(), m.end(), m.group(2), text[m.end():].split("\n")[0])
             for m in HEADING.finditer(text)]
    out = []
    for i, (start, end, num, title) in enumerate(heads):
        body_end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        has_child = any(n.startswith(num + ".") for _, _, n, _ in heads)
        if has_child or (book, num) in NOT_RULES:
            continue
        body = text[end:body_end]
        if (book, num) in LISTED:
            out += list_rules(num, body)
        else:
            out.append((num, title, body))
    return out


def list_rules(num, body):
    """§N's numbered items as rules §N.k (up to a line that starts no item)."""
    items = list(LIST_ITEM.finditer(body))
    out = []
    for i, m in enumerate(items):
        end = items[i + 1].start() if i + 1 < len(items) else len(body)
        item = body[m.start():end]
        stop = re.search(r"\n\n(?=\S)(?!\d+\. )", item)   # an unindented paragraph
        item = item[:stop.start()] if stop else item
        out.append((f"{num}.{m.group(1)}", item.split("**")[1], item))
    return out


def known_tests():
    """Every name a Tests line may use."""
    names = set()
    for path in glob.glob(os.path.join(REPO, "tests", "unit", "*.c")) + \
            glob.glob(os.path.join(REPO, "tests", "host", "*.c")):
        with open(path, encoding="utf-8") as f:
            names |= set(re.findall(r"^TEST\((\w+)\)", f.read(), re.M))
    names |= {c.name for c in harness.load_cases()}
    with open(os.path.join(REPO, "tools", "sim", "test.sh"), encoding="utf-8") as f:
        sim = f.read()
    for wl in glob.glob(os.path.join(REPO, "tools", "sim", "examples", "*.wl")):
        wl = os.path.basename(wl)
        if "$ex/" + wl in sim:
            names.add("sim:" + wl)
    return names


def problems_of(book, known):
    with open(os.path.join(REPO, "docs", book), encoding="utf-8") as f:
        text = f.read()
    found = rules(book, text)
    problems = []
    for num, title, body in found:
        lines = TESTS.findall(body)
        if not lines:
            problems.append(f"§{num} ({title.strip()[:40]}) names no test")
            continue
        for name in NAME.findall(" ".join(lines)):
            if name not in known:
                problems.append(f"§{num} names {name}, which is no test")
    return len(found), problems


def book_test(book, known):
    def test():
        n, problems = problems_of(book, known)
        assert n > 0, f"no rules found in docs/{book}"
        assert not problems, f"{len(problems)} of {n} rules: " + "; ".join(problems)
    test.__name__ = f"every_rule_of_{book[:-3]}_names_existing_tests"
    return test


def main():
    known = known_tests()
    return run_tests([book_test(b, known) for b in BOOKS])


if __name__ == "__main__":
    sys.exit(main())
