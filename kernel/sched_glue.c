/*
 * sched_glue.c - the kernel's side of sched/machine.h.
 *
 * sched/ is hardware-free; everything it needs from the machine (which CPU
 * this is, the clock, poking another CPU, the process table, assertions,
 * the trace hook) is implemented here for the real kernel, and in
 * tests/unit/fake_machine.c for the host tests and the simulator.
 * clock_ns() lives in kernel/time.c, resched_cpu() in kernel/smp.c,
 * copy_{from,to}_user in
 * kernel/uaccess.c and kassert_fail() (KASSERT's, the kernel's too) in
 * kernel/panic.c, under the same names.
 */
#include "../sched/machine.h"
#include "../sched/sched.h"
#include "../sched/syscalls.h"
#include "../sched/tunables.h"
#include "bootparam.h"
#include "cpu.h"
#include "errno.h"
#include "panic.h"
#include "printk.h"
#include "proc.h"
#include "sched_glue.h"
#include "sleep.h"
#include "smp.h"
#include "trace.h"
#include "x86.h"

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

struct sched_task *sched_find_task(int pid)
{
	struct proc *p = proc_get(pid);
	return p ? &p->se : NULL;
}

void sched_put_task(struct sched_task *t)
{
	proc_put(proc_of(t));
}

int sched_task_pid(struct sched_task *t)  { return proc_of(t)->pid; }
int sched_task_uid(struct sched_task *t)  { return proc_of(t)->uid; }
int sched_task_euid(struct sched_task *t) { return proc_of(t)->euid; }

/* The trace hook: kernel/trace.c keeps a ring buffer per CPU. Off, it
 * costs one flag test per event. */
/* Each tunable (docs/staircase.md §9) is also a boot parameter by its name. */
static void read_sched_params(void)
{
	for (int id = 0; id < TUNABLE_NR; id++) {
		const char *name = sched_tunable_name(id);
		const char *value = name ? bootparam_str(name) : NULL;
		if (!value || id == TUNABLE_HZ)
			continue;
		if (sched_setup_param(name, value) < 0)
			pr_warn("bootparam: %s: bad value \"%s\", keeping %d\n",
				name, value, sched_tunable_get(id));
	}
}

void sched_glue_init(int hz, const struct sched_topology *topo)
{
	sched_set_hz(hz);
	read_sched_params();
	sched_init(ncpus, topo);
	trace_init();
}

void kernel_tick(bool user_mode)
{
	static uint64_t seen[MAX_CPUS];	/* mycpu()->ticks at the last call */
	struct cpu *c = mycpu();
	uint64_t lost;

	/* current is set at the end of proc_init_idle(), when this CPU joins
	 * the scheduler; the timer ticks from before that (boot). */
	if (!c->current)
		return;
	/* The timer credits ticks it lost (drivers/timer.c): account them. */
	lost = seen[c->id] && c->ticks > seen[c->id] + 1 ? c->ticks - seen[c->id] - 1 : 0;
	seen[c->id] = c->ticks;
	sched_tick(user_mode);
	if (lost)
		sched_account_lost_ticks(lost > 1000 ? 1000 : (unsigned)lost, user_mode);
}

/* 502: sched_tunable(id, op, value): op 0 reads, op 1 sets (root only). */
int sys_sched_tunable(int id, int op, int value)
{
	if (op == 0)
		return sys_sched_get_tunable(id);
	if (op == 1)
		return sys_sched_set_tunable(id, value);
	return -EINVAL;
}
