/*
 * rlimit.c - getrlimit, setrlimit and prlimit64: each process's resource
 * limits, the group's (its leader's), inherited by fork and kept by exec.
 */
#include "proc.h"
#include "errno.h"
#include "uaccess.h"

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
		p->rlim[r] = (struct rlimit){ RLIM_INFINITY, RLIM_INFINITY };
	p->rlim[RLIMIT_NPROC] = (struct rlimit){ NPROC_USER_DEFAULT, NPROC_USER_DEFAULT };
	p->rlim[RLIMIT_NOFILE] = (struct rlimit){ INR_OPEN_CUR, INR_OPEN_MAX };
	p->rlim[RLIMIT_STACK] = (struct rlimit){ USER_STACK_MAX, RLIM_INFINITY };	/* Linux's */
}

int sys_getrlimit(int resource, void *urlim)
{
	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	return copy_to_user(urlim, &current()->group_leader->rlim[resource], sizeof(struct rlimit));
}

/* Lower freely; raise the hard limit only as root; never cur > max. */
static int set_limit(struct proc *p, int resource, struct rlimit lim)
{
	if (resource < 0 || resource >= RLIM_NLIMITS || lim.rlim_cur > lim.rlim_max)
		return -EINVAL;
	if (lim.rlim_max > p->rlim[resource].rlim_max && current()->euid != 0)
		return -EPERM;
	if (resource == RLIMIT_NOFILE && lim.rlim_max > NR_OPEN)
		return -EPERM;		/* Linux: above nr_open */
	p->rlim[resource] = lim;
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

/* prlimit64 for the caller itself (pid 0 or its own pid). */
int sys_prlimit64(int pid, int resource, const void *unew, void *uold)
{
	struct proc *p = current()->group_leader;
	uint64_t lim64[2];

	if (pid != 0 && pid != p->pid && pid != current()->pid)
		return pid < 0 ? -EINVAL : -ESRCH;
	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	struct rlimit old = p->rlim[resource];
	if (unew) {
		if (copy_from_user(lim64, unew, sizeof(lim64)) < 0)
			return -EFAULT;
		struct rlimit lim = {
			lim64[0] >= RLIM_INFINITY ? RLIM_INFINITY : (uint32_t)lim64[0],
			lim64[1] >= RLIM_INFINITY ? RLIM_INFINITY : (uint32_t)lim64[1],
		};
		int err = set_limit(p, resource, lim);
		if (err)
			return err;
	}
	if (uold) {
		lim64[0] = old.rlim_cur == RLIM_INFINITY ? ~0ull : old.rlim_cur;
		lim64[1] = old.rlim_max == RLIM_INFINITY ? ~0ull : old.rlim_max;
		if (copy_to_user(uold, lim64, sizeof(lim64)) < 0)
			return -EFAULT;
	}
	return 0;
}
