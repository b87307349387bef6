/* sys/resource.h - nice values and resource usage (Linux i386 layout). */
#ifndef _SYS_RESOURCE_H
#define _SYS_RESOURCE_H

#include <sys/types.h>
#include <sys/time.h>
#include <uapi/resource.h>	/* PRIO_*, RUSAGE_*, RLIMIT_* */

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

/* Resource limits: RLIMIT_*, RLIM_INFINITY in uapi/resource.h. */
typedef unsigned long rlim_t;
struct rlimit {
	rlim_t rlim_cur;	/* soft limit */
	rlim_t rlim_max;	/* hard limit: only root may raise it */
};
int getrlimit(int resource, struct rlimit *rlim);
int setrlimit(int resource, const struct rlimit *rlim);

#endif
