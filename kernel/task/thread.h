/*
 * thread.h - what a thread library asks of the kernel about one thread:
 * its id word cleared at exit (set_tid_address), its robust-futex list
 * (set_robust_list), and rseq, which this kernel does not have.
 */
#ifndef KERNEL_THREAD_H
#define KERNEL_THREAD_H

#include <stdint.h>

struct user_desc;
int sys_clone(uint32_t flags, uint32_t newsp, int *uptid, struct user_desc *utls,
	      int *uctid);
int sys_clone3(void *uargs, uint32_t size);
/* 190 vfork: a child the caller waits for until it execs or exits. */
int sys_vfork(void);
/* p execs or exits: a vfork parent waiting for it goes on. */
struct proc;
void thread_vfork_release(struct proc *p);
int sys_set_tid_address(int *utidptr);
int sys_set_robust_list(void *uhead, uint32_t len);
int sys_get_robust_list(int tid, void **uhead_ptr, uint32_t *ulen_ptr);
int sys_rseq(void *urseq, uint32_t len, int flags, uint32_t sig);
/* 310: unshare(flags): what a process may unshare when it shares nothing
 * (0); namespaces are not built (EPERM for a user, else EINVAL). */
int sys_unshare(uint32_t flags);

/* Make the caller the only thread of its group, and its leader
 * (execve; Linux's de_thread): the others are killed and gone when it
 * returns 0; -EINTR if a fatal signal came first or another thread is
 * ending the group already. */
int proc_kill_other_threads(void);

#endif
