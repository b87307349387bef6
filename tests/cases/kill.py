"""/bin/kill, util-linux's kill on this kernel's signals (user/bin/kill.c,
docs/tools.md), driven through the shell over the serial line.

One CPU, tests=none, as tests/cases/tools.py. Typed at the prompt, `kill`
is the shell's builtin, so every command here names /bin/kill.

kill_program: `kill -l` lists the one table's names (wrapped at 72 columns
on the terminal, one per line into a pipe: 31 names and the three RT
forms), `-L` numbers them, `-l 9` / `-l 143` / `-l sigterm` name a number
(143 is 128 + TERM, as for `kill -l $?`). Signals do what the target's
actions say, not just end it: `-0` sends nothing (status 0), STOP stops a
background spin (the shell's `jobs`: Stopped (signal)) and CONT continues
it (Running), and `periodic` catches SIGINT (`-s int`: names in any case)
and prints its summary and exits 0 (Done, not Interrupt). A negative pid is
a process group: `kill -- -PGID` ends a one-process job, and `kill -TERM
-PGID` a `sh -c 'spin 30 | spin 30'` job's shell and both spins (pgrep
finds no spin after). A name is every task of that name: `-p spin` prints
the spin's pid, `-9 spin` kills it. Then each kind of bad input: one line
on stderr naming the bad signal or pid, and a non-zero status (64 when
some targets were signalled and some not; uid 1000 may not signal init).
"""
import re

from harness import Case

ONE = "1,sockets=1,cores=1,threads=1"


def after(cmd):
    """Trigger: the echoed command, whatever it printed, then a prompt.
    Not anchored: the harness searches from just after the previous
    trigger, the prompt this command was typed at."""
    return re.escape(cmd) + r"\n(?:.*\n)*?\$ "


def session(cmds):
    """send pairs: each command once the previous one's prompt is back."""
    send, prev = [], None
    for cmd in cmds:
        send.append((after(prev) if prev else r"^\$ ", cmd.encode() + b"\r"))
        prev = cmd
    return send


def until(cond):
    """A command that returns once the shell command cond succeeds: the
    guest orders the next step, however slow the host (no delay guesses)."""
    return f"until {cond}; do sleep 0.01; done"


def output_of(log, command):
    """The lines a command printed (stdout and stderr: one console), from
    its echoed '$ command' line to the next prompt; None if not found."""
    m = re.search(r"^\$ " + re.escape(command) + r"\n((?:.*\n)*?)\$ ", log, re.M)
    return m.group(1).splitlines() if m else None


def status(n, prog="/bin/kill"):
    return f"sh: {prog}: exit status {n}"


# Each bad command line and all it may print: its one line, then the
# shell's status line.
BAD = [
    ("/bin/kill -FOO 1", ["kill: invalid signal name or number: FOO", status(1)]),
    ("/bin/kill -s FOO 1", ["kill: unknown signal: FOO", status(1)]),
    ("/bin/kill -s", ["kill: not enough arguments", status(1)]),
    ("/bin/kill -l 99", ["kill: unknown signal: 99", status(1)]),
    ("/bin/kill -l 1 2", ["kill: too many arguments", status(1)]),
    ("/bin/kill", ["kill: not enough arguments", status(1)]),
    ("/bin/kill -TERM", ["kill: not enough arguments", status(1)]),
    ("/bin/kill 99999", ["kill: sending signal to 99999 failed: No such process",
                         status(1)]),
    ("/bin/kill -- -99999", ["kill: sending signal to -99999 failed: No such process",
                             status(1)]),
    ("/bin/kill nosuch", ['kill: cannot find process "nosuch"', status(1)]),
    # pid 1 is signalled (0: nothing sent), 99999 is not: some, not all.
    ("/bin/kill -0 1 99999", ["kill: sending signal to 99999 failed: No such process",
                              status(64)]),
    ("setpriv --reuid=1000 /bin/kill -0 1",
     ["kill: sending signal to 1 failed: Operation not permitted",
      status(1, "setpriv")]),
]

