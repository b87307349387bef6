/*
 * fork.c - a new process: a copy of the caller made in two halves, so
 * that clone (kernel/task/thread.c) can adjust the copy before it runs
 * (fork_prepare, then fork_start), and the parent it gets (the caller's
 * process, or with CLONE_PARENT the caller's own parent).
 */
#include "proc.h"
#include "ioprio.h"
#include "proc_internal.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/arch/ldt.h"
#include "kernel/arch/smp.h"
#include "kernel/fs/file.h"

/* What every new thread or process takes from its creator. */
void proc_copy_ids(struct proc *child, const struct proc *me)
{
	child->euid = me->euid;
	child->suid = me->suid;
	child->gid = me->gid;
	child->egid = me->egid;
	child->sgid = me->sgid;
	child->caps = me->caps;
	pid_set_groups(child, me->group_leader->pgid, me->group_leader->sid);
	memcpy(child->name, me->name, sizeof(child->name));
	child->timer_slack_ns = child->default_timer_slack_ns = me->timer_slack_ns;
	child->tsc_sigsegv = me->tsc_sigsegv;
	child->ioprio = ioprio_fork(me->ioprio);
}

/* A copy of the caller, not yet runnable: fork and clone (kernel/task/thread.c)
 * adjust it, then fork_start() lets it run. NULL with *err set if not. */
struct proc *fork_prepare(int *err)
{
	struct proc *me = current(), *parent = me->group_leader;
	struct proc *child = proc_alloc(me->uid, parent->group->rlim[RLIMIT_NPROC].rlim_cur, NULL, err);
	if (!child)
		return NULL;
	*err = -ENOMEM;
	/* Only the calling thread is copied (POSIX fork in a thread). */
	mm_lock(&parent->mm);
	child->pgdir = vm_copy_user(parent->pgdir);
	int copied = child->pgdir ? mm_fork(&child->mm, &parent->mm) : -ENOMEM;
	if (!copied)
		copied = ldt_fork(&child->mm, &parent->mm);
	if (vm_take_stale(parent->pgdir))	/* its pages are read-only now */
		smp_flush_tlb(parent->pgdir);
	mm_unlock(&parent->mm);
	if (copied < 0) {
		proc_release(child);
		return NULL;
	}
	*child->tf = *me->tf;
	child->tls = me->tls;		/* its %gs names the same slots */
	fpu_save(&child->fpu);		/* the parent's registers, live on this CPU */
	child->tf->eax = 0;		/* fork returns 0 in the child */
	proc_copy_ids(child, me);
	signal_fork(child, me);
	memcpy(child->group->rlim, parent->group->rlim, sizeof(child->group->rlim));
	child->group->dumpable = parent->group->dumpable;
	child->group->thp_disable = parent->group->thp_disable;
	if (fork_files(child, parent) < 0) {
		proc_release(child);
		return NULL;
	}
	/* The parent's holds its working directory; another of its threads
	 * may chdir meanwhile, and then the new one is held. */
	do
		child->cwd = parent->cwd;
	while (node_hold(child->cwd) != 0);
	child->umask = parent->umask;
	child->exe = parent->exe;
	node_hold_exe(child->exe);	/* the parent's holds it: cannot fail */
	return child;
}

/* A prepared child that clone found wrong after all (a bad TLS). */
void fork_abandon(struct proc *child)
{
	files_release(child);
	proc_release(child);
}

/* The parent a child of the caller gets, its family lock held: the
 * caller's process, or with CLONE_PARENT the caller's own parent (the
 * one it has once locked: an exit may hand the caller to another). */
static struct proc *lock_new_parent(bool clone_parent)
{
	struct proc *leader = current()->group_leader;
	if (!clone_parent) {
		family_lock(leader);
		return leader;
	}
	for (;;) {
		struct proc *p = __atomic_load_n(&leader->parent, __ATOMIC_ACQUIRE);
		family_lock(p);		/* freed only after a grace period: we do not sleep */
		if (__atomic_load_n(&leader->parent, __ATOMIC_ACQUIRE) == p)
			return p;
		spin_unlock(&p->family_lock);
	}
}

/* The prepared child becomes its parent's (wait4 sees it from here on)
 * and joins the scheduler; its pid for the parent. */
int fork_start(struct proc *child, bool clone_parent)
{
	sched_fork(&current()->sched, &child->sched);
	int pid = child->pid;
	struct proc *parent = lock_new_parent(clone_parent);
	proc_set_parent_locked(child, parent);
	/* Linux's real_parent: the thread that forked it, or with
	 * CLONE_PARENT the caller's own */
	child->forked_by = clone_parent ? current()->group_leader->forked_by : current()->pid;
	child->pstate = P_LIVE;
	spin_unlock(&parent->family_lock);
	sched_wake_new(&child->sched);
	return pid;
}

int proc_fork(void)
{
	int err;
	struct proc *child = fork_prepare(&err);
	return child ? fork_start(child, false) : err;
}
