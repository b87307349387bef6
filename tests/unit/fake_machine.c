/*
 * fake_machine.c - the host implementation of sched/machine.h and
 * lib/spinlock.h (see fake_machine.h).
 */
#include "fake_machine.h"
#include "../../sched/tunables.h"
#include "../../sched/runqueue.h"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

uint64_t fake_now_ns;
int fake_cpu;
int fake_ncpus = 1;
bool fake_need_resched[SCHED_MAX_CPUS];
int fake_irq_off[SCHED_MAX_CPUS];
struct fake_proc fake_procs[FAKE_MAX_PROCS];
struct fake_proc fake_idle[SCHED_MAX_CPUS];
struct fake_trace_rec fake_trace[FAKE_TRACE_MAX];
int fake_trace_len;
jmp_buf *fake_assert_jmp;
char fake_assert_msg[256];
uint8_t fake_user_mem[FAKE_USER_SIZE];

/* ---- machine.h ---- */

uint64_t clock_ns(void)
{
	return fake_now_ns;
}

int this_cpu(void)
{
	return fake_cpu;
}

bool irqs_disabled(void)
{
	return fake_irq_off[fake_cpu] > 0;
}

void resched_cpu(int cpu)
{
	if (cpu < 0 || cpu >= fake_ncpus)
		kassert_fail("resched_cpu: bad cpu", __FILE__, __LINE__);
	fake_need_resched[cpu] = true;
}

void cpu_relax(void)
{
	/* Single-threaded: a spin-wait here would never end. */
	kassert_fail("cpu_relax: would spin for ever on the host", __FILE__, __LINE__);
}

int fake_task_refs;

struct sched_task *sched_find_task(int pid)
{
	for (int i = 0; i < FAKE_MAX_PROCS; i++)
		if (fake_procs[i].used && fake_procs[i].pid == pid) {
			fake_task_refs++;
			return &fake_procs[i].sched;
		}
	return NULL;
}

/* The kernel's walk for PRIO_PGRP (1) and PRIO_USER (2), by pid. */
struct sched_task *sched_next_task_of(int which, int who, int *pid)
{
	struct fake_proc *me = fake_of(sched_current()), *best = NULL;
	if (!who)
		who = which == 1 ? me->pgid : me->uid;
	for (int i = 0; i < FAKE_MAX_PROCS; i++) {
		struct fake_proc *p = &fake_procs[i];
		if (p->used && p->pid >= *pid && (which == 1 ? p->pgid : p->uid) == who &&
		    (!best || p->pid < best->pid))
			best = p;
	}
	if (!best)
		return NULL;
	*pid = best->pid;
	fake_task_refs++;
	return &best->sched;
}

void sched_put_task(struct sched_task *t)
{
	KASSERT(t && fake_task_refs > 0);
	fake_task_refs--;
}

struct fake_proc *fake_of(struct sched_task *t)
{
	return (struct fake_proc *)t;	/* sched is the first member */
}

int fake_pid(struct sched_task *t)
{
	return (!t || t->is_idle) ? 0 : fake_of(t)->pid;
}

int sched_task_pid(struct sched_task *t)
{
	return fake_of(t)->pid;
}

int sched_task_uid(struct sched_task *t)
{
	return fake_of(t)->uid;
}

int sched_task_euid(struct sched_task *t)
{
	return fake_of(t)->euid;
}

/* The fake tasks have no capability sets: root's have them all. */
bool sched_task_cap_nice(struct sched_task *t)
{
	return fake_of(t)->euid == 0;
}

static bool user_range_ok(const void *p, uint32_t n)
{
	const uint8_t *b = p;
	return b >= fake_user_mem && b + n <= fake_user_mem + FAKE_USER_SIZE;
}

int copy_from_user(void *dst, const void *usrc, uint32_t n)
{
	if (!user_range_ok(usrc, n))
		return -14;
	memcpy(dst, usrc, n);
	return 0;
}

int copy_to_user(void *udst, const void *src, uint32_t n)
{
	if (!user_range_ok(udst, n))
		return -14;
	memcpy(udst, src, n);
	return 0;
}

void kassert_fail(const char *expr, const char *file, int line)
{
	snprintf(fake_assert_msg, sizeof(fake_assert_msg), "KASSERT %s at %s:%d", expr, file, line);
	if (fake_assert_jmp)
		longjmp(*fake_assert_jmp, 1);
	fprintf(stderr, "%s\n", fake_assert_msg);
	abort();
}

int fake_migrated_running;
void (*fake_trace_hook)(const struct fake_trace_rec *r);

uint32_t sched_trace_mask = ~0u;	/* the fake records every event */

void sched_trace_record(int cpu, int event, struct sched_task *t, int arg)
{
	struct fake_trace_rec r = { fake_now_ns, cpu, event, fake_pid(t), arg,
		!t ? FAKE_POLICY_NONE : t->is_idle ? FAKE_POLICY_IDLE : t->policy };

	/* invariant: a task is never moved while it runs (staircase.md §8.1) */
	if (event == TRACE_MIGRATE && (t->on_cpu || cpu_rq(arg)->curr == t))
		fake_migrated_running++;
	if (fake_trace_len < FAKE_TRACE_MAX)
		fake_trace[fake_trace_len++] = r;
	if (fake_trace_hook)
		fake_trace_hook(&r);
}

int fake_trace_count(int event, int pid)
{
	int n = 0;
	for (int i = 0; i < fake_trace_len; i++)
		if (fake_trace[i].event == event && (pid < 0 || fake_trace[i].pid == pid))
			n++;
	return n;
}

