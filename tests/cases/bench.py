"""make bench's /bin/schedbench, small, so that it cannot rot (issue 12,
docs/bench.md "Scheduling quality").

make bench runs schedbench's subcommands for minutes on both kernels
(tools/bench/sched.sh); these cases run every subcommand with tiny sizes
in virtual time (`-icount shift=2`) and judge that its output is
well-formed and sane: every line "name value unit" or "name n/a (why)",
every figure make bench's report reads present, shares summing to about
100 %, the policy each task was granted, periods and deadlines counted.
A second boot gives schedbench bad command lines: each must print the
reason and the usage and exit with status 2, -h the usage with 0, and pipe2
on 1 CPU "pipe2cpu n/a (1 CPU)" with 0. A third runs pipe2 on 2 CPUs.
"""
import re

from harness import Case

ICOUNT = ["-icount", "shift=2,sleep=off"]
SB = "/bin/schedbench"
# Short names (init looks them up in /bin); the whole command line must fit
# the kernel's 1,023 bytes (kernel/init/bootparam.h).
LINE = re.compile(r"^[a-z][a-z0-9_]* (n/a( .*)?|-?\d+ [a-z]+( \(.*\))?|[A-Za-z0-9_?]+ policy)$")
SMOKE_RUNS = ["schedbench:boot", "schedbench:mem:4", "schedbench:picknext:10",
              "schedbench:latency:50", "schedbench:periodic:1", "schedbench:fair:400",
              "schedbench:ingo:300"]


def schedbench_output(log):
    """schedbench's lines (between init's running/exited lines), its exit
    statuses, and what is not a well-formed line."""
    lines, statuses, bad, inside = [], [], [], False
    for line in log.splitlines():
        if line == f"init: running {SB}":
            inside = True
            continue
        m = re.match(rf"^init: {SB} (exited with status|killed by signal) (\d+)", line)
        if m:
            inside = False
            statuses.append(int(m.group(2)) if m.group(1).startswith("exited") else -1)
            continue
        if not inside or line.startswith("#") or not line:
            continue
        (lines if LINE.match(line) else bad).append(line)
    return lines, statuses, bad


def figures(lines):
    vals = {}
    for line in lines:
        name, value = line.split()[:2]
        vals[name] = int(value) if re.fullmatch(r"-?\d+", value) else value
    return vals


