"""ftrace_rules.py - what Perfetto and catapult (chrome://tracing) demand of
an ftrace text trace, restated in our own words, so that the exports of
tools/traceview.py can be checked here, where neither tool can be installed.

Sources, read and paraphrased (no code copied):
  * Perfetto's trace processor: src/trace_processor/importers/systrace/
    systrace_line_tokenizer.cc (the line pattern), systrace_line_parser.cc
    (the args of sched_switch, sched_waking, tracing_mark_write),
    systrace_parser.h (the C|tgid|name|value counter), and its trace type
    guess (a text trace is ftrace when it begins with "# tracer").
  * catapult: tracing/tracing/extras/importer/linux_perf/ftrace_importer.html
    (canImport, the three line formats, the clock_type comment) and
    sched_parser.html (the sched_switch and sched_wakeup details), as of
    its November 2025 snapshot; trace_event_importer.html for the JSON
    container (traceEvents, systemTraceEvents).
  * Linux's include/trace/events/sched.h for the field names and the
    prev_state letters.

check_ftrace(text) and check_json(obj) return a list of problems (empty:
every rule holds). What this does NOT prove: that the tools draw what we
mean (a track per CPU, the counter) - that needs the tools themselves.
"""
import json
import re

# ---- Perfetto -------------------------------------------------------------
# P1 A text file is taken for ftrace only if its first bytes are "# tracer".
# P2 Lines beginning with '#' are comments; empty lines are skipped.
# P3 Any other line must contain, after the task name: '-', the pid in
#    decimal, blanks, optionally a tgid in parentheses (digits, or dashes
#    when unknown), at most one blank, the CPU in decimal in square
#    brackets, optional blanks, up to five flag characters (letters,
#    digits, '.'), optional blanks, a timestamp "seconds.fraction", ':',
#    blanks, the event name (no blanks), ':'. Whatever precedes the first
#    such match is the task name; whatever follows is the argument text.
PERFETTO_LINE = re.compile(
    r"-(?P<pid>[0-9]+)[ \t]+(?:\([ \t]*(?:[0-9]+|-+)\))?[ \t]?"
    r"\[(?P<cpu>[0-9]+)\][ \t]*[A-Za-z0-9.]{0,5}[ \t]*"
    r"(?P<ts>[0-9]+\.[0-9]+):[ \t]+(?P<event>[^ \t]+):")
# P4 The argument text is cut at single spaces; a piece with '=' is key and
#    value (cut again at '=', so a value may not contain '=' or a blank,
#    and a task name (comm) used as a value must have neither).
# P5 sched_switch: prev_pid, prev_prio, next_pid, next_prio must read as
#    integers; prev_state is read as the task-state letters.
# P6 sched_waking: pid must read as an unsigned integer.
# P7 tracing_mark_write "C|<tgid>|<name>|<value>": a counter; the tgid an
#    unsigned integer, the name not empty, the value a 64-bit integer.
STATE_LETTERS = set("RSDTtXZxKWPNI")

# ---- catapult ---------------------------------------------------------------
# C1 It takes a string for ftrace when it starts with "# tracer:".
# C2 Comment lines ('#') are skipped; "# clock_type=NAME" names the clock.
# C3 The first other line picks one of three line formats, and every later
#    line must be in that same one: with a tgid column, with the irq-info
#    flags column, or the old one without flags.
# C4 The tgid format: leading blanks, task name, '-', pid, blanks, '('
#    optional blanks, tgid (digits or dashes) ')', exactly one blank, '['
#    cpu ']', blanks, the flags - one of "dX.", one of "Nnp.", one of
#    "Hhs.", a hex digit or '.', and optionally a fifth hex digit or '.' -
#    blanks, "seconds.fraction", ':', blanks, event name, ':', one blank,
#    the details to the end of the line.
CATAPULT_FLAGS = r"[dX.][Nnp.][Hhs.][0-9a-f.][0-9a-f.]?"
CATAPULT_TGID = re.compile(
    r"^\s*(?P<task>.+)-(?P<pid>\d+)\s+\(\s*(?:\d+|-+)\)\s\[(?P<cpu>\d+)\]\s+"
    + CATAPULT_FLAGS + r"\s+(?P<ts>\d+\.\d+):\s+(?P<event>\S+):\s(?P<details>.*)$")
