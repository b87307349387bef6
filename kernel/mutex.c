/*
 * mutex.c - sleeping locks, and the test hook that exercises them.
 */
#include <stddef.h>
#include "mutex.h"
#include "cpu.h"
#include "errno.h"
#include "lockstat.h"
#include "x86.h"
#include "panic.h"
#include "proc.h"
#include "sleep.h"
#include "time.h"

void mutex_init(struct mutex *m, const char *name)
{
	spin_init(&m->lock, name);
	waitq_init(&m->wait, name);
	m->owner = NULL;
	m->cls = NULL;
	m->last_cpu = -1;
	m->held_since = 0;
}

/* Statistics of a mutex just taken, under m->lock (kernel/lockstat.h);
 * since: the TSC when the caller first found it taken, 0 if it was free. */
static void mutex_taken(struct mutex *m, uint64_t since)
{
#ifdef LOCK_DEBUG
	if (!lockstat_on)
		return;
	uint64_t now = rdtsc();
	if (!m->cls)
		m->cls = lockstat_class(m->lock.name, LOCK_MUTEX);
	lockstat_acquired(m->cls, m->last_cpu, since ? now - since : 0, since != 0);
	m->last_cpu = cpu_id();
	m->held_since = now;
#else
	(void)m;
	(void)since;
#endif
}

void mutex_lock(struct mutex *m)
{
	struct waiter w;
	spin_lock(&m->lock);
	KASSERT(m->owner != current());
	uint64_t since = m->owner && lockstat_on ? rdtsc() : 0;
	while (m->owner) {
		waitq_prepare(&m->wait, &w, TASK_UNINTERRUPTIBLE);
		spin_unlock(&m->lock);
		schedule();
		waitq_finish(&m->wait, &w);
		spin_lock(&m->lock);
	}
	m->owner = current();
	mutex_taken(m, since);
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
	uint64_t since = m->owner && lockstat_on ? rdtsc() : 0;
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
	if (!err) {
		m->owner = p;
		mutex_taken(m, since);
	}
	spin_unlock(&m->lock);
	return err;
}

void mutex_unlock(struct mutex *m)
{
	spin_lock(&m->lock);
	KASSERT(m->owner == current());
#ifdef LOCK_DEBUG
	if (m->held_since) {		/* taken while counting */
		lockstat_released(m->cls, rdtsc() - m->held_since);
		m->held_since = 0;
	}
#endif
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
 *   5 SPIN_HOLD(us)     take the spinlock "test spin", hold it for us
 *                       microseconds (0..1000), release it: a lock the
 *                       lock-statistics test can contend on purpose
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
static struct spinlock test_spin = SPINLOCK_INIT("test spin");

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
	case 5:
		if (arg < 0 || arg > 1000)
			return -EINVAL;
		spin_lock(&test_spin);
		for (uint64_t end = clock_ns() + (uint64_t)arg * 1000; clock_ns() < end;)
			__asm__ volatile("pause");
		spin_unlock(&test_spin);
		return 0;
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