def check_smoke(log):
    lines, statuses, bad = schedbench_output(log)
    if bad:
        return False, f"malformed lines: {bad[:3]}"
    if statuses != [0] * len(SMOKE_RUNS):
        return False, f"exit statuses {statuses}, want {len(SMOKE_RUNS)} zeros"
    v = figures(lines)
    need = (["boot_tsc_at_first_program", "boot_clock_at_first_program", "boot_idle",
             "mem_free_after_boot", "mem_per_process", "picknext_1", "picknext_10",
             "picknext_1_runnable", "picknext_10_runnable"] +
            [f"lat_{l}_{c}_{w}" for l in ("idle", "hogs2") for c in ("normal", "iso", "fifo")
             for w in ("policy", "min", "avg", "p99", "max")] +
            [f"periodic_{k}_{c}_{w}" for k in ("audio", "video") for c in ("normal", "iso", "fifo")
             for w in ("policy", "periods", "met", "mean", "p99", "max")] +
            [f"fair_nice{n}" for n in (0, 5, 10, 19)] +
            [f"ingo_{t}_share" for t in ("hog", "task1", "task2")] +
            ["ingo_hog_maxgap", "ingo_task1_wakemax", "ingo_task2_wakeavg"])
    missing = [n for n in need if n not in v]
    if missing:
        return False, f"missing figures: {missing[:5]}"
    problems = []
    if not v["boot_tsc_at_first_program"] > 0:
        problems.append("boot TSC 0")
    if not 0 < v["mem_free_after_boot"] < 128 * 1024:
        problems.append(f"free memory {v['mem_free_after_boot']} KiB of 128 MiB")
    if not 0 < v["mem_per_process"] < 4096:
        problems.append(f"{v['mem_per_process']} KiB per process")
    for n in (1, 10):       # the hogs, the two FIFO yielders
        if v[f"picknext_{n}_runnable"] != n + 2:
            problems.append(f"picknext {n}: {v[f'picknext_{n}_runnable']} runnable, want {n + 2}")
        if not 100 < v[f"picknext_{n}"] < 100000:
            problems.append(f"picknext {n}: {v[f'picknext_{n}']} insn")
    for load in ("idle", "hogs2"):
        for case, pol in (("normal", "NORMAL"), ("iso", "ISO"), ("fifo", "FIFO")):
            k = f"lat_{load}_{case}"
            if v[k + "_policy"] != pol:
                problems.append(f"{k}: granted {v[k + '_policy']}, want {pol}")
            if not 0 <= v[k + "_min"] <= v[k + "_avg"] <= v[k + "_max"] or \
                    not v[k + "_min"] <= v[k + "_p99"] <= v[k + "_max"]:
                problems.append(f"{k}: min/avg/p99/max out of order")
    for kind, periods in (("audio", 20), ("video", 60)):    # 1 s: 50 ms, 16.7 ms
        for case, pol in (("normal", "NORMAL"), ("iso", "ISO"), ("fifo", "FIFO_50")):
            k = f"periodic_{kind}_{case}"
            if v[k + "_policy"] != pol or v[k + "_periods"] != periods or \
                    not 0 <= v[k + "_met"] <= periods or not v[k + "_mean"] <= v[k + "_max"]:
                problems.append(f"{k}: {v[k + '_policy']} {v[k + '_met']}/{v[k + '_periods']}")
    fair = [v[f"fair_nice{n}"] for n in (0, 5, 10, 19)]
    if not 950 <= sum(fair) <= 1010 or fair != sorted(fair, reverse=True):
        problems.append(f"nice 0/5/10/19 per mille {fair}: want a sum of ~1000, descending")
    ingo = [v[f"ingo_{t}_share"] for t in ("hog", "task1", "task2")]
    if not 950 <= sum(ingo) <= 1010:
        problems.append(f"Ingo's shares per mille {ingo}: want a sum of ~1000")
    if problems:
        return False, "; ".join(problems)
    return True, (f"{len(lines)} lines; picknext {v['picknext_1']}/{v['picknext_10']}, "
                  f"fair {fair}, ingo {ingo}, ISO audio "
                  f"{v['periodic_audio_iso_met']}/{v['periodic_audio_iso_periods']}")


SCALE_RUNS = ["schedbench:scalefork:2", "schedbench:scalepipe", "schedbench:scalegetpid:1",
              "schedbench:scalefork:3"]


def check_pipe2(log):
    """pipe2 on 2 CPUs, then the scale subcommands (tools/bench/scale.sh):
    positive rates at k = 2 (the default: one per CPU) and 1, and k = 3 on
    2 CPUs n/a."""
    lines, statuses, bad = schedbench_output(log)
    v = figures(lines)
    if bad or statuses != [0] * (1 + len(SCALE_RUNS)) \
            or not 0 < v.get("pipe2cpu_ns", 0) < 10 ** 7 \
            or not v.get("pipe2cpu_tsc", 0) > 0:
        return False, f"lines {lines}, bad {bad}, statuses {statuses}"
    rates = [v.get(k, 0) for k in ("scale_fork_2", "scale_pipe_2", "scale_getpid_1")]
    if not all(r > 0 for r in rates) or "scale_fork_3 n/a (2 CPUs)" not in lines:
        return False, f"scale lines {lines}"
    return True, f"pipe2 {v['pipe2cpu_ns']} ns; fork, pipe, getpid per s: {rates}"


