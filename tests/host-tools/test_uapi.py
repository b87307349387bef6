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
                 "asm/ioctls.h", "linux/sched.h", "asm/unistd_32.h", "linux/futex.h"]
# Ours only: the -ck patches' policy, glibc's name for SCHED_NORMAL, and
# the project's own call (500 and up: docs/abi.md §4).
NOT_LINUX = {"SCHED_ISO", "SCHED_OTHER", "__NR_lock_stat",
             # Linux's too (6 and 3), but in the kernel's own
             # arch/x86/include/asm/segment.h, not in its uapi headers
             "GDT_ENTRY_TLS_MIN", "GDT_ENTRY_TLS_ENTRIES"}
# Layout and struct names, not numbers.
SKIP = re.compile(r"^(UAPI_.*_H|LOCK_STAT_.*)$")
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
        v = value.strip().rstrip("uUlL")
        try:
            out[name] = int(v, 0)
        except ValueError:
            pass
    return out


def ours():
    hdrs = sorted(glob.glob(os.path.join(UAPI, "*.h")))
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
    unknown = sorted(k for k in mine if k not in theirs and k not in NOT_LINUX)
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


if __name__ == "__main__":
    if not shutil.which(CC):
        for fn in TESTS:
            print(f"ok - {fn.__name__} # SKIP no {CC} (tools/ensure-deps.sh cc)")
        print(f"0 passed, 0 failed, {len(TESTS)} skipped")
        sys.exit(0)
    sys.exit(hostlib.run_tests(TESTS))
