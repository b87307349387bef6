"""The staircase's policies in QEMU on one CPU (issue 5).

Each program measures CPU shares or latencies, prints them on its KTAP
lines, retries once, and exits non-zero on failure. They measure in
virtual time (-icount shift=2,sleep=off: guest time from executed
instructions, as suite_all_1x1x1 runs the same programs), so a busy host
changes nothing they see and they run beside other cases; in real time
they had to run alone (exclusive), 46 s of make test with one host core
idle. The harness still retries a failed case once more.
"""
from harness import Case

ONE = "1,sockets=1,cores=1,threads=1"
ICOUNT = ["-icount", "shift=2,sleep=off"]


def policy(name, program, timeout=120, extra="", tags=()):
    return Case(name, smp=ONE, append=f"tests=none run={program} then=exit {extra}".strip(),
                expect=[r"^init exited: status 0$"], timeout=timeout, qemu_args=ICOUNT,
                retry=True, tags=("policy",) + tags)


# Tagged "all" (make test-all only), as the cases docs/testing.md's "The
# time budget" lists: no kernel instruction that no other case of make test
# runs (tools/testcov.py), and every mutant of sched/ is killed without
# them (make mutate: the unit tests alone). Their rules stay checked there
# and in suite_all_1x1x1, which runs the same programs.
ALL = ("all",)


CASES = [
    # nice 0 : nice 10 about 2:1, nice 0 : nice 19 about 20:1
    policy("policy_nice_shares", "/bin/sched_nice", tags=ALL),
    # BATCH < 1% beside a NORMAL hog, ~100% alone
    policy("policy_batch_idle_only", "/bin/sched_batch"),
    # a FIFO hog starves a NORMAL hog until it sleeps
    policy("policy_fifo_starves_normal", "/bin/sched_fifo"),
    # two RR hogs alternate every quantum
    policy("policy_rr_alternate", "/bin/sched_rr"),
    # yield drops a NORMAL task to 139; FIFO yielders take turns
    policy("policy_yield", "/bin/sched_yield"),
    # 1 ms run / 9 ms sleep beside two hogs wakes within a quantum
    policy("policy_interactive_latency", "/bin/sched_interactive"),
    # unprivileged FIFO becomes ISO; iso_cpu=70 protects a NORMAL hog
    policy("policy_iso_cap", "/bin/sched_iso", timeout=180, tags=ALL),
    # BATCH holding a kernel mutex: elevated to 139 after uninterruptible sleep
    policy("policy_batch_priority_inversion", "/bin/sched_pi"),
]
