"""The boot test suite (user/tests/) on the topology matrix and tunables.

Each case boots with `tests=quick then=exit` (or all, or a run= list):
init runs the test programs, prints `tests: P passed, F failed` and exits
with status 0 only if everything passed; the kernel prints `init exited:
status N` and powers off, so QEMU exits with (N << 1) | 1 and exit_code=1
means status 0. Every program prints KTAP lines; a `not ok` line is quoted
in the failure.

Virtual time. The programs that measure CPU shares read CLOCK_MONOTONIC
(the TSC). Under plain TCG that is the host's time, so when the host
deschedules QEMU (other QEMUs, a busy 2-core machine) a hog sees a gap and
counts it as time it did not get: on a loaded host sched_batch measured
"batch alone got 29%". With `-icount shift=2,sleep=off` QEMU derives the
guest's clocks and timers from the instructions it executed (4 ns each),
so shares no longer depend on the host's load; the scheduler code under
test is the same. Such cases may run beside other QEMUs (not `exclusive`),
and still retry once. The same programs in real time, alone, are the cases
in policy.py. shift=2 (250 M instructions per virtual second): on 8 CPUs
shift=3 let the other vCPUs' work show up as gaps on CPU 0 (fifo 75%).

KVM cases (`accel="kvm"`) are skipped unless hardware KVM exists; icount is
TCG-only, so they run in real time, alone.
"""
import os
import re

from harness import Case, REPO

ICOUNT = ["-icount", "shift=2,sleep=off"]

TOPOLOGIES = {
    "1x1x1": "1,sockets=1,cores=1,threads=1",
    "2x1x1": "2,sockets=2,cores=1,threads=1",
    "1x2x2": "4,sockets=1,cores=2,threads=2",
    "2x2x2": "8,sockets=2,cores=2,threads=2",
}
QUICK_TOPOLOGIES = ("1x1x1", "1x2x2")     # in `make test-quick`

# The scheduler-policy programs, run again under other tunables.
POLICY_PROGRAMS = ["posix_sched", "sched_batch", "sched_fifo", "sched_rr",
                   "sched_yield", "sched_nice", "sched_interactive",
                   "sched_iso", "sleeptest"]

SUMMARY = r"^tests: (\d+) passed, (\d+) failed"
INIT_OK = r"^init exited: status 0\b"
NOT_OK = r"^not ok \d+ .*"


def suite_list(name):
    """The entries of suite_quick or suite_slow in user/tests/suite.h."""
    with open(os.path.join(REPO, "user", "tests", "suite.h")) as f:
        text = f.read()
    body = re.search(r"\b%s\[\]\s*=\s*\{(.*?)\};" % name, text, re.S)
    return re.findall(r'"([^"]+)"', body.group(1))


def count_ok(log):
    return len(re.findall(r"^ok \d+ ", log, re.M))


def suite_check(lists):
    """init ran every program of the lists and all of them passed."""
    want = sum(len(suite_list(name)) for name in lists)

    def check(log):
        m = re.search(SUMMARY, log, re.M)
        passed, failed = int(m.group(1)), int(m.group(2))
        if passed + failed != want:
            return False, f"{passed + failed} programs ran, suite.h has {want}"
        if failed:
            return False, f"{failed} of {want} programs failed"
        return True, f"{passed} programs, {count_ok(log)} ok lines"
    return check


def run_check(programs):
    """Every program of a run= list exited with status 0."""
    def check(log):
        bad = [p for p in programs if not re.search(
            r"^init: /bin/%s exited with status 0\b" % re.escape(p), log,
            re.M)]
        if bad:
            return False, "did not exit with status 0: " + ", ".join(bad)
        return True, f"{len(programs)} programs, {count_ok(log)} ok lines"
    return check


def suite_case(name, smp, which="quick", tags=(), timeout=240,
               icount=True, **kw):
    lists = ["suite_quick"] + (["suite_slow"] if which == "all" else [])
    return Case(name, smp=smp, append=f"tests={which} then=exit",
                timeout=timeout, retry=True,
                qemu_args=ICOUNT if icount else [],
                expect_order=[SUMMARY + r"\b", INIT_OK],
                expect=[r"^tests: \d+ passed, 0 failed"],
                forbid=[NOT_OK], check=suite_check(lists),
                tags=("suite",) + tuple(tags), **kw)


def policy_case(name, tunables, tags=()):
    tags = tags_of(name, tags)
    run = ",".join(POLICY_PROGRAMS)
    return Case(name, append=f"tests=none run={run} then=exit {tunables}",
                timeout=300, retry=True, qemu_args=ICOUNT,
                expect=[INIT_OK], forbid=[NOT_OK],
                check=run_check(POLICY_PROGRAMS),
                tags=("suite", "policy") + tuple(tags))


# Tagged "all" (make test-all only; docs/testing.md): suite_all_1x1x1 is
# suite_quick_1x1x1 (in make test) plus the slow list, whose programs are
# make test's policy_* and hostile_* cases one by one, and forkloop's
# 2,000 forks, which proc_many_tasks and the fork bombs outdo (42 s of
# make test's 2 cores for the same checks in one boot); 2x1x1's two
# CPUs in two sockets and 2x2x2's eight (27 s) are covered by 1x2x2's
# SMT pair of cores and by smp_stress_2x2x2's packages, and the policy
# programs under compute=1 or hz=100 repeat their suite runs under
# one tunable the unit tests already cover (timer_hz1000 boots at hz=1000 in
# make test). suite_quick_1x2x2 runs no kernel instruction that no other
# case of make test runs (tools/testcov.py; docs/testing.md, "The time
# budget"): suite_quick_1x1x1 and boot_iso run the same list.
REPEATED = ("suite_all_1x1x1", "suite_quick_2x1x1", "suite_quick_2x2x2", "suite_quick_1x2x2",
            "suite_policy_compute",
            "suite_policy_hz100")


def tags_of(name, tags):
    return tuple(tags) + (("all",) if name in REPEATED else ())


CASES = (
    [suite_case(f"suite_quick_{short}", smp,
                tags=tags_of(f"suite_quick_{short}",
                             ("quick",) if short in QUICK_TOPOLOGIES else ()))
     for short, smp in TOPOLOGIES.items()]
    + [suite_case(f"suite_quick_{short}_kvm", smp, accel="kvm",
                  icount=False, exclusive=True, cpu="qemu64,+topoext",
                  tags=("kvm",))
       for short, smp in TOPOLOGIES.items()]
    + [
        # one CPU: the slow list pins its hogs to CPU 0 anyway, and under
        # icount every extra vCPU costs wall time (59 s here, 4 CPUs 132 s)
        suite_case("suite_all_1x1x1", TOPOLOGIES["1x1x1"], which="all",
                   timeout=420, tags=tags_of("suite_all_1x1x1", ())),
        policy_case("suite_policy_hz100", "hz=100"),
        policy_case("suite_policy_compute", "compute=1"),
    ]
)
