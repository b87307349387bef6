"""No unprivileged sequence of calls buys CPU time (issue 10).

/bin/sched_hostile on one CPU, in virtual time (`-icount`, as suite.py):
a uid-1000 hog that makes a no-op call every 5 ms (sched_setparam(0, {0}),
sched_setscheduler to its own policy, nice(0), setpriority and
sched_setaffinity to what it has), flips its policy there and back, or
yields, beside a plain hog: the plain hog keeps at least 400 of 1000
(before the fix: 0; Linux 6.1: 498). Then a throttled ISO task that
yields waits among BATCH tasks, and sched_setparam to the priority a
running FIFO task has leaves it at the head of its list.
"""
from harness import Case

ONE = "1,sockets=1,cores=1,threads=1"
ICOUNT = ["-icount", "shift=2,sleep=off"]
OKS = ["noop_setparam_cannot_starve_an_equal_hog",
       "noop_setscheduler_cannot_starve_an_equal_hog",
       "nice_0_cannot_starve_an_equal_hog",
       "setpriority_same_cannot_starve_an_equal_hog",
       "setaffinity_same_cannot_starve_an_equal_hog",
       "batch_normal_flip_cannot_starve_an_equal_hog",
       "iso_normal_flip_cannot_starve_an_equal_hog",
       "yield_loop_cannot_starve_an_equal_hog",
       "throttled_iso_yield_waits_among_batch",
       "fifo_setparam_same_priority_keeps_its_place"]

CASES = [
    Case("hostile_calls_buy_no_cpu", smp=ONE, qemu_args=ICOUNT,
         append="tests=none run=/bin/sched_hostile then=exit",
         timeout=240, retry=True, tags=("policy", "hostile"),
         expect=[r"^init exited: status 0$"] + [r"^ok \d+ - %s\b" % o for o in OKS],
         forbid=[r"^not ok \d+ .*"]),
]
