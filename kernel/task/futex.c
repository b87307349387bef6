/*
 * futex.c - futex (240), futex_time64 (422) and futex_waitv (449): a
 * thread sleeps on a word (or, waitv, several words) of user memory while
 * each holds the value it expects, until another thread wakes one. glibc builds its mutexes, condition variables,
 * pthread_join and semaphores on these (man 2 futex, Linux 6.1's
 * kernel/futex/).
 *
 * A waiter is a futex_q on its own kernel stack, queued under the word's
 * key: the address space and the address for a private word (so the
 * threads of one group meet, and so do processes that share the space
 * through clone(CLONE_VM) or vfork, while a forked child's copy is
 * another word),
 * the physical address for a word in a MAP_SHARED mapping (so processes
 * sharing it meet). Teaching size: one lock over a small hash table of
 * queues, where Linux has a lock per bucket.
 *
 * Waking is the scheduler's wake-up (sched_wake_up), so a woken FIFO or
 * ISO thread preempts as after any sleep (docs/staircase.md §6.8: a task
 * that slept comes back at its best stair). Priority-inheritance futexes
 * (FUTEX_LOCK_PI and friends) are not built: ENOSYS, said once.
 */
#include "futex.h"
#include "kernel/time/systime.h"
#include <stddef.h>
#include <uapi/futex.h>
#include "lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/debug/printk.h"
#include "proc.h"
#include "signal.h"
#include "kernel/time/sleep.h"
#include "kernel/time/time.h"
#include "kernel/mm/uaccess.h"
#include "kernel/debug/trace.h"	/* TRACE_WAKE */

#define FUTEX_HASH	64

struct futex_key {
	uint32_t space;			/* the struct mm (private), 0 (shared) */
	uint32_t addr;			/* user address, or physical (shared) */
};

struct futex_q {
	struct futex_key key;
	uint32_t bitset;		/* WAIT_BITSET's; a wake must share a bit */
	struct proc *task;
	struct futex_q *next;
	bool woken;			/* set, under futex_lock, by the waker */
};

static struct spinlock futex_lock = SPINLOCK_INIT("futex");
static struct futex_q *queues[FUTEX_HASH];

static struct futex_q **bucket(const struct futex_key *k)
{
	return &queues[((k->addr >> 2) ^ k->space) % FUTEX_HASH];
}

static bool key_eq(const struct futex_key *a, const struct futex_key *b)
{
	return a->space == b->space && a->addr == b->addr;
}

/* ---- keys ------------------------------------------------------------ */

/* A private key needs no look at memory (as Linux: a wake on an unmapped
 * private word wakes no one); a shared one finds the page (EFAULT if
 * there is none) and keys a MAP_SHARED page by its frame. */
static int get_key(uint32_t uaddr, bool private, struct futex_key *k)
{
	struct mm *mm = current()->mm;

	if (uaddr & 3)
		return -EINVAL;
	if (uaddr >= KERNEL_OFFSET)
		return -EFAULT;
	*k = (struct futex_key){ (uint32_t)mm, uaddr };
	if (private)
		return 0;
	if (!user_range_ok((void *)uaddr, 4, false))
		return -EFAULT;
	mm_lock(mm);
	struct vm_area *a = mm_find(mm, uaddr);
	uint32_t pa = a && (a->flags & VMA_SHARED) ? vm_user_phys(mm->pgdir, uaddr, false) : 0;
	mm_unlock(mm);
	if (pa)
		*k = (struct futex_key){ 0, pa };
	return 0;
}

/* The word at uaddr under futex_lock, where nothing may fault (the
 * fault path takes the address space's lock, which may wait for a TLB
 * shootdown that a CPU spinning here could not answer): -EFAULT if its
 * page is not there, and the caller faults it in unlocked and retries. */
static int read_word(uint32_t uaddr, uint32_t *val)
{
	uint32_t pa = vm_user_phys(current()->mm->pgdir, uaddr, false);
	if (!pa)
		return -EFAULT;
	*val = *(volatile uint32_t *)P2V(pa);
	return 0;
}

/* Fault uaddr in (no lock held), then take futex_lock with its word
 * readable: 0, or -EFAULT if it is not mapped at all. */
