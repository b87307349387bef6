"""The scheduler tools students use (docs/tools.md), driven through the shell.

One CPU, tests=none: the shell gets commands over the serial line. A spin in
the background ("[1] PID", as bash) must show up in ps as a NORMAL task on
the stairs, its PPID the shell's pid and its USER root (uid 1000's ps shows
itself as student, /etc/passwd's name); a chrt -b beside it must report
BATCH as granted and wait at 140, its CPU time not moving (it cannot even
exec spin) until the hog is killed ("[1]+  Terminated  spin 30"), then run; tune must read rr_interval (10 ms by
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
    """The background spin's pid: in ps as NORMAL on a stair, then ended by
    kill; the BATCH one: in ps beside it with no CPU time yet."""
    job, pid = re.search(r"^\[(\d+)\] (\d+)$", log, re.M).groups()
    m = re.search(rf"^ +{pid} +(\d+) +root +R +NORMAL +(\d+) +0 +\d+ +(\d+) ", log, re.M)
    if not m:
        return False, f"no ps line 'PID PPID root R NORMAL' for the background spin {pid}"
    sh = re.search(r"^ +(\d+) +\d+ +root +\w +NORMAL .* sh$", log, re.M)
    if not sh or m.group(1) != sh.group(1):
        return False, f"spin {pid}'s PPID {m.group(1)}, want the shell's pid " \
                      f"{sh.group(1) if sh else '(no sh row)'}"
    ppid, prio, slice_ = m.group(1), int(m.group(2)), int(m.group(3))
    if not 100 <= prio <= 139:
        return False, f"spin {pid} at prio {prio}, not on the stairs 100..139"
    if not 0 < slice_ <= 200:
        return False, f"spin {pid} slice {slice_}, want 1..200 ticks (nice 0)"
    # Two ps half a second apart: the BATCH task is still called chrt
    # (it never ran again to exec spin) and its CPU time has not moved.
    # That time is what chrt ran as NORMAL before it made itself BATCH:
    # under TCG in real time a tick (or a lost one, charged to the
    # current task) can land there, so it is not required to be 0.
    batch = re.findall(r"^ +\d+ +\d+ +root +R +BATCH +140 +0 +\d+ +\d+ +\d+ +(\d+) +(\d+) .* chrt$",
                       log, re.M)
    if len(batch) < 2 or len(set(batch)) != 1:
        return False, "want two ps lines 'root R BATCH 140 ... chrt' beside the hog, " \
                      f"the same CPU time and runs in both: {batch or 'none'}"
    if not re.search(rf"^\[{job}\][+ -]  Terminated +spin 30$", log, re.M):
        return False, f"no '[{job}]+  Terminated  spin 30' for the background spin"
    return True, f"spin {pid} (PPID {ppid}, the shell) on stair {prio} with {slice_} " \
                 f"ticks left; BATCH waited at 140 beside it ({batch[0][0]} ms, as before 0.5 s)"


CASES = [
    # "staircase": ps's stair and slice, and BATCH waiting behind spin 2
    # (docs/lineage.md: skipped by harness.py --sched NAME).
    Case("tools_shell_session", smp=ONE, append="tests=none", timeout=60,
         tags=("quick", "console", "staircase"),
         # Every step waits in the guest for what it needs, never a time:
         # a hog (spin 30) until it is killed, a BATCH chrt beside it that
         # cannot run (so it is still called chrt) until the kill.
         send=[(r"^\$ ", b"spin 30 &\r"),
               # wait until the child has exec'd spin (ps could still see sh)
               (r"^\[\d+\] \d+\n\$ ", b"until ps | grep -q ' spin$'; do sleep 0.1; done\r"),
               (r"done\n\$ ", b"ps\r"),
               (r"^ +PID +PPID USER +STATE" + PROMPT_AFTER,
                b"setpriv --reuid=1000 ps | grep ' ps$'\r"),
               (r" ps\n\$ ", b"chrt -b spin 1 &\r"),
               (r"^\[2\] \d+\n\$ ", b"until ps | grep -q 'BATCH .* chrt$'; do sleep 0.1; done\r"),
               (r"done\n\$ ", b"ps\r"),
               (r"BATCH .* chrt\n" + PROMPT_AFTER, b"sleep 0.5; ps\r"),
               (r"BATCH .* chrt\n" + PROMPT_AFTER, b"kill %1\r"),
               (r"kill %1\n\$ ", b"wait\r"),
               (r"spin\[\d+\]: \d+ ms wall" + PROMPT_AFTER, b"tune rr_interval\r"),
               (r"^rr_interval " + PROMPT_AFTER, b"tune rr_interval 0\r"),
               (r"EINVAL" + PROMPT_AFTER, b"tune iso_cpu 4294967346\r"),
               (r"not a number" + PROMPT_AFTER, b"tune iso_cpu\r"),
               (r"^iso_cpu " + PROMPT_AFTER, b"chrt -f spin\r"),
               (r"^chrt: invalid priority" + PROMPT_AFTER, b"spin 1 -c 7\r"),
               (r"cannot pin" + PROMPT_AFTER, b"exit\r")],
         expect_order=[
             r"^\[\d+\] \d+$",
             r"^ +PID +PPID USER +STATE POLICY PRIO NICE BURST SLICE CPU TIME\(ms\) +RUNS "
             r"WAIT\(ms\) NAME$",
             r"^ +\d+ +\d+ +root +R +NORMAL +\d+ .* spin$",
             r"^ +\d+ +\d+ +student +R +NORMAL +\d+ .* ps$",
             # chrt, BATCH before it could print, prints once the hog is
             # gone: after kill's prompt, maybe on the same line
             r"^ +\d+ +\d+ +root +R +BATCH +140 .* chrt$",
             r"^(?:\$ )?chrt: spin: granted SCHED_BATCH priority 0$",
             r"^spin\[\d+\]: \d+ ms wall, got \d+ ms CPU",
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

# The first-hour tools on the initrd's tree (kernel/fs/fs.c: getdents64,
# stat64, chdir, getcwd; user/bin/ls.c, cat.c, pwd.c, sleep.c, uptime.c,
# clear.c), each line typed at the prompt and its whole output checked;
# the errors are Linux's words for ENOENT, ENOTDIR and EISDIR.
def _typed(line, *out):
    return "^\\$ " + re.escape(line) + "\n" + "".join(o + "\n" for o in out) + r"(?=\$ )"


FILES = [  # (line, its output lines as regexes)
    ("ls /", ["bin  dev  etc  home  proc  root  tmp"]),
    ("ls -a /etc", [r"\.  \.\.  group  passwd"]),
    ("ls /bin | grep -c '^ls$'", ["1"]),
    ("ls -l /etc/passwd", [r"-rw-r--r-- 1 root root \d+ \w{3} [ \d]\d  ?[\d:]{4,5} /etc/passwd"]),
    ("ls -ld /bin", [r"drwxr-xr-x \d+ root root 0 \w{3} [ \d]\d  ?[\d:]{4,5} /bin"]),
    # a symbolic link as GNU's -l shows one: type l, and where it points
    ("ls -l /proc/mounts",
     [r"lrwxrwxrwx 1 root root 11 \w{3} [ \d]\d  ?[\d:]{4,5} /proc/mounts -> self/mounts"]),
    ("cd /bin; pwd; ls -1 sh cat", ["/bin", "cat", "sh"]),
    ("cd ../etc; pwd; cat group | head -n 1", ["/etc", "root:x:0:"]),
    ("cd; pwd", ["/"]),
    # a writable /tmp (issue 44): the shell's > and >> on tmpfs, EROFS elsewhere
    ("echo saved > /tmp/note; echo again >> /tmp/note; cat /tmp/note; wc -l /tmp/note",
     ["saved", "again", "2 /tmp/note"]),
    ("echo x > /etc/x", ["sh: /etc/x: Read-only file system"]),
    ("cat -n /etc/group | head -n 2", [r"     1\troot:x:0:", r"     2\tdaemon:x:1:"]),
    ("ls /nope; echo st=$?",
     ["ls: cannot access '/nope': No such file or directory", "sh: ls: exit status 2", "st=2"]),
    ("cat /nope /bin; echo st=$?",
     ["cat: /nope: No such file or directory", "cat: /bin: Is a directory",
      "sh: cat: exit status 1", "st=1"]),
    ("cd /bin/sh", ["sh: cd: /bin/sh: Not a directory"]),
    ("ls -z", ["ls: invalid option -- 'z'", "Try 'ls --help' for more information.",
               "sh: ls: exit status 2"]),
    ("sleep 1; echo slept", ["slept"]),
    ("sleep 1x", ["sleep: invalid time interval '1x'", "Try 'sleep --help' for more information.",
                  "sh: sleep: exit status 1"]),
    ("sleep", ["sleep: missing operand", "Try 'sleep --help' for more information.",
               "sh: sleep: exit status 1"]),
    ("pwd -z", ["pwd: invalid option -- 'z'", "Try 'pwd --help' for more information.",
                "sh: pwd: exit status 1"]),
    ("uptime", [r" \d\d:\d\d:\d\d up 0 min,  0 user,  load average: \d\.\d\d, \d\.\d\d, \d\.\d\d"]),
    ("uptime -p", ["up 0 minutes"]),
    ("uptime -x", ["uptime: invalid option -- 'x'", "Try 'uptime --help' for more information.",
                   "sh: uptime: exit status 1"]),
    ("dmesg | head -n 1", [r"\[    0\.000000\] boot: staircase kernel, cpu vendor .*"]),
    ("dmesg -r -s 4096 | grep -c '^<6>\\[ '", [r"[1-9]\d*"]),
    ("dmesg -n 9", ["dmesg: unknown level '9'", "Try 'dmesg --help' for more information.",
                    "sh: dmesg: exit status 1"]),
    ("dmesg -x", ["dmesg: invalid option -- 'x'", "Try 'dmesg --help' for more information.",
                  "sh: dmesg: exit status 1"]),
    ("clear -x | wc -c", ["7"]),
    ("clear -q", ["clear: invalid option -- 'q'", "Usage: clear \\[options\\]",
                  "sh: clear: exit status 1"]),
    ("top -n 0", ["top: bad iterations argument '0'", "Usage:", r" top \[-b\] \[-n N\] \[-d SECS\]",
                  ".*", ".*", ".*", ".*", "sh: top: exit status 1"]),
    ("top -b -n 2 -d 0.2 | grep -c '^top - .* up 0 min'", ["2"]),
    ("top -b -n 1 | grep -c '^Tasks: .* total, .* running, .* sleeping'", ["1"]),
]
HELPS = ["ls --help", "cat --help", "pwd --help", "sleep --help", "uptime -h", "clear -h",
         "dmesg -h"]

CASES += [
    Case("tools_files", smp=ONE, append="tests=none", timeout=60,
         tags=("quick", "console"),
         # top on the terminal runs until q (typed once its first frame is out)
         send=[(r"^\$ ", (t + "\r").encode()) for t in [l for l, _ in FILES] + HELPS] +
              [(r"^\$ ", b"top -d 0.2\r"), (r"^Tasks: ", b"q"), (r"^\$ ", b"exit\r")],
         expect_order=[_typed(line, *out) for line, out in FILES] +
                      [r"^Usage: ls \[OPTION\]", r"^Usage: cat \[OPTION\]", r"^Usage: pwd",
                       r"^Usage: sleep NUMBER", r"^ uptime \[options\]", r"^Usage: clear",
                       r"^ dmesg \[options\]",
                       r"^\$ top -d 0\.2\ntop - \d\d:\d\d:\d\d up 0 min, ",  # the escapes are stripped
                       r"^\$ exit$", r"^init exited: status 0$"]),
]
