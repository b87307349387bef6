/*
 * pid.c - process ids (kernel/pid.h): the pidmap that hands them out and
 * the pid_hash that finds a task by its pid.
 *
 * Linux 2.6 (kernel/pid.c) had exactly these two: a bitmap with one bit
 * per pid, searched from the last pid handed out, and a hash table of
 * chains. Linux 4.15 replaced both by one radix tree (the idr); a bitmap
 * and a hash are easier to draw on a board. All under ptable_lock.
 */
#include "pid.h"
#include <stdint.h>
#include "bootparam.h"
#include "errno.h"
#include "panic.h"
#include "proc.h"

#define PIDHASH_SIZE	1024	/* a power of two: chains of a few tasks at 4,000 */

int pid_max = PID_MAX_DEFAULT;
static uint32_t pidmap[PID_MAX_LIMIT / 32];	/* bit pid: a task has that pid */
static struct proc *pid_hash[PIDHASH_SIZE];
static int last_pid;

void pid_init(void)
{
	pid_max = bootparam_int("pid_max", PID_MAX_DEFAULT, PID_MAX_MIN, PID_MAX_LIMIT);
}

/* sysctl kernel.pid_max: Linux's bounds. Pids in use above a lowered
 * pid_max stay; the next lap wraps at the new value. */
int pid_set_max(int n)
{
	if (n < PID_MAX_MIN || n > PID_MAX_LIMIT)
		return -EINVAL;
	__atomic_store_n(&pid_max, n, __ATOMIC_RELAXED);
	return 0;
}

static bool pid_used(int pid)
{
	return pidmap[pid / 32] & (1u << (pid % 32));
}

static struct proc **chain(int pid)
{
	return &pid_hash[pid & (PIDHASH_SIZE - 1)];
}

/* A process group or session still named by pid: Linux keeps its struct
 * pid, so the pid is not handed out again until the last member leaves. */
static bool pid_names_group(int pid)
{
	struct proc *t;
	for_each_task(t)
		if (t->pgid == pid || t->sid == pid)
			return true;
	return false;
}

/* The pid after pid, wrapping as Linux's alloc_pid does: init needs 1,
 * but a lap starts again at RESERVED_PIDS. */
static int pid_after(int pid)
{
	return pid + 1 < pid_max ? pid + 1 : RESERVED_PIDS;
}

static void pid_attach(struct proc *p, int pid)
{
	pidmap[pid / 32] |= 1u << (pid % 32);
	p->pid = pid;
	p->pid_next = *chain(pid);
	*chain(pid) = p;
}

int pid_alloc(struct proc *p)
{
	int pid = last_pid;
	/* At most one lap: pid_max - 1 pids, each tried once. */
	for (int tries = 1; tries < pid_max; tries++) {
		pid = pid_after(pid);
		if (pid_used(pid) || pid_names_group(pid))
			continue;
		pid_attach(p, pid);
		last_pid = pid;
		return pid;
	}
	return -EAGAIN;
}

void pid_free(struct proc *p)
{
	struct proc **link = chain(p->pid);
	while (*link && *link != p)
		link = &(*link)->pid_next;
	KASSERT(*link == p && pid_used(p->pid));
	*link = p->pid_next;
	pidmap[p->pid / 32] &= ~(1u << (p->pid % 32));
}

void pid_transfer(struct proc *from, struct proc *to)
{
	int pid = from->pid;
	pid_free(to);
	pid_free(from);
	from->pid = 0;
	pid_attach(to, pid);
}

struct proc *pid_find(int pid)
{
	if (pid <= 0 || pid >= PID_MAX_LIMIT || !pid_used(pid))
		return NULL;
	struct proc *p = *chain(pid);
	while (p && p->pid != pid)
		p = p->pid_next;
	return p;
}

int pid_next_used(int from)
{
	for (int pid = from > 0 ? from : 1; pid < PID_MAX_LIMIT; pid++) {
		if (pidmap[pid / 32] == 0 && pid % 32 == 0) {
			pid += 31;		/* a word of free pids at once */
			continue;
		}
		if (pid_used(pid))
			return pid;
	}
	return 0;
}

int pid_last(void)
{
	return last_pid;
}
