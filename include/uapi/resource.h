/*
 * uapi/resource.h - nice-value targets, getrusage's who, and the resource
 * limits: Linux i386's numbers (linux/resource.h, asm-generic/resource.h),
 * once for the kernel (kernel/task/proc.h, kernel/time/systime.c, sched/syscalls.c)
 * and the small libc (user/lib/include/sys/resource.h). This kernel
 * enforces RLIMIT_STACK, RLIMIT_NPROC, RLIMIT_NOFILE and RLIMIT_AS and
 * keeps the others as values (docs/kernel.md "Limits").
 */
#ifndef UAPI_RESOURCE_H
#define UAPI_RESOURCE_H

#include <uapi/time.h>	/* struct timeval32 */

/* getpriority/setpriority(which, who) */
#define PRIO_PROCESS	0
#define PRIO_PGRP	1
#define PRIO_USER	2

/* getrusage(who) */
#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN	(-1)
#define RUSAGE_THREAD	1

#define RLIMIT_CPU		0
#define RLIMIT_FSIZE		1
#define RLIMIT_DATA		2
#define RLIMIT_STACK		3
#define RLIMIT_CORE		4
#define RLIMIT_RSS		5
#define RLIMIT_NPROC		6
#define RLIMIT_NOFILE		7
#define RLIMIT_MEMLOCK		8
#define RLIMIT_AS		9
#define RLIMIT_LOCKS		10
#define RLIMIT_SIGPENDING	11
#define RLIMIT_MSGQUEUE		12
#define RLIMIT_NICE		13
#define RLIMIT_RTPRIO		14
#define RLIMIT_RTTIME		15
#define RLIM_NLIMITS		16

/* RLIMIT_NOFILE's soft and hard values for init (linux/fs.h) */
#define INR_OPEN_CUR		1024
#define INR_OPEN_MAX		4096
#define RLIM_INFINITY		(~0UL)

/* getrlimit/setrlimit/prlimit64's pair on i386 (4 + 4 bytes) */
struct rlimit {
	unsigned long rlim_cur;	/* soft limit: what is enforced */
	unsigned long rlim_max;	/* hard limit: only root may raise it */
};

/* getrusage and wait4: user and system CPU time, then 14 longs (this
 * kernel fills ru_minflt and leaves the others 0); 72 bytes */
struct rusage {
	struct timeval32 ru_utime;
	struct timeval32 ru_stime;
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt, ru_majflt, ru_nswap;
	long ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals;
	long ru_nvcsw, ru_nivcsw;
};

#endif
