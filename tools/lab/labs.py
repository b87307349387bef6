"""labs.py - the labs: what each one hands out and how it is graded.

Each lab names its handout (docs/labs/NAME.md), the host unit tests it is
graded on (tests/unit, by name), its simulator checks (a workload of
tools/sim/examples/ or tools/lab/workloads/, and what the report must
show) and its QEMU cases (user programs, booted in virtual time). Every
lab is also graded on two things that are the same for all: the other
unit tests still pass, and the kernel boots to the shell.

The unit tests of a lab are the ones its stub fails (tools/lab/selftest.py
checks that the stub tree passes all the others, so this list is
complete). To add a lab: docs/labs.md, "Adding a lab".
"""

# Points: every unit test 2, the other unit tests together 5, a simulator
# check 3, a QEMU program 5, booting to the shell 3.
UNIT, OTHERS, SIM, QEMU, BOOT = 2, 5, 3, 5, 3

ONE_CPU = "1,sockets=1,cores=1,threads=1"
ONE_CORE_TWO_THREADS = "2,sockets=1,cores=1,threads=2"
EX = "tools/sim/examples/"
WL = "tools/lab/workloads/"


class Sim:
    """A simulator run and what its report must show: check(report) returns
    (ok, what it saw); report.task(name) has cpu, runs, max_wait, ..."""

    def __init__(self, name, workload, check, args=(), points=SIM):
        self.name, self.workload, self.check = name, workload, check
        self.args, self.points = list(args), points


class Boot:
    """A QEMU boot of user programs (tests=none run=...), one CPU unless
    said, in virtual time; passes when init exits with status 0 (every
    program passed) and every expected line is there. With judge, a
    function of the serial log returning (ok, what it saw), that decides
    instead of the programs' exit status; icount=False boots in real time."""

    def __init__(self, name, run, smp=ONE_CPU, expect=(), timeout=240, points=QEMU, append="",
                 icount=True, judge=None):
        self.name, self.run, self.smp, self.expect = name, run, smp, list(expect)
        self.timeout, self.points, self.append = timeout, points, append
        self.icount, self.judge = icount, judge


class Lab:
    def __init__(self, name, title, minutes, unit, sim=(), qemu=()):
        self.name, self.title, self.minutes = name, title, minutes
        self.handout = f"docs/labs/{name}.md"
        self.unit, self.sim, self.qemu = list(unit), list(sim), list(qemu)


def within(x, lo, hi):
    return x is not None and lo <= x <= hi


def shares(report, *names):
    return ", ".join(f"{n} {report.cpu(n)} %" for n in names)


# ---- the simulator checks -------------------------------------------------

def ingo_hog_starves(r):
    return within(r.cpu("hog"), 0, 2), shares(r, "hog", "ingo1", "ingo2") + "; want hog 0..2 %"


def nice_ratio(a, b, lo, hi):
    def check(r):
        x, y = r.cpu(a), r.cpu(b)
        ratio = x / y if x is not None and y else None
        shown = f"{ratio:.2f}" if ratio is not None else "none"
        return within(ratio, lo, hi), f"{shares(r, a, b)}: ratio {shown}, want {lo}..{hi}"
    return check


def batch_idle_half(r):
    ok = within(r.cpu("web"), 48, 52) and within(r.cpu("build"), 23, 27) and \
        within(r.cpu("hog"), 23, 27)
    return ok, shares(r, "web", "build", "hog") + "; want 48..52, 23..27, 23..27"


def blocked_runs_sleeper_waits(blocker, sleeper):
    def check(r):
        a, b = r.task(blocker), r.task(sleeper)
        if not a or not b:
            return False, f"no {blocker} or {sleeper} in the report"
        ok = a["max_wait"] <= 250 and b["max_wait"] >= 8500
        return ok, (f"{blocker}: {a['runs']} runs, longest wait {a['max_wait']:.0f} ms "
                    f"(want <= 250 ms); {sleeper}: longest wait {b['max_wait']:.0f} ms "
                    "(want >= 8500 ms)")
    return check


def smt_batch_waits(r):
    ok = within(r.cpu("batch"), 0, 2) and within(r.cpu("normal"), 98, 100)
    return ok, shares(r, "normal", "batch") + "; want normal 98..100, batch 0..2"


def smt_idle_traced(r):
    n = sum(1 for line in r.lines
            if line.startswith("trace: ") and " cpu1 smt_idle pid 2 batch prio 140" in line)
    return n > 0, f"{n} smt_idle events of the BATCH task on cpu1; want some"


