/*
 * wait.c - a parent's wait for its children: wait4 (114), waitpid (7)
 * and waitid (284), one search for all three (Linux's do_wait): a child
 * that has exited (reaped, or with waitid's WNOWAIT only told), one
 * stopped or continued that has not been told (WUNTRACED / WSTOPPED,
 * WCONTINUED), or nothing (WNOHANG: 0; no such child at all: ECHILD),
 * else sleep until one changes. And the usage a process reports
 * (getrusage, times, wait4's rusage): its threads', the exited ones'
 * and its reaped children's.
 *
 * Locking: a child's exit and its parent's wait meet under the parent's
 * family_lock; stops are signal state (signal_lock).
 */
#include "proc.h"
#include "proc_internal.h"
#include <uapi/wait.h>
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/time/systime.h"
#include "kernel/mm/uaccess.h"

/* ---- usage ----------------------------------------------------------------- */

void task_usage_of(const struct proc *t, struct task_usage *u)
{
	const struct sched_task_stats *st = &t->sched.stats;
	*u = (struct task_usage){ st->utime, st->stime, st->nvcsw, sched_task_nivcsw(&t->sched) };
}

static void usage_add(struct task_usage *sum, const struct task_usage *u)
{
	sum->utime += u->utime;
	sum->stime += u->stime;
	sum->nvcsw += u->nvcsw;
	sum->nivcsw += u->nivcsw;
}

/* A thread's usage joins its group's dead threads'. signal_lock held. */
void group_add_dead(struct thread_group *g, const struct proc *t)
{
	struct task_usage u;
	task_usage_of(t, &u);
	usage_add(&g->dead, &u);
}

void proc_group_usage(const struct proc *leader, struct task_usage *u)
{
	bool alone = leader->group->nr_threads <= 1;	/* a zombie's 0 too */
	struct task_usage t_u;
	if (!alone)
		spin_lock(&signal_lock);
	*u = leader->group->dead;
	task_usage_of(leader, &t_u);
	usage_add(u, &t_u);
	if (alone)		/* no other thread to visit, none to come */
		return;
	struct proc *t;
	for_each_task(t) {
		if (t != leader && t->group_leader == leader && t->pstate == P_LIVE) {
			task_usage_of(t, &t_u);
			usage_add(u, &t_u);
		}
	}
	spin_unlock(&signal_lock);
}

void proc_group_times(const struct proc *leader, uint32_t *utime, uint32_t *stime)
{
	struct task_usage u;
	proc_group_usage(leader, &u);
	*utime = u.utime;
	*stime = u.stime;
}

uint32_t group_maxrss(const struct thread_group *g, const struct mm *mm)
{
	uint32_t hiwater = mm ? mm->map.hiwater : 0;
	return hiwater > g->maxrss ? hiwater : g->maxrss;
}

/* ---- which children --------------------------------------------------------- */

/* What a wait asks: which children (waitid's idtype and id: P_ALL, P_PID
 * or P_PGID, 0 there meaning the caller's group) and the options. */
struct wait_req {
	int which, id;
	int options;		/* WEXITED, WSTOPPED (wait4's WUNTRACED), WCONTINUED, WNOWAIT, WNOHANG, __W* */
};

/* What it found: the child and its wait4 status word (exit code or
 * signal, stop, continue). */
struct wait_found {
	int pid, uid, status;
};

#define WAIT_STATUS_CONTINUED 0xFFFF

static bool wait_matches(struct proc *q, struct proc *parent, const struct wait_req *r)
{
	if (q->parent != parent || q->pstate == P_UNUSED || q->pstate == P_EMBRYO)
		return false;
	switch (r->which) {
	case P_PID:	return q->pid == r->id;
	case P_PGID:	return q->pgid == (r->id ? r->id : current()->group_leader->pgid);
	default:	return true;
	}
}

/* Linux's eligible_child: __WCLONE alone asks for the children whose exit
 * signal is not SIGCHLD; clone makes none here (kernel/task/thread.c takes
 * SIGCHLD only), so none is. __WALL takes both kinds. */
static bool kind_matches(int options)
{
	return (options & __WALL) || !(options & __WCLONE);
}

/* The zombie is the caller's to reap: off its parent's list, its pid let
 * go. The parent's family lock held. */
static void claim_zombie_locked(struct proc *z)
{
	child_unlink(z);
	pid_free(z);
	task_uncount();
	z->pstate = P_UNUSED;
}