static int lock_with_word(uint32_t uaddr, uint32_t *val)
{
	for (;;) {
		if (!user_range_ok((void *)uaddr, 4, false))
			return -EFAULT;
		spin_lock(&futex_lock);
		if (read_word(uaddr, val) == 0)
			return 0;
		spin_unlock(&futex_lock);	/* taken away meanwhile: again */
	}
}

/* ---- queues (futex_lock held) ----------------------------------------- */

static void enqueue(struct futex_q *q)
{
	struct futex_q **b = bucket(&q->key);
	q->next = *b;
	*b = q;
}

static void unqueue(struct futex_q *q)
{
	for (struct futex_q **pp = bucket(&q->key); *pp; pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			return;
		}
	}
}

/* The waiter's stack frame may be gone once woken is set and the lock
 * dropped: take what we need first. */
static void wake_one(struct futex_q *q)
{
	struct proc *t = q->task;
	unqueue(q);
	q->woken = true;
	TRACE_WAKE(WAKE_FUTEX, sched_wake_up(&t->sched));
}

/* Wake up to n of key's waiters that share a bit of bitset; Linux wakes
 * one even for n <= 0. How many woke. */
static int wake_key(const struct futex_key *k, int n, uint32_t bitset)
{
	int woke = 0;
	struct futex_q *q = *bucket(k), *next;
	for (; q; q = next) {
		next = q->next;
		if (!key_eq(&q->key, k) || !(q->bitset & bitset))
			continue;
		wake_one(q);
		if (++woke >= n)
			break;
	}
	return woke;
}

/* ---- wait --------------------------------------------------------------- */

/* Sleep until woken, a signal, or deadline (0: none); futex_lock is not
 * held, the state is set and q queued. */
static void wait_woken(struct futex_q *q, uint64_t deadline)
{
	if (deadline)
		sleep_timer_start(deadline);
	if (!q->woken && !signal_pending(current()) && (!deadline || clock_ns() < deadline))
		schedule();
	if (deadline)
		sleep_timer_cancel();
	sched_set_current_state(TASK_RUNNING);
}

static int futex_wait(uint32_t uaddr, bool private, uint32_t val, uint64_t deadline,
		      uint32_t bitset)
{
	struct futex_q q = { .bitset = bitset, .task = current() };
	uint32_t cur;

	if (!bitset)
		return -EINVAL;
	int err = get_key(uaddr, private, &q.key);
	if (err)
		return err;
	for (;;) {
		/* The value is read under the lock a waker takes: a thread
		 * that changes it and then wakes cannot slip in between. */
		if (lock_with_word(uaddr, &cur) < 0)
			return -EFAULT;
		if (cur != val) {
			spin_unlock(&futex_lock);
			return -EAGAIN;
		}
		q.woken = false;
		enqueue(&q);
		sched_set_current_state(TASK_INTERRUPTIBLE);
		spin_unlock(&futex_lock);
		wait_woken(&q, deadline);
		spin_lock(&futex_lock);
		if (!q.woken)
			unqueue(&q);
		spin_unlock(&futex_lock);
		if (q.woken)
			return 0;
		if (deadline && clock_ns() >= deadline)
			return -ETIMEDOUT;
		/* A handler makes it EINTR; a stop and continue restart it
		 * (a relative timeout then starts again: Linux keeps its end
		 * in a restart block). */
		if (signal_pending(current()))
			return deadline ? -ERESTARTNOHAND : -ERESTARTSYS;
		/* Spurious (the timer of an earlier sleep): wait again, as Linux. */
	}
}

/* ---- requeue and wake_op --------------------------------------------------- */

/* Wake nr_wake of uaddr's waiters and move up to nr_requeue others to
 * uaddr2 (CMP_REQUEUE: only while uaddr holds *cmpval). Woken + moved. */
static int futex_requeue(uint32_t uaddr, uint32_t uaddr2, bool private, int nr_wake,
			 int nr_requeue, const uint32_t *cmpval)
{
	struct futex_key k1, k2;
	int err, count = 0;
	uint32_t cur;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	if ((err = get_key(uaddr, private, &k1)) || (err = get_key(uaddr2, private, &k2)))
		return err;
	if (!cmpval)
		spin_lock(&futex_lock);
	else if (lock_with_word(uaddr, &cur) < 0)
		return -EFAULT;
	if (cmpval && cur != *cmpval) {
		spin_unlock(&futex_lock);
		return -EAGAIN;
	}
	struct futex_q *q = *bucket(&k1), *next;
	for (; q && count - nr_wake < nr_requeue; q = next) {
		next = q->next;
		if (!key_eq(&q->key, &k1))
			continue;
		if (++count <= nr_wake) {
			wake_one(q);
			continue;
		}
		unqueue(q);
		q->key = k2;
		enqueue(q);
	}
	spin_unlock(&futex_lock);
	return count;
}

