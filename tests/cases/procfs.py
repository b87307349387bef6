"""/proc through the shell (docs/tools.md, docs/abi.md §10): the
staircase seen from /proc/PID/sched, and the -ck tunables in
/proc/sys/kernel.

procfs_sched_stair, one CPU, tests=none:
  * sysctl -w kernel.rr_interval=100 (the call) and cat
    /proc/sys/kernel/rr_interval (the file) agree on 100; a quantum of
    100 ms and a slice of 2 s make each stair last long enough for a shell
    to see it;
  * a background spin (a hog) read five times from /proc/$!/sched, 0.3 s
    apart: every read is NORMAL (policy 0) at static_prio 120 with
    max_burst 19, quantum 100 and full_slice 2000, its stair between its
    top (139 - max_burst) and 139; and within one slice (slice left
    falling) the stair drops at least once between two reads: the
    staircase, watched from a file (docs/staircase.md §5);
  * echo 10 > /proc/sys/kernel/rr_interval (a write to the file) is what
    sysctl then reads; an ordinary user reads the file (setpriv
    --reuid=1000 cat) but gets "Permission denied" writing it, and a bad
    value ("abc", 0) is refused and changes nothing;
  * root writes threads-max and pid_max within Linux's bounds (a value
    outside: "Invalid argument"; uid 1000: "Permission denied");
  * /proc/sched_debug lists one CPU and the spin on it, runnable, on a
    stair, having run; /proc/schedstat is version 15 with CPU 0's run
    time;
  * /proc/PID/stat and status of the shell (pid 1) as ps reads them;
    /proc/self/maps has cat's code (r-xp) and its stack, named at
    column 49 as Linux's i386 maps.

procfs_busybox_sysctl, one CPU, tests=none, Debian's busybox-static
(unchanged) as a second module (/bin/busybox; skipped without it: make
BUSYBOX=1 fetches it): busybox's sysctl -w kernel.rr_interval=20 is what
cat /proc/sys/kernel/rr_interval and busybox's sysctl then read; uid 1000
gets busybox's "Permission denied" (EACCES), a bad value ("abc", 0) its
"Invalid argument" (EINVAL), read-only hz "Permission denied" too, and the
value is still 20; busybox's ps and top list the shell from /proc.
"""
import re

from harness import Case

ONE = "1,sockets=1,cores=1,threads=1"
PROMPT_AFTER = r".*\n(?:.*\n)*?\$ "     # the rest of the output, then a prompt
READS = 5
WATCH = "; sleep 0.3; ".join(["cat /proc/$!/sched"] * READS)


def session(steps):
    """[(command, [regex, ...]), ...] -> (send, expect_order), as in
    tools_linux.py: each command once the previous one's lines and a
    prompt have appeared."""
    send, order, trigger = [], [], r"^\$ "
    for cmd, lines in steps:
        send.append((trigger, cmd.encode() + b"\r"))
        order += lines
        trigger = lines[-1] + PROMPT_AFTER
    send.append((trigger, b"exit\r"))
    order.append(r"^init exited: status 0$")
    return send, order


SCHED_HEADER = r"^spin \(\d+, #threads: 1\)$"

STEPS = [
    ("sysctl -w kernel.rr_interval=100", [r"^kernel\.rr_interval = 100$"]),
    ("cat /proc/sys/kernel/rr_interval", [r"^100$"]),
    ("spin 30 &", [r"^\[\d+\] \d+$"]),
    ("until grep -q spin /proc/$!/comm; do sleep 0.1; done", [r"done$"]),
    (WATCH, [SCHED_HEADER] * READS + [r"^hz +: +1000$"]),
    # the run queue: one CPU, the spin on it with its stair (grep runs)
    ("grep -c '^cpu#' /proc/sched_debug", [r"^1$"]),
    ("grep ' spin ' /proc/sched_debug",
     [r"^ R +spin +\d+ +0\.000000 +\d+ +1[23]\d +\d+\.\d{6} +[1-9]\d*\.\d{6} +0\.000000$"]),
    ("cat /proc/schedstat", [r"^version 15$", r"^timestamp [1-9]\d*$",
                             r"^cpu0 0 0 0 0 0 0 [1-9]\d* 0 0$"]),
    ("kill $!", [r"kill"]),
    ("echo 10 > /proc/sys/kernel/rr_interval", [r"rr_interval$"]),
    ("sysctl kernel.rr_interval", [r"^kernel\.rr_interval = 10$"]),
    ("setpriv --reuid=1000 cat /proc/sys/kernel/rr_interval", [r"^10$"]),
    ("setpriv --reuid=1000 sh -c 'echo 50 > /proc/sys/kernel/rr_interval'",
     [r"/proc/sys/kernel/rr_interval: Permission denied"]),
    ("echo abc > /proc/sys/kernel/rr_interval", [r"Invalid argument"]),
    ("echo 0 > /proc/sys/kernel/rr_interval", [r"Invalid argument"]),
    ("cat /proc/sys/kernel/rr_interval", [r"^10$"]),
    # root's other two knobs, with Linux's bounds (threads-max 20 ..; the
    # top is this kernel's stack range: 5,397) and their errors
    ("sysctl -w kernel.threads-max=3000", [r"^kernel\.threads-max = 3000$"]),
    ("echo 19 > /proc/sys/kernel/threads-max", [r"Invalid argument"]),
    ("echo 6000 > /proc/sys/kernel/threads-max", [r"Invalid argument"]),
    ("setpriv --reuid=1000 sh -c 'echo 100 > /proc/sys/kernel/threads-max'",
     [r"/proc/sys/kernel/threads-max: Permission denied"]),
    ("echo 300 > /proc/sys/kernel/pid_max", [r"Invalid argument"]),
    ("echo 32769 > /proc/sys/kernel/pid_max", [r"Invalid argument"]),
    ("sysctl -w kernel.pid_max=32768", [r"^kernel\.pid_max = 32768$"]),
    ("cat /proc/sys/kernel/threads-max", [r"^3000$"]),
    ("cat /proc/1/stat", [r"^1 \(sh\) [RS] 0 1 1 1088 "]),
    # maps in Linux's i386 layout: the name padded to column 49; the text
    # is a mapping of the program's file (kernel/task/elf.c), as on Linux
    ("cat /proc/self/maps", [r"^[0-9a-f]{8}-[0-9a-f]{8} r-xp [0-9a-f]{8} 00:01 \d+ +/bin/cat$",
                             r"^[0-9a-f]{8}-bffff000 rw-p 00000000 00:00 0 {10}\[stack\]$"]),
    ("grep -c . /proc/1/status", [r"^\d+$"]),
]


