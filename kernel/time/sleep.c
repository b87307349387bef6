/*
 * sleep.c - sleeping until a deadline: one deadline-sorted queue per CPU.
 *
 * A sleeper queues itself on the CPU it runs on and arms that CPU's
 * one-shot timer for its deadline (drivers/timer.c), so it is woken when
 * its time comes, not at the next tick. The timer interrupt takes the due
 * sleepers off its queue and wakes them; sched_wake_up() places each on a
 * CPU (not necessarily this one: a deadline survives an affinity change
 * made while asleep) and preempts there if it is more urgent.
 */
#include "sleep.h"
#include "kernel/arch/cpu.h"
#include "lib/errno.h"
#include "kernel/task/proc.h"
#include "systime.h"
#include "time.h"
#include "kernel/mm/uaccess.h"
#include "drivers/timer.h"
#include "kernel/debug/trace.h"	/* TRACE_WAKE */

static struct sleep_queue {
	struct spinlock lock;
	struct proc *head;		/* sorted by sleep_until */
} queues[MAX_CPUS] = { [0 ... MAX_CPUS - 1] = { SPINLOCK_INIT("sleepers"), 0 } };

static void insert(struct sleep_queue *q, struct proc *p)
{
	struct proc **pp = &q->head;
	while (*pp && (*pp)->sleep_until <= p->sleep_until)
		pp = &(*pp)->sleep_next;
	p->sleep_next = *pp;
	*pp = p;
	p->sleep_cpu = (int)(q - queues);
}

static void remove(struct sleep_queue *q, struct proc *p)
{
	for (struct proc **pp = &q->head; *pp; pp = &(*pp)->sleep_next) {
		if (*pp == p) {
			*pp = p->sleep_next;
			break;
		}
	}
	p->sleep_cpu = -1;
}

/* Woken early (a kill): leave the queue the timer has not emptied yet. */
static void dequeue_self(struct proc *p)
{
	int cpu = __atomic_load_n(&p->sleep_cpu, __ATOMIC_ACQUIRE);
	if (cpu < 0)
		return;
	spin_lock(&queues[cpu].lock);
	if (p->sleep_cpu == cpu)	/* not taken off meanwhile by that timer */
		remove(&queues[cpu], p);
	spin_unlock(&queues[cpu].lock);
}

int sleep_until(uint64_t deadline, int state)
{
	struct proc *p = current();
	int err = 0;

	p->sleep_until = deadline;
	for (;;) {
		/* Interrupts are off under the lock: we stay on this CPU. */
		struct sleep_queue *q = &queues[cpu_id()];
		spin_lock(&q->lock);
		/* State first, then the checks: a timer or a kill that comes
		 * in between then finds us asleep and wakes us (see waitq.h). */
		sched_set_current_state(state);
		if (clock_ns() >= deadline ||
		    (state == TASK_INTERRUPTIBLE && signal_pending(p))) {
			spin_unlock(&q->lock);
			break;
		}
		insert(q, p);
		timer_arm(deadline);
		spin_unlock(&q->lock);
		schedule();
		dequeue_self(p);
	}
	sched_set_current_state(TASK_RUNNING);
	if (clock_ns() < deadline)
		err = -EINTR;
	return err;
}

void sleep_timer_start(uint64_t deadline)
{
	struct proc *p = current();
	struct sleep_queue *q = &queues[cpu_id()];
	spin_lock(&q->lock);
	p->sleep_until = deadline;
	insert(q, p);
	timer_arm(deadline);
	spin_unlock(&q->lock);
}

void sleep_timer_cancel(void)
{
	dequeue_self(current());
}

/* One nap, for a caller that is already queued elsewhere with its state
 * set (poll: waitq_prepare): back at the deadline or at any wake-up before
 * it, whichever comes first (Linux's schedule_timeout). */
void sleep_nap_until(uint64_t deadline)
{
	if (clock_ns() >= deadline)
		return;
	sleep_timer_start(deadline);
	schedule();
	sleep_timer_cancel();
}

uint64_t sleep_expire(void)
{
	struct sleep_queue *q = &queues[cpu_id()];
	uint64_t now = clock_ns(), next;

	spin_lock(&q->lock);
	while (q->head && q->head->sleep_until <= now) {
		struct proc *p = q->head;
		remove(q, p);
		TRACE_WAKE(WAKE_TIMER, sched_wake_up(&p->sched));
	}
	next = q->head ? q->head->sleep_until : UINT64_MAX;
	spin_unlock(&q->lock);
	return next;
}