static int sign_extend12(uint32_t v)
{
	return (int)(v << 20) >> 20;
}

/* FUTEX_WAKE_OP's operation on the word at kernel address w, atomic
 * against user threads on other CPUs: the old value, or -ENOSYS. */
static int64_t atomic_op(volatile uint32_t *w, uint32_t encoded)
{
	uint32_t op = (encoded >> 28) & 7;
	int oparg = sign_extend12(encoded >> 12);
	uint32_t old, new;

	if (encoded & (FUTEX_OP_OPARG_SHIFT << 28))
		oparg = 1 << (oparg & 31);	/* Linux masks a bad shift too */
	if (op > FUTEX_OP_XOR)
		return -ENOSYS;
	do {
		old = *w;
		switch (op) {
		case FUTEX_OP_SET:	new = (uint32_t)oparg; break;
		case FUTEX_OP_ADD:	new = old + (uint32_t)oparg; break;
		case FUTEX_OP_OR:	new = old | (uint32_t)oparg; break;
		case FUTEX_OP_ANDN:	new = old & ~(uint32_t)oparg; break;
		default:		new = old ^ (uint32_t)oparg; break;
		}
	} while (!__atomic_compare_exchange_n(w, &old, new, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	return old;
}

/* Whether the old value passes WAKE_OP's comparison, or -ENOSYS. */
static int op_compare(uint32_t encoded, int old)
{
	int cmparg = sign_extend12(encoded);
	switch ((encoded >> 24) & 15) {
	case FUTEX_OP_CMP_EQ:	return old == cmparg;
	case FUTEX_OP_CMP_NE:	return old != cmparg;
	case FUTEX_OP_CMP_LT:	return old < cmparg;
	case FUTEX_OP_CMP_LE:	return old <= cmparg;
	case FUTEX_OP_CMP_GT:	return old > cmparg;
	case FUTEX_OP_CMP_GE:	return old >= cmparg;
	default:		return -ENOSYS;
	}
}

/* Writing a user word: futex_lock, and the address space's lock first,
 * so that another thread's munmap cannot free the frame between the
 * look-up and the write (the order is mm, then futex: no path takes
 * them the other way round). */
static void user_word_lock(struct mm *mm)
{
	mm_lock(mm);
	spin_lock(&futex_lock);
}

static void user_word_unlock(struct mm *mm)
{
	spin_unlock(&futex_lock);
	mm_unlock(mm);
}

/* Change uaddr2 by val3's operation, wake nr_wake on uaddr, and if the
 * old value of uaddr2 passed val3's comparison, nr_wake2 on uaddr2. */
static int futex_wake_op(uint32_t uaddr, uint32_t uaddr2, bool private, int nr_wake,
			 int nr_wake2, uint32_t encoded)
{
	struct futex_key k1, k2;
	struct mm *mm = current()->mm;
	uint32_t pa;
	int err;

	if ((err = get_key(uaddr, private, &k1)) || (err = get_key(uaddr2, private, &k2)))
		return err;
	for (;;) {
		/* Faulted in writable first: nothing may fault under the lock. */
		if ((uaddr2 & 3) || !user_range_ok((void *)uaddr2, 4, true))
			return (uaddr2 & 3) ? -EINVAL : -EFAULT;
		user_word_lock(mm);
		pa = vm_user_phys(mm->pgdir, uaddr2, true);
		if (pa)
			break;
		user_word_unlock(mm);		/* taken away meanwhile: again */
	}
	int64_t old = atomic_op(P2V(pa), encoded);
	int pass = old < 0 ? (int)old : op_compare(encoded, (int)old);
	int woke = pass < 0 ? pass : wake_key(&k1, nr_wake, FUTEX_BITSET_MATCH_ANY);
	if (pass > 0)
		woke += wake_key(&k2, nr_wake2, FUTEX_BITSET_MATCH_ANY);
	user_word_unlock(mm);
	return woke;
}

/* ---- robust futexes at thread exit ---------------------------------------- */

/* Compare-and-exchange the user word at uaddr, atomic against threads on
 * other CPUs; its value before in *cur. 0, or -EFAULT. */
static int user_cmpxchg(uint32_t uaddr, uint32_t old, uint32_t new, uint32_t *cur)
{
	struct mm *mm = current()->mm;
	for (;;) {
		if (!user_range_ok((void *)uaddr, 4, true))
			return -EFAULT;
		user_word_lock(mm);
		uint32_t pa = vm_user_phys(mm->pgdir, uaddr, true);
		if (pa) {
			*cur = old;
			__atomic_compare_exchange_n((volatile uint32_t *)P2V(pa), cur, new, false,
						    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
			user_word_unlock(mm);
			return 0;
		}
		user_word_unlock(mm);		/* taken away meanwhile: again */
	}
}

/* Linux's handle_futex_death for a non-PI word: if tid owns it, mark the
 * owner dead (keeping FUTEX_WAITERS) and wake one waiter. pending: the
 * lock the thread was taking or dropping when it died; a 0 there may
 * have a waiter that must hear of it. */
static void futex_death(uint32_t uaddr, int tid, bool pending)
{
	uint32_t val, cur;
	if ((uaddr & 3) || copy_from_user(&val, (void *)uaddr, 4) < 0)
		return;
	if (pending && val == 0) {
		futex_wake_address(uaddr, 1);
		return;
	}
	for (;;) {
		if ((val & FUTEX_TID_MASK) != (uint32_t)tid)
			return;
		uint32_t dead = (val & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
		if (user_cmpxchg(uaddr, val, dead, &cur) < 0)
			return;
		if (cur == val)
			break;
		val = cur;			/* changed meanwhile: again */
	}
	if (val & FUTEX_WAITERS)
		futex_wake_address(uaddr, 1);
}

/* A list pointer's bit 0 says "priority-inheritance futex": not built
 * here, so such entries are skipped. */
static int fetch_entry(uint32_t uptr, uint32_t *entry, bool *pi)
{
	uint32_t v;
	if (copy_from_user(&v, (void *)uptr, 4) < 0)
		return -EFAULT;
	*entry = v & ~1u;
	*pi = v & 1;
	return 0;
}

/* struct robust_list_head on i386: list.next, futex_offset, list_op_pending. */
void futex_exit_robust(uint32_t uhead, int tid)
{
	uint32_t entry, next, pending;
	int32_t offset;
	bool pi, next_pi, pending_pi;

	if (fetch_entry(uhead, &entry, &pi) < 0 ||
	    copy_from_user(&offset, (void *)(uhead + 4), 4) < 0 ||
	    fetch_entry(uhead + 8, &pending, &pending_pi) < 0)
		return;
	for (int limit = ROBUST_LIST_LIMIT; entry != uhead && limit > 0; limit--) {
		int rc = fetch_entry(entry, &next, &next_pi);
		if (entry != pending && !pi)
			futex_death(entry + (uint32_t)offset, tid, false);
		if (rc < 0)
			return;
		entry = next;
		pi = next_pi;
	}
	if (pending && !pending_pi)
		futex_death(pending + (uint32_t)offset, tid, true);
}

/* ---- the calls ---------------------------------------------------------- */

static int futex_wake(uint32_t uaddr, bool private, int n, uint32_t bitset)
{
	struct futex_key k;
	if (!bitset)
		return -EINVAL;
	int err = get_key(uaddr, private, &k);
	if (err)
		return err;
	spin_lock(&futex_lock);
	int woke = wake_key(&k, n, bitset);
	spin_unlock(&futex_lock);
	return woke;
}

int futex_wake_address(uint32_t uaddr, int n)
{
	return futex_wake(uaddr, false, n, FUTEX_BITSET_MATCH_ANY);
}

static bool has_timeout(int cmd)
{
	return cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET || cmd == FUTEX_LOCK_PI ||
	       cmd == FUTEX_LOCK_PI2 || cmd == FUTEX_WAIT_REQUEUE_PI;
}

/* The deadline on clock_ns()'s scale: WAIT's timeout is relative, the
 * others' absolute (CLOCK_MONOTONIC, or CLOCK_REALTIME by the flag: that
 * one less the wall clock's offset, kernel/time/systime.c). */
static int deadline_of(int cmd, uint32_t utime, bool time64, bool realtime,
		       uint64_t *deadline)
{
	int64_t sec, nsec;
	if (time64) {
		int64_t ts[2];
		if (copy_from_user(ts, (void *)utime, sizeof(ts)) < 0)
			return -EFAULT;
		sec = ts[0];
		nsec = (int32_t)ts[1];		/* i386: the upper half is padding */
	} else {
		int32_t ts[2];
		if (copy_from_user(ts, (void *)utime, sizeof(ts)) < 0)
			return -EFAULT;
		sec = ts[0];
		nsec = ts[1];
	}
	if (sec < 0 || nsec < 0 || nsec >= 1000000000)
		return -EINVAL;
	uint64_t ns = (uint64_t)sec * 1000000000ull + (uint64_t)nsec;
	uint64_t off = realtime_offset_ns();
	if (cmd == FUTEX_WAIT)
		*deadline = clock_ns() + ns;
	else if (realtime)
		*deadline = ns > off ? ns - off : 1;	/* already past: 1 ns */
	else
		*deadline = ns;
	if (*deadline == 0)
		*deadline = 1;			/* 0 means "none" below */
	return 0;
}

static int pi_unsupported(int cmd)
{
	static bool said;
	if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		printk("futex: op %d (priority inheritance) is not built; -ENOSYS\n", cmd);
	return -ENOSYS;
}

/* Linux's do_futex, in its order of checks. */
static int do_futex(uint32_t uaddr, int op, uint32_t val, uint32_t utime, uint32_t uaddr2,
		    uint32_t val3, bool time64)
{
	int cmd = op & FUTEX_CMD_MASK;
	bool private = op & FUTEX_PRIVATE_FLAG;
	uint64_t deadline = 0;

	if (utime && has_timeout(cmd)) {
		int err = deadline_of(cmd, utime, time64, op & FUTEX_CLOCK_REALTIME, &deadline);
		if (err)
			return err;
	}
	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET &&
	    cmd != FUTEX_WAIT_REQUEUE_PI && cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, private, val, deadline, val3);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, private, (int)val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, uaddr2, private, (int)val, (int)utime, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, uaddr2, private, (int)val, (int)utime, &val3);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, uaddr2, private, (int)val, (int)utime, val3);
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
	case FUTEX_UNLOCK_PI:
	case FUTEX_TRYLOCK_PI:
	case FUTEX_WAIT_REQUEUE_PI:
	case FUTEX_CMP_REQUEUE_PI:
		return pi_unsupported(cmd);
	}
	return -ENOSYS;
}

