"""The scheduler tools under their Linux names and flags (docs/tools.md):
chrt (util-linux, with -m/-p and our ISO), taskset, setpriv and sysctl
(procps), typed into the shell over the serial line.

tools_linux_session, one CPU, tests=none:
  * chrt -m gives FIFO and RR 1/99, ISO 0/0, and "SCHED_IDLE not supported?"
    (this kernel has no policy 5);
  * setpriv --reuid=1000 chrt -f 10 ...: an unprivileged FIFO request is
    granted as ISO (chrt says so), and the task really is ISO (the inner
    chrt -p 0 reads SCHED_ISO back); the spin then runs;
  * sysctl -w kernel.rr_interval=20: sysctl and /proc/sys/kernel/rr_interval
    read 20 back and an RR task's
    quantum (sched_rr_get_interval) is 20 ms; back to 10, it is 10 ms;
  * per tool, each kind of bad input: unknown flag, bad number, unknown pid
    or key, something the user may not do (uid 1000 setting root's shell
    to FIFO: EPERM; writing a tunable; setresuid back to 0): the one-line
    message naming the bad thing, and the shell's "exit status 1".
tools_linux_taskset_2cpu, two CPUs: taskset -c 0 / -c 1 spin runs on that
  CPU (spin reports where it ran, and got ~all of it); taskset -p/-cp on
  the shell (pid 1) show and move its mask; CPU 5 (not there), a bad mask,
  an unknown pid and uid 1000 moving root's shell are refused.

No background jobs and the prompt matched only as "$ " at a line start,
so the cases do not depend on how the shell reports jobs.
"""
import re

from harness import Case

ONE = "1,sockets=1,cores=1,threads=1"
TWO = "2,sockets=1,cores=2,threads=1"
PROMPT_AFTER = r".*\n(?:.*\n)*?\$ "     # the rest of the output, then a prompt
STATUS1 = r"^.*exit status 1$"         # the shell's line for a failed command


def session(steps):
    """[(command, [regex, ...]), ...] -> (send, expect_order).

    Each command is typed once the previous command's last expected line
    and then a prompt have appeared; its expected lines must follow in
    order (a failing step shows up as "never sent input #N")."""
    send, order, trigger = [], [], r"^\$ "
    for cmd, lines in steps:
        send.append((trigger, cmd.encode() + b"\r"))
        order += lines
        trigger = lines[-1] + PROMPT_AFTER
    send.append((trigger, b"exit\r"))
    order.append(r"^init exited: status 0$")
    return send, order


def bad(cmd, message, status=True):
    """A command that must fail: its message, then the shell's status."""
    return (cmd, [message] + ([STATUS1] if status else []))


SESSION = [
    ("chrt -m", [r"^SCHED_OTHER min/max priority\t: 0/0$",
                 r"^SCHED_FIFO min/max priority\t: 1/99$",
                 r"^SCHED_RR min/max priority\t: 1/99$",
                 r"^SCHED_BATCH min/max priority\t: 0/0$",
                 r"^SCHED_IDLE not supported\?$",
                 r"^SCHED_ISO min/max priority\t: 0/0$"]),
    ("chrt --max", [r"^SCHED_ISO min/max priority\t: 0/0$"]),
    # unprivileged FIFO is granted as ISO, and reads back as ISO
    ("setpriv --reuid=1000 chrt -f 10 spin 1",
     [r"^chrt: spin: granted SCHED_ISO priority 0 \(asked for SCHED_FIFO 10: "
      r"unprivileged FIFO/RR is granted as ISO here\)$",
      r"^spin\[\d+\]: 1\d\d\d ms wall, got \d+ ms CPU"]),
    ("setpriv --reuid=1000 --regid=1000 --clear-groups chrt --fifo 10 chrt -p 0",
     [r"^chrt: chrt: granted SCHED_ISO priority 0 \(asked for SCHED_FIFO 10",
      r"^pid \d+'s current scheduling policy: SCHED_ISO$",
      r"^pid \d+'s current scheduling priority: 0$"]),
    # the quantum, through sysctl
    ("sysctl -a", [r"^kernel\.hz = 1000$", r"^kernel\.iso_cpu = 70$",
                   r"^kernel\.rr_interval = 10$"]),
    ("sysctl -w kernel.rr_interval=20", [r"^kernel\.rr_interval = 20$"]),
    ("cat /proc/sys/kernel/rr_interval", [r"^20$"]),     # the same tunable, as a file
    ("sysctl kernel.rr_interval", [r"^kernel\.rr_interval = 20$"]),
    ("sysctl -n kernel.rr_interval", [r"^20$"]),
    ("chrt -r 1 chrt -p 0",
     [r"^chrt: chrt: granted SCHED_RR priority 1$",
      r"^pid \d+'s current scheduling policy: SCHED_RR$",
      r"^pid \d+'s sched_rr_get_interval: 20 ms$"]),
    ("sysctl kernel.rr_interval=10", [r"^kernel\.rr_interval = 10$"]),
    ("chrt --rr 1 chrt --pid 0", [r"^pid \d+'s sched_rr_get_interval: 10 ms$"]),
    ("tune rr_interval", [r"^rr_interval +10 ms "]),
    # chrt: flag, number, pid, permission, policy
    bad("chrt --bogus", r"^chrt: unrecognized option '--bogus'$"),
    bad("chrt -x spin 1", r"^chrt: invalid option -- 'x'$"),
    bad("chrt -f 100 spin 1", r"^chrt: unsupported priority value for the "
        r"policy: 100: see --max for valid range$"),
    bad("chrt -p abc", r"^chrt: invalid PID argument: 'abc'$"),
    bad("chrt -p 999", r"^chrt: failed to get pid 999's policy: No such process$"),
    bad("setpriv --reuid=1000 chrt -p -f 10 1",
        r"^chrt: failed to set pid 1's policy: Operation not permitted"),
    bad("chrt --idle spin 1", r"^chrt: SCHED_IDLE not supported by this kernel"),
    # setpriv: flag, number, no program, permission
    bad("setpriv --bogus spin 1", r"^setpriv: unrecognized option '--bogus'$"),
    bad("setpriv --reuid=abc spin 1", r"^setpriv: failed to parse reuid: 'abc'$"),
    bad("setpriv --reuid=1000", r"^setpriv: No program specified$"),
    bad("setpriv --regid=1000 spin 1", r"^setpriv: --\[re\]gid requires "),
    bad("setpriv --reuid=1000 setpriv --reuid=0 spin 1",
        r"^setpriv: setresuid failed: Operation not permitted$"),
    # sysctl: flag, number (range, overflow, junk), key, permission
    bad("sysctl --bogus", r"^sysctl: unrecognized option '--bogus'$"),
    bad("sysctl -w kernel.iso_cpu=101",
        r'^sysctl: setting key "kernel\.iso_cpu": Invalid argument \(0\.\.100 %\)$'),
    bad("sysctl -w kernel.iso_cpu=4294967346",
        r'^sysctl: setting key "kernel\.iso_cpu": Invalid argument'),
    bad("sysctl -w kernel.rr_interval=abc",
        r'^sysctl: setting key "kernel\.rr_interval": Invalid argument'),
    bad("sysctl kernel.nosuch",
        r"^sysctl: cannot stat /proc/sys/kernel/nosuch: No such file or directory$"),
    bad("sysctl -w kernel.rr_interval",
        r'^sysctl: "kernel\.rr_interval" must be of the form name=value$'),
    bad("sysctl -w kernel.hz=100",
        r'^sysctl: setting key "kernel\.hz": Operation not permitted'),
    bad("setpriv --reuid=1000 sysctl -w kernel.rr_interval=50",
        r'^sysctl: permission denied on key "kernel\.rr_interval"$'),
    ("sysctl kernel.iso_cpu kernel.rr_interval",   # nothing was changed
     [r"^kernel\.iso_cpu = 70$", r"^kernel\.rr_interval = 10$"]),
]

