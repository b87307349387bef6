"""docs/tour.md, typed: the student tour cannot go stale.

The case reads the tour itself. Every line starting with "$ " inside a
```console block is a command, typed when the shell's prompt appears; a
line "^C" or "^Z" right after a command is that key, sent as soon as the
command's line is echoed ("q", a key for top, after the output shown
before it). The other lines of the block are what the
command printed: each must match one line of the command's real output,
in order (numbers stand for any number and runs of spaces for any run,
since pids, stairs and timings differ from run to run; lines may be left
out of the tour). Then a few facts the tour teaches are checked with
their real numbers (FACTS below): a wrong tour or a broken kernel fails.

Two CPUs (taskset), real time, tests=none: init runs the shell.

tour_cfs_typed types §10's blocks (```console sched=cfs) the same way in
a boot of its own with sched=cfs, and checks what that section teaches:
every NORMAL task at 120 under CFS, and nice 10 beside nice 0 on one CPU
getting about a tenth (weights 1024 : 110), not the staircase's half.
TOUR_RECORD=1 writes build/tour-recorded.txt, each command with its real
output, for whoever edits the tour.
"""
import os
import re

from harness import Case, REPO

TOUR = os.path.join(REPO, "docs", "tour.md")
KEYS = {"^C": b"\x03", "^Z": b"\x1a", "q": b"q"}


def tour_steps(path=TOUR, info="console"):
    """[(command, key or None, [output lines])] from the console blocks
    (```console; info "console sched=cfs": §10's)."""
    steps, in_block = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("```"):
                in_block = not in_block and line.strip() == "```" + info
                continue
            if not in_block:
                continue
            if line.startswith("$ "):
                steps.append([line[2:], None, [], None])
            elif line in KEYS and steps and steps[-1][1] is None:
                # After the output shown so far (fg: its "spin 60"), or
                # else after the command's echo.
                steps[-1][1] = line
                steps[-1][3] = steps[-1][2][-1] if steps[-1][2] else None
            elif steps and line.strip():
                steps[-1][2].append(line)
    return [tuple(s[:3]) + (s[3],) for s in steps]


def loose(line):
    """A documented output line as a pattern: any number for a number, any
    run of spaces for a run of spaces."""
    out = []
    for tok in re.split(r"(\d+(?:\.\d+)?| +)", line.strip()):
        if not tok:
            continue
        if tok[0].isdigit():
            out.append(r"\d+(?:\.\d+)?")
        elif tok[0] == " ":
            out.append(r" +")
        else:
            out.append(re.escape(tok))
    return r" *" + "".join(out) + r" *"


def outputs(log, steps):
    """The real output of each step: from its echoed line to the next prompt."""
    res, pos = [], 0
    for cmd, key, _, _ in steps:
        m = re.compile(r"^\$ " + re.escape(cmd) + r"\n", re.M).search(log, pos)
        if not m:
            res.append(None)
            continue
        end = re.compile(r"^\$ ", re.M).search(log, m.end())
        stop = end.start() if end else len(log)
        res.append(log[m.end():stop])
        pos = stop
    return res


def fact_checks(steps, outs):
    """What the tour teaches, with the numbers that prove it."""
    by_cmd = {}
    for (cmd, _, _, _), out in zip(steps, outs):
        by_cmd.setdefault(cmd, []).append(out or "")
    problems = []

    def want(cmd, pattern, why, index=0):
        got = by_cmd.get(cmd, [])
        if len(got) <= index or not re.search(pattern, got[index], re.M):
            problems.append(f"'{cmd}': {why}")

    want("ps", r"^ +\d+ +\d+ +root +R +NORMAL +1[0-3]\d .* spin$", "a hog on the stairs (NORMAL, 100..139)")
    want("ps", r"^ +\d+ +\d+ +root +R +NORMAL +\d+ +10 .* spin$", "the reniced hog at nice 10", 1)
    want("ps", r"^ +\d+ +\d+ +root +R +BATCH +140 .* spin$", "the BATCH hog at 140", 2)
    want("ps", r"^ +\d+ +\d+ +root +T +\w+ .* spin$", "the stopped hog in state T", 4)
    want("setpriv --reuid=1000 chrt -f 10 spin 1", r"granted SCHED_ISO",
         "uid 1000's FIFO request granted as ISO")
    want("chrt -p $!", r"sched_rr_get_interval: 200 ms", "nice 0's slice is 200 ms at rr_interval 10")
    want("chrt -p $!", r"sched_rr_get_interval: 400 ms", "rr_interval 20 doubles the slice", 1)
    want("taskset -c 1 ps", r"^ +\d+ +\d+ +root +R +NORMAL +\d+ +0 +\d+ +\d+ +1 .* ps$",
         "ps pinned to CPU 1 runs there (CPU column 1)")
    # Hogs have run for most of a minute by then: Linux's 1-minute load
    # average (sysinfo, kernel/sys/sysinfo.c) has risen above 0.
    want("top", r"load average: (?!0\.00)\d+\.\d\d, ", "the 1-minute load average counts the hogs")
    # The one-line experiment: nice 0 and nice 10 on one CPU, about 2:1.
    exp = "taskset -c 0 sh -c 'for n in 0 10; do nice -n $n spin 2 & done; wait'; echo done"
    got = [int(x) for x in re.findall(r"got (\d+) ms CPU", (by_cmd.get(exp) or [""])[0])]
    if len(got) != 2 or not got[1] * 1.3 < got[0] < got[1] * 3.5:
        problems.append(f"the nice 0 / nice 10 spins on one CPU got {got} ms, want about 2:1")
    # Ctrl-C ended the runaway hog: the ps right after shows no spin.
    after = by_cmd.get("ps", [])
    if len(after) > 3 and re.search(r" spin$", after[3], re.M):
        problems.append("a spin survived Ctrl-C")
    return problems


