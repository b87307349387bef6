/*
 * ioprio.c - ioprio_set (289) and ioprio_get (290), as Linux 6.1's
 * block/ioprio.c answers them (ionice). Each thread keeps the priority
 * it was given (struct proc's ioprio); a fork or clone copies one that
 * was set (class RT, BE or IDLE), exec keeps it. This kernel has no disk
 * and no I/O scheduler: the priority is kept and reported, as Linux
 * keeps it for a device whose scheduler ignores it.
 *
 * The rules: IOPRIO_CLASS_RT needs CAP_SYS_NICE or CAP_SYS_ADMIN (EPERM);
 * NONE takes only level 0 (EINVAL else, and for an unknown class); setting another user's task needs its real
 * uid to be the caller's real or effective uid, or CAP_SYS_NICE (EPERM).
 * A process group or a user is every thread of it: set stops at the
 * first refusal, get answers the best (lowest value) of them, an unset
 * one counting as the priority its CPU policy and nice give it (Linux's
 * task_nice_ioclass and task_nice_ioprio: RT for FIFO and RR, BE else,
 * level (nice + 20) / 5); a thread alone answers unset as 0. ESRCH when
 * none is found.
 */
#include "lib/errno.h"
#include "proc.h"
#include "sched/machine.h"	/* sched_find_task, sched_next_task_of */
#include <uapi/ioprio.h>
#include <uapi/resource.h>	/* PRIO_PGRP, PRIO_USER */
#include <uapi/sched.h>		/* SCHED_FIFO, SCHED_RR */

#define CLASS(prio)	(((prio) >> IOPRIO_CLASS_SHIFT) & IOPRIO_CLASS_MASK)
/* The level: Linux 6.1's stable kernels (Debian's 6.1.0-57) read only
 * the data's low 3 bits, the rest being a hint nothing checks. */
#define LEVEL(prio)	((prio) & (IOPRIO_NR_LEVELS - 1))

/* Linux's ioprio_check_cap: 0, or why prio may not be set. */
static int check_prio(int prio)
{
	switch (CLASS(prio)) {
	case IOPRIO_CLASS_RT:
		if (!capable(CAP_SYS_ADMIN) && !capable(CAP_SYS_NICE))
			return -EPERM;
		__attribute__((fallthrough));	/* then as BE */
	case IOPRIO_CLASS_BE:
	case IOPRIO_CLASS_IDLE:
		return 0;			/* any level: 3 bits */
	case IOPRIO_CLASS_NONE:
		return LEVEL(prio) ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

static int set_task(struct proc *t, int prio)
{
	struct proc *me = current();
	if (t->uid != me->euid && t->uid != me->uid && !capable(CAP_SYS_NICE))
		return -EPERM;
	__atomic_store_n(&t->ioprio, (uint16_t)prio, __ATOMIC_RELAXED);
	return 0;
}

/* The priority p's I/O gets: the one set, or its CPU policy's. */
static int effective(struct proc *p)
{
	int prio = __atomic_load_n(&p->ioprio, __ATOMIC_RELAXED);
	if (CLASS(prio) != IOPRIO_CLASS_NONE)
		return prio;
	int policy = p->sched.policy;
	int class = policy == SCHED_FIFO || policy == SCHED_RR ? IOPRIO_CLASS_RT : IOPRIO_CLASS_BE;
	return class << IOPRIO_CLASS_SHIFT | (sched_task_nice(&p->sched) + 20) / 5;
}

/* Linux's ioprio_best: the lower value wins. */
static int best(int acc, int prio)
{
	return acc == -ESRCH || prio < acc ? prio : acc;
}

/* Apply get (set < 0) or set to every thread of which/who: the result. */
static int each(int which, int who, int set)
{
	int acc = -ESRCH;
	struct sched_task *t;
	if (which == IOPRIO_WHO_PROCESS) {
		t = who ? sched_find_task(who) : sched_current();
		if (!t)
			return -ESRCH;
		struct proc *p = proc_of(t);
		acc = set < 0 ? __atomic_load_n(&p->ioprio, __ATOMIC_RELAXED) : set_task(p, set);
		if (who)
			sched_put_task(t);
		return acc;
	}
	int prio_which = which == IOPRIO_WHO_PGRP ? PRIO_PGRP : PRIO_USER;
	for (int pid = 1; (t = sched_next_task_of(prio_which, who, &pid)) != NULL; pid++) {
		struct proc *p = proc_of(t);
		if (set < 0)
			acc = best(acc, effective(p));
		else
			acc = set_task(p, set);
		sched_put_task(t);
		if (set >= 0 && acc < 0)
			break;
	}
	return acc;
}

int sys_ioprio_set(int which, int who, int prio)
{
	int err = check_prio(prio);
	if (err)
		return err;
	if (which < IOPRIO_WHO_PROCESS || which > IOPRIO_WHO_USER)
		return -EINVAL;
	return each(which, who, prio);
}

int sys_ioprio_get(int which, int who)
{
	if (which < IOPRIO_WHO_PROCESS || which > IOPRIO_WHO_USER)
		return -EINVAL;
	return each(which, who, -1);
}