def smt_nice19_waits(r):
    ok = within(r.cpu("nice19"), 3, 12) and within(r.cpu("nice0"), 98, 100)
    return ok, shares(r, "nice0", "nice19") + "; want nice0 98..100, nice19 3..12"


def iso_cap(hog_lo, hog_hi, iso_lo, iso_hi):
    def check(r):
        h, i1, i2 = r.cpu("hog"), r.cpu("iso1"), r.cpu("iso2")
        iso = i1 + i2 if i1 is not None and i2 is not None else None
        ok = within(h, hog_lo, hog_hi) and within(iso, iso_lo, iso_hi)
        return ok, (f"hog {h} %, ISO pair {iso} %; want hog {hog_lo}..{hog_hi}, "
                    f"pair {iso_lo}..{iso_hi}")
    return check


def idleprio_idle_half(r):
    ok = within(r.cpu("web"), 48, 52) and within(r.cpu("idle"), 23, 27) and \
        within(r.cpu("hog"), 23, 27)
    return ok, shares(r, "web", "idle", "hog") + "; want 48..52, 23..27, 23..27"


def smt_batch_shares(log):
    """smt_batch's first line, read whether it passed or was skipped: its
    shares come from the kernel's tick accounting, which charges the ticks
    a busy host made QEMU drop to what was running, so they hold in real
    time too (tests/cases/sched_smp.py)."""
    import re
    m = re.search(r"siblings: normal ([\d.]+)%, batch ([\d.]+)%", log)
    if not m:
        return False, "no 'siblings: normal N%, batch N%' line from /bin/smt_batch"
    normal, batch = float(m.group(1)), float(m.group(2))
    return normal >= 90 and batch < 5, f"normal {normal} %, batch {batch} %; want >= 90, < 5"


def hog_waits_at_most(ms):
    def check(r):
        t = r.task("hog")
        if not t:
            return False, "no hog in the report"
        return t["max_wait"] <= ms, (f"hog: longest wait {t['max_wait']:.0f} ms, want <= {ms} ms; "
                                     + shares(r, *r.tasks))
    return check


def lineage_figures(log):
    import re
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^([a-z][a-z0-9_]*) (-?\d+) [a-z]+$", log, re.M)}


def thud_hog_waits_little(log):
    """/bin/lineage thud under sched=cfs: three tasks that slept 1 s wake
    together; placed at most a latency back, they hold the hog off for
    about 3 x 20 ms, never their whole 600 ms."""
    v = lineage_figures(log)
    gap, share = v.get("thud_hog_maxgap"), v.get("thud_hog_share")
    if gap is None or share is None:
        return False, "no thud_hog_maxgap / thud_hog_share line from /bin/lineage"
    return gap <= 150000 and share >= 650, (f"hog: {share / 10:.1f} % of the CPU, longest wait "
                                            f"{gap // 1000} ms; want >= 65 % and <= 150 ms")


# ---- the labs --------------------------------------------------------------

LABS = {}


def lab(*args, **kw):
    x = Lab(*args, **kw)
    LABS[x.name] = x


lab("stairs", "the staircase: effective_prio and the tick's descent", 120,
    unit=["staircase_worked_example_spec10",
          "staircase_one_stair_per_quantum_requeues_at_tail",
          "staircase_burst_grows_on_real_sleep",
          "staircase_burst_decays_on_slice_expiry",
          "interactive_0_no_burst_extension",
          "compute_1_long_quantum_no_burst_extension",
          "iso_starts_at_110_and_drops_a_stair_per_half_quantum",
          "iso_gets_no_burst_extension",
          "fork_child_copies_slice_quantum_no_burst_one_stair_below",
          "fork_children_wait_below_the_parents_stair",
          "nice_change_moves_prio_by_delta",
          "renice_rescales_the_running_slice",
          "policy_change_keeps_used_fraction_and_quantum",
          "batch_after_uninterruptible_sleep_runs_once_at_139",
          "task_and_cpu_stats_calls",
          "share_nice0_vs_nice10_about_2_to_1",
          "share_nice0_vs_nice19_about_20_to_1",
          "share_two_4ms_1ms_normal_tasks_starve_a_hog",
          # rotation's pace follows how long a hog runs at a stretch (§8.2)
          "rotation_moves_are_paced"],
    sim=[Sim("nice.wl: nice 0 : nice 10 about 2:1", EX + "nice.wl", nice_ratio("nice0", "nice10", 1.8, 2.2)),
         Sim("nice.wl: nice 0 : nice 19 about 20:1", EX + "nice.wl", nice_ratio("nice0", "nice19", 17, 23)),
         Sim("ingo.wl: two 4 ms/1 ms tasks starve a hog (rule book §10.5)", EX + "ingo.wl", ingo_hog_starves)],
    qemu=[Boot("/bin/sched_nice: nice shares 2:1 and 20:1", "/bin/sched_nice"),
          Boot("/bin/sched_interactive: 1 ms/9 ms task wakes within a quantum",
               "/bin/sched_interactive")])