/* Read a timespec and check it as POSIX says: 0 <= nsec < 1e9, sec >= 0.
 * time64: Linux's struct __kernel_timespec (64-bit seconds and
 * nanoseconds, the *_time64 calls), else the old 32-bit one. */
static int read_timespec(const void *u, bool time64, uint64_t *ns)
{
	int64_t sec, nsec;
	if (time64) {
		int64_t ts[2];
		if (copy_from_user(ts, u, sizeof(ts)) < 0)
			return -EFAULT;
		sec = ts[0], nsec = ts[1];
	} else {
		struct timespec32 ts;
		if (copy_from_user(&ts, u, sizeof(ts)) < 0)
			return -EFAULT;
		sec = ts.tv_sec, nsec = ts.tv_nsec;
	}
	if (sec < 0 || nsec < 0 || nsec >= 1000000000)
		return -EINVAL;
	*ns = sec > (int64_t)(UINT64_MAX / 1000000000ull) - 1 ? UINT64_MAX / 2 :
	      (uint64_t)sec * 1000000000ull + (uint64_t)nsec;
	return 0;
}

static int write_timespec(void *u, bool time64, uint64_t ns)
{
	if (time64) {
		int64_t ts[2] = { (int64_t)(ns / 1000000000ull), (int64_t)(ns % 1000000000ull) };
		return copy_to_user(u, ts, sizeof(ts));
	}
	struct timespec32 ts = { (int32_t)(ns / 1000000000ull), (int32_t)(ns % 1000000000ull) };
	return copy_to_user(u, &ts, sizeof(ts));
}

/* Interrupted by a signal: a handler makes it EINTR with the time left
 * in urem; a stop and continue, or an ignored signal, go on sleeping to
 * the same deadline through restart_syscall (Linux's restart block). */
static int sleep_to_deadline(uint64_t deadline, void *urem, bool time64)
{
	struct proc *p = current();
	if (sleep_until(deadline, TASK_INTERRUPTIBLE) == 0)
		return 0;
	if (urem) {
		uint64_t now = clock_ns(), left = deadline > now ? deadline - now : 0;
		if (write_timespec(urem, time64, left) < 0)
			return -EFAULT;
	}
	p->restart_deadline = deadline;
	p->restart_urem = urem;
	p->restart_time64 = time64;
	return -ERESTART_RESTARTBLOCK;
}

static int sleep_relative(uint64_t ns, void *urem, bool time64)
{
	uint64_t now = clock_ns();
	return sleep_to_deadline(ns > UINT64_MAX - now ? UINT64_MAX : now + ns, urem, time64);
}

/* Syscall 0: the rest of a nanosleep that a signal without a handler
 * interrupted (kernel/task/signal.c restarts through it). */
int sys_restart_syscall(void)
{
	struct proc *p = current();
	return sleep_to_deadline(p->restart_deadline, p->restart_urem, p->restart_time64);
}

int sys_nanosleep(const void *ureq, void *urem)
{
	uint64_t ns;
	int err = read_timespec(ureq, false, &ns);
	return err < 0 ? err : sleep_relative(ns, urem, false);
}

static int clock_nanosleep(int clock, int flags, const void *ureq, void *urem, bool time64);

int sys_clock_nanosleep(int clock, int flags, const void *ureq, void *urem)
{
	return clock_nanosleep(clock, flags, ureq, urem, false);
}

/* 407: the same with struct __kernel_timespec, which glibc 2.34 and later
 * asks for first. */
int sys_clock_nanosleep_time64(int clock, int flags, const void *ureq, void *urem)
{
	return clock_nanosleep(clock, flags, ureq, urem, true);
}

static int clock_nanosleep(int clock, int flags, const void *ureq, void *urem, bool time64)
{
	uint64_t ns;
	if (clock == CLOCK_THREAD_CPUTIME_ID)
		return -EOPNOTSUPP;	/* Linux: a clock without nsleep */
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return -EINVAL;
	if (flags & ~TIMER_ABSTIME)
		return -EINVAL;
	int err = read_timespec(ureq, time64, &ns);
	if (err < 0)
		return err;
	if (flags & TIMER_ABSTIME) {	/* an absolute sleep just starts again */
		uint64_t off = clock == CLOCK_REALTIME ? realtime_offset_ns() : 0;
		ns = ns > off ? ns - off : 1;	/* a wall-clock time before boot: past */
		return sleep_until(ns, TASK_INTERRUPTIBLE) ? -ERESTARTNOHAND : 0;
	}
	return sleep_relative(ns, urem, time64);
}
