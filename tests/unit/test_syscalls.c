/*
 * test_syscalls.c - staircase.md §7: the calls, their values and every
 * error case, in Linux's order.
 */
#include <string.h>

#include "test.h"
#include "../../sched/syscalls.h"
#include "../../lib/errno.h"
#include "../../sched/tunables.h"
#include "../../sched/runqueue.h"

static struct fake_proc *me, *other, *mine;

/* The caller (uid 1000) runs on CPU 0; other belongs to uid 2000, mine to 1000. */
static void setup(int ncpus)
{
	if (ncpus != 1)
		fake_boot(ncpus, NULL);
	me = fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	other = fake_new_task(0, 2000, 2000);
	mine = fake_new_task(0, 1000, 1000);
}

#define param user_param

TEST(setscheduler_errors_in_linux_order)
{
	setup(1);
	/* EINVAL first: negative policy or pid, or NULL param ... */
	CHECK_EQ(sys_sched_setscheduler(0, -1, FAKE_BAD_PTR), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(-1, SCHED_NORMAL, FAKE_BAD_PTR), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(9999, SCHED_NORMAL, NULL), -EINVAL);
	/* ... then EFAULT before ESRCH ... */
	CHECK_EQ(sys_sched_setscheduler(9999, SCHED_NORMAL, FAKE_BAD_PTR), -EFAULT);
	/* ... then ESRCH before the policy and priority checks ... */
	CHECK_EQ(sys_sched_setscheduler(9999, 77, param(5)), -ESRCH);
	/* ... then EINVAL for policy and priority ... */
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_NR_POLICIES, param(0)), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_FIFO, param(100)), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_FIFO, param(-1)), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_FIFO, param(0)), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_NORMAL, param(1)), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_ISO, param(1)), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_BATCH, param(1)), -EINVAL);
	/* ... and EPERM last */
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_NORMAL, param(0)), -EPERM);
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_FIFO, param(5)), -EPERM);
	/* allowed: own task, and root on anyone's */
	CHECK_EQ(sys_sched_setscheduler(mine->pid, SCHED_BATCH, param(0)), 0);
	CHECK_EQ(mine->sched.policy, SCHED_BATCH);
	me->euid = 0;
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_RR, param(5)), 0);
	CHECK_EQ(other->sched.policy, SCHED_RR);
	CHECK_EQ(other->sched.prio, 94);
}

TEST(setparam_keeps_policy_and_checks_priority)
{
	setup(1);
	CHECK_EQ(sys_sched_setparam(0, NULL), -EINVAL);
	CHECK_EQ(sys_sched_setparam(-3, param(0)), -EINVAL);
	CHECK_EQ(sys_sched_setparam(0, FAKE_BAD_PTR), -EFAULT);
	CHECK_EQ(sys_sched_setparam(9999, param(0)), -ESRCH);
	CHECK_EQ(sys_sched_setparam(0, param(3)), -EINVAL);	/* NORMAL needs 0 */
	CHECK_EQ(sys_sched_setparam(other->pid, param(0)), -EPERM);
	CHECK_EQ(sys_sched_setparam(0, param(0)), 0);
	me->euid = 0;
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_FIFO, param(10)), 0);
	CHECK_EQ(sys_sched_setparam(0, param(20)), 0);
	CHECK_EQ(me->sched.prio, 79);
	CHECK_EQ(sys_sched_setparam(0, param(0)), -EINVAL);	/* FIFO needs 1..99 */
}

TEST(getscheduler_and_getparam)
{
	setup(1);
	CHECK_EQ(sys_sched_getscheduler(-1), -EINVAL);
	CHECK_EQ(sys_sched_getscheduler(9999), -ESRCH);
	CHECK_EQ(sys_sched_getscheduler(0), SCHED_NORMAL);
	CHECK_EQ(sys_sched_getscheduler(other->pid), SCHED_NORMAL);
	struct sched_param *p = param(42);
	CHECK_EQ(sys_sched_getparam(0, NULL), -EINVAL);
	CHECK_EQ(sys_sched_getparam(-1, p), -EINVAL);
	CHECK_EQ(sys_sched_getparam(9999, FAKE_BAD_PTR), -ESRCH);	/* ESRCH before EFAULT */
	CHECK_EQ(sys_sched_getparam(0, FAKE_BAD_PTR), -EFAULT);
	CHECK_EQ(sys_sched_getparam(0, p), 0);
	CHECK_EQ(p->sched_priority, 0);
	me->euid = 0;
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_RR, param(33)), 0);
	CHECK_EQ(sys_sched_getparam(0, p), 0);
	CHECK_EQ(p->sched_priority, 33);
}

