/*
 * uapi/futex.h - futex (240) and futex_time64 (422): Linux's operations,
 * flags and FUTEX_WAKE_OP encoding (linux/futex.h), defined here once for
 * the kernel (kernel/task/futex.c) and the project's tests.
 */
#ifndef UAPI_FUTEX_H
#define UAPI_FUTEX_H

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_FD		2
#define FUTEX_REQUEUE		3
#define FUTEX_CMP_REQUEUE	4
#define FUTEX_WAKE_OP		5
#define FUTEX_LOCK_PI		6
#define FUTEX_UNLOCK_PI		7
#define FUTEX_TRYLOCK_PI	8
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAKE_BITSET	10
#define FUTEX_WAIT_REQUEUE_PI	11
#define FUTEX_CMP_REQUEUE_PI	12
#define FUTEX_LOCK_PI2		13

#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_CMD_MASK		(~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))

/* WAIT_BITSET/WAKE_BITSET's bitset that matches every waiter (FUTEX_WAIT). */
#define FUTEX_BITSET_MATCH_ANY	0xffffffff

/* futex_waitv (449): one waiter of its array (Linux's struct
 * futex_waitv), its size flag, and how many an array may hold. */
struct futex_waitv {
	unsigned long long val;		/* the value expected (its low 32 bits) */
	unsigned long long uaddr;	/* the word's address */
	unsigned int flags;		/* FUTEX_32, optionally FUTEX_PRIVATE_FLAG */
	unsigned int __reserved;	/* 0 */
};
#define FUTEX_32		2
#define FUTEX_WAITV_MAX		128

/* A robust futex word (set_robust_list): the owner's tid, and these. */
#define FUTEX_WAITERS		0x80000000
#define FUTEX_OWNER_DIED	0x40000000
#define FUTEX_TID_MASK		0x3fffffff
/* At most this many entries of a robust list are walked at exit. */
#define ROBUST_LIST_LIMIT	2048

/* FUTEX_WAKE_OP's val3: op (4 bits), cmp (4), oparg (12), cmparg (12). */
#define FUTEX_OP_SET		0	/* uaddr2 = oparg */
#define FUTEX_OP_ADD		1	/* uaddr2 += oparg */
#define FUTEX_OP_OR		2	/* uaddr2 |= oparg */
#define FUTEX_OP_ANDN		3	/* uaddr2 &= ~oparg */
#define FUTEX_OP_XOR		4	/* uaddr2 ^= oparg */
#define FUTEX_OP_OPARG_SHIFT	8	/* op flag: use (1 << oparg) */

#define FUTEX_OP_CMP_EQ		0
#define FUTEX_OP_CMP_NE		1
#define FUTEX_OP_CMP_LT		2
#define FUTEX_OP_CMP_LE		3
#define FUTEX_OP_CMP_GT		4
#define FUTEX_OP_CMP_GE		5

#endif
