"""The scheduler tools students use (docs/tools.md), driven through the shell.

One CPU, tests=none: the shell gets commands over the serial line. A spin in
the background ("[1] PID", as bash) must show up in ps as a NORMAL task on
the stairs and be reported "[1]+  Done  spin 2" before a later prompt; chrt
-b must report BATCH as granted; tune must read rr_interval (10 ms by
default) and report the kernel's EINVAL for 0; bad command lines get a
usage or an error message, never a crash; exit ends init with status 0.
(tools_linux.py has the util-linux and procps forms: chrt -m/-p, taskset,
setpriv, sysctl.)
"""
import re

from harness import Case

ONE = "1,sockets=1,cores=1,threads=1"
PROMPT_AFTER = r".*\n(?:.*\n)*?\$ "     # the rest of the output, then a prompt


def check_session(log):
    """The background spin's pid: in ps as NORMAL on a stair, then reaped."""
    job, pid = re.search(r"^\[(\d+)\] (\d+)$", log, re.M).groups()
    m = re.search(rf"^ +{pid} +R +NORMAL +(\d+) +0 +\d+ +(\d+) ", log, re.M)
    if not m:
        return False, f"no ps line 'PID {pid} R NORMAL' for the background spin"
    prio, slice_ = int(m.group(1)), int(m.group(2))
    if not 100 <= prio <= 139:
        return False, f"spin {pid} at prio {prio}, not on the stairs 100..139"
    if not 0 < slice_ <= 200:
        return False, f"spin {pid} slice {slice_}, want 1..200 ticks (nice 0)"
    if not re.search(rf"^\[{job}\][+ -]  Done {{20}}spin 2$", log, re.M):
        return False, f"no '[{job}]+  Done  spin 2' for the background spin"
    return True, f"spin {pid} on stair {prio} with {slice_} ticks left, reaped"


CASES = [
    Case("tools_shell_session", smp=ONE, append="tests=none", timeout=60,
         tags=("quick", "console"),
         send=[(r"^\$ ", b"spin 2 &\r"),
               (r"^\[\d+\] \d+\n\$ ", b"ps\r"),
               (r"^ +PID STATE" + PROMPT_AFTER, b"chrt -b spin 1\r"),
               (r"granted SCHED_BATCH" + PROMPT_AFTER, b"tune rr_interval\r"),
               (r"^rr_interval " + PROMPT_AFTER, b"tune rr_interval 0\r"),
               (r"EINVAL" + PROMPT_AFTER, b"tune iso_cpu 4294967346\r"),
               (r"not a number" + PROMPT_AFTER, b"tune iso_cpu\r"),
               (r"^iso_cpu " + PROMPT_AFTER, b"chrt -f spin\r"),
               (r"^chrt: invalid priority" + PROMPT_AFTER, b"spin 1 -c 7\r"),
               (r"cannot pin" + PROMPT_AFTER, b"exit\r")],
         expect_order=[
             r"^\[\d+\] \d+$",
             r"^ +PID STATE POLICY PRIO NICE BURST SLICE CPU TIME\(ms\) +RUNS WAIT\(ms\) NAME$",
             r"^ +\d+ +R +NORMAL +\d+ .* spin$",
             r"^chrt: spin: granted SCHED_BATCH priority 0$",
             r"^spin\[\d+\]: \d+ ms wall, got \d+ ms CPU",
             r"^\[\d+\][+ -]  Done +spin 2$",
             r"^rr_interval +10 ms +1\.\.1000 ",
             r"^tune: rr_interval 0: EINVAL, the kernel refused it: "
             r"rr_interval takes 1\.\.1000 ms \(still 10\)$",
             r"^tune: iso_cpu: '4294967346' is not a number \(0\.\.100 %\)$",
             r"^iso_cpu +70 % +0\.\.100 ",
             r"^chrt: invalid priority argument: 'spin'$",
             r"^spin: cannot pin to CPU 7: Invalid argument \(no such CPU online\)$",
             r"^init exited: status 0$"],
         forbid=[r"killed by signal", r"^sh: .*: exit status 1[0-9][0-9]"],
         check=check_session),
]