/* Linux's SCHED_RESET_ON_FORK: or'ed into the policy, reported by
 * sched_getscheduler and sched_getattr, kept by sched_setparam; only the
 * privileged may take it off; a child starts as NORMAL at nice >= 0,
 * without the flag. */
TEST(reset_on_fork_children_start_plain)
{
	setup(1);
	me->euid = 0;
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK, param(20)), 0);
	CHECK_EQ(sys_sched_getscheduler(0), SCHED_RR | SCHED_RESET_ON_FORK);
	CHECK_EQ(sys_sched_setparam(0, param(30)), 0);
	CHECK_EQ(sys_sched_getscheduler(0), SCHED_RR | SCHED_RESET_ON_FORK);
	struct sched_task child;
	sched_fork(&me->sched, &child);
	CHECK_EQ(child.policy, SCHED_NORMAL);
	CHECK_EQ(child.rt_priority, 0);
	CHECK_EQ(child.reset_on_fork, false);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_NORMAL | SCHED_RESET_ON_FORK, param(0)), 0);
	sched_set_user_nice(&me->sched, -5);
	sched_fork(&me->sched, &child);
	CHECK_EQ(sched_task_nice(&child), 0);
	/* an unprivileged caller keeps the flag on, may not take it off */
	me->euid = 1000;
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_BATCH, param(0)), -EPERM);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_BATCH | SCHED_RESET_ON_FORK, param(0)), 0);
	sched_fork(&me->sched, &child);
	CHECK_EQ(child.policy, SCHED_BATCH);		/* not a real-time policy: kept */
}

TEST(priority_max_min_per_policy)
{
	CHECK_EQ(sys_sched_get_priority_max(SCHED_FIFO), 99);
	CHECK_EQ(sys_sched_get_priority_min(SCHED_FIFO), 1);
	CHECK_EQ(sys_sched_get_priority_max(SCHED_RR), 99);
	CHECK_EQ(sys_sched_get_priority_min(SCHED_RR), 1);
	for (int pol = 0; pol < 5; pol += (pol == 0 ? 3 : 1)) {
		CHECK_EQ(sys_sched_get_priority_max(pol), 0);
		CHECK_EQ(sys_sched_get_priority_min(pol), 0);
	}
	CHECK_EQ(sys_sched_get_priority_max(SCHED_NR_POLICIES), -EINVAL);
	CHECK_EQ(sys_sched_get_priority_min(-1), -EINVAL);
}

