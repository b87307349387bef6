/*
 * mutex.c - sleeping locks (their test call, 503, is kernel/debug/selftest.c's).
 */
#include <stddef.h>
#include "mutex.h"
#include "kernel/arch/cpu.h"
#include "lib/errno.h"
#include "lockstat.h"
#include "kernel/arch/x86.h"
#include "kernel/debug/panic.h"
#include "kernel/task/proc.h"
#include "kernel/time/sleep.h"
#include "kernel/time/time.h"
#include "kernel/debug/trace.h"	/* TRACE_WAKE */

void mutex_init(struct mutex *m, const char *name)
{
	spin_init(&m->lock, name);
	waitq_init(&m->wait, name);
	m->owner = NULL;
	m->cls = NULL;
	m->last_cpu = -1;
	m->held_since = 0;
}

/* Statistics of a mutex just taken, under m->lock (kernel/sync/lockstat.h);
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
		 * the state (kernel/task/signal.c: kick): one of us sees the other */
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
	TRACE_WAKE(WAKE_LOCK, waitq_wake_all(&m->wait));
}
