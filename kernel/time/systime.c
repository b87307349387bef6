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

/* A clock's reading in ns, or -EINVAL for a clock this kernel has not. */
static int clock_read(int clock, uint64_t *ns)
{
	struct proc *p = current();

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

int sys_getrusage(int who, void *uru)
{
	struct proc *p = current()->group_leader;
	struct rusage ru;
	uint32_t u, s;

	if (who == RUSAGE_SELF) {
		proc_group_times(p, &u, &s);
	} else if (who == RUSAGE_THREAD) {
		u = current()->sched.stats.utime;
		s = current()->sched.stats.stime;
	} else if (who == RUSAGE_CHILDREN) {
		u = p->group->cutime;
		s = p->group->cstime;
	} else {
		return -EINVAL;
	}
	rusage_fill(&ru, u, s);
	if (who == RUSAGE_SELF)
		ru.ru_minflt = (long)p->mm.minflt;	/* page faults served */
	return copy_to_user(uru, &ru, sizeof(ru));
}