TEST(rr_get_interval_per_policy)
{
	setup(1);
	struct timespec32 *ts = (void *)fake_user_mem;
	CHECK_EQ(sys_sched_rr_get_interval(-1, ts), -EINVAL);
	CHECK_EQ(sys_sched_rr_get_interval(9999, FAKE_BAD_PTR), -ESRCH);
	CHECK_EQ(sys_sched_rr_get_interval(0, FAKE_BAD_PTR), -EFAULT);
	CHECK_EQ(sys_sched_rr_get_interval(0, ts), 0);		/* NORMAL: full slice */
	CHECK_EQ(ts->tv_sec, 0);
	CHECK_EQ(ts->tv_nsec, 200000000);
	me->euid = 0;
	sys_sched_setscheduler(0, SCHED_ISO, param(0));
	sys_sched_rr_get_interval(0, ts);
	CHECK_EQ(ts->tv_nsec, 300000000);
	sys_sched_setscheduler(0, SCHED_BATCH, param(0));
	sys_sched_rr_get_interval(0, ts);
	CHECK_EQ(ts->tv_nsec, 200000000);
	sys_sched_setscheduler(0, SCHED_RR, param(1));
	sys_sched_rr_get_interval(0, ts);
	CHECK_EQ(ts->tv_nsec, 10000000);
	/* for RR the quantum is the whole slice (both are RR): what is
	 * reported is that length, not what is left of it, and it follows
	 * the rr_interval tunable */
	for (int i = 0; i < 4; i++) {
		fake_now_ns += TICK_NS;
		fake_tick(0, true);
	}
	CHECK(me->sched.time_slice < 10 && me->sched.slice < 10);
	sys_sched_rr_get_interval(0, ts);
	CHECK_EQ(ts->tv_nsec, 10000000);
	tunables.rr_interval_ms = 30;
	sys_sched_rr_get_interval(0, ts);
	CHECK_EQ(ts->tv_nsec, 30000000);
	tunables.rr_interval_ms = 10;
	sys_sched_setscheduler(0, SCHED_FIFO, param(1));
	sys_sched_rr_get_interval(0, ts);
	CHECK_EQ(ts->tv_sec, 0);
	CHECK_EQ(ts->tv_nsec, 0);
	tunables.compute = 1;
	sys_sched_setscheduler(0, SCHED_NORMAL, param(0));
	sys_sched_rr_get_interval(0, ts);
	CHECK_EQ(ts->tv_sec, 2);
	CHECK_EQ(ts->tv_nsec, 0);
	/* ticks become time at the kernel's HZ: at 100, NORMAL's 20 ticks */
	tunables.compute = 0;
	sched_set_hz(100);
	sys_sched_rr_get_interval(0, ts);
	CHECK_EQ(ts->tv_sec, 0);
	CHECK_EQ(ts->tv_nsec, 200000000);
}

TEST(nice_needs_privilege_to_lower_and_returns_0)
{
	setup(1);
	CHECK_EQ(sys_nice(-1), -EPERM);
	CHECK_EQ(sys_nice(5), 0);
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, 0), 15);
	CHECK_EQ(sys_nice(100), 0);			/* clamped at 19 */
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, 0), 1);
	me->euid = 0;
	CHECK_EQ(sys_nice(-100), 0);			/* clamped at -20 */
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, 0), 40);
	CHECK_EQ(me->sched.static_prio, 100);
}

/* PRIO_PGRP and PRIO_USER reach every task of the group or uid: get
 * reports the highest (20 - nice), set changes each it may, and its error
 * is the last refusal (Linux's set_one_prio), the others changed all the
 * same. */
TEST(priority_of_a_group_and_of_a_user)
{
	setup(1);
	other->pgid = mine->pgid = 7;
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, mine->pid, 5), 0);
	CHECK_EQ(sys_getpriority(PRIO_PGRP, 7), 20);		/* other's nice 0 */
	CHECK_EQ(sys_setpriority(PRIO_PGRP, 7, 10), -EPERM);	/* other's: uid 2000 */
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, mine->pid), 10);	/* mine changed */
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, other->pid), 20);
	me->euid = 0;
	CHECK_EQ(sys_setpriority(PRIO_PGRP, 7, 3), 0);
	CHECK_EQ(sys_getpriority(PRIO_PGRP, 7), 17);
	CHECK_EQ(sys_setpriority(PRIO_USER, 1000, -4), 0);	/* me and mine */
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, 0), 24);
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, mine->pid), 24);
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, other->pid), 17);
	CHECK_EQ(sys_setpriority(PRIO_PGRP, 0, 2), 0);		/* my group: 1, just me */
	CHECK_EQ(sys_getpriority(PRIO_PGRP, 0), 18);
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, mine->pid), 24);
	CHECK_EQ(sys_setpriority(PRIO_USER, 3000, 0), -ESRCH);
}

TEST(getpriority_setpriority_errors)
{
	setup(1);
	CHECK_EQ(sys_getpriority(3, 0), -EINVAL);
	CHECK_EQ(sys_getpriority(-1, 0), -EINVAL);
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, 9999), -ESRCH);
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, other->pid), 20);
	CHECK_EQ(sys_getpriority(PRIO_PGRP, 0), 20);
	CHECK_EQ(sys_getpriority(PRIO_USER, 1000), 20);
	CHECK_EQ(sys_getpriority(PRIO_USER, 2000), 20);	/* other's */
	CHECK_EQ(sys_getpriority(PRIO_USER, 3000), -ESRCH);	/* nobody's */
	CHECK_EQ(sys_getpriority(PRIO_PGRP, 77), -ESRCH);
	CHECK_EQ(sys_setpriority(7, 0, 0), -EINVAL);
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, 9999, 0), -ESRCH);
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, other->pid, 5), -EPERM);
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, mine->pid, 5), 0);
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, mine->pid, 4), -EACCES);	/* lower nice */
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, mine->pid), 15);
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, mine->pid, 50), 0);	/* clamped */
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, mine->pid), 1);
	me->euid = 0;
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, other->pid, -20), 0);
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, other->pid), 40);
}

