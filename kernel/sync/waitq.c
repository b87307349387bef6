/*
 * waitq.c - wait queue operations (see waitq.h for the sleep pattern).
 */
#include <stddef.h>
#include "waitq.h"
#include "kernel/task/proc.h"

void waitq_init(struct waitq *wq, const char *name)
{
	spin_init(&wq->lock, name);
	wq->head = NULL;
}

void waitq_prepare(struct waitq *wq, struct waiter *w, int state)
{
	w->proc = current();
	spin_lock(&wq->lock);
	w->next = wq->head;
	wq->head = w;
	sched_set_current_state(state);
	spin_unlock(&wq->lock);
}

static void unlink(struct waitq *wq, struct waiter *w)
{
	spin_lock(&wq->lock);
	for (struct waiter **pp = &wq->head; *pp; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	spin_unlock(&wq->lock);
}

void waitq_finish(struct waitq *wq, struct waiter *w)
{
	sched_set_current_state(TASK_RUNNING);
	unlink(wq, w);
}

void waitq_wake_all(struct waitq *wq)
{
	spin_lock(&wq->lock);
	for (struct waiter *w = wq->head; w; w = w->next) {
		struct proc *p = w->proc;
		if (p)
			sched_wake_up(&p->sched);
		else
			w->hook(w);		/* no sleeper: a hook */
	}
	spin_unlock(&wq->lock);
}

void waitq_hook_add(struct waitq *wq, struct waiter *w, void (*fn)(struct waiter *w))
{
	w->proc = NULL;
	w->hook = fn;
	spin_lock(&wq->lock);
	w->next = wq->head;
	wq->head = w;
	spin_unlock(&wq->lock);
}

/* Under the queue's lock, as the wake-ups that call it: after it, none. */
void waitq_hook_remove(struct waitq *wq, struct waiter *w)
{
	unlink(wq, w);
}
