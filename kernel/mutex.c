/*
 * mutex.c - sleeping locks, and the test hook that exercises them.
 */
#include <stddef.h>
#include "mutex.h"
#include "errno.h"
#include "panic.h"
#include "proc.h"
#include "sleep.h"
#include "time.h"

void mutex_init(struct mutex *m, const char *name)
{
	spin_init(&m->lock, name);
	waitq_init(&m->wait, name);
	m->owner = NULL;
}

void mutex_lock(struct mutex *m)
{
	struct waiter w;
	spin_lock(&m->lock);
	KASSERT(m->owner != current());
	while (m->owner) {
		waitq_prepare(&m->wait, &w, TASK_UNINTERRUPTIBLE);
		spin_unlock(&m->lock);
		schedule();
		waitq_finish(&m->wait, &w);
		spin_lock(&m->lock);
	}
	m->owner = current();
	spin_unlock(&m->lock);
}

/*
 * The same, but a kill ends the wait (Linux's mutex_lock_killable): the
 * sleep is uninterruptible for everything else, so it still counts as one
 * for the scheduler (a BATCH waiter is elevated when it gets the lock,
 * staircase.md §7.4). Returns 0 with the mutex held, or -EINTR without it.
 */
int mutex_lock_killable(struct mutex *m)
{
	struct proc *p = current();
	struct waiter w;
	int err = 0;

	spin_lock(&m->lock);
	KASSERT(m->owner != p);
	while (m->owner) {
		p->killable = 1;
		waitq_prepare(&m->wait, &w, TASK_UNINTERRUPTIBLE);
		/* state set, then SIGKILL read; a sender sets it, then reads
		 * the state (kernel/signal.c: kick): one of us sees the other */
		__sync_synchronize();
		if (signal_fatal_pending(p)) {
			waitq_finish(&m->wait, &w);
			err = -EINTR;
			break;
		}
		spin_unlock(&m->lock);
		schedule();
		waitq_finish(&m->wait, &w);
		spin_lock(&m->lock);
	}
	p->killable = 0;
	if (!err)
		m->owner = p;
	spin_unlock(&m->lock);
	return err;
}

void mutex_unlock(struct mutex *m)
{
	spin_lock(&m->lock);
	KASSERT(m->owner == current());
	m->owner = NULL;
	spin_unlock(&m->lock);
	waitq_wake_all(&m->wait);
}

/*
 * sys_test_mutex(op, arg) - system call 503, exists for tests only.
 *   0 LOCK(index)       take test mutex index (0..3), sleeping
 *                       uninterruptibly while another task holds it (a
 *                       kill ends the wait: -EINTR, as TASK_KILLABLE)
 *   1 UNLOCK(index)     release it (-EPERM if not the owner)
 *   2 HOLD_SLEEP(ms)    take mutex 0, sleep uninterruptibly for ms
 *                       (as if waiting for a disk), release it: all in
 *                       kernel mode, which is where the BATCH rule matters
 *   3 KERNEL_SPIN(ms)   root only: stay in kernel mode, interrupts on,
 *                       for ms without scheduling (the watchdog's test)
 *   4 STACK_OVERFLOW    root only: recurse in kernel mode until the
 *                       kernel stack's guard page stops it (a panic)
 * Returns 0, or -EINVAL for a bad op, index or ms.
 */
/* Op 4: each call takes 512 bytes more of the 8 KiB kernel stack. */
static volatile int keep_recursing = 1;

static __attribute__((noinline)) int overflow_stack(int depth)
{
	volatile char frame[512];
	frame[0] = (char)depth;
	return keep_recursing ? overflow_stack(depth + 1) + frame[0] : 0;
}

#define TEST_MUTEXES 4
static struct mutex test_mutexes[TEST_MUTEXES];
static bool test_mutexes_ready;
static struct spinlock init_lock = SPINLOCK_INIT("test mutex init");

int sys_test_mutex(int op, int arg)
{
	spin_lock(&init_lock);
	if (!test_mutexes_ready) {
		for (int i = 0; i < TEST_MUTEXES; i++)
			mutex_init(&test_mutexes[i], "test mutex");
		test_mutexes_ready = true;
	}
	spin_unlock(&init_lock);

	switch (op) {
	case 0:
	case 1:
		if (arg < 0 || arg >= TEST_MUTEXES)
			return -EINVAL;
		if (op == 0) {
			if (test_mutexes[arg].owner == current())
				return -EINVAL;	/* would deadlock */
			return mutex_lock_killable(&test_mutexes[arg]);
		} else {
			if (test_mutexes[arg].owner != current())
				return -EPERM;
			mutex_unlock(&test_mutexes[arg]);
		}
		return 0;
	case 2:
		if (arg < 0 || arg > 10000)
			return -EINVAL;
		if (test_mutexes[0].owner == current())
			return -EINVAL;
		if (mutex_lock_killable(&test_mutexes[0]) < 0)
			return -EINTR;
		sleep_until(clock_ns() + (uint64_t)arg * 1000000, TASK_UNINTERRUPTIBLE);
		mutex_unlock(&test_mutexes[0]);
		return 0;
	case 3:
		if (current()->euid != 0)
			return -EPERM;
		if (arg < 0 || arg > 10000)
			return -EINVAL;
		for (uint64_t end = clock_ns() + (uint64_t)arg * 1000000; clock_ns() < end;)
			__asm__ volatile("pause");
		return 0;
	case 4:
		if (current()->euid != 0)
			return -EPERM;
		return overflow_stack(0);
	default:
		return -EINVAL;
	}
}

/* exit: a process that dies holding a test mutex must not leave every
 * later user of it asleep for ever. (Kernel code proper never exits with
 * a mutex held; only this test hook can leave one held across calls.) */
void test_mutex_release_all(void)
{
	if (!test_mutexes_ready)
		return;
	for (int i = 0; i < TEST_MUTEXES; i++)
		if (test_mutexes[i].owner == current())
			mutex_unlock(&test_mutexes[i]);
}
