/*
 * syscalls.c - the scheduler's system calls (staircase.md §7.6 to §7.8).
 *
 * Checks come in Linux's order, because programs (and the tests that run
 * the same binary on Linux) see which error comes first:
 *   negative policy or pid, or NULL param        -> EINVAL
 *   unreadable / unwritable user memory          -> EFAULT
 *   no such pid                                  -> ESRCH
 *   unknown policy, bad priority for the policy  -> EINVAL
 *   not allowed                                  -> EPERM
 * The actual changes are made by core.c (sched_set_policy and friends).
 *
 * getpriority/setpriority: PRIO_PROCESS is one thread; PRIO_PGRP and
 * PRIO_USER every thread of the process group or real uid (who 0: the
 * caller's), as Linux: getpriority the highest (20 - nice) among them,
 * setpriority each of them, its error the last one's refusal; -ESRCH
 * if none is found.
 */
#include "syscalls.h"
#include "sched.h"
#include "policy.h"
#include "cfs.h"		/* the view of a cfs or eevdf task */
#include "o1.h"		/* ... of an o1 task */
#include "sd.h"		/* ... of an sd task */
#include "tunables.h"
#include "../lib/errno.h"

static int clamp(int v, int lo, int hi);

/* Linux's capable(CAP_SYS_NICE). */
static bool privileged(struct sched_task *me)
{
	return sched_task_cap_nice(me);
}

/*
 * pid 0 is the caller; a negative pid finds nothing. Another task comes
 * with a reference (sched_find_task), so that its slot cannot become some
 * new process's before the call is done with it: every get_task() is
 * paired with a put_task() of the same pid.
 */
static struct sched_task *get_task(int pid)
{
	if (pid == 0)
		return sched_current();
	if (pid < 0)
		return NULL;
	return sched_find_task(pid);
}

static void put_task(int pid, struct sched_task *p)
{
	if (pid != 0 && p)
		sched_put_task(p);
}

/* Linux: same euid, or our euid is its uid, or privileged. */
static bool may_change(struct sched_task *me, struct sched_task *p)
{
	int euid = sched_task_euid(me);

	return privileged(me) || euid == sched_task_euid(p) || euid == sched_task_uid(p);
}

/* The checks after the lookup, in Linux's order, then the change.
 * reset: SCHED_RESET_ON_FORK asked for (sched_setparam keeps the task's). */
static int setscheduler_task(struct sched_task *me, struct sched_task *p,
			     int policy, struct sched_param lp, bool reset)
{
	if (policy < 0) {
		policy = p->policy;		/* sched_setparam */
		reset = p->reset_on_fork;
	} else if (!valid_policy(policy)) {
		return -EINVAL;
	}
	if (lp.sched_priority < 0 || lp.sched_priority > MAX_USER_RT_PRIO - 1)
		return -EINVAL;
	if (sched_policies[policy]->rt != (lp.sched_priority != 0))
		return -EINVAL;
/* LAB iso BEGIN */
	/* Seed 003: an unprivileged request for FIFO/RR is granted as ISO,
	 * where this boot's class has ISO; elsewhere it is refused, as Linux
	 * refuses it (docs/lineage.md §2). */
	if (sched_policies[policy]->unprivileged_as && !privileged(me)) {
		policy = sched_policies[policy]->unprivileged_as->number;
		lp.sched_priority = 0;
		if (!valid_policy(policy))
			return -EPERM;
	}
/* LAB iso END */
	if (!may_change(me, p))
		return -EPERM;
	/* Linux: only the privileged may take the flag off. */
	if (p->reset_on_fork && !reset && !privileged(me))
		return -EPERM;
	/* Seed 002: kernel threads may not be BATCH. */
	if (p->is_kthread && sched_policies[policy]->user_only)
		return -EPERM;
	sched_set_policy(p, policy, lp.sched_priority);
	p->reset_on_fork = reset;	/* read by its own forks (sched_fork) */
	return 0;
}