TEST(affinity_errors_in_linux_order)
{
	setup(2);
	uint32_t *m = (void *)fake_user_mem;
	*m = 1;
	CHECK_EQ(sys_sched_setaffinity(0, 3, FAKE_BAD_PTR), -EINVAL);	/* len < 4 */
	CHECK_EQ(sys_sched_setaffinity(0, 4, FAKE_BAD_PTR), -EFAULT);
	CHECK_EQ(sys_sched_setaffinity(9999, 4, m), -ESRCH);
	CHECK_EQ(sys_sched_setaffinity(-1, 4, m), -ESRCH);
	CHECK_EQ(sys_sched_setaffinity(other->pid, 4, m), -EPERM);
	*m = 0;
	CHECK_EQ(sys_sched_setaffinity(0, 4, m), -EINVAL);		/* empty */
	*m = 0xc;
	CHECK_EQ(sys_sched_setaffinity(0, 4, m), -EINVAL);		/* offline only */
	*m = 0x6;
	CHECK_EQ(sys_sched_setaffinity(mine->pid, 8, m), 0);
	CHECK_EQ(mine->sched.cpus_allowed, 0x2);
	CHECK_EQ(sys_sched_getaffinity(0, 3, m), -EINVAL);
	CHECK_EQ(sys_sched_getaffinity(9999, 4, m), -ESRCH);
	CHECK_EQ(sys_sched_getaffinity(0, 4, FAKE_BAD_PTR), -EFAULT);
	CHECK_EQ(sys_sched_getaffinity(mine->pid, 64, m), 4);	/* bytes written */
	CHECK_EQ(*m, 0x2);
	CHECK_EQ(sys_sched_getaffinity(0, 4, m), 4);
	CHECK_EQ(*m, 0x3);
}

TEST(task_and_cpu_stats_calls)
{
	setup(1);
	struct sched_task_info *ti = (void *)fake_user_mem;
	CHECK_EQ(sizeof(struct sched_task_info), 80);
	CHECK_EQ(sizeof(struct sched_cpu_info), 56);
	for (int i = 0; i < 12; i++) {
		fake_now_ns += TICK_NS;
		fake_tick(0, true);
	}
	CHECK_EQ(sys_sched_task_stats(-1, ti), -EINVAL);
	CHECK_EQ(sys_sched_task_stats(9999, ti), -ESRCH);
	CHECK_EQ(sys_sched_task_stats(0, FAKE_BAD_PTR), -EFAULT);
	CHECK_EQ(sys_sched_task_stats(0, ti), 0);
	CHECK_EQ(ti->pid, me->pid);
	CHECK_EQ(ti->policy, SCHED_NORMAL);
	CHECK_EQ(ti->prio, 121);
	CHECK_EQ(ti->slice, 188);
	CHECK_EQ(ti->time_slice, 8);
	CHECK_EQ(ti->utime, 12);
	CHECK_EQ(ti->nr_runs, 1);
	CHECK_EQ(ti->full_slice, 200);
	struct sched_cpu_info *ci = (void *)fake_user_mem;
	CHECK_EQ(sys_sched_cpu_stats(1, ci), -EINVAL);
	CHECK_EQ(sys_sched_cpu_stats(0, FAKE_BAD_PTR), -EFAULT);
	CHECK_EQ(sys_sched_cpu_stats(0, ci), 0);
	CHECK_EQ(ci->user_ticks, 12);
	CHECK_EQ(ci->nr_running, 1);
	CHECK_EQ(ci->curr_pid, me->pid);
}

