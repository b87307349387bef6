"""Lineage mode (docs/lineage.md): another scheduler for NORMAL and BATCH,
chosen at boot with sched=NAME.

lineage_cfs_session, one CPU, sched=cfs, the shell over the serial line:
  the boot log and /proc/scheduler name cfs; chrt -m has no SCHED_ISO;
  /proc/sys/kernel/sched_latency_ns reads 20 ms (one CPU); a value out of
  range is EINVAL and a non-root write is refused, both leaving it
  unchanged; root's write takes; /proc/1/sched shows init's vruntime.
lineage_eevdf_2cpu: sched=eevdf on two CPUs: its line, the base slice
  scaled to 1.5 ms, and init's deadline and lag in /proc/1/sched.
lineage_sd_2cpu: sched=sd on two CPUs: its line, and init's level, quota
  and rotation in /proc/1/sched.
lineage_o1_1cpu: sched=o1: its line, and init's sleep_avg, bonus,
  interactive_credit and TASK_INTERACTIVE in /proc/1/sched (init sleeps in
  wait, so its bonus is above 0), no staircase or fair lines.
lineage_bench_smoke: make lineage's /bin/lineage (tools/bench/lineage.sh),
  short, under sched=cfs in virtual time: every workload's figures, exit
  status 0, and two of cfs's rules in them (the nice-0 hog gets ~98.5 %
  beside a nice-19 one; Ingo's tasks leave the hog its third).
lineage_bench_errors: bad command lines print the reason and the usage and
  exit 2; -h prints the usage and exits 0.
lineage_unknown_name: sched=bfs is reported with the valid names and the
  staircase boots.
"""
import re

from harness import Case

ONE = "1,sockets=1,cores=1,threads=1"
TWO = "2,sockets=1,cores=2,threads=1"
PROMPT_AFTER = r".*\n(?:.*\n)*?\$ "     # the rest of the output, then a prompt
STATUS1 = r"^.*exit status 1$"         # the shell's line for a failed command
LATENCY = r"^kernel\.sched_latency_ns = "


def session(steps):
    """[(command, [regex, ...]), ...] -> (send, expect_order), each command
    typed once the previous one's last line and a prompt have appeared."""
    send, order, trigger = [], [], r"^\$ "
    for cmd, lines in steps:
        send.append((trigger, cmd.encode() + b"\r"))
        order += lines
        trigger = lines[-1] + PROMPT_AFTER
    send.append((trigger, b"exit\r"))
    order.append(r"^init exited: status 0$")
    return send, order


CFS = [
    ("cat /proc/scheduler", [r"^cfs CFS of Linux 2\.6\.24 "]),
    ("chrt -m", [r"^SCHED_BATCH min/max priority\t: 0/0$",
                 r"^SCHED_ISO not supported\?$"]),
    ("sysctl kernel.sched_latency_ns", [LATENCY + r"20000000$"]),
    ("sysctl -w kernel.sched_latency_ns=99",
     [r'^sysctl: setting key "kernel\.sched_latency_ns": Invalid argument', STATUS1]),
    ("setpriv --reuid=1000 sysctl -w kernel.sched_latency_ns=6000000",
     [r'^sysctl: permission denied on key "kernel\.sched_latency_ns"$', STATUS1]),
    ("sysctl kernel.sched_latency_ns", [LATENCY + r"20000000$"]),
    ("sysctl -w kernel.sched_latency_ns=6000000", [LATENCY + r"6000000$"]),
    ("cat /proc/1/sched", [r"^se\.vruntime +: +\d+$", r"^se\.sum_exec_runtime +: +\d+$"]),
]
_send, _order = session(CFS)

ICOUNT = ("-icount", "shift=2,sleep=off")
WORKLOADS = ("interactive", "nice", "ingo", "fiftyp", "thud", "forkstorm")
FIGURE = re.compile(r"^([a-z][a-z0-9_]*) (-?\d+) ([a-z]+)$")


def check_lineage(log):
    """/bin/lineage's figures under sched=cfs: all there, and sane."""
    v = {m.group(1): int(m.group(2)) for m in map(FIGURE.match, log.splitlines()) if m}
    need = (["interactive_p50", "interactive_p99", "interactive_max", "interactive_alone_p50",
             "interactive_task_share", "forkstorm_hog_share", "forkstorm_children_per_s",
             "thud_hog_maxgap"] +
            [f"nice_0v{n}_{w}_share" for n in (5, 10, 19) for w in ("nice0", f"nice{n}")] +
            [f"{p}_{t}_share" for p in ("ingo", "fiftyp_10ms", "fiftyp_1ms")
             for t in ("hog", "task1", "task2")])
    missing = [n for n in need if n not in v]
    if missing:
        return False, f"missing figures: {missing[:5]}"
    problems = []
    if not 950 <= v["nice_0v19_nice0_share"] <= 1000:
        problems.append(f"nice 0 beside nice 19: {v['nice_0v19_nice0_share']} per mille, "
                        "want ~985 (weights 1024 : 15)")
    if not 250 <= v["ingo_hog_share"] <= 450:
        problems.append(f"Ingo's hog: {v['ingo_hog_share']} per mille, want about a third")
    if not v["interactive_p50"] <= v["interactive_p99"] <= v["interactive_max"]:
        problems.append("interactive p50/p99/max out of order")
    if problems:
        return False, "; ".join(problems)
    return True, (f"nice 0:19 {v['nice_0v19_nice0_share']}, ingo hog {v['ingo_hog_share']}, "
                  f"interactive p99 {v['interactive_p99']} us")


