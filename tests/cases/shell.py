"""The shell (user/bin/sh.c, docs/userland.md "sh") driven over the serial
console: pipelines, lists and $ expansion; one error line and status 2 for
every bad line; background jobs, jobs and kill %N; and, with the kernel's
signals and job-control terminal, Ctrl-C and Ctrl-Z on a foreground job, bg
and fg, and the line editor (Backspace, Ctrl-U, Ctrl-W, Ctrl-C, Up, Ctrl-D).

One CPU, tests=none: init execs /bin/sh (pid 1). Each line is sent when the
next prompt appears (send_from moves past the previous match, so r"^\\$ "
is always the prompt after the last line's output). Ctrl-C and Ctrl-Z go
out as soon as the line's newline is echoed: the shell echoes it after the
terminal is back in its own mode, and passes on a signal that reaches it
before the job has the terminal (tests/host-tools/test_sh.py checks the
same on Linux, with the one-second bound this harness cannot time).
"""
import re

from harness import Case

ONE = "1,sockets=1,cores=1,threads=1"
CLEAN_EXIT = r"^init exited: status 0$"


def lines(*texts):
    """Each text (str: typed with Enter; bytes: as they are) at a prompt."""
    return [(r"^\$ ", t if isinstance(t, bytes) else t.encode() + b"\r")
            for t in texts]


NEXT = r"(?=\$ )"     # the next prompt, left for the next regex to match


def typed(line, *out):
    """The prompt, the echoed line, then exactly these output lines and the
    next prompt: nothing else in between."""
    return "^\\$ " + re.escape(line) + "\n" + "".join(o + "\n" for o in out) + NEXT


def ps_blocks(log):
    """Each ps output in the log, as its list of lines."""
    return [m.group(1).splitlines() for m in
            re.finditer(r"^\$ ps\n((?:(?!\$ ).*\n)*)", log, re.M)]


def state(row):
    """A ps row's STATE: PID PPID USER STATE ..."""
    return row.split()[3]


def spin_states(block):
    return [state(ln) for ln in block if ln.endswith(" spin")]


def check_bg_pid(log):
    """$! is the pid that "[1] PID" announced."""
    m = re.search(r"^\[1\] (\d+)\nbg=(\d+)$", log, re.M)
    if not m or m.group(1) != m.group(2):
        return False, "'spin 1 & echo bg=$!' did not print the announced pid"
    return True, f"$! = {m.group(1)}"


def check_stopped_then_running(log):
    """The job stopped (T) in the first ps, ran as spin (R) after bg, and
    was gone at the end.  (Found by pid: a Ctrl-Z that beat the exec stops
    the child while ps still calls it sh.)"""
    blocks = ps_blocks(log)
    if len(blocks) != 3:
        return False, f"{len(blocks)} ps outputs, want 3"
    pids = [ln.split()[0] for ln in blocks[1] if ln.endswith(" spin")]
    if len(pids) != 1:
        return False, f"after bg: spin lines for pids {pids}"
    first = [state(ln) for ln in blocks[0] if ln.split()[0] == pids[0]]
    if first != ["T"]:
        return False, f"pid {pids[0]} before bg: states {first}, want T"
    if [state(ln) for ln in blocks[1] if ln.split()[0] == pids[0]] != ["R"]:
        return False, f"pid {pids[0]} after bg is not R"
    if spin_states(blocks[2]):
        return False, "spin still in the last ps"
    return True, f"pid {pids[0]}: T, then R as spin, then gone"


def check_spins(*want):
    """The ps outputs, in order, show spin in these states ("" = no spin)."""
    def check(log):
        got = ["".join(spin_states(b)) for b in ps_blocks(log)]
        if got != list(want):
            return False, f"spin states in the ps outputs {got}, want {list(want)}"
        return True, "spin in ps: " + ", ".join(s or "gone" for s in got)
    return check


