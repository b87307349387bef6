/*
 * thread.c - the per-thread calls glibc makes at start-up (and at every
 * pthread_create): set_tid_address (258), set_robust_list (311),
 * get_robust_list (312) and rseq (386), with Linux's results; clone (120)
 * and vfork (190), and unshare (310).
 *
 * clone without CLONE_THREAD makes a process: glibc's fork() is
 * clone(SIGCHLD | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID), and
 * CLONE_VM, CLONE_FILES, CLONE_FS and CLONE_SIGHAND make it share the
 * caller's memory, descriptors, fs information or handlers
 * (kernel/task/fork.c). clone with CLONE_THREAD makes a thread: a new
 * task in the caller's group (kernel/task/proc.h says what the group
 * shares). Its exit clears the id word set_tid_address or
 * CLONE_CHILD_CLEARTID named and wakes a futex waiter there
 * (kernel/task/exit.c), which is how pthread_join returns.
 */
#include "thread.h"
#include "lib/errno.h"
#include "kernel/debug/printk.h"
#include "pid.h"
#include "proc.h"
#include "proc_internal.h"
#include "signal.h"
#include "kernel/time/sleep.h"
#include "kernel/time/time.h"
#include "kernel/arch/tls.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include <uapi/clone.h>
#include "kernel/debug/trace.h"	/* TRACE_WAKE */

/* Linux's struct robust_list_head on i386: list, futex_offset, pending. */
#define ROBUST_LIST_HEAD_SIZE	12

/* Where exit is to write 0 (and wake a futex waiter): glibc points it at
 * its thread descriptor's tid, so pthread_join sees the thread gone. */
int sys_set_tid_address(int *utidptr)
{
	struct proc *p = current();
	p->clear_child_tid = utidptr;
	return p->pid;
}

/* Only the size is checked, as Linux: the list itself is user memory,
 * read (if ever) when the thread dies. */
int sys_set_robust_list(void *uhead, uint32_t len)
{
	if (len != ROBUST_LIST_HEAD_SIZE)
		return -EINVAL;
	current()->robust_list = uhead;
	return 0;
}

/* 0 is the caller. Another process's list needs Linux's ptrace read
 * permission: root, or the same real uid (no ptrace here, so no more). */
int sys_get_robust_list(int tid, void **uhead_ptr, uint32_t *ulen_ptr)
{
	struct proc *me = current();
	void *head = me->robust_list;
	if (tid != 0 && tid != me->pid) {
		struct proc *p = proc_get(tid);
		if (!p)
			return -ESRCH;
		bool allowed = proc_capable(me, CAP_SYS_PTRACE) || me->uid == p->uid;
		head = p->robust_list;
		proc_put(p);
		if (!allowed)
			return -EPERM;
	}
	uint32_t len = ROBUST_LIST_HEAD_SIZE;
	if (copy_to_user(ulen_ptr, &len, sizeof(len)) < 0 ||
	    copy_to_user(uhead_ptr, &head, sizeof(head)) < 0)
		return -EFAULT;
	return 0;
}

/* Restartable sequences: not here. glibc 2.35+ registers one at start-up
 * and, given ENOSYS, goes on without (sched_getcpu falls back to getcpu),
 * as on a kernel built without CONFIG_RSEQ. Deliberate, so not logged. */
int sys_rseq(void *urseq, uint32_t len, int flags, uint32_t sig)
{
	(void)urseq;
	(void)len;
	(void)flags;
	(void)sig;
	return -ENOSYS;
}

/* What clone may ask of a new process: to share the caller's memory
 * (CLONE_VM), descriptors (CLONE_FILES), fs information (CLONE_FS) or
 * handlers (CLONE_SIGHAND) rather than copy them (kernel/task/fork.c),
 * and the rest of its settings. CLONE_VFORK (vfork, glibc's posix_spawn
 * with CLONE_VM) makes the parent wait until the child execs or exits,
 * as Linux's: with CLONE_VM the child runs in the parent's memory,
 * which it lends. */
#define CLONE_FORK_FLAGS (CLONE_SETTLS | CLONE_PARENT_SETTID | \
			  CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | \
			  CLONE_VM | CLONE_VFORK | CLONE_PARENT | \
			  CLONE_FS | CLONE_FILES | CLONE_SIGHAND)
/* A thread shares its memory and handlers (clone_flags_ok: Linux's
 * rules), and what else it asks for: glibc's pthread_create asks for its
 * descriptors and fs information too. */
#define CLONE_THREAD_FLAGS (CLONE_VM | CLONE_SIGHAND | CLONE_THREAD | CLONE_FS | CLONE_FILES | \
			    CLONE_SYSVSEM | CLONE_SETTLS | \
			    CLONE_PARENT_SETTID | CLONE_CHILD_SETTID | \
			    CLONE_CHILD_CLEARTID | CLONE_DETACHED | CLONE_PARENT | CSIGNAL)