def fact_checks_cfs(steps, outs):
    """§10: the same ps and the same experiment under sched=cfs."""
    by_cmd = {cmd: out or "" for (cmd, _, _, _), out in zip(steps, outs)}
    problems = []
    if not by_cmd.get("cat /proc/scheduler", "").startswith("cfs "):
        problems.append("/proc/scheduler does not name cfs")
    if len(re.findall(r"^ +\d+ +\d+ +root +R +NORMAL +120 +0 .* spin$", by_cmd.get("ps", ""),
                      re.M)) != 2:
        problems.append("ps: want both hogs at PRIO 120 (no stairs under CFS)")
    exp = "taskset -c 0 sh -c 'for n in 0 10; do nice -n $n spin 2 & done; wait'; echo done"
    # by pid: the shell forks nice 0's first, but either may end first
    got = [int(g) for _, g in sorted((int(p), g) for p, g in re.findall(
        r"^spin\[(\d+)\]: .*got (\d+) ms CPU", by_cmd.get(exp, ""), re.M))]
    # About 9:1 in virtual time; in real time on a busy host the second
    # spin may start late and run its last moments alone: at least 3:1,
    # which the staircase's 2:1 (§8) never reaches.
    if len(got) != 2 or not got[0] > got[1] * 3:
        problems.append(f"the nice 0 / nice 10 spins on one CPU got {got} ms, want about 9:1 "
                        "(at least 3:1)")
    return problems


def check_tour(log, info="console", facts=fact_checks):
    steps = tour_steps(info=info)
    outs = outputs(log, steps)
    if os.environ.get("TOUR_RECORD"):
        with open(os.path.join(REPO, "build", "tour-recorded.txt"), "w") as f:
            for (cmd, key, _, _), out in zip(steps, outs):
                f.write(f"$ {cmd}\n" + (f"{key}\n" if key else "") + (out or "<missing>\n"))
    for (cmd, key, want, _), out in zip(steps, outs):
        if out is None:
            return False, f"'{cmd}' was never typed (or its echo is missing)"
        lines, i = out.splitlines(), 0
        for w in want:
            pat = re.compile(loose(w))
            while i < len(lines) and not pat.fullmatch(lines[i]):
                i += 1
            if i == len(lines):
                return False, f"'{cmd}': no output line like {w!r}"
            i += 1
    problems = facts(steps, outs)
    if problems:
        return False, "; ".join(problems)
    return True, f"{len(steps)} tour commands typed, their output as docs/tour.md shows"


def check_tour_cfs(log):
    return check_tour(log, "console sched=cfs", fact_checks_cfs)


# A key goes out this long after its trigger: the job has exec'd its
# program by then (a Ctrl-Z that beats the exec stops a child still
# called sh), and it is far below what a student's hand takes.
KEY_DELAY_S = 0.5


# After a job started in the background the case types one line more,
# which the tour does not show, and goes on once it returns: the job has
# exec'd its program (no task but the shell is called sh). Typed at once,
# `chrt -b -p 0 $!` could make the child BATCH before its exec, and a
# BATCH child behind two hogs never gets to exec (ps: "sh", not "spin").
EXECED = "until pgrep -c -x sh | grep -q '^1$'; do sleep 0.01; done"


def tour_sends(steps):
    send = []
    for cmd, key, _, after in steps:
        send.append((r"^\$ ", cmd.encode() + b"\r"))
        if cmd.rstrip().endswith("&"):
            send.append((r"^\$ ", EXECED.encode() + b"\r"))
        if key:
            trigger = loose(after) + r"\n" if after else re.escape(cmd) + r"\n"
            send.append((trigger, KEYS[key], KEY_DELAY_S))
    return send


CASES = [
    Case("tour_typed", smp="2,sockets=1,cores=2,threads=1", append="tests=none",
         timeout=120, tags=("console", "tour"),
         send=tour_sends(tour_steps()),
         expect=[r"^init exited: status 0$"],
         check=check_tour),
    Case("tour_cfs_typed", smp="2,sockets=1,cores=2,threads=1", append="sched=cfs tests=none",
         timeout=90, tags=("console", "tour", "lineage"),
         send=tour_sends(tour_steps(info="console sched=cfs")),
         expect=[r"^init exited: status 0$"],
         check=check_tour_cfs),
]
