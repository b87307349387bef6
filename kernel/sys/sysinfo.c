/*
 * sysinfo.c - sysinfo(2): uptime, load averages, memory, process count;
 * what uptime, top and w print on their first line.
 *
 * The load averages are Linux's (kernel/sched/loadavg.c): every 5 s the
 * number of tasks that are runnable or in an uninterruptible sleep is
 * folded into three exponentially decaying averages of 1, 5 and 15
 * minutes, in fixed point with 11 fraction bits. Linux sums per-CPU
 * counters; we walk the task list instead, without a lock (a task found
 * stays readable for the walk: kernel/task/proc.h), once every 5 s.
 */
#include "sysinfo.h"
#include "lib/errno.h"
#include "kernel/mm/pmm.h"
#include "kernel/task/proc.h"
#include "lib/string.h"
#include "kernel/time/time.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include <uapi/sysinfo.h>

#define FSHIFT		LOADAVG_FSHIFT	/* bits of fraction */
#define FIXED_1		(1 << FSHIFT)
#define EXP_1		1884		/* FIXED_1 / exp(5 s / 1 min) */
#define EXP_5		2014		/* FIXED_1 / exp(5 s / 5 min) */
#define EXP_15		2037		/* FIXED_1 / exp(5 s / 15 min) */
#define LOAD_SECONDS	5

static uint32_t avenrun[3];		/* FIXED_1 units */
static uint64_t next_sample;		/* the jiffy of the next sample */

static uint32_t calc_load(uint32_t load, uint32_t exp, uint32_t active)
{
	uint32_t newload = load * exp + active * (FIXED_1 - exp);
	if (active >= load)
		newload += FIXED_1 - 1;	/* round up while rising, as Linux */
	return newload / FIXED_1;
}

static uint32_t nr_active(void)
{
	uint32_t n = 0;
	const struct proc *p;
	for_each_task(p) {
		int state = p->sched.state;
		if (p->pstate == P_LIVE && !p->stopped &&
		    (state == TASK_RUNNING || state == TASK_WAKING ||
		     (state == TASK_UNINTERRUPTIBLE && !p->killable)))
			n++;
	}
	return n;
}

void loadavg_tick(uint64_t jiffies)
{
	if (jiffies < next_sample)
		return;
	/* LOAD_FREQ is 5 s + 1 tick in Linux, so samples do not beat with
	 * anything that runs every 5 s. */
	next_sample = jiffies + (uint64_t)LOAD_SECONDS * (uint32_t)sched_hz() + 1;
	uint32_t active = nr_active() * FIXED_1;
	avenrun[0] = calc_load(avenrun[0], EXP_1, active);
	avenrun[1] = calc_load(avenrun[1], EXP_5, active);
	avenrun[2] = calc_load(avenrun[2], EXP_15, active);
}

void loadavg_get(uint32_t loads[3])
{
	for (int i = 0; i < 3; i++)
		loads[i] = avenrun[i];
}

/* Linux i386's struct sysinfo: 64 bytes. */
_Static_assert(sizeof(struct sysinfo) == 64, "Linux i386 struct sysinfo is 64 bytes");

static uint16_t nr_procs(void)
{
	uint16_t n = 0;
	const struct proc *p;
	for_each_task(p)
		n += p->pstate == P_LIVE;
	return n;
}

int sys_sysinfo(void *uinfo)
{
	struct sysinfo si;
	uint64_t ns = clock_ns();

	memset(&si, 0, sizeof(si));
	/* Linux rounds a started second up. */
	si.uptime = (long)(ns / 1000000000ull + (ns % 1000000000ull != 0));
	for (int i = 0; i < 3; i++)
		si.loads[i] = avenrun[i] << (SI_LOAD_SHIFT - FSHIFT);
	si.totalram = pmm_total_count();
	si.freeram = pmm_free_count();
	si.procs = nr_procs();
	si.mem_unit = PAGE_SIZE;
	return copy_to_user(uinfo, &si, sizeof(si)) < 0 ? -EFAULT : 0;
}