/* A live child's stop or continue that may be reported (and, unless
 * WNOWAIT, then not again); its status or -1. signal_lock held. */
static int take_report(struct proc *q, int options)
{
	if (q->pstate != P_LIVE)
		return -1;
	int status = -1;
	if (q->wait_report == WAIT_REPORT_STOPPED && (options & WSTOPPED) && q->stopped)
		status = (q->stop_sig << 8) | 0x7F;
	else if (q->wait_report == WAIT_REPORT_CONTINUED && (options & WCONTINUED))
		status = WAIT_STATUS_CONTINUED;
	if (status >= 0 && !(options & WNOWAIT))
		q->wait_report = WAIT_REPORT_NONE;
	return status;
}

/* One look at p's children (p's family lock held): a zombie to reap
 * (returned, claimed unless WNOWAIT), or a change to report (*f), or
 * nothing; *have: a child matches at all. */
static struct proc *find_waitable(struct proc *p, const struct wait_req *r, bool *have,
				  struct wait_found *f)
{
	struct proc *c;
	int tid = current()->pid;
	for_each_child(c, p) {
		if (!wait_matches(c, p, r) || !kind_matches(r->options) ||
		    ((r->options & __WNOTHREAD) && c->forked_by != tid))
			continue;
		*have = true;
		if (c->pstate == P_ZOMBIE && c->group->nr_threads == 0 && (r->options & WEXITED)) {
			*f = (struct wait_found){ c->pid, c->uid, c->exit_status };
			if (!(r->options & WNOWAIT))
				claim_zombie_locked(c);
			return c;
		}
		if (!(r->options & (WSTOPPED | WCONTINUED)))
			continue;
		spin_lock(&signal_lock);	/* stops are signal state */
		int status = take_report(c, r->options);
		spin_unlock(&signal_lock);
		if (status >= 0) {
			*f = (struct wait_found){ c->pid, c->uid, status };
			return NULL;
		}
	}
	return NULL;
}

/* ---- what is told ---------------------------------------------------------- */

/* The usage of an exited child as Linux's RUSAGE_BOTH: its own and its
 * reaped children's, into *ru if asked (ru not NULL); with reaping, it
 * joins the parent's children's. */
static void child_usage(struct proc *parent, struct proc *z, bool reaping, struct rusage *ru)
{
	struct task_usage u;
	struct thread_group *zg = z->group, *pg = parent->group;

	proc_group_usage(z, &u);	/* no thread is left: its own and the dead */
	u.utime += zg->cutime;
	u.stime += zg->cstime;
	u.nvcsw += zg->cnvcsw;
	u.nivcsw += zg->cnivcsw;
	uint32_t minflt = zg->minflt + zg->cminflt;
	uint32_t maxrss = zg->maxrss > zg->cmaxrss ? zg->maxrss : zg->cmaxrss;
	if (reaping) {
		pg->cutime += u.utime;
		pg->cstime += u.stime;
		pg->cnvcsw += u.nvcsw;
		pg->cnivcsw += u.nivcsw;
		pg->cminflt += minflt;
		if (maxrss > pg->cmaxrss)
			pg->cmaxrss = maxrss;
	}
	if (!ru)
		return;
	rusage_fill(ru, u.utime, u.stime);
	ru->ru_nvcsw = (long)u.nvcsw;
	ru->ru_nivcsw = (long)u.nivcsw;
	ru->ru_minflt = (long)minflt;
	ru->ru_maxrss = (long)(maxrss * (PAGE_SIZE / 1024));
}

/* An exited child found: its usage into *ru (if asked), and unless WNOWAIT it is
 * let go. It may still be on its CPU's stack for a moment (between
 * exit's schedule() and the switch), so wait for that before its memory
 * goes. */
static void collect(struct proc *parent, struct proc *z, int options, struct rusage *ru)
{
	bool reaping = !(options & WNOWAIT);
	while (z->sched.on_cpu)
		pause();
	child_usage(parent, z, reaping, ru);
	if (!reaping)
		return;
	release_memory(z);
	proc_put(z);		/* its own reference: freed after a grace period */
	rcu_reclaim();
}

/* Wait as r asks: 1 with *f and *ru (if not NULL) filled, 0 (WNOHANG,
 * nothing yet), or -ECHILD, -ERESTARTSYS. */
