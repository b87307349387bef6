"""The field's benchmarks run unchanged (issue 28): Debian bookworm's i386
rt-tests 2.4 (cyclictest, hackbench), dynamically linked, from
build/rt-tests.tar (make's RT_DEBS: rt-tests, libnuma1, libc6, libgcc-s1,
unpacked by tools/debs-tar.sh) as a second initrd module; skipped with the
reason when the packages cannot be downloaded.

field_rt_tests_2cpu, two CPUs, tests=none, the command lines of make
bench-field:
  * cyclictest -m -p 80 -i 1000 -l 1000 -t -q: mlockall, /dev/cpu_dma_latency
    opened (its "# ... set to 0us" line), one SCHED_FIFO 80 thread per CPU
    on clock_nanosleep TIMER_ABSTIME; thread 0 runs its 1,000 cycles at
    1,000 us, thread 1 at 1,500 us (cyclictest's -d 500 default) until
    thread 0 is done; each T: line in cyclictest's format;
  * hackbench -p -g 4 -l 200: 160 processes over pipes (the parent holds
    over 40 descriptors: RLIMIT_NOFILE 1,024 as Linux, the table grows);
  * hackbench -p -T -g 4 -l 200: the same as 160 threads, one descriptor
    table, poll() on 160 of them;
  * hackbench -g 4 -l 200 and hackbench -T -g 4 -l 200: hackbench's
    default mode, socketpair(AF_UNIX, SOCK_STREAM) through socketcall
    (kernel/fs/socket.c) instead of pipes, as processes and as threads;
  * hackbench -l 20: the default 10 groups, 400 tasks over socket pairs
    (issue 32), 20 messages each to keep the case short;
  * each exits 0 and prints Linux 6.1's lines, as recorded booting
    Debian's Linux with the same files (tests/cases/field.linux.out, from
    make bench-field's Linux log). Timings differ, the format may not.

field_stress_ng_2cpu, two CPUs, build/field.tar (make's RT_DEBS and
STRESS_DEBS; made by the case, skipped with the reason when the packages
cannot be downloaded): Debian's stress-ng 0.15.06, each with --timeout 1s
(alarm: SIGALRM ends the run) --metrics-brief --temp-path /proc:
  * --yield 2: two workers on sched_yield, ended by the parent's SIGALRM;
  * --cpu 1: the cpu stressor;
  * --sched fifo --cpu 1: the same as SCHED_FIFO 49;
  * each exits 0 after "successful run completed in 1.NNs", the bogo ops
    table and the yield's "ns duration per sched_yield call" shaped as
    Linux 6.1's (tests/cases/field_stress.linux.out, recorded as
    field.linux.out was). Dropped before comparing: stress-ng's "Working
    directory / is not read/writeable" (the initrd is read-only, Linux's
    initramfs root is not). No call unimplemented but 102 socketcall
    (glibc's nscd probe) and 268 statfs64 (the temp path's free space).
"""
import os
import re
import subprocess

from harness import Case, REPO

HERE = os.path.dirname(__file__)
LINUX_OUT = os.path.join(HERE, "field.linux.out")
PROGRAMS = 6        # the six programs of the recorded run
STRESS_LINUX_OUT = os.path.join(HERE, "field_stress.linux.out")
# Ours only, from the environment, not the kernel (see above).
ENVIRONMENT = re.compile(r"Working directory / is not read/writeable")


def shape(line):
    """A line with its numbers and column padding taken out."""
    return re.sub(r"\s+", " ", re.sub(r"\d+(\.\d+)?", "N", line)).strip()


def program_lines(text, n):
    """The lines of the first n programs init ran, between init's running
    and exited lines (those included), without this kernel's own syscall
    log lines and the environment's lines."""
    out, seen, inside = [], 0, False
    for line in text.replace("\r", "").splitlines():
        if ENVIRONMENT.search(line):
            continue
        if line.startswith("init: running "):
            if seen == n:
                break
            seen += 1
            inside = True
        if inside and not line.startswith("syscall: "):
            out.append(shape(line))
        if re.match(r"init: \S+ (exited|killed)", line):
            inside = False
    return out


def shaped_as(recorded, programs):
    """A check: every line of ours has the recorded Linux run's shape, in
    its order."""
    def check(text):
        with open(recorded) as f:
            linux = program_lines(f.read(), programs)
        ours = program_lines(text, programs)
        for i, (a, b) in enumerate(zip(linux, ours)):
            if a != b:
                return False, f"line {i + 1}: Linux {a!r}, ours {b!r}"
        if len(linux) != len(ours):
            return False, f"{len(ours)} lines, Linux {len(linux)}"
        return True, f"{len(ours)} lines shaped as Linux 6.1's"
    return check


same_as_linux = shaped_as(LINUX_OUT, PROGRAMS)


