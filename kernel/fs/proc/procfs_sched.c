/*
 * procfs_sched.c - the run queues as text: /proc/sched_debug (Linux 6.1's
 * kernel/sched/debug.c layout: a header, then per CPU its queue's numbers
 * and one line per task on it) and /proc/schedstat (kernel/sched/stats.c,
 * version 15: one line per CPU). Where Linux shows CFS's numbers, these
 * show the staircase's (docs/staircase.md, "/proc/sched_debug and
 * /proc/schedstat"): a task's prio column is its stair, and each CPU adds
 * its ISO share and throttle (§7.5), which top reads.
 *
 * Counters the staircase does not keep (yields, schedule() calls, wake-up
 * placements per CPU; CFS's vruntime and sleep sums) read 0, as Linux's do
 * without CONFIG_SCHEDSTATS.
 */
#include "procfs.h"
#include "sched/syscalls.h"	/* sched_cpu_view, sched_task_view */
#include "sched/tunables.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "kernel/fs/initrd.h"
#include "kernel/task/proc.h"
#include "lib/string.h"
#include "kernel/time/time.h"
#include "kernel/sys/uname.h"

#define SCHEDSTAT_VERSION	15

/* Linux's SPLIT_NS: nanoseconds as "ms.nnnnnn". */
static void pb_ms(struct pbuf *b, const char *fmt_int, uint64_t ns)
{
	pb_printf(b, fmt_int, (unsigned long long)(ns / 1000000));
	pb_printf(b, ".%06u", (unsigned)(ns % 1000000));
}

static uint64_t ticks_ns(uint64_t ticks)
{
	return ticks * (1000000000ull / (uint32_t)sched_hz());
}

/* "  .name                          : value" (print_cpu's P()). */
static void rq_line(struct pbuf *b, const char *name, long long v)
{
	pb_printf(b, "  .%-30s: %lld\n", name, v);
}

static void header(struct pbuf *b)
{
	pb_printf(b, "Sched Debug Version: v0.11, %s %s\n", UTS_RELEASE, UTS_VERSION);
	pb_printf(b, "%-40s: ", "ktime");
	pb_ms(b, "%llu", clock_ns());
	pb_printf(b, "\n%-40s: %d\n\nsysctl_sched\n", "hz", sched_hz());
	pb_printf(b, "  .%-40s: %d\n", "sysctl_sched_rr_interval",
		  sched_tunable_get(SCHED_TUNABLE_RR_INTERVAL));
	pb_printf(b, "  .%-40s: %d\n", "sysctl_sched_iso_cpu", sched_tunable_get(SCHED_TUNABLE_ISO_CPU));
}

/* One task's line (print_task): '>R' for the one running, its name, pid,
 * "tree-key" (0: no vruntime here), switches, prio (the stair), the time
 * it waited runnable, ran, and slept (0: not kept). */
static void task_line(struct pbuf *b, int pid, int cpu, int curr_pid)
{
	struct sched_task_view v;
	struct proc *p = proc_get_or_zombie(pid);
	char state, name[PROC_NAME_MAX];

	if (!p)
		return;				/* exited since the snapshot */
	sched_task_view(&p->sched, &v);
	state = procfs_state_char(p);
	memcpy(name, p->name, sizeof(name));
	name[sizeof(name) - 1] = 0;
	proc_put(p);
	if (v.info.cpu != cpu)
		return;
	pb_printf(b, pid == curr_pid ? ">R" : " %c", state);
	pb_printf(b, "%15s %5d %9d.%06d %9u %5d ", name, pid, 0, 0, v.info.nr_runs, v.info.prio);
	pb_ms(b, "%9llu", v.info.wait_ns);
	pb_ms(b, " %9llu", ticks_ns((uint64_t)v.info.utime + v.info.stime));
	pb_printf(b, " %9d.%06d\n", 0, 0);
}

static void cpu_block(struct pbuf *b, const struct sched_cpu_info *c)
{
	pb_printf(b, "\ncpu#%d\n", c->cpu);
	rq_line(b, "nr_running", c->nr_running);
	rq_line(b, "curr->pid", c->curr_pid);
	rq_line(b, "iso_share_permille", c->iso_share_permille);
	rq_line(b, "iso_throttled", c->iso_throttled);
	rq_line(b, "lost_ticks", c->lost_ticks);
	pb_printf(b, "\nrunnable tasks:\n"
		  " S            task   PID         tree-key  switches  prio"
		  "     wait-time             sum-exec        sum-sleep\n"
		  "-------------------------------------------------------"
		  "------------------------------------------------------\n");
	for (int pid = proc_next_task(1); pid; pid = proc_next_task(pid + 1))
		task_line(b, pid, c->cpu, c->curr_pid);
}

static void text_sched_debug(struct pbuf *b)
{
	struct sched_cpu_info c;

	header(b);
	for (int cpu = 0; sched_cpu_view(cpu, &c) == 0; cpu++)
		cpu_block(b, &c);
}

/* "cpuN yld_count 0 sched_count sched_goidle ttwu_count ttwu_local
 * rq_cpu_time run_delay pcount": the time the CPU ran tasks (user, nice
 * and system ticks, in ns) is the one counter kept. */
static void text_schedstat(struct pbuf *b)
{
	struct sched_cpu_info c;

	pb_printf(b, "version %d\ntimestamp %llu\n", SCHEDSTAT_VERSION,
		  (unsigned long long)(clock_ns() / (1000000000ull / (uint32_t)sched_hz())));
	for (int cpu = 0; sched_cpu_view(cpu, &c) == 0; cpu++)
		pb_printf(b, "cpu%d 0 0 0 0 0 0 %llu 0 0\n", cpu,
			  (unsigned long long)ticks_ns(c.user_ticks + c.nice_ticks + c.system_ticks));
}

void procfs_sched_text(const struct initrd_file *n, struct pbuf *b)
{
	if (n->procfs == PROCFS_SCHED_DEBUG)
		text_sched_debug(b);
	else
		text_schedstat(b);
}
