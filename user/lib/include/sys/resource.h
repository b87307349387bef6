/* sys/resource.h - nice values and resource usage (Linux i386 layout). */
#ifndef _SYS_RESOURCE_H
#define _SYS_RESOURCE_H

#include <sys/types.h>
#include <sys/time.h>

#define PRIO_PROCESS 0
#define PRIO_PGRP    1
#define PRIO_USER    2

#define RUSAGE_SELF      0
#define RUSAGE_CHILDREN  (-1)

struct rusage {
	struct timeval ru_utime;
	struct timeval ru_stime;
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt, ru_majflt, ru_nswap;
	long ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals;
	long ru_nvcsw, ru_nivcsw;
};

/* The libc value: the nice value (-20..19), not the raw 20 - nice. */
int getpriority(int which, id_t who);
int setpriority(int which, id_t who, int nice);
int getrusage(int who, struct rusage *usage);

/* Resource limits (Linux i386 numbers; this kernel enforces RLIMIT_NPROC,
 * RLIMIT_NOFILE, RLIMIT_STACK and RLIMIT_AS). */
#define RLIMIT_CPU     0
#define RLIMIT_FSIZE   1
#define RLIMIT_DATA    2
#define RLIMIT_STACK   3
#define RLIMIT_CORE    4
#define RLIMIT_NPROC   6
#define RLIMIT_NOFILE  7
#define RLIMIT_AS      9
#define RLIM_INFINITY  (~0UL)
typedef unsigned long rlim_t;
struct rlimit {
	rlim_t rlim_cur;	/* soft limit */
	rlim_t rlim_max;	/* hard limit: only root may raise it */
};
int getrlimit(int resource, struct rlimit *rlim);
int setrlimit(int resource, const struct rlimit *rlim);

#endif