TASKSET = [
    ("taskset -c 0 spin 1", [r"^spin\[\d+\]: .* on cpu 0$"]),
    ("taskset -c 1 spin 1", [r"^spin\[\d+\]: .* on cpu 1$"]),
    ("taskset 2 spin 1", [r"^spin\[\d+\]: .* on cpu 1$"]),
    ("taskset -p 1", [r"^pid 1's current affinity mask: 3$"]),
    ("taskset -cp 1 1", [r"^pid 1's current affinity list: 0,1$",
                         r"^pid 1's new affinity list: 1$"]),
    ("taskset --all-tasks -p 1", [r"^pid 1's current affinity mask: 2$"]),
    ("taskset -p 0x3 1", [r"^pid 1's current affinity mask: 2$",
                          r"^pid 1's new affinity mask: 3$"]),
    bad("taskset --bogus", r"^taskset: unrecognized option '--bogus'$"),
    bad("taskset zz spin 1", r"^taskset: failed to parse CPU mask: zz$"),
    bad("taskset -c 0-x spin 1", r"^taskset: failed to parse CPU list: 0-x$"),
    bad("taskset -c 5 spin 1", r"^taskset: failed to set pid \d+'s affinity: "
        r"Invalid argument \(none of CPUs 5 is online\)$"),
    bad("taskset -p 999", r"^taskset: failed to get pid 999's affinity: "
        r"No such process$"),
    bad("setpriv --reuid=1000 taskset -p 1 1",
        r"^taskset: failed to set pid 1's affinity: Operation not permitted$"),
    ("taskset -cp 1", [r"^pid 1's current affinity list: 0,1$"]),
]


def spins_got_their_cpu(log):
    """Each pinned spin had its CPU alone: >= 90% of its wall time."""
    runs = re.findall(r"^spin\[\d+\]: (\d+) ms wall, got (\d+) ms CPU.* on cpu (\d)$",
                      log, re.M)
    if len(runs) != 3:
        return False, f"{len(runs)} spin reports, want 3"
    for wall, got, cpu in runs:
        if int(got) * 10 < int(wall) * 9:
            return False, f"spin on cpu {cpu} got {got} of {wall} ms"
    return True, "spins on cpus " + ",".join(c for _, _, c in runs)


_send1, _order1 = session(SESSION)
_send2, _order2 = session(TASKSET)

CASES = [
    Case("tools_linux_session", smp=ONE, append="tests=none", timeout=90,
         tags=("console",), send=_send1, expect_order=_order1,
         forbid=[r"killed by signal", r"exit status 1[0-9][0-9]",
                 r"unknown option"]),
    Case("tools_linux_taskset_2cpu", smp=TWO, append="tests=none", timeout=60,
         tags=("console",), send=_send2, expect_order=_order2,
         forbid=[r"killed by signal", r"exit status 1[0-9][0-9]"],
         check=spins_got_their_cpu),
]
