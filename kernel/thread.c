/*
 * thread.c - the per-thread calls glibc makes at start-up (and at every
 * pthread_create): set_tid_address (258), set_robust_list (311),
 * get_robust_list (312) and rseq (386), with Linux's results.
 *
 * A process here is still one thread, so its thread id is its pid. The
 * addresses are kept as Linux keeps them, for the thread exit that will
 * clear the id word and wake its futex (CLONE_CHILD_CLEARTID, issue 26).
 */
#include "thread.h"
#include "errno.h"
#include "proc.h"
#include "uaccess.h"

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
