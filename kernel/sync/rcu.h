/*
 * rcu.h - free what a reader without a lock may still be looking at only
 * once it cannot be (kernel/sync/rcu.c): Linux's RCU in its first, simplest
 * form, for a kernel that is not preemptible.
 *
 * The rule for readers: a pointer found without a lock or a reference
 * (a task by its pid, a task's parent) may be used until the finder next
 * sleeps or returns to user mode, never after. To keep it longer, take a
 * reference (proc_get). The rule for writers: first make the object
 * impossible to find (empty its pid slot, unlink it), then rcu_call() its
 * freeing; it runs after every other CPU has passed a quiescent state.
 */
#ifndef KERNEL_RCU_H
#define KERNEL_RCU_H

#include <stdint.h>
#include "kernel/arch/maxcpus.h"

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *);
};

/* Quiescent states each CPU has passed; written by its CPU only, each
 * in a cache line of its own (every context switch writes it). */
struct rcu_qs {
	volatile uint32_t n;
} __attribute__((aligned(64)));
extern struct rcu_qs rcu_qs_count[MAX_CPUS];

/* CPU cpu (this one) holds nothing found without a reference:
 * schedule(), the idle loop and a tick that came from user mode say so. */
static inline void rcu_quiescent(int cpu)
{
	rcu_qs_count[cpu].n++;
}

/* func(head) once every CPU has passed a quiescent state; the object is
 * already unreachable. Any context but an interrupt handler. */
void rcu_call(struct rcu_head *head, void (*func)(struct rcu_head *));
/* Run this CPU's callbacks whose grace period has passed, and start the
 * next grace period. No spinlock held, and nothing found without a
 * reference still in use by the caller. */
void rcu_reclaim(void);
/* Wait for every callback queued so far, on every CPU, and run them
 * (free_frames, so that a leak test counts what has been given back).
 * Sleeps. */
void rcu_barrier(void);

#endif
