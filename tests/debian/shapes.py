#!/usr/bin/env python3
"""shapes.py - compare two transcripts of tests/debian/procps.sh or
files.sh (Linux 6.1's and this kernel's) by what two kernels share:
output formats.

    python3 tests/debian/shapes.py LINUX.out OURS.out     exit 1 on a difference

A transcript is sections "=== COMMAND", its lines, "--- status N". Every
section of Linux's must be there, with the same status. Then, by the
command:
  * exact (chrt, taskset, pgrep init, ipcs, files.sh's commands on
    /tmp...): every line, pids masked;
  * keys (sysctl -a): every line "key = value", on both (the keys are
    each kernel's own);
  * shape (ps, free, uptime, top, df, ls -l, find /): the first line (the header) has the
    same shape, and each further line of ours has a shape one of Linux's
    lines has. A shape is the line with every number made 9 and spaces
    squeezed: column count, order, separators, "-" for no RT priority,
    "9:9" for a start time today (1970 would be a bare 9).
Process lists differ between the kernels (Linux has its kernel threads),
so shapes are a subset, never a count.
"""
import re
import sys

EXACT = ("chrt ", "taskset ", "pgrep init", "pgrep -x", "sysctl kernel.pid_max",
         "busybox true", "ipcs", "ipcrm", "/tmp/files", "sqlite3", "stat -f", "dash ")
KEYS = ("sysctl -a",)


def sections(text):
    """{command: (lines, status)} from a transcript."""
    out, cmd, lines = {}, None, []
    for line in text.replace("\r", "").splitlines():
        if line.startswith("=== "):
            cmd, lines = line[4:].strip(), []
            continue
        m = re.match(r"^--- status (\d+)$", line)
        if m and cmd is not None:
            out[cmd] = (lines, int(m.group(1)))
            cmd = None
        elif cmd is not None and not re.match(r"^(syscall|prctl|init): ", line):
            lines.append(line)      # our kernel's console lines are not output
    return out


def mode(cmd):
    if any(k in cmd for k in KEYS):
        return "keys"
    if any(k in cmd for k in EXACT) and "/ps " not in cmd:
        return "exact"
    return "shape"


def shape(line):
    return re.sub(r" +", " ", re.sub(r"\d+", "9", line)).strip()


def exact(line):
    return re.sub(r"pid \d+'s", "pid N's", line)


def compare_section(cmd, linux, ours):
    (ll, ls), (ol, os_) = linux, ours
    if ls != os_:
        return [f"{cmd}: status {os_}, Linux {ls}"]
    m = mode(cmd)
    if m == "exact":
        a, b = [exact(l) for l in ll], [exact(l) for l in ol]
        return [] if a == b else [f"{cmd}: {b} (Linux {a})"]
    if m == "keys":
        bad = [l for l in ol if not re.match(r"^[\w.\-/]+ = ", l)]
        if bad or not ol:
            return [f"{cmd}: not 'key = value': {bad[:3] or 'no lines'}"]
        return []
    if not ll:
        return [] if not ol else [f"{cmd}: printed {ol[:2]}, Linux nothing"]
    if not ol:
        return [f"{cmd}: printed nothing, Linux {ll[:2]}"]
    if shape(ll[0]) != shape(ol[0]):
        return [f"{cmd}: header {ol[0]!r}, Linux {ll[0]!r}"]
    known = {shape(l) for l in ll[1:]}
    return [f"{cmd}: line {l!r} has no Linux shape (e.g. {ll[1] if len(ll) > 1 else ''!r})"
            for l in ol[1:] if shape(l) not in known]


def compare(linux_text, ours_text):
    """[] if ours matches Linux's formats, else one line per problem."""
    linux, ours = sections(linux_text), sections(ours_text)
    if not linux:
        return ["no sections in Linux's transcript"]
    problems = []
    for cmd in linux:
        if cmd not in ours:
            problems.append(f"{cmd}: missing here")
        else:
            problems += compare_section(cmd, linux[cmd], ours[cmd])
    return problems


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        linux = f.read()
    with open(argv[2]) as f:
        ours = f.read()
    problems = compare(linux, ours)
    for p in problems:
        print(p)
    print(f"{len(sections(linux))} sections, {len(problems)} differ")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
