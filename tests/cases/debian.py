"""Debian's procps and util-linux (i386, dynamically linked, unchanged)
beside Linux 6.1 (issue 28).

debian_procps_util_linux, two CPUs, 256M (the packages and their 26
libraries are a 26 MB module beside the initrd): busybox sh runs
tests/debian/procps.sh (chrt -p, chrt -f/-r/-b/-o, taskset -c/-p/-cp,
ps -eLo pid,tid,cls,rtprio,ni,pri,psr,comm, ps -ef, top -b -n 1,
sysctl -a, free, uptime, pgrep, Debian's dash running a script with
external commands, pipes, $(...) and a subshell, then ipcs and ipcrm over
the System V objects /bin/sysvipc --make leaves), and tests/debian/shapes.py compares
the transcript with Linux 6.1's, tests/debian/procps.linux.out (recorded
in the same QEMU by tests/debian/record-linux.sh): chrt/taskset/pgrep/ipcs
line by line with pids masked, sysctl -a as "key = value" lines, the rest
by format (headers, columns, field shapes). No call may be unimplemented
but two the tools once went without and are kept tolerated (socketcall
and epoll_create: glibc's nscd probe now gets ENOENT from connect and
falls back to /etc/passwd as before).

debian_python_ipc, the same machine: Debian's python3.11 (with its
standard library, a 46 MB module) runs tests/debian/pyipc.py: selectors'
DefaultSelector (epoll) on a socket pair, an edge-triggered select.epoll
on a pipe, select.select, a server and a forked client over a path and an
abstract AF_UNIX socket, datagrams, the connect/bind errors, asyncio
(a unix server and client, sock_sendall/sock_recv, sleep), subprocess's
communicate() of 100,000 bytes through cat (close_range in the child),
and multiprocessing's Queue and Lock (a pipe, a feeder thread, POSIX
semaphores in /dev/shm) with a forked worker; every
line must be Linux 6.1's, tests/debian/pyipc.linux.out (recorded by
tests/debian/record-linux.sh python).

debian_files, the same machine: Debian's coreutils, findutils, tar, sed
and sqlite3 run tests/debian/files.sh in /tmp's tmpfs: mkdir, chmod, cp
-a, mv (and its refusal to put a directory over a file), ln -s, ln,
readlink, sed -i, tar c and x, find, sqlite3 making and reading a
database, stat -f, df, ls -l /proc/self/fd, find / -maxdepth 2, busybox's
mount and umount of a tmpfs of 1 MiB; compared with Linux 6.1's
transcript, tests/debian/files.linux.out (record-linux.sh files), by
shapes.py: the commands on /tmp line by line, df, ls -l and find / by
format.

The modules are made by `make deb-module` (tools/get-deb.sh -r downloads
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
TOLERATED = "102|254"


def prepare(module=MODULE, script=SCRIPT, debs="procps util-linux dash", bin_=BUSYBOX):
    """Build the module if the script or the packages are newer; None, or
    why the case cannot run."""
    mod = os.path.join(REPO, module)
    script_path = os.path.join(REPO, script)
    if os.path.isfile(mod) and os.path.getmtime(mod) >= os.path.getmtime(script_path):
        return None
    log = os.path.join(REPO, "build", "debian", "module.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "w") as out:
        ok = subprocess.call(["make", "--no-print-directory", "-s", f"BUSYBOX=1", BUSYBOX],
                             cwd=REPO, stdout=out, stderr=subprocess.STDOUT) == 0 and \
            subprocess.call(["make", "--no-print-directory", "deb-module",
                             f"DEBS={debs}", f"DEB_MODULE={module}",
                             f"DEB_MODULE_BIN={bin_} {script}"],
                            cwd=REPO, stdout=out, stderr=subprocess.STDOUT) == 0
    if ok:
        return None
    with open(log) as f:
        lines = [l.strip() for l in f if l.strip()]
    why = [l for l in lines if l.startswith("get-deb: ")] or lines or ["?"]
    return f"Debian's {debs} could not be had: {why[-1]} (see {os.path.relpath(log, REPO)})"


def check(log, linux_out=LINUX):
    """Our transcript (the lines between init's run and exit) against
    Linux 6.1's recorded one (procps.sh's, or another script's)."""
    with open(linux_out) as f:
        linux = f.read()
    problems = shapes.compare(linux, log)
    if problems:
        return False, f"{len(problems)} differ from Linux 6.1: " + " | ".join(problems[:4])
    return True, f"{len(shapes.sections(linux))} commands as Linux 6.1's"


PY_MODULE = "build/debian/python.tar"
PY_SCRIPT = "tests/debian/pyipc.py"
PY_DEBS = "python3.11-minimal libpython3.11-minimal libpython3.11-stdlib"
PY_LINUX = os.path.join(REPO, "tests", "debian", "pyipc.linux.out")


def prepare_python():
    return prepare(PY_MODULE, PY_SCRIPT, PY_DEBS, "")


def check_python(log):
    """pyipc.py's lines, from "=== pyipc" to "=== end", as Linux's."""
    with open(PY_LINUX) as f:
        linux = f.read().splitlines()
    lines = log.replace("\r", "").splitlines()
    start = lines.index("=== pyipc") if "=== pyipc" in lines else len(lines)
    ours = lines[start:start + len(linux)]
    wrong = [f"{i + 1}: {a!r} (Linux {b!r})" for i, (a, b) in enumerate(zip(ours, linux)) if a != b]
    if len(ours) < len(linux):
        wrong.append(f"{len(linux) - len(ours)} lines missing")
    if wrong:
        return False, f"{len(wrong)} lines differ from Linux 6.1: " + " | ".join(wrong[:3])
    return True, f"{len(linux)} lines as Linux 6.1's"


FILES_MODULE = "build/debian/files.tar"
FILES_SCRIPT = "tests/debian/files.sh"
FILES_DEBS = "coreutils findutils tar sed sqlite3"
FILES_LINUX = os.path.join(REPO, "tests", "debian", "files.linux.out")


def prepare_files():
    return prepare(FILES_MODULE, FILES_SCRIPT, FILES_DEBS, BUSYBOX)


# What the three modules unpack, for tools/prefetch.sh's one download.
ALL_DEBS = " ".join(["procps util-linux dash", PY_DEBS, FILES_DEBS])


def check_files(log):
    return check(log, FILES_LINUX)


CASES = [
    Case("debian_procps_util_linux", smp=TWO, memory="256M", timeout=60,
         append="tests=none run=/bin/busybox:sh:/bin/procps.sh then=exit",
         modules=[MODULE], prepare=prepare, check=check,
         expect=[r"^=== end$"],
         forbid=[rf"unimplemented system call (?!(?:{TOLERATED}) )\d+",
                 r"prctl: option \d+ not implemented"]),
    Case("debian_python_ipc", smp=TWO, memory="256M", timeout=60,
         append="tests=none run=/usr/bin/python3.11:-B:/bin/pyipc.py then=exit",
         modules=[PY_MODULE], prepare=prepare_python, check=check_python,
         expect=[r"^=== end$"],
         forbid=[r"unimplemented system call \d+", r"unimplemented socketcall"]),
    Case("debian_files", smp=TWO, memory="256M", timeout=90,
         append="tests=none run=/bin/busybox:sh:/bin/files.sh then=exit",
         modules=[FILES_MODULE], prepare=prepare_files, check=check_files,
         expect=[r"^=== end$"],
         forbid=[r"unimplemented system call \d+", r"unimplemented socketcall"]),
]
