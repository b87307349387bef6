/*
 * sched_glue.c - the kernel's side of sched/machine.h.
 *
 * sched/ is hardware-free; everything it needs from the machine (which CPU
 * this is, the clock, poking another CPU, the process table, assertions,
 * the trace hook) is implemented here for the real kernel, and in
 * tests/unit/fake_machine.c for the host tests and the simulator.
 * Where a subsystem owns the thing, it implements the function itself,
 * under the same name: clock_ns() in kernel/time/time.c, resched_cpu() in
 * kernel/arch/smp.c, sched_find_task() and its kin in kernel/task/proc.c,
 * copy_{from,to}_user in kernel/mm/uaccess.c, sched_trace_record() in
 * kernel/debug/trace.c, kassert_fail() (KASSERT's, the kernel's too) in
 * kernel/debug/panic.c.
 */
#include "sched/machine.h"
#include "sched/sched.h"
#include "sched/syscalls.h"
#include "sched/tunables.h"
#include "kernel/init/bootparam.h"
#include "kernel/arch/cpu.h"
#include "lib/errno.h"
#include "kernel/debug/panic.h"
#include "kernel/debug/printk.h"
#include "proc.h"
#include "pid.h"
#include <uapi/resource.h>	/* PRIO_PGRP */
#include "sched_glue.h"
#include "kernel/time/sleep.h"
#include "kernel/arch/smp.h"
#include "kernel/debug/trace.h"
#include "kernel/arch/x86.h"

int this_cpu(void)
{
	return cpu_id();
}

bool irqs_disabled(void)
{
	return !(read_eflags() & EFLAGS_IF);
}

void cpu_relax(void)
{
	pause();
}

/* Each tunable (docs/staircase.md §9) is also a boot parameter by its name. */
static void read_sched_params(void)
{
	for (int id = 0; id < SCHED_TUNABLE_NR; id++) {
		const char *name = sched_tunable_name(id);
		const char *value = name ? bootparam_str(name) : NULL;
		if (!value || id == SCHED_TUNABLE_HZ)
			continue;
		if (sched_setup_param(name, value) < 0)
			pr_warn("bootparam: %s: bad value \"%s\", keeping %d\n",
				name, value, sched_tunable_get(id));
	}
}

/* sched=NAME (lineage mode, docs/lineage.md): an unknown name is reported
 * with the valid ones, and the staircase boots. */
static void read_sched_class(void)
{
	const char *name = bootparam_str("sched");

	if (name && sched_select_class(name) < 0)
		pr_warn("sched: no scheduler \"%s\" (valid: %s); booting %s\n",
			name, sched_class_names(), sched_class_name());
}

void sched_glue_init(int hz, const struct sched_topology *topo)
{
	sched_set_hz(hz);
	read_sched_class();
	read_sched_params();
	sched_init(ncpus, topo);
	printk("sched: %s: %s\n", sched_class_name(), sched_class_title());
	trace_init();
}

/* A walk of the tasks under signal_lock (which guards pgid), then a
 * reference taken outside it; a task gone meanwhile is skipped. */
struct sched_task *sched_next_task_of(int which, int who, int *pid)
{
	struct proc *me = current(), *t;

	if (!who)
		who = which == PRIO_PGRP ? me->pgid : me->uid;
	for (;; (*pid)++) {
		spin_lock(&signal_lock);
		while ((t = pid_task_from(pid)) != NULL &&
		       (t->pstate != P_LIVE || (which == PRIO_PGRP ? t->pgid : t->uid) != who))
			(*pid)++;
		spin_unlock(&signal_lock);
		if (!t)
			return NULL;
		if ((t = proc_get(*pid)) != NULL)
			return &t->sched;
	}
}

/* 502: sched_tunable(id, op, value): GET reads, SET sets (root only),
 * DESCRIBE fills the record at address value (uapi/ourcalls.h). */
int sys_sched_tunable(int id, int op, int value)
{
	if (op == SCHED_TUNABLE_GET)
		return sys_sched_get_tunable(id);
	if (op == SCHED_TUNABLE_SET)
		return sys_sched_set_tunable(id, value);
	if (op == SCHED_TUNABLE_DESCRIBE)
		return sys_sched_describe_tunable(id, (void *)(uintptr_t)(uint32_t)value);
	return -EINVAL;
}

/* The process table as sched/machine.h asks for it: a task by pid, with a
 * reference, and the credentials around a struct sched_task. A zombie is
 * found until it is reaped, as Linux's find_task_by_vpid finds it: its
 * policy can be read, and set, to no effect (it is on no queue). */
struct sched_task *sched_find_task(int pid)
{
	struct proc *p = proc_get_or_zombie(pid);
	return p ? &p->sched : NULL;
}

void sched_put_task(struct sched_task *t)
{
	proc_put(proc_of(t));
}

int sched_task_pid(struct sched_task *t)  { return proc_of(t)->pid; }
int sched_task_uid(struct sched_task *t)  { return proc_of(t)->uid; }
int sched_task_euid(struct sched_task *t) { return proc_of(t)->euid; }
bool sched_task_cap_nice(struct sched_task *t) { return proc_capable(proc_of(t), CAP_SYS_NICE); }
