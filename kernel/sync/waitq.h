/*
 * waitq.h - wait queues: where tasks sleep until something happens.
 *
 * The pattern (the same as Linux's, and it is what prevents lost
 * wake-ups):
 *
 *	spin_lock(&obj->lock);
 *	while (!condition) {
 *		waitq_prepare(&obj->wq, &w, TASK_INTERRUPTIBLE);  // state set first
 *		spin_unlock(&obj->lock);
 *		schedule();				// returns at once if woken meanwhile
 *		waitq_finish(&obj->wq, &w);
 *		spin_lock(&obj->lock);
 *	}
 *
 * A waker changes the condition under obj->lock and then calls
 * waitq_wake_all(). Because the sleeper's state is set before it checks
 * the condition for the last time, a wake-up that comes between the check
 * and schedule() just makes schedule() return at once.
 */
#ifndef KERNEL_WAITQ_H
#define KERNEL_WAITQ_H

#include "lib/spinlock.h"

struct proc;

struct waiter {
	struct proc *proc;		/* the sleeper; NULL for a hook */
	struct waiter *next;
	void (*hook)(struct waiter *w);	/* a hook's function (proc NULL); unset else */
};

struct waitq {
	struct spinlock lock;
	struct waiter *head;
};

void waitq_init(struct waitq *wq, const char *name);
/* state: TASK_INTERRUPTIBLE or TASK_UNINTERRUPTIBLE (sched/sched.h). */
void waitq_prepare(struct waitq *wq, struct waiter *w, int state);
void waitq_finish(struct waitq *wq, struct waiter *w);
void waitq_wake_all(struct waitq *wq);
void waitq_hook_add(struct waitq *wq, struct waiter *w, void (*fn)(struct waiter *w));
void waitq_hook_remove(struct waitq *wq, struct waiter *w);

#endif
