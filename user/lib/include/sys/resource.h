/* sys/resource.h - nice values and resource usage (Linux i386 layout). */
#ifndef _SYS_RESOURCE_H
#define _SYS_RESOURCE_H

#include <sys/types.h>
#include <sys/time.h>
#include <uapi/resource.h>	/* PRIO_*, RUSAGE_*, RLIMIT_*, struct rusage, struct rlimit */

/* The libc value: the nice value (-20..19), not the raw 20 - nice. */
int getpriority(int which, id_t who);
int setpriority(int which, id_t who, int nice);
int getrusage(int who, struct rusage *usage);

/* Resource limits: RLIMIT_*, RLIM_INFINITY, struct rlimit in uapi/resource.h. */
typedef unsigned long rlim_t;
int getrlimit(int resource, struct rlimit *rlim);
int setrlimit(int resource, const struct rlimit *rlim);

#endif
