/*
 * spinlock.c - the x86 implementation of lib/spinlock.h.
 *
 * A lock is one word swapped with xchg. Interrupts stay off while any lock
 * is held on this CPU (push_cli), so an interrupt handler that takes the
 * same lock cannot deadlock against the code it interrupted.
 * Mistakes are caught, not tolerated: taking a lock this CPU already holds
 * panics (it would spin for ever), as does releasing one it does not hold.
 * With LOCK_DEBUG (the default build) a lock spun on for more than
 * LOCKUP_NS is reported as a lockup, naming the CPU that holds it and the
 * function that took it (the lock remembers its caller's address). The
 * spinning CPU has interrupts off, so this check is the only one that can
 * see it; a CPU stuck with interrupts on is the watchdog's (watchdog_tick).
 * LOCK_DEBUG builds also count every acquisition, contention, wait and
 * hold by lock class (kernel/sync/lockstat.c, the lockstat tool).
 */
#include "lib/spinlock.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/cpu.h"
#include "lockstat.h"
#include "kernel/debug/panic.h"
#include "kernel/time/time.h"
#include "kernel/arch/x86.h"

/* 20 s, Linux's soft-lockup time (twice watchdog_thresh): QEMU on a busy
 * host can leave the holder's virtual CPU unscheduled for seconds while
 * this one spins (a 5 s limit panicked smp_stress_2x2x2 once, the holder
 * stopped between its xchg and its store of l->cpu). */
#define LOCKUP_S 20
#define LOCKUP_NS (LOCKUP_S * 1000ull * 1000 * 1000)

void spin_init(struct spinlock *l, const char *name)
{
	l->locked = 0;
	l->cpu = -1;
	l->name = name;
	l->taken_at = 0;
	l->last_cpu = -1;
}

/* Another CPU holds l: wait, reading only, until it looks free (a
 * locked xchg in the loop would take the cache line from the holder each
 * time). Out of line, so that an uncontended spin_lock() stays short. */
static __attribute__((noinline)) void spin_wait(struct spinlock *l)
{
#ifdef LOCK_DEBUG
	uint64_t start = clock_ns();
#endif
	while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED)) {
		/* Interrupts are off here: answer a TLB shootdown ourselves, or
		 * a holder of an address space's lock that waits for this CPU
		 * (smp_flush_tlb) while the holder of `l` waits for that lock
		 * would never let go (seen: a pipe read checking its buffer
		 * under the pipe's lock while a thread's munmap flushed). */
		smp_poll_calls();
		pause();
#ifdef LOCK_DEBUG
		if (clock_ns() - start > LOCKUP_NS) {
			uint32_t off = 0;
			const char *fn = ksym_lookup(l->taken_at, &off);
			panic("lockup: cpu%d waited %d s for %s (held by cpu%d, taken in %s+0x%x)",
			      cpu_id(), LOCKUP_S, l->name, l->cpu, fn ? fn : "?", off);
		}
#endif
	}
}

/* The lock was taken when we came: wait for it, then hold it as
 * spin_lock() does. Out of line, with the lock statistics' clock. */
static __attribute__((noinline)) void spin_lock_slow(struct spinlock *l, uint32_t caller)
{
#ifdef LOCK_DEBUG
	uint64_t waited_from = lockstat_on ? rdtsc() : 0;
#endif
	do
		spin_wait(l);
	while (xchg(&l->locked, 1) != 0);
	l->cpu = cpu_id();
	l->taken_at = caller;
#ifdef LOCK_DEBUG
	if (lockstat_on)
		lockstat_spin_taken(l, waited_from);
#endif
}

void spin_lock(struct spinlock *l)
{
	push_cli();
	/* spin_held(), with the kernel's inline cpu_id() instead of a call
	 * to sched/'s this_cpu(): every lock comes through here. */
	if (l->locked && l->cpu == cpu_id())
		panic("spin_lock: cpu%d already holds %s", cpu_id(), l->name);
	/* A locked xchg is a full barrier on x86: nothing the holder does
	 * moves above it. */
	if (xchg(&l->locked, 1) != 0) {
		spin_lock_slow(l, (uint32_t)__builtin_return_address(0));
		return;
	}
	l->cpu = cpu_id();
	l->taken_at = (uint32_t)__builtin_return_address(0);
#ifdef LOCK_DEBUG
	/* Lock statistics, when switched on (lockstat on): out of line, so
	 * that off they cost one test here and one in spin_unlock. */
	if (lockstat_on)
		lockstat_spin_taken(l, 0);
#endif
}

bool spin_trylock(struct spinlock *l)
{
	push_cli();
	if (l->locked && l->cpu == cpu_id())
		panic("spin_trylock: cpu%d already holds %s", cpu_id(), l->name);
	if (xchg(&l->locked, 1) != 0) {
		pop_cli();
		return false;
	}
	l->cpu = cpu_id();
	l->taken_at = (uint32_t)__builtin_return_address(0);
	return true;
}

/* Free the lock and give back its interrupt state. */
static inline void release(struct spinlock *l)
{
	l->cpu = -1;
	/* x86 never moves a store ahead of an older load or store, so a
	 * plain (release) store frees the lock, and whatever was done under
	 * it is seen first (Linux's x86 unlock is one mov too). */
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	pop_cli();
}

/* Not a plain "held by this CPU" (locked == 1): a mistake, or (lock
 * statistics) a lock taken while counting, which lockstat_spin_taken()
 * marked LOCKED_COUNTED. Out of line: the common unlock tests one word
 * it had to test anyway, and keeps no register across a call. */
static __attribute__((noinline)) void spin_unlock_slow(struct spinlock *l)
{
	if (!l->locked || l->cpu != cpu_id())	/* !spin_held(l), as above */
		panic("spin_unlock: cpu%d releases %s held by cpu%d",
		      cpu_id(), l->name, l->locked ? l->cpu : -1);
#ifdef LOCK_DEBUG
	if (l->locked == LOCKED_COUNTED)
		lockstat_spin_released(l);
#endif
	release(l);
}

void spin_unlock(struct spinlock *l)
{
	if (l->locked != 1 || l->cpu != cpu_id()) {
		spin_unlock_slow(l);
		return;
	}
	release(l);
}