def sched_reads(log):
    """Each /proc/PID/sched block of the spin: {field: int}."""
    blocks = []
    for m in re.finditer(SCHED_HEADER + r"\n-+\n((?:\w+ +: +-?\d+\n)+)", log, re.M):
        blocks.append({k: int(v) for k, v in
                       re.findall(r"^(\w+) +: +(-?\d+)$", m.group(1), re.M)})
    return blocks


def check_stairs(log):
    reads = sched_reads(log)
    if len(reads) != READS:
        return False, f"{len(reads)} /proc/PID/sched reads of the spin, want {READS}"
    for r in reads:
        want = dict(policy=0, static_prio=120, max_burst=19, quantum=100, full_slice=2000)
        got = {k: r.get(k) for k in want}
        if got != want:
            return False, f"spin's sched fields {got}, want {want}"
        if not 139 - r["max_burst"] <= r["prio"] <= 139:
            return False, f"spin on stair {r['prio']}, not between its top 120 and 139"
    drops = [(a["prio"], b["prio"]) for a, b in zip(reads, reads[1:])
             if b["slice"] < a["slice"] and b["prio"] > a["prio"]]
    stairs = [r["prio"] for r in reads]
    if not drops:
        return False, f"no read saw the stair drop within a slice: stairs {stairs}, " \
                      f"slices {[r['slice'] for r in reads]}"
    return True, f"stairs {stairs}; dropped {drops[0][0]} -> {drops[0][1]} within a slice"


BUSYBOX_STEPS = [
    ("busybox sysctl -w kernel.rr_interval=20", [r"^kernel\.rr_interval = 20$"]),
    ("cat /proc/sys/kernel/rr_interval", [r"^20$"]),
    ("busybox sysctl kernel.rr_interval", [r"^kernel\.rr_interval = 20$"]),
    ("setpriv --reuid=1000 busybox sysctl -w kernel.rr_interval=50",
     [r"^sysctl: error setting key 'kernel\.rr_interval': Permission denied$"]),
    ("busybox sysctl -w kernel.rr_interval=abc", [r"^sysctl: write error: Invalid argument$"]),
    ("busybox sysctl -w kernel.rr_interval=0", [r"^sysctl: write error: Invalid argument$"]),
    ("busybox sysctl -w kernel.hz=5",
     [r"^sysctl: error setting key 'kernel\.hz': Permission denied$"]),
    ("busybox sysctl -n kernel.rr_interval kernel.hz", [r"^20$", r"^1000$"]),
    ("busybox ps", [r"^PID +USER +COMMAND$", r"^ +1 root +/bin/sh$"]),
    ("busybox top -b -n 1", [r"^Load average: \d+\.\d\d ", r"^ +1 +0 root +S +\d+ "]),
]

_send, _order = session(STEPS)
_bb_send, _bb_order = session(BUSYBOX_STEPS)

CASES = [
    Case("procfs_sched_stair", smp=ONE, append="tests=none", timeout=90,
         tags=("console",), send=_send, expect_order=_order,
         forbid=[r"killed by signal 11", r"exit status 1[0-9][0-9]", r"panic"],
         check=check_stairs),
    Case("procfs_busybox_sysctl", smp=ONE, append="tests=none", timeout=60,
         tags=("console",), modules=["build/busybox/busybox"],
         send=_bb_send, expect_order=_bb_order,
         forbid=[r"killed by signal 11", r"panic", r"applet not found"]),
]