static int do_wait(const struct wait_req *r, struct wait_found *f, struct rusage *ru)
{
	/* Any thread waits for the children of the whole group (they are
	 * the leader's); with __WNOTHREAD for those it made itself. */
	struct proc *me = current(), *p = me->group_leader;
	struct waiter w;

	for (;;) {
		/* On the queue before the look: a child's exit (under the
		 * family lock) or stop (under signal_lock) that comes after
		 * it wakes us, however the two interleave. */
		waitq_prepare(&p->child_exit, &w, TASK_INTERRUPTIBLE);
		bool have = false;
		f->pid = 0;
		family_lock(p);
		struct proc *zombie = find_waitable(p, r, &have, f);
		spin_unlock(&p->family_lock);
		bool done = f->pid || !have || (r->options & WNOHANG) || signal_pending(me);
		if (!done)
			schedule();
		waitq_finish(&p->child_exit, &w);
		if (zombie)
			collect(p, zombie, r->options, ru);
		else if (f->pid && ru)
			rusage_fill(ru, 0, 0);
		if (f->pid)
			return 1;
		if (done)
			return !have ? -ECHILD : signal_pending(me) ? -ERESTARTSYS : 0;
	}
}

/* ---- the calls ------------------------------------------------------------- */

int proc_wait4(int pid, int *ustatus, int options, void *urusage)
{
	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;		/* Linux: -INT_MIN names no group */
	if ((ustatus && !user_range_ok(ustatus, sizeof(int), true)) ||
	    (urusage && !user_range_ok(urusage, sizeof(struct rusage), true)))
		return -EFAULT;
	struct wait_req r = { pid > 0 ? P_PID : pid == -1 ? P_ALL : P_PGID, pid > 0 ? pid : -pid,
			      options | WEXITED };	/* WUNTRACED is WSTOPPED */
	struct wait_found f;
	struct rusage ru;
	int found = do_wait(&r, &f, urusage ? &ru : NULL);
	if (found <= 0)
		return found;
	if (ustatus)
		copy_to_user(ustatus, &f.status, sizeof(int));
	if (urusage)
		copy_to_user(urusage, &ru, sizeof(ru));
	return f.pid;
}

int sys_waitpid(int pid, int *ustatus, int options)
{
	return proc_wait4(pid, ustatus, options, NULL);
}

/* The siginfo waitid fills (Linux's: signo SIGCHLD, the cause, the
 * child's pid and real uid, its exit code or the signal), all 0 when
 * nothing was found. */
static int put_waitid_info(siginfo_t *uinfo, const struct wait_found *f, bool found)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (found) {
		int st = f->status;
		si.si_signo = SIGCHLD;
		si._sifields.chld.pid = f->pid;
		si._sifields.chld.uid = (unsigned int)f->uid;
		if (st == WAIT_STATUS_CONTINUED)
			si.si_code = CLD_CONTINUED, si._sifields.chld.status = SIGCONT;
		else if ((st & 0xFF) == 0x7F)
			si.si_code = CLD_STOPPED, si._sifields.chld.status = (st >> 8) & 0xFF;
		else if (st & 0x7F)
			si.si_code = st & 0x80 ? CLD_DUMPED : CLD_KILLED, si._sifields.chld.status = st & 0x7F;
		else
			si.si_code = CLD_EXITED, si._sifields.chld.status = (st >> 8) & 0xFF;
	}
	/* Linux writes these six ints only */
	return copy_to_user(uinfo, &si, 6 * sizeof(int)) < 0 ? -EFAULT : 0;
}

/* 284: waitid(idtype, id, infop, options, rusage), Linux's checks in its
 * order: unknown options, none of WEXITED/WSTOPPED/WCONTINUED, the
 * idtype and its id (P_PID > 0, P_PGID >= 0) all EINVAL. P_PIDFD is not
 * built here (no pidfds): EINVAL too. */
int sys_waitid(int which, int id, siginfo_t *uinfo, int options, void *urusage)
{
	if (options & ~(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED |
			__WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
		return -EINVAL;
	if ((which == P_PID && id <= 0) || (which == P_PGID && id < 0) ||
	    (which != P_ALL && which != P_PID && which != P_PGID))
		return -EINVAL;
	struct wait_req r = { which, id, options };
	struct wait_found f;
	struct rusage ru;
	int found = do_wait(&r, &f, urusage ? &ru : NULL);
	if (found < 0)
		return found;
	if (found && urusage && copy_to_user(urusage, &ru, sizeof(ru)) < 0)
		return -EFAULT;
	return uinfo ? put_waitid_info(uinfo, &f, found) : 0;
}
