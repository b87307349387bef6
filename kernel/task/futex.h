/*
 * futex.h - fast user-space locking: a thread sleeps on a word of its
 * memory until another wakes it (kernel/task/futex.c).
 */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include <stdint.h>

/* 240: futex(uaddr, op, val, timeout or val2, uaddr2, val3), with
 * Linux i386's 32-bit timespec; 422: futex_time64, a 64-bit one. */
int sys_futex(uint32_t uaddr, int op, uint32_t val, uint32_t utime, uint32_t uaddr2,
	      uint32_t val3);
int sys_futex_time64(uint32_t uaddr, int op, uint32_t val, uint32_t utime, uint32_t uaddr2,
		     uint32_t val3);
/* 449: futex_waitv(waiters, n, flags, timeout, clockid): sleep on up to
 * 128 words at once until one is woken (its index), each word holding
 * its expected value; timeout absolute, a 64-bit timespec. */
int sys_futex_waitv(uint32_t uwaiters, uint32_t n, uint32_t flags, uint32_t utimeout,
		    int clockid);
/* Wake up to n waiters on the caller's word at uaddr (thread exit's
 * CLONE_CHILD_CLEARTID); how many woke. */
int futex_wake_address(uint32_t uaddr, int n);

/* Thread exit: every robust futex on the list at uhead (set_robust_list)
 * that thread tid still owns is marked FUTEX_OWNER_DIED, and a waiter
 * woken (Linux's exit_robust_list). */
void futex_exit_robust(uint32_t uhead, int tid);

#endif
