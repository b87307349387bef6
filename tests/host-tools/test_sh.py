#!/usr/bin/env python3
"""The shell (user/bin/sh.c) run natively on the host: the same static i386
binary as on our kernel, with Linux's pipes, signals and terminal as the
reference for what the QEMU cases (tests/cases/shell.py) expect.

    python3 tests/host-tools/test_sh.py

Two ways in: through a pipe (not a terminal: no prompt, no job control,
plain reads) for pipelines, lists, $?, quoting and the one-line errors; and
through a pseudo-terminal (the pty module) for job control (Ctrl-Z, bg, fg,
Ctrl-C, kill %N, the Done/Terminated notices), the line editor (Backspace,
Ctrl-U, Ctrl-W, Ctrl-C and Ctrl-D at the prompt, Up arrow, history) and
the terminal modes a command gets. Programs it runs come from
build/user/bin (the shell's own directory, as /bin on our kernel) or are
named by a host path (/bin/sleep). One line per test, then "N passed, N
failed". Standard library only; builds nothing (make -s user first).
"""
import os
import tempfile
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostlib  # noqa: E402

SH = os.path.join(hostlib.REPO, "build", "user", "bin", "sh")
SLEEP = shutil.which("sleep") or "/bin/sleep"
CAT = shutil.which("cat") or "/bin/cat"
WC = shutil.which("wc") or "/usr/bin/wc"
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


# ---- through a pipe -------------------------------------------------------

def run(script, timeout=20):
    """Feed `script` to sh on a pipe: (stdout, stderr lines, status)."""
    p = subprocess.run(hostlib.host_cmd(SH), input=script, capture_output=True, text=True,
                       timeout=timeout)
    return p.stdout, p.stderr.splitlines(), p.returncode


def out_of(script):
    out, errs, _ = run(script)
    assert errs == [], f"unexpected messages {errs!r}"
    return out


@test
def pipeline_of_three_stages():
    # sh reading a pipe is a stage too: "echo echo deep" -> "echo deep" -> "deep"
    assert out_of("echo echo echo deep | sh | sh\n") == "deep\n"
    assert out_of(f"hello | {CAT} | {WC} -l\n").strip() == "1"
    assert out_of(f"echo a b c | {CAT} | {CAT} | {WC} -w\n").strip() == "3"
    # ours (build/user/bin): head ends early, the writer meets a closed pipe
    assert out_of("help | grep -c '^  grep' | wc -l\nhelp | head -n 1\n") == \
        "1\nbuiltins:\n"


@test
def variables_and_loops_as_posix_sh():
    out = out_of("X=3; for n in 0 5 10; do echo n=$n; done; echo done $X\n"
                 "i=0; while [ $i != 000 ]; do i=0$i; done; echo i=$i\n"
                 "until true; do echo never; done; echo st=$?\n"
                 "if false; then echo no; elif [ 2 -gt 1 ]; then echo elif; else echo no; fi\n"
                 "for w in a b\ndo\necho w=$w\ndone\n"
                 "for x in 1 2 3; do if [ $x = 2 ]; then continue; fi; echo x=$x; done\n"
                 "echo ${X}y \"$X\" '$X'; Y=1 sh -c 'echo Y=$Y'; echo Y=$Y\n"
                 "export Z=2; sh -c 'echo Z=$Z'; ! false && echo negated\n")
    assert out == ("n=0\nn=5\nn=10\ndone 3\ni=000\nst=0\nelif\nw=a\nw=b\n"
                   "x=1\nx=3\n3y 3 $X\nY=1\nY=\nZ=2\nnegated\n"), repr(out)


@test
def unsupported_posix_sh_is_refused_by_name():
    for line, why in [("case x in x) echo;; esac", "case ... esac"),
                      ("f() { echo; }", "name() functions"),
                      ("echo $(ls)", "$(...) command substitution"),
                      ("echo `ls`", "command substitution"),
                      ("cat <<EOF", "here-documents"),
                      ("echo $((1+2))", "$((...)) arithmetic"),
                      ("{ echo; }", "{ } command groups")]:
        out, errs, st = run(line + "\n")
        assert out == "" and len(errs) == 1 and why in errs[0] and \
            "not supported" in errs[0], (line, out, errs, st)


