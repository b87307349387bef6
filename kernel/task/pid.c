/*
 * pid.c - process ids (kernel/task/pid.h): the table that finds a task by its
 * pid, the pidmap that says which pids are taken, and the count of the
 * groups and sessions each pid names.
 *
 * Linux 2.6 (kernel/pid.c) had a bitmap with one bit per pid, searched
 * from the last pid handed out, under one lock; Linux 4.15 replaced it
 * by a radix tree (the idr), still under one lock. Here nothing is
 * locked: a pid is claimed by one compare-and-swap of its table slot
 * from empty to the task, so two CPUs forking at once never wait for
 * each other. The table costs 128 KiB, a pointer per pid.
 *
 * Order matters where a reader looks without a lock: a slot is filled
 * before its bit is set and its bit cleared before it is emptied, so a
 * bit set means "look at the slot", and the slot says what is there. A
 * word's summary bit is set after the word's bit; whoever empties a word
 * clears its summary bit and then looks at the word again, so a summary
 * bit is never left clear over a word that has a bit set.
 */
#include "pid.h"
#include <stddef.h>
#include <stdint.h>
#include "kernel/init/bootparam.h"
#include "lib/errno.h"
#include "kernel/debug/panic.h"
#include "proc.h"

int pid_max = PID_MAX_DEFAULT;
static struct proc *pid_table[PID_MAX_LIMIT];	/* slot pid: the task that has it */
#define PIDMAP_WORDS	(PID_MAX_LIMIT / 32)
static uint32_t pidmap[PIDMAP_WORDS];		/* bit pid: slot pid is filled */
/* bit w: pidmap[w] may be non-zero, so that a walk of the tasks skips the
 * empty words 32 at a time (1,024 words: a walk of a few tasks read them
 * all, 11,000 instructions, before this second level). */
static uint32_t pidmap_summary[PIDMAP_WORDS / 32];
static uint16_t group_refs[PID_MAX_LIMIT];	/* tasks whose group or session it is */
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

static bool pid_ok(int pid)
{
	return pid > 0 && pid < PID_MAX_LIMIT;
}

/* The pid after pid, wrapping as Linux's alloc_pid does: init needs 1,
 * but a lap starts again at RESERVED_PIDS. */
static int pid_after(int pid)
{
	return pid + 1 < __atomic_load_n(&pid_max, __ATOMIC_RELAXED) ? pid + 1 : RESERVED_PIDS;
}

/* Fill pid's empty slot with p; false if another task has it. */
static bool pid_claim(struct proc *p, int pid)
{
	struct proc *none = NULL;
	p->pid = pid;		/* before p can be found by it */
	if (!__atomic_compare_exchange_n(&pid_table[pid], &none, p, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return false;
	int w = pid / 32;
	__atomic_fetch_or(&pidmap[w], 1u << (pid % 32), __ATOMIC_RELEASE);
	__atomic_fetch_or(&pidmap_summary[w / 32], 1u << (w % 32), __ATOMIC_RELEASE);
	return true;
}

/* Empty pid's slot (it held p). */
static void pid_release(struct proc *p, int pid)
{
	KASSERT(pid_ok(pid) && pid_table[pid] == p);
	int w = pid / 32;
	uint32_t bit = 1u << (pid % 32), sum = 1u << (w % 32);
	if ((__atomic_fetch_and(&pidmap[w], ~bit, __ATOMIC_ACQ_REL) & ~bit) == 0) {
		__atomic_fetch_and(&pidmap_summary[w / 32], ~sum, __ATOMIC_ACQ_REL);
		if (__atomic_load_n(&pidmap[w], __ATOMIC_ACQUIRE))	/* a claim meanwhile */
			__atomic_fetch_or(&pidmap_summary[w / 32], sum, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&pid_table[pid], NULL, __ATOMIC_RELEASE);
}

/* A pid whose slot is empty and that names no group or session. A group
 * reference is only ever taken on a pid some task already has or whose
 * group still has members, so once both are seen at zero the pid stays
 * free but for a claim. */
static bool pid_free_now(int pid)
{
	return !__atomic_load_n(&pid_table[pid], __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&group_refs[pid], __ATOMIC_ACQUIRE);
}

int pid_alloc(struct proc *p)
{
	int pid = __atomic_load_n(&last_pid, __ATOMIC_RELAXED);
	/* At most one lap: pid_max - 1 pids, each tried once. */
	for (int tries = 1; tries < pid_max; tries++) {
		pid = pid_after(pid);
		if (!pid_free_now(pid) || !pid_claim(p, pid))
			continue;
		__atomic_store_n(&last_pid, pid, __ATOMIC_RELAXED);
		return pid;
	}
	p->pid = 0;
	return -EAGAIN;
}

static void group_get(int id)
{
	if (pid_ok(id))
		__atomic_fetch_add(&group_refs[id], 1, __ATOMIC_ACQ_REL);
}

static void group_put(int id)
{
	if (!pid_ok(id))
		return;
	uint16_t was = __atomic_fetch_sub(&group_refs[id], 1, __ATOMIC_ACQ_REL);
	KASSERT(was > 0);
	(void)was;
}

void pid_set_groups(struct proc *p, int pgid, int sid)
{
	group_get(pgid);
	group_get(sid);
	group_put(p->pgid);
	group_put(p->sid);
	p->pgid = pgid;
	p->sid = sid;
}

void pid_free(struct proc *p)
{
	if (p->pid > 0)		/* 0: its pid went to another (pid_transfer) */
		pid_release(p, p->pid);
	pid_set_groups(p, 0, 0);
}

void pid_transfer(struct proc *from, struct proc *to)
{
	int pid = from->pid;
	pid_release(to, to->pid);
	from->pid = 0;
	to->pid = pid;
	__atomic_store_n(&pid_table[pid], to, __ATOMIC_RELEASE);
}

struct proc *pid_find(int pid)
{
	return pid_ok(pid) ? __atomic_load_n(&pid_table[pid], __ATOMIC_ACQUIRE) : NULL;
}

/* The lowest w >= from whose summary bit is set, or PIDMAP_WORDS. */
static int next_word(int from)
{
	for (int w = from; w < PIDMAP_WORDS;) {
		uint32_t sum = __atomic_load_n(&pidmap_summary[w / 32], __ATOMIC_ACQUIRE) >> (w % 32);
		if (sum)
			return w + __builtin_ctz(sum);
		w = (w / 32 + 1) * 32;		/* 32 empty words at once */
	}
	return PIDMAP_WORDS;
}

/* The lowest pid >= from whose bit is set, or 0. */
static int next_bit(int from)
{
	int pid = from > 0 ? from : 1;
	for (int w = next_word(pid / 32); w < PIDMAP_WORDS; w = next_word(w + 1)) {
		uint32_t word = __atomic_load_n(&pidmap[w], __ATOMIC_ACQUIRE);
		if (w == pid / 32)
			word &= ~0u << (pid % 32);	/* the pids below from */
		if (word)
			return w * 32 + __builtin_ctz(word);
	}
	return 0;
}

struct proc *pid_task_from(int *pid)
{
	for (int at = next_bit(*pid); at; at = next_bit(at + 1)) {
		struct proc *p = pid_find(at);
		if (p) {
			*pid = at;
			return p;
		}
	}
	return NULL;
}

int pid_next_used(int from)
{
	int pid = from;
	return pid_task_from(&pid) ? pid : 0;
}

int pid_last(void)
{
	return __atomic_load_n(&last_pid, __ATOMIC_RELAXED);
}
