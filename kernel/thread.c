/*
 * thread.c - the per-thread calls glibc makes at start-up (and at every
 * pthread_create): set_tid_address (258), set_robust_list (311),
 * get_robust_list (312) and rseq (386), with Linux's results; and clone
 * (120) as far as processes go: glibc's fork() is clone(SIGCHLD |
 * CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID).
 *
 * A process here is still one thread, so its thread id is its pid. The
 * addresses are kept as Linux keeps them, for the thread exit that will
 * clear the id word and wake its futex (CLONE_CHILD_CLEARTID, issue 26).
 */
#include "thread.h"
#include "errno.h"
#include "printk.h"
#include "proc.h"
#include "signal.h"
#include "tls.h"
#include "uaccess.h"
#include <uapi/clone.h>

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
		bool allowed = me->euid == 0 || me->uid == p->uid;
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

/* What fork-like clone may add to a copy of the caller. */
#define CLONE_FORK_FLAGS (CLONE_SETTLS | CLONE_PARENT_SETTID | \
			  CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)

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
	return true;
}

/* Sharing (threads, vfork's borrowed memory) is not built yet: say so
 * once, and answer as a kernel without the feature would. */
static int clone_unsupported(uint32_t flags)
{
	static bool said;
	if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		printk("clone: flags 0x%x share memory, files or handlers; only "
		       "fork-like clone is built (threads: issue 26); -ENOSYS\n", flags);
	return -ENOSYS;
}

/* The child's own settings from clone's arguments. */
static int clone_setup(struct proc *child, uint32_t flags, uint32_t newsp,
		       struct user_desc *utls, int *uctid)
{
	if (newsp)
		child->tf->esp = newsp;
	if (flags & CLONE_CHILD_SETTID)
		child->set_child_tid = uctid;
	if (flags & CLONE_CHILD_CLEARTID)
		child->clear_child_tid = uctid;
	if (flags & CLONE_SETTLS)
		return tls_set(child, utls, false);
	return 0;
}

/* 120 clone(flags, newsp, parent_tidptr, tls, child_tidptr): i386's
 * argument order. Only SIGCHLD as the exit signal for now: another would
 * need wait4's __WCLONE. */
int sys_clone(uint32_t flags, uint32_t newsp, int *uptid, struct user_desc *utls,
	      int *uctid)
{
	if (!clone_flags_ok(flags))
		return -EINVAL;
	if ((flags & ~(uint32_t)CSIGNAL & ~(uint32_t)CLONE_FORK_FLAGS) ||
	    (flags & CSIGNAL) != SIGCHLD)
		return clone_unsupported(flags);
	int err;
	struct proc *child = fork_prepare(&err);
	if (!child)
		return err;
	err = clone_setup(child, flags, newsp, utls, uctid);
	if (err == 0 && (flags & CLONE_PARENT_SETTID) &&
	    copy_to_user(uptid, &child->pid, sizeof(child->pid)) < 0)
		err = -EFAULT;
	if (err < 0) {
		fork_abandon(child);
		return err;
	}
	return fork_start(child);
}
