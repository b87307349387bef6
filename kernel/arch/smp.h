/*
 * smp.h - starting the other CPUs, and making them do things (IPIs).
 *
 * The boot CPU (cpus[0]) starts every other enabled CPU the MADT lists.
 * Each AP sets up its own GDT/TSS/per-CPU segment, local APIC and timer,
 * marks itself online, and enters cpu_idle_loop(). CPU indexes are dense,
 * 0..ncpus-1, in the order the APs answered.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/mm/vm.h"

/* Boot CPU, interrupts off, after lapic_init and timer_calibrate: start
 * the APs. A CPU that does not answer within 1 s is reported, parked
 * with an INIT and skipped. Leaves ncpus =
 * the number online. */
void smp_boot_aps(void);

/* Ask cpu to reschedule: set its need_resched and, if it is another CPU,
 * send it T_IPI_RESCHED so it notices now. Safe with interrupts off.
 * sched/machine.h's resched_cpu(), implemented here under its name. */
void resched_cpu(int cpu);

/* Run fn(arg) on cpu, in interrupt context there (interrupts off: fn must
 * not sleep). On this CPU it is a plain call. With wait, return only when
 * fn has finished. Safe to call with interrupts off: while waiting we run
 * calls other CPUs send us, so two CPUs calling each other cannot deadlock. */
void smp_call_function(int cpu, void (*fn)(void *), void *arg, bool wait);

/* Boot CPU, once it is the scheduler's (sched_glue_init, proc_init_idle):
 * let the APs join, each at its next interrupt, on its boot stack, and
 * wait until every one has. */
void smp_start_scheduler(void);

/* Every other CPU that has address space pd loaded forgets its cached
 * translations (a TLB shootdown): after a change that took a page away or
 * made it read-only while threads of that space may run elsewhere. The
 * CPUs are asked at once, then awaited; CPUs without pd are not. Called
 * with that space's lock held (kernel/mm/mm.c), so that no thread maps
 * something new at the old addresses before every CPU forgot them; the
 * lock's waiters answer the IPI while they wait. No other spinlock may
 * be held: a CPU spinning on it with interrupts off would never answer. */
void smp_flush_tlb(pde_t *pd);
/* Every CPU forgets its translations of npages kernel pages from va
 * (a kernel stack unmapped, kernel/mm/kstack.c); waits until they have. */
void smp_flush_tlb_kernel(uint32_t va, uint32_t npages);

/* Run a call another CPU asked of this one (smp_call_function), if any:
 * for a CPU that waits with interrupts off for something that other CPU
 * may hold meanwhile (kernel/mm/mm.c's lock). */
void smp_poll_calls(void);

/* panic(): stop every other CPU (T_IPI_HALT). Any time, interrupts off. */
void smp_halt_others(void);

/* The three IPI vectors' handlers (kernel/arch/trap.c's interrupt()). */
struct trapframe;
void ipi_resched(struct trapframe *tf);
void ipi_call(struct trapframe *tf);
void ipi_halt(struct trapframe *tf);

/* Resched IPIs each CPU has taken (test=ipi, kernel/debug/selftest.c, checks
 * that they arrive). */
extern volatile uint32_t smp_resched_ipis[];

#endif