@test
def pipeline_status_is_the_last_stage():
    out = out_of("false | true; echo $?\ntrue | false; echo $?\n")
    assert out == "0\n1\n", repr(out)


@test
def lists_and_or():
    out = out_of("true && echo and1\nfalse && echo no1\nfalse || echo or1\n"
                 "true || echo no2\nfalse && echo no3 || echo fallback\n"
                 "true; false; echo $?\n")
    assert out == "and1\nor1\nfallback\n1\n", out


@test
def expansions():
    out = out_of("echo pid=$$\n")
    assert re.fullmatch(r"pid=\d+\n", out), out
    out = out_of("hello & wait $!; echo bg=$! st=$?\n")
    m = re.fullmatch(r"hello from pid (\d+)\nbg=(\d+) st=0\n", out)
    assert m and m.group(1) == m.group(2), out
    out = out_of("echo 'a  $x' \"b  $?\" c\\ d \"\" end # a comment\n")
    assert out == "a  $x b  0 c d  end\n", repr(out)
    assert out_of("false; echo \"[$?]\"\n") == "[1]\n"


@test
def input_redirection_and_sh_c():
    path = os.path.join(HERE, "test_sh.py")
    assert out_of(f"{WC} -l < {path}\n").strip() == \
        str(sum(1 for _ in open(path)))
    out, errs, st = run("sh -c 'exit 7'; echo $?\n")
    assert (out, errs) == ("7\n", []), (out, errs)
    p = subprocess.run([*hostlib.host_cmd(SH), "-c", "echo one && false"], capture_output=True, text=True)
    assert (p.stdout, p.returncode) == ("one\n", 1), p


@test
def output_redirection():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "out")
        out, errs, _ = run(f"echo one > {f}; echo two >> {f}; echo three > {d}/no/x; echo $?\n")
        assert open(f).read() == "one\ntwo\n", open(f).read()
        assert out == "1\n" and len(errs) == 1 and errs[0].endswith(
            "/no/x: No such file or directory"), (out, errs)


BAD_LINES = [
    ("echo \"abc", r'sh: syntax error: no closing "'),
    ("echo 'abc", r"sh: syntax error: no closing '"),
    ("hello |", r"sh: syntax error: nothing after '\|'"),
    ("| hello", r"sh: syntax error near unexpected token '\|'"),
    ("&& hello", r"sh: syntax error near unexpected token '&&'"),
    ("hello &&", r"sh: syntax error: nothing after '&&'"),
    ("hello ; ; hello", r"sh: syntax error near unexpected token ';'"),
    ("hello >", r"sh: syntax error: no file after '>'"),
    ("hello <", r"sh: syntax error: no file after '<'"),
    ("kill %3", r"sh: kill: %3: no such job"),
    ("wait %3", r"sh: wait: %3: no such job"),
    ("exit 1 2", r"sh: exit: too many arguments"),
    ("hello" + " a" * 40, r"sh: too many words in one command \(max 32\)"),
    ("x" * 300, r"sh: line too long \(max 255 characters\)"),
]


@test
def bad_lines_give_one_error_and_status_2():
    for line, rx in BAD_LINES:
        out, errs, _ = run(line + "\necho status $?\n")
        assert len(errs) == 1 and re.fullmatch(rx, errs[0]), (line[:30], errs)
        assert out == "status 2\n", (line[:30], out)


@test
def a_missing_program_is_one_line_and_127():
    out, errs, _ = run("nosuchprogram\necho $?\n")
    assert errs == ["sh: nosuchprogram: not found, exit status 127"], errs
    assert out == "127\n", out


@test
def sh_file_runs_a_script_with_its_arguments():
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
        f.write("# a comment\necho $# $1 \"$2\"\nfor x in a b; do echo $x; done\nexit 4\n")
    try:
        p = subprocess.run([*hostlib.host_cmd(SH), f.name, "one", "two words"],
                           capture_output=True, text=True, timeout=20)
        assert (p.stdout, p.stderr, p.returncode) == ("2 one two words\na\nb\n", "", 4), p
    finally:
        os.unlink(f.name)
    p = subprocess.run([*hostlib.host_cmd(SH), "/no/such/script"], capture_output=True, text=True)
    assert (p.stderr, p.returncode) == ("sh: /no/such/script: No such file or directory\n", 127), p