int sys_futex(uint32_t uaddr, int op, uint32_t val, uint32_t utime, uint32_t uaddr2,
	      uint32_t val3)
{
	return do_futex(uaddr, op, val, utime, uaddr2, val3, false);
}

int sys_futex_time64(uint32_t uaddr, int op, uint32_t val, uint32_t utime, uint32_t uaddr2,
		     uint32_t val3)
{
	return do_futex(uaddr, op, val, utime, uaddr2, val3, true);
}

/* ---- futex_waitv ---------------------------------------------------------- */

/* A waitv word's flags Linux 6.1 accepts (its FUTEX2_VALID_MASK): the two
 * size bits, of which FUTEX_32's must be set, and private. */
#define WAITV_VALID_FLAGS	(0x3 | FUTEX_PRIVATE_FLAG)

/* One word of a waitv: where, the value it must hold, and its queue. */
struct waitv_word {
	uint32_t addr, val;
	bool private;
	struct futex_q q;
};

/* The woken one of a waitv's queues (the last, as Linux's
 * futex_unqueue_multiple), or -1; every other queue is unqueued. Called
 * with futex_lock held; n: how many were queued. */
static int unqueue_all(struct waitv_word *w, int n)
{
	int woken = -1;
	for (int i = 0; i < n; i++) {
		if (w[i].q.woken)
			woken = i;
		else
			unqueue(&w[i].q);
	}
	return woken;
}