BAD = [  # (line, its one error line)
    ('echo "abc', r'sh: syntax error: no closing "'),
    ("hello |", r"sh: syntax error: nothing after '\|'"),
    ("&& hello", r"sh: syntax error near unexpected token '&&'"),
    ("hello ; ; hello", r"sh: syntax error near unexpected token ';'"),
    ("hello >", r"sh: syntax error: no file after '>'"),
    ("fg %7", r"sh: fg: %7: no such job"),
    ("kill %7", r"sh: kill: %7: no such job"),
    ("exit 1 2", r"sh: exit: too many arguments"),
    ("hello" + " a" * 40, r"sh: too many words in one command \(max 32\)"),
]
LONG = "x" * 300

CASES = [
    Case("shell_pipes_and_lists", smp=ONE, append="tests=none", timeout=60,
         tags=("quick", "console", "shell"),
         send=lines("echo hello | sh",
                    "echo echo echo deep | sh | sh",
                    "false | true; echo st=$?",
                    "true | false; echo st=$?",
                    "true && echo and-ok; false && echo bad1",
                    "false || echo or-ok; true || echo bad2",
                    "false && echo bad3 || echo fallback",
                    "echo pid=$$",
                    "spin 1 & echo bg=$!",
                    "wait; echo waited=$?",
                    "echo 'a  $x' \"b  $?\" c\\ d \"\" end # no comment",
                    "hello < /bin/hello",
                    "hello < /nosuch; echo st=$?",
                    "hello > /x; echo st=$?",
                    "sh -c 'exit 3'; echo st=$?",
                    "help",
                    "exit"),
         expect_order=[
             r"^hello from pid \d+$",
             typed("echo echo echo deep | sh | sh", "deep"),
             typed("false | true; echo st=$?", "st=0"),
             typed("true | false; echo st=$?", "st=1"),
             typed("true && echo and-ok; false && echo bad1", "and-ok"),
             typed("false || echo or-ok; true || echo bad2", "or-ok"),
             typed("false && echo bad3 || echo fallback", "fallback"),
             typed("echo pid=$$", "pid=1"),
             r"^\[1\] \d+\nbg=\d+$",
             r"^spin\[\d+\]: \d+ ms wall",
             r"^waited=0\n\[1\]\+  Done {20}spin 1\n" + NEXT,
             r"^a  \$x b  0 c d  end$",
             r"^\$ hello < /bin/hello\nhello from pid \d+$",
             r"^sh: /nosuch: No such file or directory\nst=1$",
             r"^sh: /x: Read-only file system\nst=1$",
             r"^sh: sh: exit status 3\nst=3$",
             r"^builtins:$", r"^  kill \[-SIG\] %N\|PID\.\.\. ", r"^  spin \[SEC\]",
             CLEAN_EXIT],
         forbid=[r"^bad\d", r"not found", r"exit status [^3]"],
         check=check_bg_pid),

    # Pipelines of the text tools (grep, head, wc: user/bin, their own
    # engineers'): the data goes through two pipes; head stops reading
    # early, so ps meets a closed pipe (EPIPE/SIGPIPE: no message).
    Case("shell_pipes_of_tools", smp=ONE, append="tests=none", timeout=60,
         tags=("console", "shell"),
         # the loop waits until the child has exec'd spin (else ps shows sh)
         send=lines("spin 20 &", "until ps | grep -q ' spin$'; do sleep 0.1; done",
                    "ps | grep spin | wc -l", "ps | head -n 1 | wc -l",
                    "hello | grep -c hello", "kill %1; wait", "exit"),
         expect_order=[typed("ps | grep spin | wc -l", "1"),
                       typed("ps | head -n 1 | wc -l", "1"),
                       typed("hello | grep -c hello", "1"),
                       CLEAN_EXIT],
         forbid=[r"not found", r"Broken pipe", r"exit status"]),

    Case("shell_bad_lines", smp=ONE, append="tests=none", timeout=60,
         tags=("console", "shell"),
         send=lines(*[t for line, _ in BAD for t in (line, "echo st=$?")],
                    LONG, "echo st=$?", "exit"),
         expect_order=[typed(line, err) + r"\$ " + re.escape("echo st=$?") +
                       r"\nst=2$" for line, err in BAD] +
                      [r"^\$ x+\a*\nsh: line too long \(max 255 characters\)\n"
                       r"\$ echo st=\$\?\nst=2$", CLEAN_EXIT]),

    Case("shell_jobs_and_kill", smp=ONE, append="tests=none", timeout=60,
         tags=("console", "shell"),
         send=lines("spin 30 &", "spin 30 &", "jobs",
                    "kill %1; wait %1; echo st=$?", "jobs",
                    "kill -9 %2; wait %2", "jobs; echo none", "ps", "exit"),
         expect_order=[
             r"^\[1\] \d+$", r"^\[2\] \d+$",
             typed("jobs", r"\[1\]-  Running {17}spin 30 &",
                   r"\[2\]\+  Running {17}spin 30 &"),
             r"^st=143\n\[1\]-  Terminated {14}spin 30\n" + NEXT,
             typed("jobs", r"\[2\]\+  Running {17}spin 30 &"),
             r"^\[2\]\+  Killed {18}spin 30\n" + NEXT,
             typed("jobs; echo none", "none"),
             CLEAN_EXIT],
         check=check_spins("")),

    # These need the kernel's signals and job-control terminal (ISIG,
    # TIOCSPGRP, WUNTRACED): Ctrl-C must end spin 60 long before its minute.
    Case("shell_ctrl_c", smp=ONE, append="tests=none", timeout=30,
         tags=("console", "shell", "signals"),
         send=lines("spin 60") + [(r"spin 60\n", b"\x03")] +
              lines("echo st=$?", "spin 60; echo not-reached") +
              [(r"not-reached\n", b"\x03")] + lines("ps", "exit"),
         expect_order=[r"^\$ spin 60\n(\^C)?\n\$ echo st=\$\?\nst=130$",
                       r"^\$ spin 60; echo not-reached\n(\^C)?\n\$ ps$",
                       CLEAN_EXIT],
         forbid=[r"^not-reached"],
         check=check_spins("")),

    Case("shell_ctrl_z_bg_fg", smp=ONE, append="tests=none", timeout=30,
         tags=("console", "shell", "signals"),
         send=lines("spin 60") + [(r"spin 60\n", b"\x1a")] +
              lines("ps", "bg", "ps", "fg") + [(r"^spin 60\n", b"\x03")] +
              lines("jobs; echo none", "ps", "exit"),
         expect_order=[r"^\$ spin 60\n(\^Z)?\n\[1\]\+  Stopped {17}spin 60\n" + NEXT,
                       typed("bg", r"\[1\]\+ spin 60 &"),
                       r"^\$ fg\nspin 60\n(\^C)?\n" + NEXT,
                       typed("jobs; echo none", "none"),
                       CLEAN_EXIT],
         check=check_stopped_then_running),

    # The line editor: non-canonical mode (TCGETS/TCSETS) with our echo.
    Case("shell_line_editing", smp=ONE, append="tests=none", timeout=30,
         tags=("console", "shell", "signals"),
         send=lines("hello", b"\x1b[A\r", b"hellx\x7fo\r", b"junk\x15hello\r",
                    b"echo one two\x17three\r", b"junk\x03", "echo st=$?",
                    "history", b"\x04"),
         expect_order=[r"^\$ hello\nhello from pid \d+\n\$ hello\nhello from pid \d+\n" + NEXT,
                       r"^hello from pid \d+\n\$ .*\nhello from pid \d+\n" + NEXT,
                       r"^one three\n\$ junk\^C\n\$ echo st=\$\?\nst=130\n",
                       typed("history", "    1  hello", "    2  echo one three",
                             r"    3  echo st=\$\?", "    4  history") + r"\$ exit$",
                       CLEAN_EXIT]),
]

