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

/* sched_setscheduler, sched_setparam, sched_getparam: 4 bytes */
struct sched_param {
	int sched_priority;
};

#endif
