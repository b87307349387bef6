"""Issue 6: SMP and hyperthread-aware scheduling, proved in QEMU.

Each case boots a topology with `tests=none run=/bin/<prog> then=exit`:
init runs the program (user/tests/<prog>.c), which prints KTAP lines with
the numbers it measured and exits non-zero if a check failed (each timing
measurement is repeated once before it counts as a failure); init then
exits with that verdict, the kernel prints `init exited: status N` and
powers off, and exit_code=1 means status 0.

    smp_share    three CPU-bound NORMAL tasks on 2 CPUs: 67 % +- 12 each;
                 six on 4 CPUs (smp_share_6_1x4x1, issue 31: two pairs and
                 two alone, which rotation must keep changing): 67 % +- 12
                 each and Jain's index >= 0.95 (sched_rotate=0: 0.889)
    smp_spread   two CPU-bound tasks on 2 cores x 2 threads: one per core
                 (not siblings) within 200 ms, and no move after
    smt_batch    NORMAL hog on CPU 0, BATCH hog on CPU 1: BATCH < 5 % when
                 they are hyperthreads of one core, both >= 90 % on two
                 cores; BATCH time is nice time in the per-CPU ticks
    affinity     a pinned task is never seen elsewhere (10,000 getcpu
                 samples); a mask change moves it within a tick (median)
    smp_stress   64 tasks, random sleep/run, policies and affinities, 20 s
                 on 8 CPUs: all exit and are reaped, no panic (the debug
                 build's KASSERTs), no lock-up (the lock-up detector)

Time. These run in real time (no -icount): shares are measured in the
guest's own timer ticks (per-task utime+stime over per-CPU ticks, calls
500/501), and the kernel charges the ticks QEMU drops while the host
leaves a vCPU unscheduled to whatever that vCPU was running, so a busy
host does not read as an unfair scheduler. The measuring cases run alone
(`exclusive`); the stress test runs beside the others. The exception is
`smp_affinity`, whose "moves within a tick" is about latency, not shares:
it runs under `-icount shift=2,sleep=off` (guest time from executed
instructions, as suite.py), where a move takes about 50 us (by itself) or
90 us (by another process); in real time a busy host made the median
anything from 0.4 to 7 ms, QEMU waking the halted vCPU the task moves to.
"""
import re

from harness import Case

TOPO = {
    "2x1x1": "2,sockets=2,cores=1,threads=1",
    "1x2x2": "4,sockets=1,cores=2,threads=2",
    "1x1x2": "2,sockets=1,cores=1,threads=2",
    "1x2x1": "2,sockets=1,cores=2,threads=1",
    "1x4x1": "4,sockets=1,cores=4,threads=1",
    "2x2x2": "8,sockets=2,cores=2,threads=2",
}
ICOUNT = ["-icount", "shift=2,sleep=off"]     # as suite.py
INIT_OK = r"^init exited: status 0\b"
NOT_OK = r"^not ok \d+ .*"


def ktap_check(program, oks):
    """The program exited 0 with every named ok line; show their numbers."""
    def check(log):
        if not re.search(r"^init: /bin/%s exited with status 0\b" % program,
                         log, re.M):
            return False, f"/bin/{program} did not exit with status 0"
        details = []
        for name in oks:
            m = re.search(r"^ok \d+ - %s # (.*)$" % name, log, re.M)
            if not m:
                return False, f"no 'ok ... {name}' line"
            details.append(f"{name}: {m.group(1)}")
        return True, "; ".join(details)
    return check


