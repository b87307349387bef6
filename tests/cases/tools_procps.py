"""The procps-like tools (ps -o, pgrep, pkill), grep/head/wc and periodic,
driven through the shell (docs/tools.md).

One CPU, tests=none, commands over the serial line, as tests/cases/tools.py.

tools_procps: beside a `spin 10 &`, `ps -e -o pid,cls,rtprio,ni,pri,psr,time,
comm` must show the spin as TS, RTPRIO -, NI 0, on CPU 0, with PRI 0..39;
`ps -o pid,pri,stair,comm` must have PRI = 139 - stair on every row (procps'
39 - (prio - 100)); `pgrep spin` and `pgrep -l -x spin` must print the
spin's pid, `pgrep pgrep` nothing (never itself); `pkill spin` must end it
(it never prints its own 10 s summary, and the shell reports it
Terminated). An ISO `periodic` in the background
must show in ps as ISO with RTPRIO 0, and `chrt -i 0 ps` must see itself as
ISO (an ISO *spin* cannot be shown: on one CPU it keeps the NORMAL shell
off the CPU until it ends, so ps would only run afterwards). `periodic
--audio -t 2` must report exactly 40 periods, and most deadlines met. Then
one bad input per tool: its one-line message, and the shell's non-zero
"exit status" line (no match: status 1 without a message).

tools_procps_pipes: the same tools in pipelines (ps | grep, | wc -l,
| head -n 2, pgrep | wc -l, a grep that selects nothing).
"""
import os
import re
import tarfile

from harness import Case, REPO

ONE = "1,sockets=1,cores=1,threads=1"
PROMPT_AFTER = r".*\n(?:.*\n)*?\$ "     # the rest of the output, then a prompt
JOB_STARTED = r"^\[\d+\](?: \d+)?\n\$ "  # "[1] 42" (or the old "[42]")
# Lines that may land in a command's output from a background job.
NOISE = re.compile(r"^(?:\[\d+\]|chrt: |periodic: |spin\[)")


def output_of(log, command):
    """The lines a command printed: after its echoed '$ command' line (a
    background job may have printed between the '$ ' and the echo), up to
    the next prompt, without background jobs' lines. None if not found."""
    m = re.search(r"^(?:\$ )?" + re.escape(command) + r"\n((?:.*\n)*?)\$ ", log, re.M)
    if not m:
        return None
    return [l for l in m.group(1).splitlines() if not NOISE.match(l)]


def row_of(lines, name):
    """The split row of the ps output whose last column is name."""
    rows = [l.split() for l in lines or [] if l.split()[-1:] == [name]]
    return rows[0] if len(rows) == 1 else None


def initrd_size(path):
    """The size of a file in the initrd the case boots (build/initrd.tar)."""
    with tarfile.open(os.path.join(REPO, "build", "initrd.tar")) as tar:
        return tar.getmember(path).size


def check_pri_and_spin(log):
    """The spin's row, PRI = 139 - stair, pgrep's pid; '' if all is well."""
    cmd = "ps -e -o pid,cls,rtprio,ni,pri,psr,time,comm"
    out = output_of(log, cmd)
    row = row_of(out, "spin")
    if not row or len(row) != 8:
        at = log.find(cmd)      # what the console showed instead
        return None, f"no single spin row in ps -e -o ...: {out}; " \
                     f"log there: {log[max(at - 40, 0):at + 300]!r}"
    pid, cls, rtprio, ni, pri, psr, cputime = row[:7]
    if (cls, rtprio, ni, psr) != ("TS", "-", "0", "0") or \
            not 0 <= int(pri) <= 39 or not re.fullmatch(r"\d\d:\d\d:\d\d", cputime):
        return None, f"spin row {row}: want TS - 0 PRI 0..39 PSR 0 hh:mm:ss"
    rows = [l.split() for l in output_of(log, "ps -o pid,pri,stair,comm")[1:]]
    for r in rows:
        if int(r[1]) != 139 - int(r[2]):
            return None, f"ps -o pid,pri,stair,comm row {r}: PRI != 139 - stair"
    if len(rows) < 3:
        return None, f"ps -o pid,pri,stair,comm: {len(rows)} rows, want sh, spin, ps"
    if output_of(log, "pgrep spin") != [pid]:
        return None, f"pgrep spin printed {output_of(log, 'pgrep spin')}, want [{pid}]"
    if output_of(log, "pgrep -l -x spin") != [f"{pid} spin"]:
        return None, f"pgrep -l -x spin printed {output_of(log, 'pgrep -l -x spin')}"
    return pid, f"spin {pid} TS PRI {pri}; PRI = 139 - stair on {len(rows)} rows"


