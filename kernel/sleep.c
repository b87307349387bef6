/*
 * sleep.c - a deadline-sorted list of sleeping processes.
 */
#include "sleep.h"
#include "errno.h"
#include "proc.h"
#include "systime.h"
#include "time.h"
#include "uaccess.h"

static struct spinlock sleep_lock = SPINLOCK_INIT("sleepers");
static struct proc *sleepers;		/* sorted by sleep_until */

static void insert(struct proc *p)
{
	struct proc **pp = &sleepers;
	while (*pp && (*pp)->sleep_until <= p->sleep_until)
		pp = &(*pp)->sleep_next;
	p->sleep_next = *pp;
	*pp = p;
}

static void remove(struct proc *p)
{
	for (struct proc **pp = &sleepers; *pp; pp = &(*pp)->sleep_next) {
		if (*pp == p) {
			*pp = p->sleep_next;
			return;
		}
	}
}

int sleep_until(uint64_t deadline, int state)
{
	struct proc *p = current();
	int err = 0;

	p->sleep_until = deadline;
	spin_lock(&sleep_lock);
	insert(p);
	for (;;) {
		/* State first, then the checks: a tick or a kill that comes in
		 * between then finds us asleep and wakes us (see waitq.h). */
		sched_set_current_state(state);
		if (clock_ns() >= deadline)
			break;
		if (state == TASK_INTERRUPTIBLE && p->killed) {
			err = -EINTR;
			break;
		}
		spin_unlock(&sleep_lock);
		schedule();
		spin_lock(&sleep_lock);
	}
	remove(p);
	spin_unlock(&sleep_lock);
	sched_set_current_state(TASK_RUNNING);
	return err;
}

void sleep_tick(void)
{
	uint64_t now = clock_ns();
	struct proc *head = sleepers;	/* unlocked peek: a hint only */
	if (!head || head->sleep_until > now)
		return;
	spin_lock(&sleep_lock);
	for (struct proc *p = sleepers; p && p->sleep_until <= now; p = p->sleep_next)
		sched_wake_up(&p->se);
	spin_unlock(&sleep_lock);
}

/* Read a timespec and check it as POSIX says: 0 <= nsec < 1e9, sec >= 0. */
static int read_timespec(const void *u, uint64_t *ns)
{
	struct timespec32 ts;
	if (copy_from_user(&ts, u, sizeof(ts)) < 0)
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
		return -EINVAL;
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return 0;
}

static int sleep_relative(uint64_t ns, void *urem)
{
	uint64_t deadline = clock_ns() + ns;
	int err = sleep_until(deadline, TASK_INTERRUPTIBLE);
	if (err == -EINTR && urem) {
		uint64_t now = clock_ns(), left = deadline > now ? deadline - now : 0;
		struct timespec32 rem = { (int32_t)(left / 1000000000ull),
					  (int32_t)(left % 1000000000ull) };
		if (copy_to_user(urem, &rem, sizeof(rem)) < 0)
			return -EFAULT;
	}
	return err;
}

int sys_nanosleep(const void *ureq, void *urem)
{
	uint64_t ns;
	int err = read_timespec(ureq, &ns);
	return err < 0 ? err : sleep_relative(ns, urem);
}

#define TIMER_ABSTIME 1

int sys_clock_nanosleep(int clock, int flags, const void *ureq, void *urem)
{
	uint64_t ns;
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return -EINVAL;
	if (flags & ~TIMER_ABSTIME)
		return -EINVAL;
	int err = read_timespec(ureq, &ns);
	if (err < 0)
		return err;
	if (flags & TIMER_ABSTIME)
		return sleep_until(ns, TASK_INTERRUPTIBLE);
	return sleep_relative(ns, urem);
}