lab("batch", "SCHED_BATCH: idle only, its slice, the run at 139", 90,
    unit=["numbers_batch_nice0_slice200_quantum100_prio140",
          "numbers_compute_mode_rr_x10",
          "batch_never_runs_while_normal_task_runnable",
          "batch_after_uninterruptible_sleep_runs_once_at_139",
          "batch_after_interruptible_sleep_stays_at_140",
          "batch_woken_gets_whole_slice_as_quantum",
          "batch_time_is_accounted_as_nice",
          "kernel_thread_may_not_be_batch",
          "yield_batch_goes_to_tail_of_140",
          "yield_quantum_is_the_policys_rr_interval",
          "nice_change_leaves_batch_at_140",
          "policy_change_that_lowers_the_running_task_reschedules",
          "yielded_task_made_batch_is_held_off_by_the_smt_rule",
          "smt_batch_never_shares_a_core_with_normal_work",
          "smt_batch_elevated_after_uninterruptible_sleep_is_not_held_off",
          "balance_rotation_leaves_a_waiting_batch_task_alone",
          "rotation_never_puts_batch_in_front_of_normal",
          "accounting_batch_is_nice_and_lost_ticks_go_to_current",
          "share_normal_vs_batch_batch_gets_nothing"],
    sim=[Sim("batch.wl: BATCH gets the idle half, then nothing", EX + "batch.wl", batch_idle_half),
         Sim("batch_block.wl: runs at 139 after uninterruptible sleep only",
             WL + "batch_block.wl", blocked_runs_sleeper_waits("disk", "nap")),
         Sim("smt_batch.wl: BATCH never shares a core with NORMAL work", EX + "smt_batch.wl",
             smt_batch_waits)],
    qemu=[Boot("/bin/sched_batch: BATCH under 1 % beside a hog, over 90 % alone", "/bin/sched_batch"),
          Boot("/bin/sched_pi: a BATCH mutex holder is not starved", "/bin/sched_pi")])

lab("iso", "SCHED_ISO: its quanta, the unprivileged grant, the iso_cpu cap", 150,
    unit=["numbers_iso_nice0_maxburst29_slice300_quantum5_top110",
          "numbers_compute_mode_rr_x10",
          "iso_starts_at_110_and_drops_a_stair_per_half_quantum",
          "iso_gets_no_burst_extension",
          "rr_get_interval_per_policy",
          "yield_quantum_is_the_policys_rr_interval",
          "unprivileged_fifo_becomes_iso",
          "unprivileged_fifo_granted_as_iso_reads_back_as_iso_priority_0",
          "unprivileged_fifo_request_of_an_iso_task_changes_nothing",
          "nice_change_never_lifts_a_task_above_the_stairs",
          "policy_change_keeps_used_fraction_and_quantum",
          "move_keeps_timestamp_and_recomputes_stair_on_the_new_cpu",
          "iso_cpu_0_throttles_only_once_an_iso_task_has_run",
          "iso_cpu_100_two_hostile_iso_tasks_starve_hog",
          "iso_cpu_70_hog_gets_about_31_percent",
          "iso_cpu_honest_audio_task_never_demoted",
          "iso_cpu_demotion_and_recovery",
          "iso_cpu_throttled_iso_yields_to_normal",
          "iso_yield_while_throttled_waits_at_140_and_unthrottles_to_139"],
    sim=[Sim("iso_cap.wl, iso_cpu 70: the hog keeps about 31 % (rule book §10.6)", EX + "iso_cap.wl",
             iso_cap(25, 37, 63, 75)),
         Sim("iso_cap.wl, iso_cpu=100: the seed, the hog gets nothing", EX + "iso_cap.wl",
             iso_cap(0, 2, 98, 100), args=["--tunable", "iso_cpu=100"])],
    qemu=[Boot("/bin/sched_iso: FIFO granted as ISO; iso_cpu 70 spares a hog", "/bin/sched_iso")])