CATAPULT_IRQ = re.compile(
    r"^\s*(?P<task>.+)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+" + CATAPULT_FLAGS +
    r"\s+(?P<ts>\d+\.\d+):\s+(?P<event>\S+):\s(?P<details>.*)$")
CATAPULT_LEGACY = re.compile(
    r"^\s*(?P<task>.+)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s*(?P<ts>\d+\.\d+):\s+"
    r"(?P<event>\S+):\s(?P<details>.*)$")
# C5 sched_switch details: prev_comm, prev_pid, prev_prio (digits),
#    prev_state (one character, optionally '+', or two joined by '|'),
#    "==>", next_comm, next_pid, next_prio (digits), in that order.
CATAPULT_SWITCH = re.compile(
    r"prev_comm=(.+) prev_pid=(\d+) prev_prio=(\d+) prev_state=(\S\+?|\S\|\S) ==> "
    r"next_comm=(.+) next_pid=(\d+) next_prio=(\d+)")
# C6 sched_wakeup details: comm, pid, prio (digits), an optional success,
#    target_cpu (digits).
CATAPULT_WAKEUP = re.compile(r"comm=(.+) pid=(\d+) prio=(\d+)(?: success=\d+)? target_cpu=(\d+)")
# C7 In a JSON trace that also has traceEvents (clock domain of Chrome),
#    the ftrace text must name a clock catapult can join to it, or its
#    import stops: "# clock_type=LINUX_CLOCK_MONOTONIC" does.

# ---- Linux, include/trace/events/sched.h --------------------------------------
# L1 sched_switch prints prev_comm prev_pid prev_prio prev_state ==> next_comm
#    next_pid next_prio; prev_state is R (runnable), or S, D, X... and a '+'
#    after R when the task was preempted.
# L2 sched_waking, sched_wakeup, sched_wakeup_new print comm pid prio
#    target_cpu (three digits); sched_migrate_task comm pid prio orig_cpu
#    dest_cpu; sched_process_exit comm pid prio.
LINUX_ARGS = {
    "sched_switch": ["prev_comm", "prev_pid", "prev_prio", "prev_state", "==>",
                     "next_comm", "next_pid", "next_prio"],
    "sched_waking": ["comm", "pid", "prio", "target_cpu"],
    "sched_wakeup": ["comm", "pid", "prio", "target_cpu"],
    "sched_wakeup_new": ["comm", "pid", "prio", "target_cpu"],
    "sched_migrate_task": ["comm", "pid", "prio", "orig_cpu", "dest_cpu"],
    "sched_process_exit": ["comm", "pid", "prio"],
}
PREV_STATE = re.compile(r"^(R\+?|[SDTtXZPI])$")


def _int(s, signed=True):
    return re.fullmatch(r"-?[0-9]+" if signed else r"[0-9]+", s or "") is not None


def _args(text):
    """P4: the argument text as Perfetto cuts it."""
    out, bad = {}, []
    for piece in text.split(" "):
        if not piece:
            continue
        if "=" not in piece:
            out.setdefault("name", piece)
            continue
        if piece.count("=") != 1 and piece != "==>":
            bad.append(piece)
        key, _, value = piece.partition("=")
        out[key] = value
    return out, bad