/* ---- spinlock.h: no spinning, but misuse is caught ---- */

void (*fake_lock_hook)(struct spinlock *l);

void spin_init(struct spinlock *l, const char *name)
{
	l->locked = 0;
	l->cpu = -1;
	l->name = name;
	l->taken_at = 0;
}

void spin_lock(struct spinlock *l)
{
	if (l->locked)
		kassert_fail(l->cpu == fake_cpu ? "spin_lock: lock already held by this CPU"
						: "spin_lock: lock held by another CPU (would deadlock)",
			     __FILE__, __LINE__);
	fake_irq_off[fake_cpu]++;
	l->locked = 1;
	l->cpu = fake_cpu;
	if (fake_lock_hook)
		fake_lock_hook(l);
}

void spin_unlock(struct spinlock *l)
{
	if (!l->locked || l->cpu != fake_cpu)
		kassert_fail("spin_unlock: lock not held by this CPU", __FILE__, __LINE__);
	l->locked = 0;
	l->cpu = -1;
	fake_irq_off[fake_cpu]--;
}

/* ---- the fake kernel ---- */

uint64_t fake_tick_ns(void)
{
	return 1000000000ull / (uint64_t)tunables.hz;
}

/* The class the next boot selects (sched=NAME); each test starts with
 * the staircase (main.c). */
const char *fake_class = "staircase";

void fake_boot(int ncpus, const struct sched_topology *topo)
{
	fake_boot_hz(ncpus, topo, FAKE_HZ);
}

/* As the kernel boots: hz first, since sched_init() derives tick counts from it. */
void fake_boot_hz(int ncpus, const struct sched_topology *topo, int hz)
{
	fake_now_ns = 0;
	fake_lock_hook = NULL;
	fake_cpu = 0;
	fake_ncpus = ncpus;
	fake_trace_len = 0;
	fake_migrated_running = 0;
	fake_task_refs = 0;
	memset(fake_need_resched, 0, sizeof(fake_need_resched));
	memset(fake_irq_off, 0, sizeof(fake_irq_off));
	memset(fake_procs, 0, sizeof(fake_procs));
	memset(fake_idle, 0, sizeof(fake_idle));
	memset(fake_user_mem, 0, sizeof(fake_user_mem));
	sched_tunables_defaults();
	sched_set_hz(hz);
	if (sched_select_class(fake_class) < 0)
		kassert_fail("fake_boot: no such class", __FILE__, __LINE__);
	sched_init(ncpus, topo);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		fake_cpu = cpu;
		sched_init_idle(cpu, &fake_idle[cpu].sched);
	}
	fake_cpu = 0;
}

struct fake_proc *fake_new_task(int cpu, int uid, int euid)
{
	for (int i = 0; i < FAKE_MAX_PROCS; i++) {
		struct fake_proc *p = &fake_procs[i];
		if (p->used)
			continue;
		p->used = true;
		p->pid = i + 1;
		p->uid = uid;
		p->euid = euid;
		p->pgid = 1;
		int saved = fake_cpu;
		fake_cpu = cpu;
		sched_task_init(&p->sched, false);
		fake_cpu = saved;
		return p;
	}
	kassert_fail("fake_new_task: table full", __FILE__, __LINE__);
}

struct fake_proc *fake_spawn(int cpu, int uid, int euid)
{
	struct fake_proc *p = fake_new_task(cpu, uid, euid);
	int saved = fake_cpu;
	fake_cpu = cpu;
	sched_wake_new(&p->sched);
	fake_cpu = saved;
	return p;
}

struct sched_task *fake_curr(int cpu)
{
	return cpu_rq(cpu)->curr;
}

/*
 * The same invariant seen from the machine, not from sched/'s own on_cpu
 * flags (which attach_task's KASSERT reads, so that a move of a task still
 * on its CPU fails there before any TRACE_MIGRATE): after every schedule()
 * and tick, each CPU's current task still belongs to that CPU and is
 * current nowhere else.
 */
static void check_running(void)
{
	for (int c = 0; c < fake_ncpus; c++) {
		struct sched_task *t = cpu_rq(c)->curr;
		if (!t || t->is_idle)
			continue;
		if (t->cpu != c)
			fake_migrated_running++;
		for (int d = c + 1; d < fake_ncpus; d++)
			if (cpu_rq(d)->curr == t)
				fake_migrated_running++;
	}
}

struct sched_task *fake_schedule(int cpu)
{
	int saved = fake_cpu;
	struct sched_task *prev, *next;

	fake_cpu = cpu;
	fake_need_resched[cpu] = false;
	fake_irq_off[cpu]++;
	prev = cpu_rq(cpu)->curr;
	next = sched_schedule();
	if (next != prev)
		sched_finish_switch(prev);
	fake_irq_off[cpu]--;
	fake_cpu = saved;
	check_running();
	return next;
}

void fake_tick(int cpu, bool user_mode)
{
	int saved = fake_cpu;

	fake_cpu = cpu;
	fake_irq_off[cpu]++;
	sched_tick(user_mode);
	fake_irq_off[cpu]--;
	fake_cpu = saved;
	check_running();
}

void fake_resched_pending(void)
{
	for (int cpu = 0; cpu < fake_ncpus; cpu++)
		if (fake_need_resched[cpu])
			fake_schedule(cpu);
}

void fake_sleep(int cpu, int state)
{
	int saved = fake_cpu;

	fake_cpu = cpu;
	sched_set_current_state(state);
	fake_cpu = saved;
	fake_schedule(cpu);
}