/* Combinations Linux's copy_process() refuses with EINVAL: a thread
 * shares its handlers, and shared handlers need shared memory. */
static bool clone_flags_ok(uint32_t flags)
{
	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS))
		return false;
	if ((flags & (CLONE_NEWUSER | CLONE_FS)) == (CLONE_NEWUSER | CLONE_FS))
		return false;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return false;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return false;
	/* init has no parent to give (Linux: SIGNAL_UNKILLABLE) */
	if ((flags & CLONE_PARENT) && current()->group_leader->pid == 1)
		return false;
	return true;
}

/* Other flags (a process sharing its semaphore undo list, an exit
 * signal other than SIGCHLD, a namespace) are not built: say so once, and
 * answer as a kernel without the feature would. */
static int clone_unsupported(uint32_t flags)
{
	static bool said;
	if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		printk("clone: flags 0x%x: only threads and processes sharing "
		       "CLONE_VM, FS, FILES, SIGHAND (and VFORK, an exit signal SIGCHLD) "
		       "are built; -ENOSYS\n", flags);
	return -ENOSYS;
}

/* The child's own settings from clone's arguments. */
static int clone_setup(struct proc *child, uint32_t flags, uint32_t newsp,
		       struct user_desc *utls, int *uptid, int *uctid)
{
	if (newsp)
		child->tf->esp = newsp;
	if (flags & CLONE_CHILD_SETTID)
		child->set_child_tid = uctid;
	if (flags & CLONE_CHILD_CLEARTID)
		child->clear_child_tid = uctid;
	int err = (flags & CLONE_SETTLS) ? tls_set(child, utls, false) : 0;
	if (err < 0)
		return err;
	if ((flags & CLONE_PARENT_SETTID) &&
	    copy_to_user(uptid, &child->pid, sizeof(child->pid)) < 0)
		return -EFAULT;
	return 0;
}

/* vfork's parent waits on this, on its own stack, until the child lets
 * it go (thread_vfork_release) or a kill ends the wait. */
struct vfork_done {
	struct waitq wq;
	volatile bool done;
};
/* A child's vfork_done and its done flag (a parent killed meanwhile
 * takes the pointer back under it). */
static struct spinlock vfork_lock = SPINLOCK_INIT("vfork");

void thread_vfork_release(struct proc *p)
{
	if (!__atomic_load_n(&p->vfork_done, __ATOMIC_ACQUIRE))
		return;			/* not a vfork child, or told already */
	spin_lock(&vfork_lock);
	struct vfork_done *d = p->vfork_done;
	p->vfork_done = NULL;
	if (d) {
		d->done = true;
		TRACE_WAKE(WAKE_EXIT, waitq_wake_all(&d->wq));
	}
	spin_unlock(&vfork_lock);
}

/* Until the child execs or exits (Linux's wait_for_vfork_done): killable,
 * other signals wait. */
static void vfork_wait(struct proc *child, struct vfork_done *d)
{
	struct proc *me = current();
	struct waiter w;
	me->killable = 1;
	while (!d->done) {
		waitq_prepare(&d->wq, &w, TASK_UNINTERRUPTIBLE);
		__sync_synchronize();		/* state set, then the flags read (mutex.c) */
		if (d->done || signal_fatal_pending(me)) {
			waitq_finish(&d->wq, &w);
			break;
		}
		schedule();
		waitq_finish(&d->wq, &w);
	}
	me->killable = 0;
	spin_lock(&vfork_lock);		/* and the child's wake-up is over */
	if (!d->done)
		child->vfork_done = NULL;	/* killed: not done means the child lives */
	spin_unlock(&vfork_lock);
}

static int clone_process(uint32_t flags, uint32_t newsp, int *uptid, struct user_desc *utls,
			 int *uctid)
{
	int err;
	struct vfork_done d = { .done = false };
	struct proc *child = fork_prepare(flags, &err);
	if (!child)
		return err;
	err = clone_setup(child, flags, newsp, utls, uptid, uctid);
	if (err < 0) {
		fork_abandon(child);
		return err;
	}
	if (flags & CLONE_VFORK) {
		waitq_init(&d.wq, "vfork");
		child->vfork_done = &d;
	}
	int pid = fork_start(child, flags & CLONE_PARENT);
	if (flags & CLONE_VFORK)
		vfork_wait(child, &d);
	return pid;
}

/* 190 vfork: clone(CLONE_VM | CLONE_VFORK | SIGCHLD), as Linux's. */
int sys_vfork(void)
{
	return sys_clone(CLONE_VM | CLONE_VFORK | SIGCHLD, 0, NULL, NULL, NULL);
}

