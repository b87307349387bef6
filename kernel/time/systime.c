/*
 * systime.c - the time system calls.
 *
 * CLOCK_MONOTONIC is clock_ns(), the calibrated TSC. CLOCK_REALTIME is
 * the same plus the battery clock's reading at boot (drivers/rtc.c), so
 * dates are today's and /proc/stat's btime is the boot's wall-clock time,
 * as ps's STIME column needs; nothing sets it later (no settimeofday).
 * The COARSE clocks, BOOTTIME (no suspend here) and MONOTONIC_RAW read
 * the same as their precise ones: glibc's time() asks REALTIME_COARSE.
 * CPU times come from the scheduler's per-task tick counts.
 */
#include "systime.h"
#include "kernel/debug/printk.h"
#include "lib/errno.h"
#include "kernel/task/proc.h"
#include "lib/string.h"
#include "time.h"
#include "kernel/mm/uaccess.h"
#include "drivers/rtc.h"

static uint64_t wall_offset_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */

void systime_init(void)
{
	int64_t now = rtc_read_unix();
	uint64_t up = clock_ns();
	uint64_t wall = now > 0 ? (uint64_t)now * 1000000000ull : 0;
	wall_offset_ns = wall > up ? wall - up : 0;
	printk("rtc: %lld s since 1970 (boot at %llu)\n", (long long)now,
	       (unsigned long long)(wall_offset_ns / 1000000000ull));
}

uint64_t realtime_offset_ns(void)
{
	return wall_offset_ns;
}

static uint32_t hz(void)
{
	return (uint32_t)sched_hz();
}

static struct timeval32 ticks_to_timeval(uint32_t ticks)
{
	return (struct timeval32){ (long)(ticks / hz()),
				   (long)((uint64_t)(ticks % hz()) * 1000000 / hz()) };
}

void rusage_fill(struct rusage *ru, uint32_t utime, uint32_t stime)
{
	memset(ru, 0, sizeof(*ru));
	ru->ru_utime = ticks_to_timeval(utime);
	ru->ru_stime = ticks_to_timeval(stime);
}

/* Linux's CPU-time clock ids (posix-cpu-timers): negative, ~pid << 3,
 * bit 2 for one thread (else the process), and the low two bits which
 * time: PROF (user + system), VIRT (user), SCHED (run time). */
#define CPUCLOCK_PID(c)		(~((c) >> 3))
#define CPUCLOCK_PERTHREAD(c)	((c) & 4)
#define CPUCLOCK_WHICH(c)	((c) & 3)
#define CPUCLOCK_VIRT		1
#define CPUCLOCK_MAX		3

/* The task a CPU clock names, with a reference, or NULL (EINVAL): a
 * thread of the caller's own process, or any process (Linux's
 * pid_for_clock). pid 0 is the caller, or the caller's process. */
static struct proc *cpu_clock_task(int clock)
{
	int pid = CPUCLOCK_PID(clock);
	bool thread = CPUCLOCK_PERTHREAD(clock);
	struct proc *me = current();

	if (CPUCLOCK_WHICH(clock) >= CPUCLOCK_MAX)
		return NULL;
	struct proc *p = proc_get(pid ? pid : me->pid);
	if (!p)
		return NULL;
	if (thread ? p->group != me->group : (p->group_leader != p && p != me)) {
		proc_put(p);
		return NULL;
	}
	return p;
}

/* A CPU clock's reading, from the scheduler's ticks; -EINVAL if it names
 * no task the caller may read. */
static int cpu_clock_read(int clock, uint64_t *ns)
{
	struct proc *p = cpu_clock_task(clock);
	uint32_t u, s;

	if (!p)
		return -EINVAL;
	if (CPUCLOCK_PERTHREAD(clock)) {
		u = p->sched.stats.utime;
		s = p->sched.stats.stime;
	} else {
		proc_group_times(p->group_leader, &u, &s);
	}
	proc_put(p);
	if (CPUCLOCK_WHICH(clock) == CPUCLOCK_VIRT)
		s = 0;
	*ns = (uint64_t)(u + s) * 1000000000ull / hz();
	return 0;
}

/* A clock's reading in ns, or -EINVAL for a clock this kernel has not. */
static int clock_read(int clock, uint64_t *ns)
{
	struct proc *p = current();

	if (clock < 0)
		return cpu_clock_read(clock, ns);
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
		*ns = clock_ns() + wall_offset_ns;
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		*ns = clock_ns();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID: {
		uint32_t u, s;
		proc_group_times(p->group_leader, &u, &s);
		*ns = (uint64_t)(u + s) * 1000000000ull / hz();
		return 0;
	}
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = (uint64_t)(p->sched.stats.utime + p->sched.stats.stime) * 1000000000ull / hz();
		return 0;
	default:
		return -EINVAL;
	}
}

