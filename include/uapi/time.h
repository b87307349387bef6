/*
 * uapi/time.h - the clocks, clock_nanosleep's flag and the 32-bit time
 * structs of Linux i386's older calls (linux/time.h, linux/time_types.h),
 * once for the kernel (kernel/time/systime.h, kernel/time/sleep.c), sched/
 * (sched_rr_get_interval) and the small libc (user/lib/include/time.h,
 * sys/time.h).
 *
 * The structs carry a 32 in their names because sched/ also builds on the
 * 64-bit host (tests/unit), whose C library has its own struct timespec;
 * the small libc gives them POSIX's names (user/lib/include/sys/types.h).
 * `long` is 32 bits on i386, as Linux's __kernel_old_time_t.
 */
#ifndef UAPI_TIME_H
#define UAPI_TIME_H

#define CLOCK_REALTIME			0
#define CLOCK_MONOTONIC			1
#define CLOCK_PROCESS_CPUTIME_ID	2
#define CLOCK_THREAD_CPUTIME_ID		3
#define CLOCK_MONOTONIC_RAW		4
#define CLOCK_REALTIME_COARSE		5
#define CLOCK_MONOTONIC_COARSE		6
#define CLOCK_BOOTTIME			7

#define TIMER_ABSTIME			1

/* nanosleep, clock_gettime (265), sched_rr_get_interval: 8 bytes */
struct timespec32 {
	long tv_sec;
	long tv_nsec;
};

/* Linux's struct __kernel_timespec: the *_time64 calls' (403, 407, 423). */
struct timespec64 {
	long long tv_sec;
	long long tv_nsec;
};

/* gettimeofday, getrusage's two CPU times: 8 bytes */
struct timeval32 {
	long tv_sec;
	long tv_usec;
};

/* setitimer/getitimer's timers (linux/time.h) */
#define ITIMER_REAL			0	/* wall-clock time: SIGALRM */
#define ITIMER_VIRTUAL			1	/* the process's user time: SIGVTALRM */
#define ITIMER_PROF			2	/* its user and system time: SIGPROF */

/* setitimer, getitimer: 16 bytes (Linux's __kernel_old_itimerval) */
struct itimerval32 {
	struct timeval32 it_interval;	/* the period after the first expiry; 0: once */
	struct timeval32 it_value;	/* time to the next expiry; 0: disarmed */
};

#endif
