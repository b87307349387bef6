#!/usr/bin/env python3
"""include/uapi/, the ABI the kernel, sched/ and the small libc share
(docs/abi.md): every number there is Linux's i386 number, checked against
Linux's own headers (the cross toolchain's /usr/i686-linux-gnu/include,
Debian's linux-libc-dev-i386-cross), and nothing the kernel or the libc
defines again.

    python3 tests/host-tools/test_uapi.py

One line per test, then "N passed, N failed". Needs i686-linux-gnu-gcc
(tools/ensure-deps.sh cc); skipped with the reason without it.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostlib  # noqa: E402

CC = "i686-linux-gnu-gcc"
UAPI = os.path.join(hostlib.REPO, "include", "uapi")
LINUX_HEADERS = ["asm/errno.h", "asm/signal.h", "asm-generic/siginfo.h", "linux/wait.h",
                 "asm/ioctls.h", "linux/sched.h", "asm/unistd_32.h", "asm/mman.h",
                 "linux/mman.h", "linux/resource.h", "asm/resource.h", "linux/stat.h",
                 "linux/fcntl.h", "asm/fcntl.h", "linux/time.h", "asm/termbits.h",
                 "linux/reboot.h", "linux/futex.h", "linux/prctl.h"]
# Ours only: the -ck patches' policy, glibc's name for SCHED_NORMAL (and
# the project's own calls, __NR_* from 500 up: docs/abi.md §4, OUR_CALLS).
NOT_LINUX = {"SCHED_ISO", "SCHED_OTHER",
             # Linux's too (6 and 3), but in the kernel's own
             # arch/x86/include/asm/segment.h, not in its uapi headers
             "GDT_ENTRY_TLS_MIN", "GDT_ENTRY_TLS_ENTRIES"}
# The calls only we have exchange these (500 and up): all ours.
OURS_ONLY = "ourcalls.h"
# Layout and struct names, not numbers.
SKIP = re.compile(r"^(UAPI_.*_H|LOCK_STAT_.*)$")
OUR_CALLS = 500
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def defines(source, extra=()):
    """Every object-like #define with an integer value, as the cross
    compiler's preprocessor sees it after `source`."""
    r = subprocess.run([CC, "-E", "-dM", "-x", "c", *extra, "-"], input=source,
                       capture_output=True, text=True, check=True)
    out = {}
    for name, value in re.findall(r"^#define (\w+) (.+)$", r.stdout, re.M):
        v = value.strip().strip("()").rstrip("uUlL")
        if re.fullmatch(r"-?0[0-7]+", v):      # C's octal: 0170000
            v = v.replace("0", "0o", 1)
        try:
            out[name] = int(v, 0)
        except ValueError:
            pass
    return out


def ours(hdrs=None):
    hdrs = hdrs or sorted(glob.glob(os.path.join(UAPI, "*.h")))
    src = "".join(f'#include "{h}"\n' for h in hdrs)
    flags = ["-I", os.path.join(hostlib.REPO, "include")]
    base = defines("#include <stdint.h>\n", flags)     # the compiler's and libc's own
    return {k: v for k, v in defines(src, flags).items()
            if not SKIP.match(k) and k not in base}


@test
def every_number_is_linux_i386s():
    mine = ours()
    theirs = defines("".join(f"#include <{h}>\n" for h in LINUX_HEADERS))
    wrong = {k: (v, theirs[k]) for k, v in mine.items() if k in theirs and theirs[k] != v}
    ours_only = {k for k, v in mine.items() if k.startswith("__NR_") and v >= OUR_CALLS}
    ours_only |= set(ours([os.path.join(UAPI, OURS_ONLY)]))
    unknown = sorted(k for k in mine if k not in theirs and k not in NOT_LINUX | ours_only)
    last = max(v for k, v in theirs.items() if k.startswith("__NR_"))
    assert last < OUR_CALLS, f"Linux's calls reach {last}: ours from {OUR_CALLS} would collide"
    assert not wrong, f"differ from Linux (ours, Linux's): {wrong}"
    assert not unknown, f"not in Linux's headers and not listed as ours: {unknown}"
    assert len(mine) > 100, f"only {len(mine)} numbers found in include/uapi"