MAIN = ["/bin/kill -l",
        "/bin/kill -l | wc -l",
        "/bin/kill -L",
        "/bin/kill -l 9",
        "/bin/kill -l 143",
        "/bin/kill -l sigterm",
        "spin 30 &",
        "/bin/kill -0 $!",
        "echo status $?",
        "/bin/kill -s STOP $!",
        "jobs",
        "/bin/kill -CONT $!",
        "jobs",
        "/bin/kill -- -$!",
        "wait",
        "sh -c 'spin 30 | spin 30' &",
        # the job's shell forks and execs both stages while its parent
        # is back at the prompt: count them once both are there
        until("pgrep -c spin | grep -qF 2"),
        "pgrep -c spin",
        "/bin/kill -TERM -$!",
        "wait",
        # wait reaps the job's shell; a spin with the signal pending may
        # not have run yet to die of it: count once none is left (a group
        # that never dies ends the case on its timeout)
        until("pgrep -c spin | grep -qF 0"),
        "pgrep -c spin",
        "periodic --audio -t 30 &",
        # once it sleeps in its loop (exec'd, its handler installed)
        until("grep -qF '(periodic) S' /proc/$!/stat"),
        "/bin/kill -s int $!",
        "wait",
        "spin 30 &",
        until("grep -qF '(spin) ' /proc/$!/stat"),   # exec'd: named spin, not sh
        "/bin/kill -p spin",
        "/bin/kill -9 spin",
        "wait"] + [cmd for cmd, _ in BAD] + ["exit"]


def check_kill(log):
    """Outputs that must be exactly so: the names, the pids, the errors."""
    want = {
        "/bin/kill -l": [
            "HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM",
            "STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO",
            "PWR SYS RT<N> RTMIN+<N> RTMAX-<N>"],
        "/bin/kill -l | wc -l": ["34"],
        "/bin/kill -l 9": ["KILL"],
        "/bin/kill -l 143": ["TERM"],
        "/bin/kill -l sigterm": ["TERM"],
        "/bin/kill -0 $!": [],
        "echo status $?": ["status 0"],
    }
    want.update(BAD)
    for cmd, lines in want.items():
        got = output_of(log, cmd)
        if got != lines:
            return False, f"{cmd!r} printed {got}, want {lines}"
    table = output_of(log, "/bin/kill -L") or []
    if len(table) != 6 or table[0].rstrip() != \
            " 1 HUP      2 INT      3 QUIT     4 ILL      5 TRAP     6 ABRT" or \
            table[-1].rstrip() != "31 SYS     34 RTMIN   64 RTMAX":
        return False, f"kill -L printed {table}"
    # The group: after kill -TERM -PGID no spin is left (pgrep -c says 0).
    before, after_ = output_of(log, "pgrep -c spin"), None
    for m in re.finditer(r"^\$ pgrep -c spin\n((?:.*\n)*?)\$ ", log, re.M):
        after_ = m.group(1).splitlines()
    if before != ["2"] or after_ != ["0", status(1, "pgrep")]:
        return False, (f"pgrep -c spin: {before} beside the sh -c job, {after_} "
                       "after kill -TERM -PGID; want 2, then 0")
    # -p NAME prints the pid the shell announced for that spin.
    m = re.search(r"^\$ spin 30 &\n\[\d+\] (\d+)\n(?:.*\n)*?\$ /bin/kill -p spin\n(.*)\n",
                  log[log.find("periodic --audio"):], re.M)
    if not m or m.group(1) != m.group(2):
        return False, f"kill -p spin: {m and m.groups()}, want the spin's pid"
    return True, f"names, groups, handler, -p spin = {m.group(1)}, {len(BAD)} bad inputs"


CASES = [
    Case("kill_program", smp=ONE, append="tests=none", timeout=90,
         tags=("console",),
         send=session(MAIN),
         expect_order=[
             r"^\$ spin 30 &$",
             r"^\$ jobs$", r"^\[1\]\+  Stopped \(signal\) +spin 30$",
             r"^\$ jobs$", r"^\[1\]\+  Running +spin 30 &$",
             r"^\$ wait$", r"^\[1\]\+  Terminated +spin 30$",
             r"^\$ /bin/kill -TERM -\$!$",
             r"^\[1\]\+  Terminated +sh -c 'spin 30 \| spin 30'$",
             # periodic's handler: its summary, then it exits 0.
             r"^\$ /bin/kill -s int \$!$",
             r"^periodic: audio 5% of 50 ms under NORMAL: \d+ periods",
             r"^\[1\]\+  Done +periodic --audio -t 30$",
             r"^\$ /bin/kill -9 spin$",
             r"^\[1\]\+  Killed +spin 30$",
             r"^init exited: status 0$"],
         forbid=[r"^spin\[\d+\]: ", r"killed by signal 11",
                 r"^\[\d+\][+ -]  Interrupt +periodic"],
         check=check_kill),
]