def check_procfork(log):
    """procfork (make bench's forks beside /proc readers, issue 46): the
    forks counted and the readers' reads both positive."""
    m = re.search(r"^procfork_forks (\d+) forks \(in 1 s, 2 readers\)$", log, re.M)
    r = re.search(r"^procfork_reads (\d+) reads$", log, re.M)
    if not (m and r and int(m.group(1)) > 0):
        return False, f"figures missing or no fork: {m and m.group(0)!r} {r and r.group(0)!r}"
    return True, f"{m.group(1)} forks, {r.group(1)} /proc reads in 1 s"


PF_USAGE = r"^usage: procfork \[SECONDS \[READERS\(0-8\)\]\]$"
USAGE = r"^usage: schedbench boot \| mem \[K\] \| picknext \[MAX\]"
EXIT2 = rf"^init: {SB} exited with status 2$"

assert len("run=" + ",".join(SMOKE_RUNS)) < 900, "the command line would be cut"

CASES = [
    # "staircase": its checks want ISO granted (harness.py --sched skips it)
    Case("schedbench_smoke_1x1x1", qemu_args=ICOUNT, timeout=120, tags=("bench", "staircase"),
         append="tests=none run=" + ",".join(SMOKE_RUNS) + " then=exit",
         expect=[r"^init exited: status 0$"], check=check_smoke),
    Case("schedbench_pipe2_2x1x1", smp="2,sockets=2,cores=1,threads=1", qemu_args=ICOUNT,
         timeout=60, tags=("bench", "all"),     # make test-all: docs/testing.md, "The time budget"
         append="tests=none run=schedbench:pipe2:20," + ",".join(SCALE_RUNS) + " then=exit",
         expect=[r"^init exited: status 0$"], check=check_pipe2),
    # procfork: figures from a 1 s run on 2 CPUs; bad lines exit 2 with
    # the usage, -h prints it and exits 0. Real time, as make bench runs
    # it. The readers' count may be 0 on a busy host
    # (a child is often reaped before a reader opens it): not judged.
    Case("procfork_smoke_2x1x1", smp="2,sockets=2,cores=1,threads=1",
         timeout=90, tags=("bench",), exit_code=3,
         append="tests=none run=procfork:1:2,procfork:1:9,procfork:0,procfork:-h then=exit",
         expect_order=[r"^procfork_forks \d+ forks", r"^init: /bin/procfork exited with status 0$",
                       PF_USAGE, r"^init: /bin/procfork exited with status 2$",
                       PF_USAGE, r"^init: /bin/procfork exited with status 2$",
                       PF_USAGE, r"^init: /bin/procfork exited with status 0$",
                       r"^init exited: status 1$"],
         check=check_procfork),
    # Each bad line: the reason, the usage, status 2; then -h: usage, 0.
    # init exits 1 (a program failed): QEMU's exit code (1 << 1) | 1.
    Case("schedbench_errors_1x1x1", qemu_args=ICOUNT, timeout=60, tags=("bench",),
         append="tests=none run=schedbench:bogus,schedbench:latency:abc,schedbench:mem:513,"
                "schedbench:boot:3,schedbench,schedbench:-h,schedbench:pipe2 then=exit",
         exit_code=3,
         expect_order=[r"^schedbench: unknown subcommand 'bogus'$", USAGE, EXIT2,
                       r"^schedbench: latency: bad number 'abc' \(1\.\.50000\)$", USAGE, EXIT2,
                       r"^schedbench: mem: bad number '513' \(1\.\.512\)$", USAGE, EXIT2,
                       r"^schedbench: boot: too many arguments$", USAGE, EXIT2,
                       USAGE, EXIT2,
                       USAGE, rf"^init: {SB} exited with status 0$",
                       r"^pipe2cpu n/a \(1 CPU\)$", rf"^init: {SB} exited with status 0$",
                       r"^init exited: status 1$"],
         forbid=[r"^[a-z][a-z0-9_]* -?\d+ [a-z]+$"]),
]
