/*
 * fork.c - a new process: a copy of the caller made in two halves, so
 * that clone (kernel/task/thread.c) can adjust the copy before it runs
 * (fork_prepare, then fork_start), and the parent it gets (the caller's
 * process, or with CLONE_PARENT the caller's own parent). What clone's
 * flags ask for (its memory, descriptors, fs information, handlers) the
 * child shares with the caller instead of copying.
 */
#include "proc.h"
#include "ioprio.h"
#include "proc_internal.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/arch/ldt.h"
#include "kernel/arch/smp.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include <uapi/clone.h>

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

/* The child's address space: the caller's (CLONE_VM: clone, vfork), or
 * a copy-on-write copy (fork; only the calling thread is copied, as
 * POSIX says of a fork in a thread). */
static int copy_mm(struct proc *child, struct proc *me, uint32_t flags)
{
	if (flags & CLONE_VM) {
		mm_get(me->mm);
		child->mm = me->mm;
		return 0;
	}
	child->mm = mm_copy(me->mm);
	if (child->mm && ldt_fork(child->mm, me->mm) < 0) {	/* its LDT too */
		mm_put(child->mm);
		child->mm = NULL;
	}
	return child->mm ? 0 : -ENOMEM;
}

/* A copy of the caller, not yet runnable: fork and clone (kernel/task/thread.c)
 * adjust it, then fork_start() lets it run. It shares with the caller what
 * flags say (CLONE_VM, CLONE_FILES, CLONE_FS, CLONE_SIGHAND: Linux's
 * copy_process) and has a copy of the rest. NULL with *err set if not. */
struct proc *fork_prepare(uint32_t flags, int *err)
{
	struct proc *me = current(), *parent = me->group_leader;
	struct proc *child = proc_alloc(me->uid, parent->group->rlim[RLIMIT_NPROC].rlim_cur, NULL,
					flags & CLONE_SIGHAND, err);
	if (!child)
		return NULL;
	*err = -ENOMEM;
	if (copy_mm(child, me, flags) < 0) {
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
	child->exe = parent->exe;
	node_hold_exe(child->exe);	/* the parent's holds it: cannot fail */
	if (copy_files(child, me, flags & CLONE_FILES) < 0 ||
	    copy_fs(child, me, flags & CLONE_FS) < 0) {
		fork_abandon(child);
		return NULL;
	}
	return child;
}

/* A prepared child that clone found wrong after all (a bad TLS). */
void fork_abandon(struct proc *child)
{
	release_mm_files(child, false);
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
	struct proc *child = fork_prepare(SIGCHLD, &err);
	return child ? fork_start(child, false) : err;
}