STOPPED_THEN_JOBS = "until grep -qF ') T ' /proc/$!/stat; do sleep 0.01; done; jobs"

# A background job that reads the terminal gets SIGTTIN and stops (its
# group is not the foreground one, docs/kernel.md "The terminal and job
# control"); fg gives it the terminal, and it reads what is typed.
CASES += [
    Case("shell_background_read_gets_sigttin", smp=ONE, append="tests=none",
         timeout=30, tags=("console", "shell", "signals"),
         # jobs once the background grep has reached its read of the
         # terminal and stopped (state T in /proc/PID/stat), however slow
         # the host: the guest orders it, no delay guesses it
         send=lines("grep hello &", STOPPED_THEN_JOBS) +
              [(r"Stopped \(tty input\) +grep hello", b"fg\r")] +
              [(r"^grep hello\n", b"say hello\r"), (r"say hello\n", b"\x04")] +
              lines("echo st=$?", "exit"),
         expect_order=[r"^\[1\]\+  Stopped \(tty input\) +grep hello$",
                       r"^say hello\nsay hello$", r"^st=0$", CLEAN_EXIT]),
]

# Scripting an experiment (issue 30): variables, for, while, until, if,
# break/continue, test, export, NAME=VALUE for one command, a loop typed
# over several lines ("> "), and what POSIX sh has and this shell has not
# refused by name (one line, status 2) instead of misparsed.
EXPERIMENT = "X=3; for n in 0 5 10; do nice -n $n spin 1 & done; wait; echo done $X"
SCRIPTS = [  # (line, its output lines as regexes)
    ("i=0; while [ $i != 000 ]; do i=0$i; done; echo i=$i", ["i=000"]),
    ("until true; do echo never; done; echo st=$?", ["st=0"]),
    ("if false; then echo no; elif [ 2 -gt 1 ]; then echo elif; else echo no; fi", ["elif"]),
    ("for x in 1 2 3 4; do if [ $x = 2 ]; then continue; fi; "
     "if [ $x = 4 ]; then break; fi; echo x=$x; done", ["x=1", "x=3"]),
    ("echo ${X}y \"$X\" '$X'; Y=1 sh -c 'echo Y=$Y'; echo Y=$Y", [r"3y 3 \$X", "Y=1", "Y="]),
    ("export Z=2; sh -c 'echo Z=$Z'; ! false && echo negated", ["Z=2", "negated"]),
    ("echo done fi then", ["done fi then"]),
    ("[ 3 -lt x ]; echo st=$?", ["sh: test: x: integer expression expected", "st=2"]),
    ("case x in x) echo;; esac", [r"sh: case \.\.\. esac: not supported by this shell .*"]),
    ("f() { echo; }", [r"sh: \( \) subshells and name\(\) functions: not supported by this shell"]),
    ("echo $(ls)", [r"sh: \$\(\.\.\.\) command substitution: not supported by this shell"]),
    ("echo `ls`", [r"sh: `\.\.\.` command substitution: not supported by this shell"]),
    ("cat <<EOF", [r"sh: << here-documents: not supported by this shell"]),
    ("echo $((1+2))", [r"sh: \$\(\(\.\.\.\)\) arithmetic: not supported by this shell"]),
    ("{ echo; }", [r"sh: \{ \} command groups: not supported by this shell"]),
    ("while true; do done", [r"sh: syntax error near unexpected token 'done' \(empty 'do'\)"]),
    ("for x in 1; do echo; done | cat",
     [r"sh: '\|' after a compound command: not supported by this shell"]),
]


def check_experiment(log):
    """The experiment line: three spins (nice 0, 5, 10) reported, then "done 3"."""
    m = re.search(r"^\$ " + re.escape(EXPERIMENT) + r"\n((?:.*\n)*?)done 3\n", log, re.M)
    if not m:
        return False, "no 'done 3' after the experiment line"
    spins = re.findall(r"^spin\[\d+\]: ", m.group(1), re.M)
    if len(spins) != 3:
        return False, f"{len(spins)} spin reports before 'done 3', want 3"
    return True, "three spins, then done 3"


CASES += [
    Case("shell_scripting", smp=ONE, append="tests=none", timeout=60,
         tags=("quick", "console", "shell"),
         send=lines(EXPERIMENT, *[l for l, _ in SCRIPTS], "for w in a b") +
              [(r"^> ", t) for t in (b"do\r", b"echo w=$w\r", b"done\r")] +
              lines("exit"),
         expect_order=[r"^\[3\] \d+$", r"^done 3$"] +
                      [typed(line, *out) for line, out in SCRIPTS] +
                      [r"^\$ for w in a b\n> do\n> echo w=\$w\n> done\nw=a\nw=b\n" + NEXT,
                       CLEAN_EXIT],
         check=check_experiment),
]