@test
def nothing_is_defined_again_outside_include():
    names = set(ours())
    again = []
    for top in ("kernel", "sched", "drivers", "user", "boot"):
        for path in glob.glob(os.path.join(hostlib.REPO, top, "**", "*.[ch]"), recursive=True):
            with open(path, errors="replace") as f:
                for n in re.findall(r"^\s*#\s*define\s+(\w+)\b", f.read(), re.M):
                    if n in names:
                        again.append(f"{os.path.relpath(path, hostlib.REPO)}: {n}")
    assert not again, "defined again: " + ", ".join(again[:10])


# Linux's names that two files define on purpose, each for its own side.
TWICE_ON_PURPOSE = {
    "NSIG",     # the kernel's count of signals (64) vs libc's bound (65, glibc's)
    "SIG_DFL", "SIG_IGN",   # a number in the kernel, a handler pointer in libc
}


@test
def no_linux_name_defined_twice():
    """A name Linux's i386 headers define (the LINUX_HEADERS above) is
    defined in at most one file of the tree: the second copy of a number
    is how the two sides drift apart."""
    linux = set(defines("".join(f"#include <{h}>\n" for h in LINUX_HEADERS)))
    where = {}
    for top in ("include", "kernel", "sched", "drivers", "user", "boot"):
        for path in glob.glob(os.path.join(hostlib.REPO, top, "**", "*.[ch]"), recursive=True):
            rel = os.path.relpath(path, hostlib.REPO)
            if rel.startswith("user/glibc/"):
                continue
            with open(path, errors="replace") as f:
                for n in set(re.findall(r"^\s*#\s*define\s+(\w+)\s+\S", f.read(), re.M)):
                    if n in linux and n not in TWICE_ON_PURPOSE:
                        where.setdefault(n, []).append(rel)
    twice = {n: ps for n, ps in where.items() if len(ps) > 1}
    assert not twice, "defined in several files: " + ", ".join(
        f"{n} ({', '.join(ps)})" for n, ps in sorted(twice.items())[:8])


@test
def call_numbers_only_in_unistd_h():
    """The kernel's table and the libc's wrappers name calls by __NR_*; no
    other file writes a call's number (user/glibc/ uses glibc's own
    <sys/syscall.h>, as a student's program does)."""
    bad = []
    for top in ("kernel", "sched", "drivers", "user", "boot"):
        for path in glob.glob(os.path.join(hostlib.REPO, top, "**", "*.[ch]"), recursive=True):
            rel = os.path.relpath(path, hostlib.REPO)
            if rel.startswith("user/glibc/"):
                continue
            with open(path, errors="replace") as f:
                text = f.read()
            for m in re.finditer(r"^\s*#\s*define\s+((?:SYS|__NR)_\w+)", text, re.M):
                bad.append(f"{rel}: #define {m.group(1)}")
            for m in re.finditer(r"SYSCALL\(\s*\d", text):
                bad.append(f"{rel}: a table entry by number")
            for m in re.finditer(r"syscall\d\(\s*\d", text):
                bad.append(f"{rel}: a call by number")
    assert not bad, "call numbers outside include/uapi/unistd.h: " + ", ".join(bad[:10])
    with open(os.path.join(hostlib.REPO, "kernel", "syscall.c")) as f:
        n = len(re.findall(r"SYSCALL\(__NR_\w+,", f.read()))
    assert n > 100, f"only {n} entries by name in kernel/syscall.c's table"


if __name__ == "__main__":
    if not shutil.which(CC):
        for fn in TESTS:
            print(f"ok - {fn.__name__} # SKIP no {CC} (tools/ensure-deps.sh cc)")
        print(f"0 passed, 0 failed, {len(TESTS)} skipped")
        sys.exit(0)
    sys.exit(hostlib.run_tests(TESTS))