int sys_clock_gettime(int clock, void *uts)
{
	uint64_t ns;
	if (clock_read(clock, &ns) < 0)
		return -EINVAL;
	struct timespec32 ts = { (int32_t)(ns / 1000000000ull), (int32_t)(ns % 1000000000ull) };
	return copy_to_user(uts, &ts, sizeof(ts));
}

/* 403: the same with Linux's struct __kernel_timespec (64-bit seconds and
 * nanoseconds), which glibc 2.34 and later asks for first. */
int sys_clock_gettime64(int clock, void *uts)
{
	uint64_t ns;
	if (clock_read(clock, &ns) < 0)
		return -EINVAL;
	int64_t ts[2] = { (int64_t)(ns / 1000000000ull), (int64_t)(ns % 1000000000ull) };
	return copy_to_user(uts, ts, sizeof(ts));
}

/* clock_getres (266) and clock_getres_time64 (406): 1 ns for every clock
 * clock_gettime knows, as Linux reports with high-resolution timers (the
 * clocks read the TSC; sleeps end on the LAPIC's one-shot timer, not at a
 * tick: kernel/time/sleep.c). A NULL pointer only checks the clock. */
static int clock_res(int clock, void *uts, uint32_t size)
{
	uint64_t ns;
	if (clock_read(clock, &ns) < 0)
		return -EINVAL;
	/* the COARSE clocks move by a tick, as Linux's LOW_RES_NSEC */
	int32_t res = clock == CLOCK_REALTIME_COARSE || clock == CLOCK_MONOTONIC_COARSE ?
		      (int32_t)(1000000000u / hz()) : 1;
	int64_t ts[2] = { 0, res };
	int32_t ts32[2] = { 0, res };
	if (!uts)
		return 0;
	return copy_to_user(uts, size == sizeof(ts) ? (void *)ts : (void *)ts32, size) < 0 ? -EFAULT : 0;
}

int sys_clock_getres(int clock, void *uts)
{
	return clock_res(clock, uts, 8);
}

int sys_clock_getres_time64(int clock, void *uts)
{
	return clock_res(clock, uts, 16);
}

static uint32_t to_user_hz(uint32_t ticks)
{
	return (uint32_t)((uint64_t)ticks * USER_HZ / hz());
}

/* A process's times: all its threads' (proc_group_times), its reaped
 * children's. */
int sys_times(void *utms)
{
	struct proc *p = current()->group_leader;
	uint32_t u, s;
	proc_group_times(p, &u, &s);
	struct tms tms = {
		(long)to_user_hz(u), (long)to_user_hz(s),
		(long)to_user_hz(p->group->cutime), (long)to_user_hz(p->group->cstime),
	};
	if (utms && copy_to_user(utms, &tms, sizeof(tms)) < 0)
		return -EFAULT;
	return (int)(clock_ns() / (1000000000ull / USER_HZ));
}

/* Linux's getrusage: the process's threads (SELF), the calling thread,
 * or the reaped children and theirs (CHILDREN): CPU times, switches out
 * asleep (nvcsw) and preempted or yielding (nivcsw), page faults served
 * (minflt: counted per process here, so a thread reports its
 * process's), and the peak resident size (maxrss, KiB: the process's, or
 * the largest of the children's). */
int sys_getrusage(int who, void *uru)
{
	struct proc *p = current()->group_leader;
	struct task_usage u;
	uint32_t minflt = p->group->minflt, maxrss;
	struct rusage ru;

	if (who == RUSAGE_SELF) {
		proc_group_usage(p, &u);
	} else if (who == RUSAGE_THREAD) {
		task_usage_of(current(), &u);
	} else if (who == RUSAGE_CHILDREN) {
		u = (struct task_usage){ p->group->cutime, p->group->cstime,
					 p->group->cnvcsw, p->group->cnivcsw };
		minflt = p->group->cminflt;
	} else {
		return -EINVAL;
	}
	if (who == RUSAGE_CHILDREN)
		maxrss = p->group->cmaxrss;
	else
		maxrss = group_maxrss(p->group, current()->mm);
	rusage_fill(&ru, u.utime, u.stime);
	ru.ru_maxrss = (long)(maxrss * (PAGE_SIZE / 1024));	/* KiB */
	ru.ru_nvcsw = (long)u.nvcsw;
	ru.ru_nivcsw = (long)u.nivcsw;
	ru.ru_minflt = (long)minflt;
	return copy_to_user(uru, &ru, sizeof(ru));
}
