/* sched.c - the <sched.h> wrappers. */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "syscall.h"

#define RET(x) return __syscall_ret(x)

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *p)
{
	RET(syscall3(__NR_sched_setscheduler, pid, policy, (long)p));
}

int sched_getscheduler(pid_t pid)
{
	RET(syscall1(__NR_sched_getscheduler, pid));
}

int sched_setparam(pid_t pid, const struct sched_param *p)
{
	RET(syscall2(__NR_sched_setparam, pid, (long)p));
}

int sched_getparam(pid_t pid, struct sched_param *p)
{
	RET(syscall2(__NR_sched_getparam, pid, (long)p));
}

int sched_get_priority_max(int policy)
{
	RET(syscall1(__NR_sched_get_priority_max, policy));
}

int sched_get_priority_min(int policy)
{
	RET(syscall1(__NR_sched_get_priority_min, policy));
}

int sched_rr_get_interval(pid_t pid, struct timespec *ts)
{
	RET(syscall2(__NR_sched_rr_get_interval, pid, (long)ts));
}

int sched_yield(void) { RET(syscall0(__NR_sched_yield)); }

int sched_setaffinity(pid_t pid, size_t len, const cpu_set_t *mask)
{
	RET(syscall3(__NR_sched_setaffinity, pid, len, (long)mask));
}

/* The raw call returns how many bytes it wrote; clear the rest, return 0. */
int sched_getaffinity(pid_t pid, size_t len, cpu_set_t *mask)
{
	long r = __syscall_ret(syscall3(__NR_sched_getaffinity, pid, len,
					(long)mask));

	if (r < 0)
		return -1;
	if ((size_t)r < len)
		memset((char *)mask + r, 0, len - r);
	return 0;
}

int sched_getcpu(void)
{
	unsigned int cpu;

	if (__syscall_ret(syscall3(__NR_getcpu, (long)&cpu, 0, 0)) < 0)
		return -1;
	return cpu;
}

int cpu_count(const cpu_set_t *s)
{
	int n = 0;

	for (int i = 0; i < CPU_SETSIZE; i++)
		n += CPU_ISSET(i, s);
	return n;
}

static const struct { const char *name, *linux_name, *cls; } policies[] = {
	{ "NORMAL", "SCHED_OTHER", "TS" },
	{ "FIFO", "SCHED_FIFO", "FF" },
	{ "RR", "SCHED_RR", "RR" },
	{ "BATCH", "SCHED_BATCH", "B" },
	{ "ISO", "SCHED_ISO", "ISO" },
	{ "IDLE", "SCHED_IDLE", "IDL" },
	{ "DEADLINE", "SCHED_DEADLINE", "DLN" },
};
#define NPOLICIES (int)(sizeof(policies) / sizeof(policies[0]))

const char *sched_policy_name(int p) { return p >= 0 && p < NPOLICIES ? policies[p].name : "?"; }
const char *sched_policy_linux_name(int p) { return p >= 0 && p < NPOLICIES ? policies[p].linux_name : "?"; }
const char *sched_policy_class(int p) { return p >= 0 && p < NPOLICIES ? policies[p].cls : "?"; }