static int setscheduler(int pid, int policy, const void *uparam)
{
	struct sched_task *p;
	struct sched_param lp;
	int err;

	if (!uparam || pid < 0)
		return -EINVAL;
	if (copy_from_user(&lp, uparam, sizeof(lp)))
		return -EFAULT;
	p = get_task(pid);
	if (!p)
		return -ESRCH;
	bool reset = policy >= 0 && (policy & SCHED_RESET_ON_FORK);
	err = setscheduler_task(sched_current(), p, policy < 0 ? policy : policy & ~SCHED_RESET_ON_FORK,
				lp, reset);
	put_task(pid, p);
	return err;
}

int sys_sched_setscheduler(int pid, int policy, const void *uparam)
{
	if (policy < 0)
		return -EINVAL;
	return setscheduler(pid, policy, uparam);
}

int sys_sched_setparam(int pid, const void *uparam)
{
	return setscheduler(pid, -1, uparam);
}

int sys_sched_getscheduler(int pid)
{
	struct sched_task *p;
	int policy;

	if (pid < 0)
		return -EINVAL;
	p = get_task(pid);
	if (!p)
		return -ESRCH;
	policy = p->policy | (p->reset_on_fork ? SCHED_RESET_ON_FORK : 0);
	put_task(pid, p);
	return policy;
}

int sys_sched_getparam(int pid, void *uparam)
{
	struct sched_param lp;
	struct sched_task *p;

	if (!uparam || pid < 0)
		return -EINVAL;
	p = get_task(pid);
	if (!p)
		return -ESRCH;
	lp.sched_priority = p->rt_priority;
	put_task(pid, p);
	if (copy_to_user(uparam, &lp, sizeof(lp)))
		return -EFAULT;
	return 0;
}

/*
 * sched_setattr/sched_getattr: Linux's struct sched_attr (uapi/sched.h),
 * for the policies here (NORMAL, FIFO, RR, BATCH, ISO); IDLE and
 * DEADLINE are EINVAL as any unknown policy, the utilization clamps
 * EOPNOTSUPP (Linux without CONFIG_UCLAMP_TASK); RESET_ON_FORK as
 * sched_setscheduler's SCHED_RESET_ON_FORK. Checks in
 * Linux 6.1's order (kernel/sched/core.c: sched_copy_attr, then
 * __sched_setscheduler); a nice below the task's own is EPERM here, not
 * setpriority's EACCES, as Linux.
 */
#define ATTR_PAGE 4096		/* Linux's bound on usize: PAGE_SIZE */

/* The struct from user memory, of its own size: 0 means the first
 * version; bytes past ours must be zero, else E2BIG with our size
 * written back into its size field. */
static int copy_attr(struct sched_attr *a, void *uattr)
{
	uint32_t size, ksize = sizeof(*a);
	unsigned char rest[64];

	if (copy_from_user(&size, uattr, sizeof(size)))
		return -EFAULT;
	if (!size)
		size = SCHED_ATTR_SIZE_VER0;
	if (size < SCHED_ATTR_SIZE_VER0 || size > ATTR_PAGE)
		goto too_big;
	*a = (struct sched_attr){0};
	if (copy_from_user(a, uattr, size < ksize ? size : ksize))
		return -EFAULT;
	for (uint32_t off = ksize; off < size; off += sizeof(rest)) {
		uint32_t n = size - off < sizeof(rest) ? size - off : sizeof(rest);
		if (copy_from_user(rest, (char *)uattr + off, n))
			return -EFAULT;
		for (uint32_t i = 0; i < n; i++)
			if (rest[i])
				goto too_big;
	}
	if ((a->sched_flags & SCHED_FLAG_UTIL_CLAMP) && size < SCHED_ATTR_SIZE_VER1)
		return -EINVAL;
	a->sched_nice = clamp(a->sched_nice, -20, 19);
	return 0;
too_big:
	if (copy_to_user(uattr, &ksize, sizeof(ksize)))
		return -EFAULT;
	return -E2BIG;
}

static void get_attr_params(struct sched_task *p, struct sched_attr *a)
{
	if (sched_policies[p->policy]->rt)
		a->sched_priority = p->rt_priority;
	else
		a->sched_nice = sched_task_nice(p);
}

static int setattr_task(struct sched_task *me, struct sched_task *p,
			struct sched_attr *a)
{
	int policy = (int)a->sched_policy;
	struct sched_param lp;
	int err;