/* Queue every word that still holds its value, under one futex_lock
 * hold (so no wake falls in between), and leave the task INTERRUPTIBLE:
 * 0; or -EAGAIN when a word differs, -EFAULT when one is not mapped,
 * nothing queued. */
static int waitv_queue(struct waitv_word *w, int n)
{
	for (;;) {
		for (int i = 0; i < n; i++)
			if (!user_range_ok((void *)w[i].addr, 4, false))
				return -EFAULT;
		spin_lock(&futex_lock);
		int i, err = 0;
		uint32_t cur;
		for (i = 0; i < n && !err; i++) {
			err = read_word(w[i].addr, &cur);
			if (!err && cur != w[i].val)
				err = -EAGAIN;
			if (!err) {
				w[i].q.woken = false;
				enqueue(&w[i].q);
			}
		}
		if (!err) {
			sched_set_current_state(TASK_INTERRUPTIBLE);
			spin_unlock(&futex_lock);
			return 0;
		}
		unqueue_all(w, i - 1);		/* the i-th failed: not queued */
		spin_unlock(&futex_lock);
		if (err == -EAGAIN)
			return err;		/* else taken away meanwhile: again */
	}
}

static bool any_woken(const struct waitv_word *w, int n)
{
	for (int i = 0; i < n; i++)
		if (w[i].q.woken)
			return true;
	return false;
}