TEST(tunables_range_checks_keep_old_value)
{
	struct { int id, bad_lo, bad_hi, good; } cases[] = {
		{ SCHED_TUNABLE_INTERACTIVE, -1, 2, 0 },
		{ SCHED_TUNABLE_COMPUTE, -1, 2, 1 },
		{ SCHED_TUNABLE_RR_INTERVAL, 0, 1001, 20 },
		{ SCHED_TUNABLE_PER_CPU_GAIN, -1, 101, 50 },
		{ SCHED_TUNABLE_ISO_CPU, -1, 101, 100 },
		{ SCHED_TUNABLE_CACHE_DELAY, -1, 1001, 5 },
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int old = sched_tunable_get(cases[i].id);
		CHECK_EQ(sched_tunable_set(cases[i].id, cases[i].bad_lo), -EINVAL);
		CHECK_EQ(sched_tunable_set(cases[i].id, cases[i].bad_hi), -EINVAL);
		CHECK_EQ(sched_tunable_get(cases[i].id), old);
		CHECK_EQ(sched_tunable_set(cases[i].id, cases[i].good), 0);
		CHECK_EQ(sched_tunable_get(cases[i].id), cases[i].good);
	}
	CHECK_EQ(sched_tunable_get(SCHED_TUNABLE_NR), -EINVAL);
	CHECK_EQ(sched_tunable_set(-1, 0), -EINVAL);
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_HZ, 100), -EINVAL);	/* the kernel owns hz */
	CHECK_EQ(sched_tunable_get(SCHED_TUNABLE_HZ), 1000);
}

/* The tunables as the kernel boots with them: tunables.c's static
 * initializer, saved before any test ran (every test's fixture then resets
 * them from the table, sched_tunables_defaults()). */
static struct sched_tunables boot_tunables;
__attribute__((constructor)) static void save_boot_tunables(void)
{
	boot_tunables = tunables;
}

/* Both sources of defaults give the spec's values: the table (what
 * sched_tunable_get reads after the fixture) and the static initializer. */
TEST(tunables_defaults_match_spec9)
{
	static const struct { int id; const int *boot; int want; } d[] = {
		{ SCHED_TUNABLE_HZ, &boot_tunables.hz, 1000 },
		{ SCHED_TUNABLE_INTERACTIVE, &boot_tunables.interactive, 1 },
		{ SCHED_TUNABLE_COMPUTE, &boot_tunables.compute, 0 },
		{ SCHED_TUNABLE_RR_INTERVAL, &boot_tunables.rr_interval_ms, 10 },
		{ SCHED_TUNABLE_PER_CPU_GAIN, &boot_tunables.per_cpu_gain, 25 },
		{ SCHED_TUNABLE_ISO_CPU, &boot_tunables.iso_cpu, 70 },
		{ SCHED_TUNABLE_CACHE_DELAY, &boot_tunables.cache_delay_ms, 10 },
		{ SCHED_TUNABLE_ROTATE, &boot_tunables.rotate, 1 },
		/* cfs: Linux 2.6.24's (docs/cfs.md §6) */
		{ SCHED_TUNABLE_LATENCY_NS, &boot_tunables.latency_ns, 20000000 },
		{ SCHED_TUNABLE_MIN_GRANULARITY_NS, &boot_tunables.min_granularity_ns, 4000000 },
		{ SCHED_TUNABLE_WAKEUP_GRANULARITY_NS, &boot_tunables.wakeup_granularity_ns, 10000000 },
		{ SCHED_TUNABLE_CHILD_RUNS_FIRST, &boot_tunables.child_runs_first, 1 },
		{ SCHED_TUNABLE_COMPAT_YIELD, &boot_tunables.compat_yield, 0 },
		{ SCHED_TUNABLE_BASE_SLICE_NS, &boot_tunables.base_slice_ns, 750000 },
	};
	CHECK_EQ(sizeof(d) / sizeof(d[0]), SCHED_TUNABLE_NR);	/* every tunable */
	for (unsigned i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		CHECK_EQ(sched_tunable_get(d[i].id), d[i].want);
		CHECK_EQ(*d[i].boot, d[i].want);
	}
}

/* Call 502's DESCRIBE gives each row as the table holds it: its name (cut
 * names would name no tunable), the range sched_tunable_set enforces, the
 * default the fixture restored, a meaning that was not cut, and
 * read-only for hz alone; past the last id, EINVAL. */
