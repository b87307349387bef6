/* sched.h - the POSIX scheduling interface, plus the kernel's BATCH and ISO. */
#ifndef _SCHED_H
#define _SCHED_H

#include <uapi/sched.h>	/* SCHED_*, struct sched_param */

#include <sys/types.h>
#include <time.h>

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *p);
int sched_getscheduler(pid_t pid);
int sched_setparam(pid_t pid, const struct sched_param *p);
int sched_getparam(pid_t pid, struct sched_param *p);
int sched_get_priority_max(int policy);
int sched_get_priority_min(int policy);
int sched_rr_get_interval(pid_t pid, struct timespec *ts);
int sched_yield(void);

/* The one table of policy names the tools print (user/lib/sched.c), for
 * policies 0..6 (Linux's numbers; 4 is SCHED_ISO here, 5 Linux's IDLE):
 * as ps and top show them ("NORMAL"), as util-linux's chrt does
 * ("SCHED_OTHER"), and as procps's `ps -o cls` ("TS"). "?" if unknown. */
const char *sched_policy_name(int policy);
const char *sched_policy_linux_name(int policy);
const char *sched_policy_class(int policy);

/* CPU masks: the same size as glibc's (1024 CPUs), a plain bit array. */
#define CPU_SETSIZE 1024
typedef struct {
	unsigned long bits[CPU_SETSIZE / 32];
} cpu_set_t;

#define CPU_ZERO(s)      __builtin_memset((s), 0, sizeof(cpu_set_t))
#define CPU_SET(c, s)    ((s)->bits[(c) / 32] |= 1UL << ((c) % 32))
#define CPU_CLR(c, s)    ((s)->bits[(c) / 32] &= ~(1UL << ((c) % 32)))
#define CPU_ISSET(c, s)  (((s)->bits[(c) / 32] >> ((c) % 32)) & 1)
#define CPU_COUNT(s)     cpu_count(s)

int cpu_count(const cpu_set_t *s);
/* Both return 0 on success (the raw getaffinity returns a byte count). */
int sched_setaffinity(pid_t pid, size_t len, const cpu_set_t *mask);
int sched_getaffinity(pid_t pid, size_t len, cpu_set_t *mask);
int sched_getcpu(void);

#endif
