#!/usr/bin/env python3
"""The kernel's rooms keep their size and their doors.

    python3 tests/host-tools/test_layout.py

The house style: files under 800 lines, so that one can be read at a
sitting. Checks every C and assembly file of kernel/, drivers/ and
sched/ (tracked or not), and that every `#include "..."` of those files
names a file that exists (relative to the including file, or include/).
One line per check, then "N passed, N failed".
"""
import os
import re
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROOMS = ("kernel", "drivers", "sched")
MAX_LINES = 800
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources():
    for room in ROOMS:
        for dirpath, _, names in os.walk(os.path.join(REPO, room)):
            for name in sorted(names):
                if name.endswith((".c", ".h", ".asm")):
                    yield os.path.join(dirpath, name)


def main():
    passed = failed = 0
    long_files, broken = [], []
    for path in sources():
        rel = os.path.relpath(path, REPO)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        n = text.count("\n")
        if n > MAX_LINES:
            long_files.append(f"{rel} ({n} lines)")
        for inc in INCLUDE.findall(text):
            here = os.path.join(os.path.dirname(path), inc)
            there = os.path.join(REPO, "include", inc)
            if not (os.path.isfile(here) or os.path.isfile(there)):
                broken.append(f"{rel}: {inc}")
    for name, bad in ((f"no_kernel_file_over_{MAX_LINES}_lines", long_files),
                      ("every_include_names_a_file", broken)):
        if bad:
            failed += 1
            print(f"not ok - {name}: {', '.join(bad)}")
        else:
            passed += 1
            print(f"ok - {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