/* Linux's futex_wait_multiple: the index of a woken word, or why not. */
static int waitv_sleep(struct waitv_word *w, int n, uint64_t deadline)
{
	for (;;) {
		int err = waitv_queue(w, n);
		if (err)
			return err;
		if (deadline)
			sleep_timer_start(deadline);
		if (!any_woken(w, n) && !signal_pending(current()) &&
		    (!deadline || clock_ns() < deadline))
			schedule();
		if (deadline)
			sleep_timer_cancel();
		sched_set_current_state(TASK_RUNNING);
		spin_lock(&futex_lock);
		int woken = unqueue_all(w, n);
		spin_unlock(&futex_lock);
		if (woken >= 0)
			return woken;
		if (deadline && clock_ns() >= deadline)
			return -ETIMEDOUT;
		if (signal_pending(current()))
			return -ERESTARTSYS;
		/* spurious (an earlier sleep's timer): wait again */
	}
}

/* The words from user memory (Linux's futex_parse_waitv), then their keys
 * (futex_wait_multiple_setup's first loop): 0, -EFAULT or -EINVAL. */
static int waitv_parse(uint32_t uwaiters, struct waitv_word *w, int n)
{
	for (int i = 0; i < n; i++) {
		struct futex_waitv u;
		if (copy_from_user(&u, (void *)(uwaiters + i * sizeof(u)), sizeof(u)) < 0)
			return -EFAULT;
		if ((u.flags & ~(uint32_t)WAITV_VALID_FLAGS) || u.__reserved ||
		    !(u.flags & FUTEX_32))
			return -EINVAL;
		w[i] = (struct waitv_word){ .addr = (uint32_t)u.uaddr, .val = (uint32_t)u.val,
					    .private = u.flags & FUTEX_PRIVATE_FLAG };
		w[i].q = (struct futex_q){ .bitset = FUTEX_BITSET_MATCH_ANY, .task = current() };
	}
	for (int i = 0; i < n; i++) {
		int err = get_key(w[i].addr, w[i].private, &w[i].q.key);
		if (err)
			return err;
	}
	return 0;
}

/* The absolute deadline on clock_ns()'s scale from a 64-bit timespec of
 * clockid's clock (MONOTONIC or REALTIME only). */
static int waitv_deadline(uint32_t utimeout, int clockid, uint64_t *deadline)
{
	if (clockid != CLOCK_MONOTONIC && clockid != CLOCK_REALTIME)
		return -EINVAL;
	return deadline_of(FUTEX_WAIT_BITSET, utimeout, true, clockid == CLOCK_REALTIME,
			   deadline);
}

/* Linux 6.1's sys_futex_waitv, in its order of checks. */
int sys_futex_waitv(uint32_t uwaiters, uint32_t n, uint32_t flags, uint32_t utimeout,
		    int clockid)
{
	uint64_t deadline = 0;

	if (flags)
		return -EINVAL;
	if (!n || n > FUTEX_WAITV_MAX || !uwaiters)
		return -EINVAL;
	if (utimeout) {
		int err = waitv_deadline(utimeout, clockid, &deadline);
		if (err)
			return err;
	}
	struct waitv_word *w = kmalloc(n * sizeof(*w));
	if (!w)
		return -ENOMEM;
	int ret = waitv_parse(uwaiters, w, (int)n);
	if (!ret)
		ret = waitv_sleep(w, (int)n, deadline);
	kfree(w);
	return ret;
}