def check_periodic(log, label, policy, periods, min_met):
    """One periodic summary: its period count, and deadlines met at least."""
    m = re.search(rf"^periodic: {label} under {policy}: (\d+) periods, (\d+) deadlines "
                  r"met \((\d+)\.(\d)%\), latency mean (\d+) us, p99 (\d+) us, "
                  r"max (\d+) us$", log, re.M)
    if not m:
        return False, f"no 'periodic: {label} under {policy}: ...' summary"
    n, met, pct, tenth, mean, p99, mx = map(int, m.groups())
    if n != periods or not min_met <= met <= n:
        return False, f"{policy} periodic: {n} periods, {met} met; want {periods}, >= {min_met}"
    if pct * 10 + tenth != met * 1000 // n or not mean <= mx or not p99 <= mx:
        return False, f"{policy} periodic: inconsistent summary {m.group(0)!r}"
    return True, f"{policy}: {met}/{n} met, p99 {p99} us"


def check_session(log):
    pid, msg = check_pri_and_spin(log)
    if pid is None:
        return False, msg
    iso = row_of(output_of(log, "ps -o pid,cls,rtprio,ni,pri,comm"), "periodic")
    if not iso or iso[1:5] != ["ISO", "0", "0", iso[4]] or not 0 <= int(iso[4]) <= 39:
        return False, f"ISO periodic row {iso}: want ISO 0 0 PRI 0..39"
    if (row_of(output_of(log, "chrt -i 0 ps -o pid,cls,comm"), "ps") or [])[1:2] != ["ISO"]:
        return False, "chrt -i 0 ps does not see itself as ISO"
    notes = [msg, f"ISO periodic PRI {iso[4]}"]
    for args in (("audio 5% of 50 ms", "NORMAL", 40, 30),
                 ("audio 5% of 50 ms", "ISO", 60, 50)):
        ok, note = check_periodic(log, *args)
        if not ok:
            return False, note
        notes.append(note)
    size = initrd_size("bin/wc")
    if output_of(log, "wc -c /bin/wc") != [f"{size} /bin/wc"]:
        return False, f"wc -c /bin/wc: {output_of(log, 'wc -c /bin/wc')}, want {size}"
    return True, "; ".join(notes)


def check_pipes(log):
    grep = output_of(log, "ps | grep spin")
    if not grep or len(grep) != 1 or not re.match(r"^ +\d+ +\d+ root +R +NORMAL .* spin$", grep[0]):
        return False, f"ps | grep spin printed {grep}, want the spin's one line"
    if output_of(log, "ps | grep -c spin") != ["1"]:
        return False, f"ps | grep -c spin printed {output_of(log, 'ps | grep -c spin')}"
    wc = output_of(log, "ps | wc -l")
    # header + sh + spin + ps, and wc itself if the shell forked it before
    # ps walked the pids (the two stages race).
    if not wc or len(wc) != 1 or wc[0] not in ("4", "5"):
        return False, f"ps | wc -l printed {wc}, want 4 or 5"
    head = output_of(log, "ps | head -n 2")
    if not head or len(head) != 2 or head[0].split()[:4] != ["PID", "PPID", "USER", "STATE"]:
        return False, f"ps | head -n 2 printed {head}, want the header and one row"
    if output_of(log, "pgrep spin | wc -l") != ["1"]:
        return False, f"pgrep spin | wc -l printed {output_of(log, 'pgrep spin | wc -l')}"
    return True, f"ps | wc -l = {wc[0]}; grep, head, pgrep | wc as expected"


def after(cmd):
    """Trigger: the echoed command, whatever it printed, then a prompt.
    Not anchored: the harness searches from just after the previous
    trigger, the prompt this command was typed at."""
    return re.escape(cmd) + r"\n(?:.*\n)*?\$ "


# A background chrt prints "granted" after the prompt is back: typing the
# next command before it would let that line cut the command's echo in two
# (seen: "$ ps -o pid,cls,rtprio,ni,chrt: periodic: granted ..."), so the
# command after one waits for the line as well.
GRANTED = r"(?:.*\n)*?.*granted SCHED_[A-Z]+ priority \d+\n"


def session(cmds):
    """send pairs: each command once the previous one's prompt is back
    (and, after a background chrt, its "granted" line)."""
    send, prev = [], None
    for cmd in cmds:
        if prev and prev.startswith("chrt ") and prev.endswith("&"):
            trigger = re.escape(prev) + r"\n" + GRANTED
        else:
            trigger = after(prev) if prev else r"^\$ "
        send.append((trigger, cmd.encode() + b"\r"))
        prev = cmd
    return send


# ps right after "spin &" may still see the forked shell (named sh) that
# has not exec'd spin yet: wait for the state the checks assert.
WAIT_SPIN = "until ps | grep -q ' spin$'; do sleep 0.1; done"