/* A new thread of the caller's group: its own task (tid, registers, TLS,
 * signal mask, scheduling state), everything else the group's
 * (kernel/task/proc.h), but descriptors and fs information it did not
 * ask to share (CLONE_FILES, CLONE_FS), of which it gets copies. The
 * staircase schedules it as any task: its own burst and slice, no share
 * of the group's (docs/staircase.md). */
static struct proc *thread_prepare(uint32_t flags, int *err)
{
	struct proc *me = current(), *leader = me->group_leader;
	struct proc *t = proc_alloc(me->uid, me->group->rlim[RLIMIT_NPROC].rlim_cur, me->group,
				    false, err);
	if (!t)
		return NULL;
	t->group_leader = leader;		/* thread_start counts it in the group */
	mm_get(me->mm);				/* the group's address space */
	t->mm = me->mm;
	if (copy_files(t, me, flags & CLONE_FILES) < 0 || copy_fs(t, me, flags & CLONE_FS) < 0) {
		*err = -ENOMEM;
		fork_abandon(t);
		return NULL;
	}
	*t->tf = *me->tf;
	t->tf->eax = 0;			/* clone returns 0 in the new thread */
	t->tls = me->tls;
	fpu_save(&t->fpu);
	proc_copy_ids(t, me);
	t->sig_blocked = me->sig_blocked;
	return t;
}

/* Runnable, unless the group is ending: then it never ran. */
static int thread_start(struct proc *t)
{
	struct proc *leader = t->group_leader;
	spin_lock(&signal_lock);
	bool ending = leader->group->exiting;
	if (!ending) {
		leader->group->nr_threads++;
		t->pstate = P_LIVE;
	}
	spin_unlock(&signal_lock);
	if (ending)
		return -EAGAIN;
	int tid = t->pid;
	sched_fork(&current()->sched, &t->sched);
	sched_wake_new(&t->sched);
	return tid;
}

static int clone_thread(uint32_t flags, uint32_t newsp, int *uptid, struct user_desc *utls,
			int *uctid)
{
	int err;
	struct proc *t = thread_prepare(flags, &err);
	if (!t)
		return err;
	err = clone_setup(t, flags, newsp, utls, uptid, uctid);
	if (!err)
		err = thread_start(t);
	if (err < 0)
		fork_abandon(t);	/* its uses of the address space, files, fs end */
	return err;
}

/* 120 clone(flags, newsp, parent_tidptr, tls, child_tidptr): i386's
 * argument order. A process's exit signal is SIGCHLD only for now:
 * another would need wait4's __WCLONE. */
int sys_clone(uint32_t flags, uint32_t newsp, int *uptid, struct user_desc *utls,
	      int *uctid)
{
	if (!clone_flags_ok(flags))
		return -EINVAL;
	if (flags & CLONE_THREAD) {
		if (flags & ~(uint32_t)CLONE_THREAD_FLAGS)
			return clone_unsupported(flags);
		return clone_thread(flags, newsp, uptid, utls, uctid);
	}
	/* CLONE_PARENT: the child is a sibling, and signals the parent as
	 * the caller does (Linux takes the caller's exit signal, not CSIGNAL) */
	if ((flags & ~(uint32_t)CSIGNAL & ~(uint32_t)CLONE_FORK_FLAGS) ||
	    (!(flags & CLONE_PARENT) && (flags & CSIGNAL) != SIGCHLD))
		return clone_unsupported(flags);
	return clone_process(flags, newsp, uptid, utls, uctid);
}

/* What unshare knows (Linux's check_unshare_flags), and the namespaces
 * among them, none of which is built here. */
#define UNSHARE_FLAGS (CLONE_THREAD | CLONE_FS | CLONE_NEWNS | CLONE_SIGHAND | CLONE_VM | \
		       CLONE_FILES | CLONE_SYSVSEM | CLONE_NEWUTS | CLONE_NEWIPC | \
		       CLONE_NEWNET | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWCGROUP | \
		       CLONE_NEWTIME)
#define UNSHARE_NAMESPACES (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | \
			    CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWCGROUP | CLONE_NEWTIME)

/* Linux 6.1's ksys_unshare, in its order. A task may share its fs
 * information or descriptors with other threads or processes (clone's
 * CLONE_FS, CLONE_FILES): unsharing gives it a copy of its own, and when
 * nothing is shared there is nothing to do and the answer is 0, as
 * Linux's. Its thread group, memory and handlers cannot be unshared
 * beside other threads, nor memory or handlers another process shares
 * (EINVAL, Linux's check_unshare_flags). A namespace needs root (EPERM),
 * then is EINVAL, as on a kernel built without namespaces; a user
 * namespace, asked for, is EINVAL first. */