	if (a->sched_flags & SCHED_FLAG_KEEP_POLICY)
		policy = p->policy;
	if (a->sched_flags & SCHED_FLAG_KEEP_PARAMS)
		get_attr_params(p, a);
	if (!valid_policy(policy) || (a->sched_flags & ~(uint64_t)SCHED_FLAG_ALL))
		return -EINVAL;
	if (a->sched_priority > MAX_USER_RT_PRIO - 1 ||
	    sched_policies[policy]->rt != (a->sched_priority != 0))
		return -EINVAL;
	if (!sched_policies[policy]->rt && a->sched_nice < sched_task_nice(p) &&
	    !privileged(me))
		return -EPERM;
	if (!may_change(me, p))
		return -EPERM;
	if (a->sched_flags & SCHED_FLAG_UTIL_CLAMP)
		return -EOPNOTSUPP;
	lp.sched_priority = (int)a->sched_priority;
	err = setscheduler_task(me, p, policy, lp, a->sched_flags & SCHED_FLAG_RESET_ON_FORK);
	if (!err && !sched_policies[p->policy]->rt)
		sched_set_user_nice(p, a->sched_nice);
	return err;
}

int sys_sched_setattr(int pid, void *uattr, uint32_t flags)
{
	struct sched_attr a;
	struct sched_task *p;
	int err;

	if (!uattr || pid < 0 || flags)
		return -EINVAL;
	err = copy_attr(&a, uattr);
	if (err)
		return err;
	if ((int)a.sched_policy < 0)
		return -EINVAL;
	p = get_task(pid);
	if (!p)
		return -ESRCH;
	err = setattr_task(sched_current(), p, &a);
	put_task(pid, p);
	return err;
}

int sys_sched_getattr(int pid, void *uattr, uint32_t usize, uint32_t flags)
{
	struct sched_attr a = {0};
	struct sched_task *p;

	if (!uattr || pid < 0 || usize > ATTR_PAGE || usize < SCHED_ATTR_SIZE_VER0 || flags)
		return -EINVAL;
	p = get_task(pid);
	if (!p)
		return -ESRCH;
	a.sched_policy = (unsigned)p->policy;
	a.sched_flags = p->reset_on_fork ? SCHED_FLAG_RESET_ON_FORK : 0;
	get_attr_params(p, &a);
	put_task(pid, p);
	a.size = usize < sizeof(a) ? usize : sizeof(a);
	if (copy_to_user(uattr, &a, a.size))
		return -EFAULT;
	return 0;
}

int sys_sched_get_priority_max(int policy)
{
	if (!valid_policy(policy))
		return -EINVAL;
	return sched_policies[policy]->prio_max;
}

int sys_sched_get_priority_min(int policy)
{
	if (!valid_policy(policy))
		return -EINVAL;
	return sched_policies[policy]->prio_min;
}

/* FIFO 0; RR its quantum; NORMAL/ISO/BATCH their full slice: in ns,
 * or -EINVAL/-ESRCH. */
static int rr_interval_ns(int pid, uint64_t *ns)
{
	struct sched_task *p;

	if (pid < 0)
		return -EINVAL;
	p = get_task(pid);
	if (!p)
		return -ESRCH;
	struct runqueue *rq = task_rq_lock(p);	/* the hooks' lock (policy.h) */
	*ns = (uint64_t)rr_get_interval(p) * 1000000000ull / tunables.hz;
	task_rq_unlock(rq);
	put_task(pid, p);
	return 0;
}

int sys_sched_rr_get_interval(int pid, void *utimespec)
{
	uint64_t ns;
	int err = rr_interval_ns(pid, &ns);
	if (err < 0)
		return err;
	struct timespec32 ts = { (int32_t)(ns / 1000000000ull), (int32_t)(ns % 1000000000ull) };
	return copy_to_user(utimespec, &ts, sizeof(ts)) ? -EFAULT : 0;
}

int sys_sched_rr_get_interval_time64(int pid, void *utimespec)
{
	uint64_t ns;
	int err = rr_interval_ns(pid, &ns);
	if (err < 0)
		return err;
	struct timespec64 ts = { (int64_t)(ns / 1000000000ull), (int64_t)(ns % 1000000000ull) };
	return copy_to_user(utimespec, &ts, sizeof(ts)) ? -EFAULT : 0;
}