MAIN = ["spin 10 &", WAIT_SPIN, "ps aux", "ps -ef",
        "ps -e -o pid,cls,rtprio,ni,pri,psr,time,comm",
        "ps -o pid,pri,stair,comm",
        "pgrep spin",
        "pgrep -l -x spin",
        "pkill spin",
        "pgrep nosuch",
        "pgrep pgrep",
        "chrt -i 0 periodic --audio -t 3 &",
        "ps -o pid,cls,rtprio,ni,pri,comm",
        "chrt -i 0 ps -o pid,cls,comm",
        "wait",
        "periodic --audio -t 2",
        "ps -o pid,xyz",
        "ps -p 1x",
        "pgrep -z spin",
        "pkill -FOO spin",
        "pkill nosuch",
        "grep -z x",
        "head -n x /bin/wc",
        "wc -c /bin/wc",
        "wc /bin/nosuch",
        "periodic -c 0",
        "ps auxq",
        "exit"]

PIPES = ["spin 5 &", WAIT_SPIN,
         "ps | grep spin",
         "ps | grep -c spin",
         "ps | wc -l",
         "ps | head -n 2",
         "pgrep spin | wc -l",
         "ps | grep nosuch",
         "pkill spin",
         "wait",
         "exit"]


def status(prog, n):
    return rf"^sh: {prog}: exit status {n}$"


CASES = [
    Case("tools_procps", smp=ONE, append="tests=none", timeout=120,
         tags=("console",),
         send=session(MAIN),
         expect_order=[
             # procps' BSD user format and full format, with names from
             # /etc/passwd, sizes (VSZ, RSS) and the command line from /proc
             r"^USER {9}PID %CPU %MEM {4}VSZ {3}RSS TTY {6}STAT START {3}TIME COMMAND$",
             r"^root {11}1 +\d+\.\d +\d+\.\d +[1-9]\d* +[1-9]\d* ttyS0 +Ss +\d\d:\d\d +\d+:\d\d /bin/sh$",
             r"^root +\d+ +\d+\.\d +\d+\.\d +[1-9]\d* +[1-9]\d* ttyS0 +R +\d\d:\d\d +\d+:\d\d /bin/spin 10$",
             r"^UID {10}PID {4}PPID  C STIME TTY {10}TIME CMD$",
             r"^root {11}1 {7}0 +\d+ \d\d:\d\d ttyS0 +\d\d:\d\d:\d\d /bin/sh$",
             r"^root +\d+ +1 +\d+ \d\d:\d\d ttyS0 +\d\d:\d\d:\d\d /bin/spin 10$",
             r"^ +PID CLS RTPRIO +NI PRI PSR +TIME COMMAND$",
             r"^ +PID PRI STAIR COMMAND$",
             r"^\$ pkill spin$",
             r"^\$ pgrep nosuch$", status("pgrep", 1),
             r"^\$ pgrep pgrep$", status("pgrep", 1),     # never itself
             r"^ +PID CLS RTPRIO +NI PRI COMMAND$",
             r"^periodic: audio 5% of 50 ms under NORMAL: ",
             r'^error: unknown user-defined format specifier "xyz"$', status("ps", 1),
             r'^error: process ID list syntax error: "1x"$', status("ps", 1),
             r"^pgrep: invalid option -- 'z'$", status("pgrep", 2),
             r'^pkill: Unknown signal "FOO"$', status("pkill", 2),
             r"^\$ pkill nosuch$", status("pkill", 1),
             r"^grep: invalid option -- 'z'$", status("grep", 2),
             r"^head: invalid number of lines: 'x'$", status("head", 1),
             r"^wc: /bin/nosuch: No such file or directory$", status("wc", 1),
             r"^periodic: -c: bad number '0' \(1\.\.100 %\)$", status("periodic", 2),
             r"^error: unsupported option \(BSD syntax\) 'q' in \"auxq\"", status("ps", 1),
             r"^init exited: status 0$"],
         # pkill ended the spin: the shell says so, and the spin never
         # lived to print its own summary.
         expect=[r"^\[\d+\][+-]? +Terminated +spin 10$|^\[\d+\] killed by signal 15$"],
         forbid=[r"^spin\[\d+\]: ", r"exit status 1[0-9][0-9]", r"killed by signal 11"],
         check=check_session),
    Case("tools_procps_pipes", smp=ONE, append="tests=none", timeout=60,
         tags=("console",),
         send=session(PIPES),
         expect_order=[r"^\$ ps \| grep nosuch$", status("grep", 1),
                       r"^init exited: status 0$"],
         forbid=[r"exit status 1[0-9][0-9]", r"killed by signal 11"],
         check=check_pipes),
]