# ---- through a terminal ----------------------------------------------------

class Term:
    """sh on a pseudo-terminal: what it prints, with "\\r\\n" as "\\n"."""

    def __init__(self):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execv(hostlib.RUN_I386, hostlib.host_cmd(SH))
        self.buf = ""
        self.pos = 0            # expect() searches from here
        self.expect(r"\$ ")

    def send(self, data):
        os.write(self.fd, data)

    def read_for(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], 0.02)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    return
                if not chunk:
                    return
                self.buf += chunk.decode("utf-8", "replace").replace("\r\n", "\n")

    def expect(self, rx, timeout=5.0):
        """Wait for rx after what was matched before; returns the match."""
        end = time.monotonic() + timeout
        pat = re.compile(rx, re.M)
        while True:
            m = pat.search(self.buf, self.pos)
            if m:
                self.pos = m.end()
                return m
            if time.monotonic() > end:
                raise AssertionError(f"no /{rx}/ in {self.buf[self.pos:][-300:]!r}")
            self.read_for(0.05)

    def line(self, text, rx=None):
        """Type a line, wait for its echo (and rx, then the next prompt)."""
        self.send(text.encode() + b"\r")
        self.expect(re.escape(text) + r"\n")
        if rx is not None:
            m = self.expect(rx)
            self.expect(r"^\$ ")
            return m
        return None

    def close(self):
        if self.pid > 0:            # 0: it has exited and been reaped
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
        os.close(self.fd)


