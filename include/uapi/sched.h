/*
 * uapi/sched.h - scheduling policies: Linux's i386 numbers plus the -ck
 * patches' ISO (docs/staircase.md §1), once for sched/ (sched/sched.h) and
 * the small libc (user/lib/include/sched.h).
 */
#ifndef UAPI_SCHED_H
#define UAPI_SCHED_H

#define SCHED_NORMAL	0
#define SCHED_OTHER	0	/* POSIX's name for it */
#define SCHED_FIFO	1
#define SCHED_RR	2
#define SCHED_BATCH	3	/* staircase: runs only when nothing else wants the CPU */
#define SCHED_ISO	4	/* staircase: soft real time for unprivileged users */
/* Or'ed into sched_setscheduler's policy (sched_getscheduler reports it):
 * the task's children start as NORMAL tasks at nice >= 0. */
#define SCHED_RESET_ON_FORK	0x40000000

/* sched_setscheduler, sched_setparam, sched_getparam: 4 bytes */
struct sched_param {
	int sched_priority;
};

/* sched_setattr, sched_getattr (Linux's include/uapi/linux/sched/types.h):
 * 48 bytes in the first version, 56 with the utilization clamps. */
struct sched_attr {
	unsigned int size;
	unsigned int sched_policy;
	unsigned long long sched_flags;
	int sched_nice;
	unsigned int sched_priority;
	unsigned long long sched_runtime;	/* SCHED_DEADLINE's: none here */
	unsigned long long sched_deadline;
	unsigned long long sched_period;
	unsigned int sched_util_min;		/* the clamps: none here */
	unsigned int sched_util_max;
};
#define SCHED_ATTR_SIZE_VER0	48
#define SCHED_ATTR_SIZE_VER1	56

/* sched_attr.sched_flags (Linux's include/uapi/linux/sched.h) */
#define SCHED_FLAG_RESET_ON_FORK	0x01
#define SCHED_FLAG_RECLAIM		0x02
#define SCHED_FLAG_DL_OVERRUN		0x04
#define SCHED_FLAG_KEEP_POLICY		0x08
#define SCHED_FLAG_KEEP_PARAMS		0x10
#define SCHED_FLAG_UTIL_CLAMP_MIN	0x20
#define SCHED_FLAG_UTIL_CLAMP_MAX	0x40
#define SCHED_FLAG_UTIL_CLAMP	(SCHED_FLAG_UTIL_CLAMP_MIN | SCHED_FLAG_UTIL_CLAMP_MAX)
#define SCHED_FLAG_ALL		0x7f

#endif
