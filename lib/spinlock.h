/*
 * spinlock.h - the one lock type, shared by sched/ and the kernel.
 *
 * It lives in the base (lib/) so that sched/ builds alone: sched/ embeds a
 * struct spinlock in each run queue and is also built on the host (unit
 * tests, simulator), where a fake implementation of these functions
 * stands in. The x86 implementation is kernel/sync/spinlock.c.
 *
 * spin_lock() disables interrupts on this CPU (remembering whether they were
 * on) and spin_unlock() restores them, so a lock taken by a task can never
 * be wanted by an interrupt handler on the same CPU. Nesting is counted, as
 * xv6's pushcli/popcli do: interrupts come back on only when the outermost
 * lock is released.
 */
#ifndef LIB_SPINLOCK_H
#define LIB_SPINLOCK_H

#include <stdint.h>
#include <stdbool.h>

/* 16 bytes: a run queue embeds one, and a bigger one moved every run
 * queue's fields (+88 instructions a yield, measured). */
struct spinlock {
	volatile uint32_t locked;	/* 0 = free, 1 = held, LOCKED_COUNTED = held and counted */
	int16_t cpu;			/* owner CPU while held, else -1 */
	int16_t last_cpu;		/* lock statistics: the previous holder, for bounces */
	const char *name;		/* for panic messages, and its lock class */
	uint32_t taken_at;		/* where it was taken (a return address), for lockups */
};

/* Held, and taken while the lock statistics were counting: its release
 * is counted too (kernel/sync/lockstat.c). */
#define LOCKED_COUNTED 2

#define SPINLOCK_INIT(n) { 0, -1, -1, (n), 0 }

void spin_init(struct spinlock *l, const char *name);
void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
/* Take l if it is free (true), else return false at once: for a waiter
 * that must do something else while it waits (kernel/mm/mm.c). */
bool spin_trylock(struct spinlock *l);

int this_cpu(void);		/* machine.h */

/* Held by this CPU. Inline: assertions ask at every run-queue operation
 * (8 times a yield, make profile), and a lock that is not held is told in
 * one test. The owner cannot change under us: only its holder unlocks. */
static inline bool spin_held(const struct spinlock *l)
{
	return l->locked && l->cpu == this_cpu();
}

#endif
