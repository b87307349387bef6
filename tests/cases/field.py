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
    (kernel/socket.c) instead of pipes, as processes and as threads;
  * hackbench -l 20: the default 10 groups, 400 tasks over socket pairs
    (issue 32), 20 messages each to keep the case short;
  * each exits 0 and prints Linux 6.1's lines, as recorded booting
    Debian's Linux with the same files (tests/cases/field.linux.out, from
    make bench-field's Linux log). Timings differ, the format may not.
"""
import os
import re

from harness import Case

LINUX_OUT = os.path.join(os.path.dirname(__file__), "field.linux.out")
PROGRAMS = 6        # the six programs of the recorded run


def shape(line):
    """A line with its numbers and column padding taken out."""
    return re.sub(r"\s+", " ", re.sub(r"\d+(\.\d+)?", "N", line)).strip()


def program_lines(text, n):
    """The lines of the first n programs init ran, between init's running
    and exited lines (those included), without this kernel's own syscall
    log lines."""
    out, seen, inside = [], 0, False
    for line in text.replace("\r", "").splitlines():
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


def same_as_linux(text):
    """Every line of ours has Linux's shape, in Linux's order."""
    with open(LINUX_OUT) as f:
        linux = program_lines(f.read(), PROGRAMS)
    ours = program_lines(text, PROGRAMS)
    for i, (a, b) in enumerate(zip(linux, ours)):
        if a != b:
            return False, f"line {i + 1}: Linux {a!r}, ours {b!r}"
    if len(linux) != len(ours):
        return False, f"{len(ours)} lines, Linux {len(linux)}"
    return True, f"{len(ours)} lines shaped as Linux 6.1's"

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
]
