"""Debian's procps and util-linux (i386, dynamically linked, unchanged)
beside Linux 6.1 (issue 28).

debian_procps_util_linux, two CPUs, 256M (the packages and their 26
libraries are a 26 MB module beside the initrd): busybox sh runs
tests/debian/procps.sh (chrt -p, chrt -f/-r/-b/-o, taskset -c/-p/-cp,
ps -eLo pid,tid,cls,rtprio,ni,pri,psr,comm, ps -ef, top -b -n 1,
sysctl -a, free, uptime, pgrep), and tests/debian/shapes.py compares the
transcript with Linux 6.1's, tests/debian/procps.linux.out (recorded in
the same QEMU by tests/debian/record-linux.sh): chrt/taskset/pgrep line by
line with pids masked, sysctl -a as "key = value" lines, the rest by
format (headers, columns, field shapes). No call may be unimplemented
but those the tools go on without (ipc: pmap's shared-memory lookup, not
run here; socketcall and epoll_create once were, and are kept tolerated:
glibc's nscd probe now gets ENOENT from connect and falls back to
/etc/passwd as before).

The module is made by `make deb-module` (tools/get-deb.sh -r downloads
the packages once into build/debs); the case is skipped, saying why, when
they cannot be downloaded.
"""
import os
import subprocess
import sys

from harness import Case, REPO

sys.path.insert(0, os.path.join(REPO, "tests", "debian"))
import shapes  # noqa: E402

TWO = "2,sockets=1,cores=2,threads=1"
MODULE = "build/debian/procps.tar"
SCRIPT = "tests/debian/procps.sh"
LINUX = os.path.join(REPO, "tests", "debian", "procps.linux.out")
BUSYBOX = "build/busybox/busybox"
# The calls the tools are known to go on without (see above).
TOLERATED = "102|254|117"


def prepare():
    """Build the module if the script or the packages are newer; None, or
    why the case cannot run."""
    mod = os.path.join(REPO, MODULE)
    script = os.path.join(REPO, SCRIPT)
    if os.path.isfile(mod) and os.path.getmtime(mod) >= os.path.getmtime(script):
        return None
    log = os.path.join(REPO, "build", "debian", "module.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "w") as out:
        ok = subprocess.call(["make", "--no-print-directory", "-s", f"BUSYBOX=1", BUSYBOX],
                             cwd=REPO, stdout=out, stderr=subprocess.STDOUT) == 0 and \
            subprocess.call(["make", "--no-print-directory", "deb-module",
                             "DEBS=procps util-linux", f"DEB_MODULE={MODULE}",
                             f"DEB_MODULE_BIN={BUSYBOX} {SCRIPT}"],
                            cwd=REPO, stdout=out, stderr=subprocess.STDOUT) == 0
    if ok:
        return None
    with open(log) as f:
        lines = [l.strip() for l in f if l.strip()]
    why = [l for l in lines if l.startswith("get-deb: ")] or lines or ["?"]
    return f"Debian's procps/util-linux could not be had: {why[-1]} (see {os.path.relpath(log, REPO)})"


def check(log):
    """Our transcript (the lines between init's run and exit) against
    Linux 6.1's recorded one."""
    with open(LINUX) as f:
        linux = f.read()
    problems = shapes.compare(linux, log)
    if problems:
        return False, f"{len(problems)} differ from Linux 6.1: " + " | ".join(problems[:4])
    return True, f"{len(shapes.sections(linux))} commands as Linux 6.1's"


CASES = [
    Case("debian_procps_util_linux", smp=TWO, memory="256M", timeout=60,
         append="tests=none run=/bin/busybox:sh:/bin/procps.sh then=exit",
         modules=[MODULE], prepare=prepare, check=check,
         expect=[r"^=== end$"],
         forbid=[rf"unimplemented system call (?!(?:{TOLERATED}) )\d+",
                 r"prctl: option \d+ not implemented"]),
]