def check_line(line, fmt=None):
    """The problems of one event line (not a comment) under every rule."""
    problems = []
    m = PERFETTO_LINE.search(line)
    if not m:
        return ["Perfetto P3: the line pattern does not match"]
    args_text = line[m.end():].strip()
    event = m["event"]
    args, bad = _args(args_text)
    if bad and event != "tracing_mark_write":
        problems.append(f"Perfetto P4: value with '=' in {bad}")
    if event == "sched_switch":
        for k in ("prev_pid", "prev_prio", "next_pid", "next_prio"):
            if not _int(args.get(k)):
                problems.append(f"Perfetto P5: {k}={args.get(k)!r} is not an integer")
        st = args.get("prev_state", "")
        if not st or not set(st.rstrip("+")) <= STATE_LETTERS:
            problems.append(f"Perfetto P5: prev_state={st!r}")
    if event == "sched_waking" and not _int(args.get("pid"), signed=False):
        problems.append("Perfetto P6: sched_waking without a pid")
    if event == "tracing_mark_write" and args_text.startswith("C|"):
        parts = args_text.split("|")
        if len(parts) < 4 or not _int(parts[1], False) or not parts[2] or not _int(parts[3]):
            problems.append(f"Perfetto P7: bad counter {args_text!r}")
    # catapult
    pattern = {"tgid": CATAPULT_TGID, "irq": CATAPULT_IRQ, "legacy": CATAPULT_LEGACY}.get(fmt)
    c = (pattern or CATAPULT_TGID).match(line)
    if not c:
        problems.append(f"catapult C3/C4: not in the {fmt or 'tgid'} line format")
    else:
        if event == "sched_switch" and not CATAPULT_SWITCH.search(c["details"]):
            problems.append("catapult C5: sched_switch details")
        if event == "sched_wakeup" and not CATAPULT_WAKEUP.search(c["details"]):
            problems.append("catapult C6: sched_wakeup details")
    # Linux
    if event in LINUX_ARGS:
        keys = [p if p == "==>" else p.partition("=")[0] for p in args_text.split(" ") if p]
        if keys != LINUX_ARGS[event]:
            problems.append(f"Linux L1/L2: {event} fields {keys}, want {LINUX_ARGS[event]}")
        if event == "sched_switch" and not PREV_STATE.match(args.get("prev_state", "")):
            problems.append(f"Linux L1: prev_state {args.get('prev_state')!r}")
        if "target_cpu" in args and not re.fullmatch(r"[0-9]{3,}", args["target_cpu"]):
            problems.append("Linux L2: target_cpu has three digits")
    return problems


def detect_format(line):
    """C3: which catapult line format a line is in."""
    for name, rx in (("tgid", CATAPULT_TGID), ("irq", CATAPULT_IRQ), ("legacy", CATAPULT_LEGACY)):
        if rx.match(line):
            return name
    return None


def check_ftrace(text, json_copy=False, limit=10):
    """Every rule over a whole ftrace text: a list of 'line N: problem'."""
    problems = []
    if not text.startswith("# tracer"):
        problems.append("Perfetto P1: the text does not begin with '# tracer'")
    if not re.match(r"# tracer:", text):
        problems.append("catapult C1: the text does not begin with '# tracer:'")
    if json_copy and "\n# clock_type=LINUX_CLOCK_MONOTONIC\n" not in text:
        problems.append("catapult C7: no '# clock_type=LINUX_CLOCK_MONOTONIC' line")
    fmt, events = None, 0
    for no, line in enumerate(text.split("\n"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if fmt is None:
            fmt = detect_format(line.strip())
            if fmt is None:
                problems.append(f"line {no}: catapult C3: first line in no known format")
                fmt = "tgid"
        events += 1
        for p in check_line(line, fmt):
            problems.append(f"line {no}: {p}: {line.strip()[:120]}")
            if len(problems) >= limit:
                return problems
    if events == 0:
        problems.append("no event line at all")
    return problems


def check_json(obj):
    """The JSON container: C7 and what both importers look for."""
    problems = []
    if isinstance(obj, (str, bytes)):
        obj = json.loads(obj)
    if not isinstance(obj, dict) or not isinstance(obj.get("traceEvents"), list):
        return ["JSON: an object with a traceEvents list"]
    if not isinstance(obj.get("systemTraceEvents"), str):
        return ["JSON: systemTraceEvents must be the ftrace text, a string"]
    for i, e in enumerate(obj["traceEvents"]):
        if not isinstance(e, dict) or not isinstance(e.get("ph"), str) or "pid" not in e:
            problems.append(f"JSON: traceEvents[{i}] lacks ph or pid")
        elif e["ph"] != "M" and not isinstance(e.get("ts"), (int, float)):
            problems.append(f"JSON: traceEvents[{i}] lacks a numeric ts")
        if len(problems) >= 5:
            break
    problems += check_ftrace(obj["systemTraceEvents"], json_copy=True)
    return problems


def event_names(text):
    """The set of event names of an ftrace text."""
    names = set()
    for line in text.split("\n"):
        if line.strip() and not line.lstrip().startswith("#"):
            m = PERFETTO_LINE.search(line)
            if m:
                names.add(m["event"])
    return names