int sys_unshare(uint32_t flags)
{
	struct proc *me = current();
	bool alone = me->group_leader->group->nr_threads == 1;

	if (flags & CLONE_NEWUSER)
		flags |= CLONE_THREAD | CLONE_FS;
	if (flags & CLONE_VM)
		flags |= CLONE_SIGHAND;
	if (flags & CLONE_SIGHAND)
		flags |= CLONE_THREAD;
	if (flags & CLONE_NEWNS)
		flags |= CLONE_FS;
	if ((flags & ~(uint32_t)UNSHARE_FLAGS) ||
	    ((flags & (CLONE_THREAD | CLONE_SIGHAND | CLONE_VM)) && !alone))
		return -EINVAL;
	if ((flags & (CLONE_SIGHAND | CLONE_VM)) &&
	    __atomic_load_n(&me->group->sighand->count, __ATOMIC_RELAXED) > 1)
		return -EINVAL;
	if ((flags & CLONE_VM) && __atomic_load_n(&me->mm->users, __ATOMIC_RELAXED) > 1)
		return -EINVAL;
	if (flags & CLONE_NEWUSER)
		return -EINVAL;		/* Linux makes the user namespace first */
	if (flags & UNSHARE_NAMESPACES)
		return !proc_capable(me, CAP_SYS_ADMIN) ? -EPERM : -EINVAL;
	int err = (flags & CLONE_FS) ? fs_unshare(me) : 0;
	if (!err && (flags & CLONE_FILES))
		err = files_unshare(me);
	return err;
}

/* 435 clone3: ENOSYS, as Linux before 5.3; glibc then uses clone. */
int sys_clone3(void *uargs, uint32_t size)
{
	(void)uargs;
	(void)size;
	return -ENOSYS;
}

/*
 * exec from a thread other than the leader, once the others are gone
 * (proc_kill_other_threads): the caller becomes the group's leader, with
 * its pid, parent, children and everything the group shared, and the old
 * leader's slot is let go (Linux's de_thread). The caller's own tid is
 * forgotten, as on Linux.
 */
static void thread_become_leader(struct proc *p, struct proc *leader)
{
	p->exe = leader->exe;			/* and its hold */
	leader->exe = NULL;
	/* p has holds of its own on what it uses; the old leader lets go of
	 * its own (under its task lock: a /proc reader that still finds the
	 * group by it sees them there or nowhere). */
	release_mm_files(leader, false);
	proc_take_family(p, leader);	/* and its pid; family locks before signal_lock */
	spin_lock(&signal_lock);
	pid_set_groups(p, leader->pgid, leader->sid);
	p->did_exec = leader->did_exec;
	p->start_ns = leader->start_ns;
	/* The group (its handlers, pending signals, limits, timers and
	 * times) stays as it is: only its leader changes. The old leader's
	 * time joins the dead threads'. */
	p->group->leader = p;
	group_add_dead(p->group, leader);
	p->group_leader = p;
	p->child_subreaper = leader->child_subreaper;	/* the process's, kept by exec */
	p->group->nr_threads = 1;
	p->group->exiting = false;
	proc_forget_locked(leader);
	spin_unlock(&signal_lock);
}

/*
 * exec's de_thread. nr_threads counts the threads not yet exited, so a
 * count of 1 says the caller is the only one left, not that it leads:
 * a leader that exited first (pthread_exit in main, or an exit_group
 * that lost the race with this exec) is a zombie whose slot still holds
 * the group's address space and files. The caller must then become the
 * leader all the same (Linux waits for the leader to be a zombie and
 * takes its place); exec'ing in place would leave the leader's slot
 * holding the old address space and files, which the group's end would
 * then let go instead of the new ones. Only a leader alone may skip this.
 */
int proc_kill_other_threads(void)
{
	struct proc *p = current(), *leader = p->group_leader;

	if (p == leader && leader->group->nr_threads == 1)
		return 0;	/* alone: nobody else can change the count */
	spin_lock(&signal_lock);
	bool lost = leader->group->exiting;
	if (!lost) {
		leader->group->exiting = true;	/* no new threads meanwhile */
		proc_kill_group_locked(p);
	}
	spin_unlock(&signal_lock);
	if (lost)
		return -EINTR;
	while (leader->group->nr_threads > 1 && !signal_fatal_pending(p))
		sleep_until(clock_ns() + 100000, TASK_UNINTERRUPTIBLE);
	spin_lock(&signal_lock);
	leader->group->exiting = false;
	lost = leader->group->nr_threads > 1;
	spin_unlock(&signal_lock);
	if (lost)
		return -EINTR;
	if (p != leader) {
		int tid = p->pid;
		thread_become_leader(p, leader);
		sched_note_pid_change(&p->sched, tid);	/* a trace's replay follows it */
	}
	return 0;
}