def proc_state(pid):
    """Linux's state letter for pid (R, S, T ...), None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    state = stat.rsplit(")", 1)[1].split()[0]
    return None if state == "Z" else state


def wait_state(pid, want, seconds=3.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc_state(pid) in want:
            return True
        time.sleep(0.02)
    return False


def terminal_test(fn):
    def wrapper():
        t = Term()
        try:
            fn(t)
        finally:
            t.close()
    wrapper.__name__ = fn.__name__
    return test(wrapper)


def children(ppid):
    """The pids whose parent is ppid."""
    kids = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if name.isdigit() and int(fields[1]) == ppid:
            kids.append(int(name))
    return kids


@terminal_test
def ctrl_z_stops_then_bg_and_fg_resume(t):
    t.send(f"{SLEEP} 60\r".encode())
    t.expect(r"sleep 60\n")             # Ctrl-Z as soon as the line ends
    t.send(b"\x1a")
    t.expect(r"^\[1\]\+  Stopped {17}\S*sleep 60\n\$ ")
    kids = children(t.pid)
    assert len(kids) == 1, kids
    pid = kids[0]
    assert wait_state(pid, "T"), proc_state(pid)
    assert os.getpgid(pid) == pid != os.getpgid(t.pid), "not in its own group"
    t.line("bg", r"^\[1\]\+ \S*sleep 60 &\n")
    assert wait_state(pid, "S"), proc_state(pid)
    t.line("jobs", r"^\[1\]\+  Running {17}\S*sleep 60 &\n")
    t.send(b"fg\r")
    t.expect(r"^\S*sleep 60\n")
    t.send(b"\x03")
    t.expect(r"^\^C\n\$ ", timeout=1.0)  # the terminal's ^C, our newline: as bash
    assert wait_state(pid, (None,)), proc_state(pid)
    t.line("echo $?", r"^130\n")
    t.line("jobs; echo end", r"^end\n")
    assert "[1]" not in t.buf[t.buf.rfind("jobs; echo end"):]


@terminal_test
def ctrl_c_ends_the_foreground_job_at_once(t):
    t.send(f"{SLEEP} 60; echo not-reached\r".encode())
    t.expect(r"not-reached\n")
    start = time.monotonic()
    t.send(b"\x03")
    t.expect(r"^\^C\n\$ ", timeout=1.0)
    assert time.monotonic() - start < 1.0
    t.line("echo $?", r"^130\n")
    assert "\nnot-reached" not in t.buf


@terminal_test
def background_jobs_and_their_notices(t):
    # (sleep 3: time enough for the lines up to "wait %1" on a busy host)
    m = t.line(f"{SLEEP} 3 &", r"^\[1\] (\d+)\n")
    t.line("echo $!", rf"^{m.group(1)}\n")
    t.line(f"{SLEEP} 30 &", r"^\[2\] \d+\n")
    t.line("jobs", r"^\[1\]-  Running {17}\S*sleep 3 &\n"
                   r"\[2\]\+  Running {17}\S*sleep 30 &\n")
    t.line("wait %1", r"^\[1\]-  Done {20}\S*sleep 3\n")
    t.line("kill -KILL %2; wait %2", r"^\[2\]\+  Killed {18}\S*sleep 30\n")
    t.line("false & wait", r"^\[1\] \d+\n\[1\]\+  Exit 1 {18}false\n")
    t.line("jobs; echo none", r"^none\n")


@terminal_test
def signals_and_statuses_of_foreground_jobs(t):
    t.line("sh -c 'kill -9 $$'", r"^Killed\n")
    t.line("sh -c 'kill $$'; echo $?", r"^Terminated\n143\n")
    t.line("sh -c 'exit 3'", r"^sh: sh: exit status 3\n")
    t.line("nosuchprogram", r"^sh: nosuchprogram: not found, exit status 127\n")
    # a status that is tested is an answer, not an error: no line for it
    start = len(t.buf)
    t.line("if sh -c 'exit 3'; then echo yes; else echo no; fi", r"^no\n")
    t.line("until sh -c 'exit 1'; do break; done; echo after", r"^after\n")
    t.line("sh -c 'exit 1' || echo other", r"^other\n")
    t.line("! sh -c 'exit 2'; echo $?", r"^0\n")
    assert "exit status" not in t.buf[start:], t.buf[start:]


@terminal_test
def bad_lines_get_one_error_then_a_prompt(t):
    for line, rx in BAD_LINES[:-1]:         # the long line: see line_editing
        t.line(line, "^" + rx + r"\n(?=\$ )")
        t.line("echo $?", r"^2\n")
    t.line("fg %7", r"^sh: fg: %7: no such job\n")
    t.line("bg", r"^sh: bg: current: no such job\n")


@terminal_test
def line_editing(t):
    t.send(b"hellx\x7fo\r")                 # Backspace
    t.expect(r"^hello from pid \d+\n")
    t.send(b"junk\x15hello\r")              # Ctrl-U
    t.expect(r"^hello from pid \d+\n")
    t.send(b"echo one two\x17three\r")      # Ctrl-W
    t.expect(r"^one three\n")
    t.send(b"junk\x03")                     # Ctrl-C: a new prompt
    t.expect(r"junk\^C\n\$ ")
    t.line("echo $?", r"^130\n")
    t.send(b"\x1b[A\r")                     # Up: "echo $?" again
    t.expect(r"^0\n")
    t.send(b"\x1b[A\x1b[A\x1b[A\x1b[B\r")   # Up 3, Down 1: the 2nd line
    t.expect(r"^one three\n")
    t.line("history", r"^ +1  hello\n +2  echo one three\n +3  echo \$\?\n"
                      r" +4  echo one three\n +5  history\n")
    t.send(b"x" * 300 + b"\r")              # bell past 255, one error at Enter
    t.expect(r"^sh: line too long \(max 255 characters\)\n\$ ")
    t.send(b"\x04")                         # Ctrl-D on an empty line
    t.expect(r"exit\n")
    _, status = os.waitpid(t.pid, 0)
    assert os.WIFEXITED(status), status
    t.pid = 0


@terminal_test
def commands_get_the_terminal_in_its_own_modes(t):
    # stty's flag words: "-icanon" would say the editor's mode leaked out
    m = t.line(f"{shutil.which('stty') or '/bin/stty'} -a",
               r"^((?:.*\n)*?.*\bicanon\b.*\n)")
    assert re.search(r"(?<!-)\bicanon\b", m.group(1)), m.group(1)
    assert re.search(r"(?<![-\w])echo\b", m.group(1)), m.group(1)
    assert re.search(r"(?<!-)\bisig\b", m.group(1)), m.group(1)


if __name__ == "__main__":
    sys.exit(hostlib.run_tests_of(SH, TESTS))