LINEAGE_USAGE = r"^usage: lineage interactive \| nice \| ingo \| fiftyp \| thud \| forkstorm \| smp \[MS\] \| -h$"
LINEAGE_EXIT2 = r"^init: /bin/lineage exited with status 2$"

CASES = [
    Case("lineage_bench_smoke", qemu_args=ICOUNT, memory="256M", timeout=120,
         tags=("bench", "lineage"),
         append="sched=cfs tests=none run=" + ",".join(f"lineage:{w}:300" for w in WORKLOADS)
                + " then=exit",
         expect=[r"^init exited: status 0$"], check=check_lineage),
    Case("lineage_bench_errors", timeout=60, tags=("bench", "lineage"),
         append="tests=none run=lineage:bogus,lineage:nice:99,lineage:nice:1:2,lineage,"
                "lineage:-h then=exit",
         exit_code=3,
         expect_order=[r"^lineage: unknown workload 'bogus'$", LINEAGE_USAGE, LINEAGE_EXIT2,
                       r"^lineage: bad MS \(100\.\.600000\)$", LINEAGE_USAGE, LINEAGE_EXIT2,
                       r"^lineage: too many arguments$", LINEAGE_USAGE, LINEAGE_EXIT2,
                       r"^lineage: no workload$", LINEAGE_USAGE, LINEAGE_EXIT2,
                       LINEAGE_USAGE, r"^init: /bin/lineage exited with status 0$",
                       r"^init exited: status 1$"],
         forbid=[FIGURE.pattern]),
    Case("lineage_cfs_session", smp=ONE, append="sched=cfs tests=none", timeout=60,
         tags=("quick", "lineage"), send=_send,
         expect=[r"^sched: cfs: CFS of Linux 2\.6\.24 "],
         expect_order=_order,
         forbid=[r"killed by signal", r"exit status 1[0-9][0-9]"]),
    Case("lineage_eevdf_2cpu", smp=TWO, timeout=30, tags=("quick", "lineage"),
         append="sched=eevdf tests=none run=/bin/cat:/proc/scheduler:"
                "/proc/sys/kernel/sched_base_slice_ns:/proc/1/sched then=exit",
         expect_order=[r"^sched: eevdf: EEVDF of Linux 6\.6 ",
                       r"^eevdf EEVDF of Linux 6\.6 ", r"^1500000$",
                       r"^se\.deadline +: +\d+$", r"^se\.vlag +: +-?\d+$",
                       r"^init exited: status 0$"]),
    Case("lineage_sd_2cpu", smp=TWO, timeout=30, tags=("quick", "lineage"),
         append="sched=sd tests=none run=/bin/cat:/proc/scheduler:/proc/1/sched then=exit",
         expect_order=[r"^sched: sd: Staircase Deadline of Con Kolivas, 2007 ",
                       r"^sd Staircase Deadline of Con Kolivas, 2007 ",
                       r"^sd\.level +: +1[0-3]\d$", r"^sd\.quota +: +\d+$",
                       r"^sd\.rotation +: +\d+$", r"^expired +: +0$",
                       r"^init exited: status 0$"],
         forbid=[r"^o1\.", r"^se\."]),
    Case("lineage_o1_1cpu", smp=ONE, timeout=30, tags=("quick", "lineage"),
         append="sched=o1 tests=none run=/bin/sleep:1,/bin/cat:/proc/scheduler:/proc/1/sched "
                "then=exit",
         expect_order=[r"^sched: o1: ", r"^o1 ",
                       r"^o1\.sleep_avg +: +[1-9]\d*$", r"^o1\.bonus +: +([1-9]|10)$",
                       r"^o1\.interactive_credit +: +-?\d+$",
                       r"^o1\.interactive +: +[01]$", r"^expired +: +0$",
                       r"^init exited: status 0$"],
         forbid=[r"^sd\.", r"^se\."]),
    Case("lineage_unknown_name", smp=ONE, timeout=30, tags=("quick", "lineage"),
         append="sched=bfs tests=none run=/bin/cat:/proc/scheduler then=exit",
         expect_order=[r'^sched: no scheduler "bfs" \(valid: staircase o1 sd cfs eevdf\); '
                       r"booting staircase$",
                       r"^sched: staircase: ", r"^staircase ",
                       r"^init exited: status 0$"]),
]