def make_field_tar():
    """build/field.tar, downloaded once into build/debs: None, or why the
    case cannot run."""
    log = os.path.join(REPO, "build", "field-tar.log")
    with open(log, "w") as out:
        if subprocess.call(["make", "--no-print-directory", "build/field.tar"], cwd=REPO,
                           stdout=out, stderr=subprocess.STDOUT) == 0:
            return None
    with open(log) as f:
        lines = [l.strip() for l in f if l.strip()]
    why = [l for l in lines if l.startswith("get-deb: ")] or lines or ["?"]
    return f"Debian's stress-ng could not be had: {why[-1]} (see build/field-tar.log)"

TWO = "2,sockets=1,cores=2,threads=1"
CT = "/usr/bin/cyclictest:-m:-p:80:-i:1000:-l:1000:-t:-q"
HB = "/usr/bin/hackbench:-p:-g:4:-l:200"
HBT = "/usr/bin/hackbench:-p:-T:-g:4:-l:200"
HBS = "/usr/bin/hackbench:-g:4:-l:200"          # sockets: hackbench's default
HBST = "/usr/bin/hackbench:-T:-g:4:-l:200"
HBD = "/usr/bin/hackbench:-l:20"                # the default 10 groups: 400 tasks
T_LINE = (r"^T: {n} \( *\d+\) P:80 I:{i} C: *{c} Min: *\d+ Act: *\d+ "
          r"Avg: *\d+ Max: *\d+$")
HB_LINES = [r"^Each sender will pass 200 messages of 100 bytes$", r"^Time: \d+\.\d{3}$"]
PROCESSES = (r"^Running in process mode with 4 groups using 40 file descriptors "
             r"each \(== 160 tasks\)$")
THREADS = (r"^Running in threaded mode with 4 groups using 40 file descriptors "
           r"each \(== 160 tasks\)$")
HB_DONE = r"^init: /usr/bin/hackbench exited with status 0$"

SNG = ":--timeout:1s:--metrics-brief:--temp-path:/proc"
SNG_YIELD = "/usr/bin/stress-ng:--yield:2" + SNG
SNG_CPU = "/usr/bin/stress-ng:--cpu:1" + SNG
SNG_FIFO = "/usr/bin/stress-ng:--sched:fifo:--cpu:1" + SNG

CASES = [
    Case("field_rt_tests_2cpu", smp=TWO, memory="256M", timeout=90,
         modules=["build/rt-tests.tar"],
         append=f"tests=none run={CT},{HB},{HBT},{HBS},{HBST},{HBD} then=exit",
         expect_order=[
             r"^init: running /usr/bin/cyclictest$",
             r"^# /dev/cpu_dma_latency set to 0us$",
             T_LINE.format(n=0, i=1000, c=1000),
             T_LINE.format(n=1, i=1500, c=r"\d+"),
             r"^init: /usr/bin/cyclictest exited with status 0$",
             r"^init: running /usr/bin/hackbench$",
             PROCESSES, *HB_LINES, HB_DONE,
             THREADS, *HB_LINES, HB_DONE,
             PROCESSES, *HB_LINES, HB_DONE,
             THREADS, *HB_LINES, HB_DONE,
             r"^Running in process mode with 10 groups using 40 file descriptors "
             r"each \(== 400 tasks\)$",
             r"^Each sender will pass 20 messages of 100 bytes$", r"^Time: \d+\.\d{3}$",
             HB_DONE,
             r"^init exited: status 0$"],
         check=same_as_linux,
         forbid=[r"\(error: ", r"WARN: ", r"killed by signal",
                 # whole numbers only: the harness also matches partial lines,
                 # and "call 2" is a prefix of get_mempolicy's 275
                 r"unimplemented system call (?!275 )\d+ \(", r"unimplemented socketcall"]),
    Case("field_stress_ng_2cpu", smp=TWO, memory="256M", timeout=60,
         modules=["build/field.tar"], prepare=make_field_tar,
         append=f"tests=none run={SNG_YIELD},{SNG_CPU},{SNG_FIFO} then=exit",
         expect_order=[
             r"^init: running /usr/bin/stress-ng$",
             r"dispatching hogs: 2 yield$",
             r"\] yield +\d+ +\d+\.\d\d +",
             r"ns duration per sched_yield call",
             r"successful run completed in \d+\.\d\ds$",
             r"^init: /usr/bin/stress-ng exited with status 0$",
             r"dispatching hogs: 1 cpu$",
             r"\] cpu +\d+ +\d+\.\d\d +",
             r"^init: /usr/bin/stress-ng exited with status 0$",
             r"sched: priority not given \(or set to -1\), defaulting to 49$",
             r"\] cpu +\d+ +\d+\.\d\d +",
             r"^init: /usr/bin/stress-ng exited with status 0$",
             r"^init exited: status 0$"],
         check=shaped_as(STRESS_LINUX_OUT, 3),
         forbid=[r"\(error: ", r"WARN: ", r"killed by signal",
                 r"prctl: option \d+ not implemented",
                 r"unimplemented system call (?!(?:102|268) )\d+ \("]),
]
