/*
 * rlimit.c - getrlimit, setrlimit and prlimit64: each process's resource
 * limits, the group's (its leader's), inherited by fork and kept by exec.
 */
#include "proc.h"
#include <stddef.h>
#include "lib/errno.h"
#include "kernel/mm/uaccess.h"

/* ---- resource limits ---------------------------------------------------- */

/*
 * Linux's getrlimit/setrlimit on i386. Every resource has a soft (cur) and
 * hard (max) value that fork copies; this kernel enforces RLIMIT_NPROC
 * (fork fails with EAGAIN, docs/kernel.md "Limits") and reports the fixed
 * RLIMIT_NOFILE (Linux's 1,024 and 4,096: kernel/file.c); the others are kept and reported but nothing here consumes them
 * (RLIM_INFINITY by default).
 */
void proc_default_limits(struct proc *p)
{
	for (int r = 0; r < RLIM_NLIMITS; r++)
		p->group->rlim[r] = (struct rlimit){ RLIM_INFINITY, RLIM_INFINITY };
	p->group->rlim[RLIMIT_NPROC] = (struct rlimit){ NPROC_USER_DEFAULT, NPROC_USER_DEFAULT };
	p->group->rlim[RLIMIT_NOFILE] = (struct rlimit){ INR_OPEN_CUR, INR_OPEN_MAX };
	p->group->rlim[RLIMIT_STACK] = (struct rlimit){ USER_STACK_MAX, RLIM_INFINITY };	/* Linux's */
	p->group->rlim[RLIMIT_CORE] = (struct rlimit){ 0, RLIM_INFINITY };	/* Linux's: no core files */
}

int sys_getrlimit(int resource, void *urlim)
{
	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	return copy_to_user(urlim, &current()->group->rlim[resource], sizeof(struct rlimit));
}

/* Lower freely; raise the hard limit only as root; never cur > max. */
static int set_limit(struct proc *p, int resource, struct rlimit lim)
{
	if (resource < 0 || resource >= RLIM_NLIMITS || lim.rlim_cur > lim.rlim_max)
		return -EINVAL;
	if (lim.rlim_max > p->group->rlim[resource].rlim_max && !capable(CAP_SYS_RESOURCE))
		return -EPERM;
	if (resource == RLIMIT_NOFILE && lim.rlim_max > NR_OPEN)
		return -EPERM;		/* Linux: above nr_open */
	p->group->rlim[resource] = lim;
	return 0;
}

int sys_setrlimit(int resource, const void *urlim)
{
	struct rlimit lim;

	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (copy_from_user(&lim, urlim, sizeof(lim)) < 0)
		return -EFAULT;
	return set_limit(current()->group_leader, resource, lim);
}

/* Another process's limits (Linux's check_prlimit_permission): CAP_SYS_RESOURCE, or
 * the caller's real uid is the target's three uids and its real gid the
 * target's three gids. */
static bool may_prlimit(const struct proc *me, const struct proc *t)
{
	return proc_capable(me, CAP_SYS_RESOURCE) ||
	       (me->uid == t->uid && me->uid == t->euid && me->uid == t->suid &&
		me->gid == t->gid && me->gid == t->egid && me->gid == t->sgid);
}

/* The old limit out, the new one in (read already: Linux reads it
 * before it looks for the process). */
static int limits_of(struct proc *p, int resource, const struct rlimit *lim, void *uold)
{
	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	struct rlimit old = p->group->rlim[resource];
	if (lim) {
		int err = set_limit(p, resource, *lim);
		if (err)
			return err;
	}
	if (uold) {
		uint64_t lim64[2] = {
			old.rlim_cur == RLIM_INFINITY ? ~0ull : old.rlim_cur,
			old.rlim_max == RLIM_INFINITY ? ~0ull : old.rlim_max,
		};
		if (copy_to_user(uold, lim64, sizeof(lim64)) < 0)
			return -EFAULT;
	}
	return 0;
}

/* prlimit64: the caller's (pid 0) or another process's limits; a thread's
 * id names its process, as on Linux. Linux's order: the new limit read,
 * the process found (a negative pid names none), the permission, the
 * resource. */
int sys_prlimit64(int pid, int resource, const void *unew, void *uold)
{
	struct rlimit lim;
	uint64_t lim64[2];
	if (unew) {
		if (copy_from_user(lim64, unew, sizeof(lim64)) < 0)
			return -EFAULT;
		lim.rlim_cur = lim64[0] >= RLIM_INFINITY ? RLIM_INFINITY : (uint32_t)lim64[0];
		lim.rlim_max = lim64[1] >= RLIM_INFINITY ? RLIM_INFINITY : (uint32_t)lim64[1];
	}
	if (pid == 0)
		return limits_of(current()->group_leader, resource, unew ? &lim : NULL, uold);
	struct proc *t = pid > 0 ? proc_get(pid) : NULL;
	if (!t)
		return -ESRCH;
	int err = may_prlimit(current(), t) ?
		  limits_of(t->group_leader, resource, unew ? &lim : NULL, uold) : -EPERM;
	proc_put(t);
	return err;
}