int sys_sched_yield(void)
{
	sched_do_yield();
	return 0;
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int sys_nice(int increment)
{
	struct sched_task *me = sched_current();

	if (increment < 0 && !privileged(me))
		return -EPERM;
	increment = clamp(increment, -40, 40);
	sched_set_user_nice(me, clamp(sched_task_nice(me) + increment, -20, 19));
	return 0;
}

/* Linux's set_one_prio: EPERM for another user's task, EACCES for a
 * lower nice without privilege. */
static int setpriority_task(struct sched_task *me, struct sched_task *p, int niceval)
{
	int uid = sched_task_uid(p);

	if (uid != sched_task_euid(me) && uid != sched_task_uid(me) && !privileged(me))
		return -EPERM;
	if (niceval < sched_task_nice(p) && !privileged(me))
		return -EACCES;
	sched_set_user_nice(p, niceval);
	return 0;
}

#define PRIO_GET	(-100)	/* prio_each's niceval for getpriority */

/* One task's part in getpriority (niceval PRIO_GET: 20 - its nice, the
 * highest kept in *acc) or setpriority (*acc: Linux's error so far,
 * -ESRCH until a task is found; a refusal replaces it). */
static void prio_apply(struct sched_task *p, int niceval, int *acc)
{
	if (niceval == PRIO_GET) {
		int v = 20 - sched_task_nice(p);
		if (v > *acc)
			*acc = v;
		return;
	}
	int err = setpriority_task(sched_current(), p, niceval);
	if (err || *acc == -ESRCH)
		*acc = err;
}

/* Every task which and who name, through prio_apply; its result. */
static int prio_each(int which, int who, int niceval)
{
	int acc = -ESRCH;

	if (which == PRIO_PROCESS) {
		struct sched_task *p = get_task(who);
		if (p) {
			prio_apply(p, niceval, &acc);
			put_task(who, p);
		}
		return acc;
	}
	struct sched_task *p;
	for (int pid = 1; (p = sched_next_task_of(which, who, &pid)) != NULL; pid++) {
		prio_apply(p, niceval, &acc);
		sched_put_task(p);
	}
	return acc;
}

int sys_getpriority(int which, int who)
{
	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	return prio_each(which, who, PRIO_GET);
}

int sys_setpriority(int which, int who, int niceval)
{
	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	return prio_each(which, who, clamp(niceval, -20, 19));
}

int sys_sched_setaffinity(int pid, uint32_t len, const void *umask)
{
	struct sched_task *p;
	uint32_t mask;
	int err;

	if (len < sizeof(mask))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	p = get_task(pid);
	if (!p)
		return -ESRCH;
	if (!may_change(sched_current(), p))
		err = -EPERM;
	else
		err = sched_set_cpus_allowed(p, mask);	/* -EINVAL: no online CPU */
	put_task(pid, p);
	return err;
}

int sys_sched_getaffinity(int pid, uint32_t len, void *umask)
{
	struct sched_task *p;
	uint32_t mask;

	if (len < sizeof(mask))
		return -EINVAL;
	p = get_task(pid);
	if (!p)
		return -ESRCH;
	mask = p->cpus_allowed & sched_online_mask();
	put_task(pid, p);
	if (copy_to_user(umask, &mask, sizeof(mask)))
		return -EFAULT;
	return sizeof(mask);
}

/* o1's and sd's own state of p (syscalls.h), under its run queue's lock. */
static void o1_sd_view(const struct sched_task *p, struct sched_task_view *v)
{
	v->o1 = ops_of(p) == &o1_ops;
	v->sd = ops_of(p) == &sd_ops;
	v->sleep_avg = v->o1 ? p->o1.sleep_avg : 0;
	v->bonus = v->o1 ? o1_bonus(p) : 0;
	v->credit = v->o1 ? p->o1.credit : 0;
	v->interactive = v->o1 && o1_interactive(p);
	v->level = v->sd ? p->sdl.level : 0;
	v->quota = v->sd ? p->time_slice : 0;
	v->rotation = v->sd ? p->sdl.rotation : 0;
	v->expired = v->o1 ? p->o1.expired : v->sd ? p->sdl.expired : 0;
}

/* One task as call 500 and /proc/PID/sched show it, read under its
 * run queue's lock so the numbers belong together. */
void sched_task_view(struct sched_task *p, struct sched_task_view *v)
{
	struct runqueue *rq = task_rq_lock(p);
	v->info = (struct sched_task_info){
		.pid = sched_task_pid(p), .policy = p->policy,
		.rt_priority = p->rt_priority, .nice = sched_task_nice(p),
		.prio = p->prio, .static_prio = p->static_prio,
		.burst = p->burst, .slice = p->slice,
		.time_slice = p->time_slice, .cpu = p->cpu,
		.state = p->state, .flags = (int32_t)p->flags,
		.utime = p->stats.utime, .stime = p->stats.stime,
		.nr_runs = p->stats.nr_runs, .cpus_allowed = p->cpus_allowed,
		.wait_ns = p->stats.wait_ns,
		.max_burst = max_burst(p), .full_slice = full_slice(p),
	};
	v->quantum = rr_interval(p);
	v->iso_throttled = rq->iso_throttled;
	v->nvcsw = p->stats.nvcsw;
	v->nivcsw = sched_task_nivcsw(p);
	v->fair = ops_of(p) == &cfs_ops || ops_of(p) == &cfs_batch_ops ||
		  ops_of(p) == &eevdf_ops || ops_of(p) == &eevdf_batch_ops;
	v->eevdf = v->fair && fair_eevdf;
	v->vruntime = p->fair.vruntime;
	v->sum_exec_ns = p->fair.sum_exec;
	v->deadline = p->fair.deadline;
	v->lag = v->eevdf ? eevdf_lag(p) : 0;
	o1_sd_view(p, v);
	task_rq_unlock(rq);
}

int sys_sched_task_stats(int pid, void *uinfo)
{
	struct sched_task *p;
	struct sched_task_view v;

	if (pid < 0)
		return -EINVAL;
	p = get_task(pid);
	if (!p)
		return -ESRCH;
	sched_task_view(p, &v);
	put_task(pid, p);
	if (copy_to_user(uinfo, &v.info, sizeof(v.info)))
		return -EFAULT;
	return 0;
}

/* One CPU as call 501 and /proc/stat show it: -EINVAL for no such CPU. */
int sched_cpu_view(int cpu, struct sched_cpu_info *info)
{
	struct runqueue *rq;

	if (cpu < 0 || cpu >= sched_ncpus)
		return -EINVAL;
	rq = cpu_rq(cpu);
	rq_lock(rq);
	*info = (struct sched_cpu_info){
		.user_ticks = rq->user_ticks, .nice_ticks = rq->nice_ticks,
		.system_ticks = rq->system_ticks, .idle_ticks = rq->idle_ticks,
		.cpu = cpu, .nr_running = rq->nr_running,
		.iso_share_permille = iso_share_permille(rq),
		.iso_throttled = rq->iso_throttled,
		.curr_pid = rq->curr->is_idle ? 0 : sched_task_pid(rq->curr),
		.lost_ticks = (int32_t)rq->lost_ticks,
	};
	rq_unlock(rq);
	return 0;
}

int sys_sched_cpu_stats(int cpu, void *uinfo)
{
	struct sched_cpu_info info;
	int err = sched_cpu_view(cpu, &info);

	if (err)
		return err;
	if (copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

int sys_sched_get_tunable(int id)
{
	return sched_tunable_get(id);
}

int sys_sched_describe_tunable(int id, void *udesc)
{
	struct sched_tunable_desc d;
	int err = sched_tunable_describe(id, &d);

	if (err)
		return err;
	if (copy_to_user(udesc, &d, sizeof(d)))
		return -EFAULT;
	return 0;
}

int sys_sched_set_tunable(int id, int value)
{
	if (!sched_tunable_name(id))
		return -EINVAL;
	if (!privileged(sched_current()))
		return -EPERM;
	return sched_tunable_set(id, value);
}