def smp_case(name, topo, program, oks, args="", timeout=90, exclusive=True,
             accel="tcg", staircase=False, more_tags=(), **kw):
    run = f"/bin/{program}" + (f":{args}" if args else "")
    tags = ("sched_smp",) + (("kvm",) if accel == "kvm" else ()) + \
        (("staircase",) if staircase else ()) + tuple(more_tags)
    if accel == "kvm":
        # only qemu64,+topoext reports cores and threads under KVM
        kw.setdefault("cpu", "qemu64,+topoext")
        name += "_kvm"
        exclusive = True
    return Case(name, smp=TOPO[topo], accel=accel,
                append=f"tests=none run={run} then=exit",
                timeout=timeout, exclusive=exclusive,
                expect=[INIT_OK] + [r"^ok \d+ - %s\b" % o for o in oks],
                forbid=[NOT_OK], check=ktap_check(program, oks),
                tags=tags, **kw)


# make test-all only (docs/testing.md, "The time budget"): no kernel
# instruction that no other case of make test runs (tools/testcov.py), and
# every mutant of sched/ killed without them (make mutate).
ALL = ("all",)


def cases(accel):
    return [
        smp_case("smp_share_2x1x1", "2x1x1", "smp_share",
                 ["smp_hogs_share_cpus_fairly"], accel=accel, more_tags=ALL),
        # 4 vCPUs: a 2-core host cannot give each its own core, but the
        # shares are counted in the guest's own ticks (lost ones charged
        # to what ran), so host steal does not read as unfairness; the
        # issue's "a core per vCPU" figures are for a larger host
        smp_case("smp_share_6_1x4x1", "1x4x1", "smp_share",
                 ["smp_hogs_share_cpus_fairly"], args="6", accel=accel),
        smp_case("smp_spread_1x2x2", "1x2x2", "smp_spread",
                 ["smp_hogs_placed_one_per_core_not_siblings",
                  "smp_hogs_started_on_siblings_spread_to_cores"],
                 accel=accel, more_tags=ALL),
        # staircase: its SMT rule and BATCH (harness.py --sched skips them)
        smp_case("smt_batch_1x1x2", "1x1x2", "smt_batch",
                 ["smt_batch_waits_while_sibling_runs_normal",
                  "cpu_accounting_batch_time_is_nice"], accel=accel,
                 staircase=True),
        # the BATCH mutex holder on CPU 0, a NORMAL hog on its sibling
        smp_case("smt_batch_pi_1x1x2", "1x1x2", "sched_pi",
                 ["batch_holding_mutex_wakes_at_139_and_releases_it",
                  "batch_after_interruptible_sleep_stays_at_140"],
                 args="--sibling", timeout=120, accel=accel, staircase=True, more_tags=ALL),
        smp_case("smt_batch_1x2x1", "1x2x1", "smt_batch",
                 ["batch_and_normal_on_separate_cores_both_run",
                  "cpu_accounting_batch_time_is_nice"], accel=accel, more_tags=ALL),
        # under -icount: a move needs no tick, but on a busy host QEMU takes
        # up to ms to wake the halted vCPU it goes to (median 0.4-7 ms in
        # real time, 49 us under icount)
        smp_case("smp_affinity_1x2x2", "1x2x2", "affinity",
                 ["pinned_task_never_seen_on_another_cpu",
                  "own_mask_change_moves_within_a_tick",
                  "mask_change_by_another_moves_within_a_tick",
                  "setaffinity_other_users_task_eperm",
                  "setaffinity_offline_only_einval"], accel=accel,
                 # 20 to 110 s here since rotation (staircase.md §8.2) moves
                 # the hogs around the pinned sampler: the wall time of its
                 # first check varies run to run (noted, not yet understood)
                 timeout=180,
                 qemu_args=ICOUNT if accel == "tcg" else [],
                 exclusive=accel != "tcg"),
        # 20 s of guest time (TCG: guest time is host time) plus boot
        smp_case("smp_stress_2x2x2", "2x2x2", "smp_stress",
                 ["stress_every_task_exits_and_is_reaped",
                  "stress_tasks_stay_inside_their_masks"],
                 timeout=150, exclusive=False, accel=accel),
    ]


CASES = cases("tcg") + cases("kvm")