TEST(tunables_describe_gives_the_table)
{
	struct sched_tunable_desc d;

	for (int id = 0; id < SCHED_TUNABLE_NR; id++) {
		CHECK_EQ(sched_tunable_describe(id, &d), 0);
		CHECK_EQ(strcmp(d.name, sched_tunable_name(id)), 0);
		CHECK(strlen(d.meaning) > 0 && strlen(d.meaning) + 1 < sizeof(d.meaning));
		CHECK_EQ(d.dflt, sched_tunable_get(id));
		CHECK_EQ(d.read_only, id == SCHED_TUNABLE_HZ);
		if (d.read_only)
			continue;
		CHECK_EQ(sched_tunable_set(id, d.min - 1), -EINVAL);
		CHECK_EQ(sched_tunable_set(id, d.max + 1), -EINVAL);
		CHECK_EQ(sched_tunable_set(id, d.max), 0);
		CHECK_EQ(sched_tunable_set(id, d.min), 0);
		CHECK_EQ(sched_tunable_get(id), d.min);
	}
	CHECK_EQ(sched_tunable_describe(SCHED_TUNABLE_NR, &d), -EINVAL);
	CHECK_EQ(sched_tunable_describe(-1, &d), -EINVAL);
	/* the -ck names, and only those */
	CHECK_EQ(strcmp(sched_tunable_name(SCHED_TUNABLE_INTERACTIVE), "interactive"), 0);
	CHECK_EQ(strcmp(sched_tunable_name(SCHED_TUNABLE_COMPUTE), "compute"), 0);
	CHECK_EQ(sched_setup_param("sched_compute", "1"), -ENOENT);
}

/* The record reaches user memory whole, or EFAULT. */
TEST(tunables_describe_syscall_copies_out)
{
	struct sched_tunable_desc *d = (void *)fake_user_mem;

	setup(1);
	CHECK_EQ(sys_sched_describe_tunable(SCHED_TUNABLE_RR_INTERVAL, FAKE_BAD_PTR), -EFAULT);
	CHECK_EQ(sys_sched_describe_tunable(SCHED_TUNABLE_NR, d), -EINVAL);
	CHECK_EQ(sys_sched_describe_tunable(SCHED_TUNABLE_RR_INTERVAL, d), 0);
	CHECK_EQ(strcmp(d->name, "rr_interval"), 0);
	CHECK_EQ(strcmp(d->unit, "ms"), 0);
	CHECK_EQ(d->min, 1);
	CHECK_EQ(d->max, TUNABLE_MS_MAX);
	CHECK_EQ(d->dflt, 10);
}

TEST(tunables_boot_parameters_by_name)
{
	CHECK_EQ(sched_setup_param("iso_cpu", "100"), 0);
	CHECK_EQ(tunables.iso_cpu, 100);
	CHECK_EQ(sched_setup_param("iso_cpu", "abc"), -EINVAL);
	CHECK_EQ(sched_setup_param("iso_cpu", "200"), -EINVAL);
	CHECK_EQ(sched_setup_param("iso_cpu", ""), -EINVAL);
	CHECK_EQ(tunables.iso_cpu, 100);
	CHECK_EQ(sched_setup_param("compute", "1"), 0);
	CHECK_EQ(tunables.compute, 1);
	CHECK_EQ(sched_setup_param("rr_interval", "-5"), -EINVAL);
	CHECK_EQ(sched_setup_param("no_such_knob", "1"), -ENOENT);
	CHECK_EQ(sched_setup_param("hz", "250"), 0);
	CHECK_EQ(tunables.hz, 250);
}

TEST(tunables_syscall_needs_root)
{
	setup(1);
	CHECK_EQ(sys_sched_get_tunable(SCHED_TUNABLE_ISO_CPU), 70);
	CHECK_EQ(sys_sched_set_tunable(99, 1), -EINVAL);
	CHECK_EQ(sys_sched_set_tunable(SCHED_TUNABLE_ISO_CPU, 50), -EPERM);
	me->euid = 0;
	CHECK_EQ(sys_sched_set_tunable(SCHED_TUNABLE_ISO_CPU, 500), -EINVAL);
	CHECK_EQ(sys_sched_set_tunable(SCHED_TUNABLE_ISO_CPU, 50), 0);
	CHECK_EQ(sys_sched_get_tunable(SCHED_TUNABLE_ISO_CPU), 50);
}