lab("smt", "the dependent-sleeper rule on hyperthread siblings", 90,
    unit=["smt_task_with_much_less_slice_waits",
          "smt_sibling_with_little_slice_is_made_to_reschedule",
          "smt_normal_waits_while_sibling_runs_rt",
          "smt_rt_task_runs_and_makes_normal_sibling_reschedule",
          "smt_batch_never_shares_a_core_with_normal_work",
          "smt_batch_elevated_after_uninterruptible_sleep_is_not_held_off",
          "smt_idle_sibling_with_queued_work_is_woken",
          "smt_picking_a_task_wakes_an_idle_sibling_with_queued_work",
          "smt_held_back_task_starts_at_the_first_tick_it_may",
          "yielded_task_made_batch_is_held_off_by_the_smt_rule"],
    sim=[Sim("smt_batch.wl: BATCH on the sibling thread gets nothing", EX + "smt_batch.wl", smt_batch_waits),
         Sim("smt_batch.wl --trace: cpu1 records smt_idle", EX + "smt_batch.wl", smt_idle_traced,
             args=["--trace", "--duration", "200ms"]),
         Sim("smt_nice.wl: nice 19 beside nice 0 on one core gets in rarely",
             WL + "smt_nice.wl", smt_nice19_waits)],
    # Real time: under -icount the second vCPU of this machine stays idle
    # while the first runs a hog, even on two separate cores and with any
    # scheduler (BATCH 0 % there too), so it would prove nothing.
    qemu=[Boot("/bin/smt_batch (1 core x 2 threads, real time): BATCH waits",
               "/bin/smt_batch", smp=ONE_CORE_TWO_THREADS, icount=False,
               judge=smt_batch_shares, timeout=120)])

lab("policy", "a policy from nothing: SCHED_IDLEPRIO", 180,
    unit=["idleprio_is_policy_5_for_any_user",
          "idleprio_priority_range_and_interval",
          "idleprio_kernel_thread_may_not_be_idleprio",
          "idleprio_numbers_as_batch",
          "idleprio_waits_at_140_beside_normal_and_runs_alone",
          "idleprio_after_uninterruptible_sleep_stays_at_140",
          "idleprio_woken_gets_whole_slice_as_quantum",
          "idleprio_yield_goes_to_tail_of_140",
          "idleprio_and_batch_share_140_by_slice",
          "idleprio_time_is_accounted_as_nice",
          "idleprio_never_shares_a_core_with_normal_work",
          "idleprio_is_named_idleprio_in_the_trace"],
    sim=[Sim("idleprio.wl: IDLEPRIO gets the idle half, then nothing", WL + "idleprio.wl",
             idleprio_idle_half),
         Sim("idleprio_block.wl: BATCH runs at 139 after a block, IDLEPRIO never",
             WL + "idleprio_block.wl", blocked_runs_sleeper_waits("disk_b", "disk_i"))],
    qemu=[Boot("/bin/sched_idleprio: policy 5 for any user, idle only",
               "/bin/sched_idleprio")])

lab("sleepers", "CFS's sleeper placement: place_entity", 90,
    unit=["cfs_sleeper_placed_at_min_vruntime_minus_latency",
          "cfs_wakeup_preempts_only_beyond_wakeup_granularity",
          "cfs_batch_never_preempts_on_wakeup",
          "cfs_new_task_starts_one_vslice_after_min_vruntime",
          "cfs_child_runs_first_takes_the_parents_smaller_vruntime",
          "cfs_yield_keeps_the_cpu_while_leftmost"],
    sim=[Sim("sleepers.wl (cfs): a 2 s sleeper comes back one latency early at most",
             WL + "sleepers.wl", hog_waits_at_most(40), args=["--sched", "cfs"]),
         Sim("latecomer.wl (cfs): a new task starts after the period (START_DEBIT)",
             WL + "latecomer.wl", hog_waits_at_most(40), args=["--sched", "cfs"])],
    qemu=[Boot("/bin/lineage thud under sched=cfs: waking sleepers hold a hog off briefly",
               "/bin/lineage:thud:3000", append="sched=cfs", judge=thud_hog_waits_little,
               timeout=120)])

NAMES = list(LABS)
