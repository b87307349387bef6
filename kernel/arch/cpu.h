/*
 * cpu.h - per-CPU data.
 *
 * Every CPU has one struct cpu. Its own GDT gives the %fs segment a base
 * of &cpus[i], and the struct's first field points at itself, so
 * "movl %fs:0" yields this CPU's struct cpu in one instruction: no search
 * by APIC ID, and it stays right however the CPUs are numbered. Trap entry
 * (kernel/arch/trapentry.asm) reloads %fs on every way into the kernel.
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include <stdint.h>
#include <stdbool.h>
#include "gdt.h"
#include "x86.h"

#include "maxcpus.h"

struct proc;
struct ldt;

struct cpu {
	struct cpu *self;		/* must stay first: %fs:0 */
	int id;				/* 0..ncpus-1, dense; the scheduler's CPU number */
	uint32_t apic_id;
	int package, core, thread;	/* topology (drivers/topology.c) */

	int ncli;			/* depth of spin_lock/push_cli nesting */
	bool intena;			/* were interrupts on before the first push_cli? */

	struct proc *current;		/* task running here (kernel/task/proc.c) */
	struct proc *prev;		/* task we just switched away from */
	volatile int need_resched;	/* set by the scheduler, read on the way to user mode */
	volatile uint64_t ticks;	/* timer interrupts taken on this CPU */
	uint64_t scheduled_tsc;		/* rdtsc() at the last schedule() here, or the
				 * last tick from user mode or after a host
				 * stall (kernel/debug/watchdog.c): the raw
				 * counter, cheaper than clock_ns() on every switch */
	bool watchdog_warned;		/* this stall was reported */
	bool tsc_user_faults;		/* CR4.TSD set: rdtsc from user mode is a #GP */
	const struct ldt *ldt;		/* the LDT loaded here (lldt), NULL: none (kernel/arch/ldt.h) */
	/* The page directory loaded here: written before %cr3 (a
	 * serialising write), read by smp_flush_tlb after a page table
	 * changes and a fence, so a CPU it skips loads %cr3 after those
	 * changes (kernel/mm/vm.c). */
	uint32_t *volatile pgdir;
	volatile bool online;

	uint64_t gdt[GDT_ENTRIES];
	struct tss tss;
	struct tss df_tss;		/* a double fault switches to this task, own stack */
	void *boot_stack;		/* the kernel stack this CPU booted on */
};

extern struct cpu cpus[MAX_CPUS];
extern int ncpus;			/* CPUs online */

/* Context switch: let the next task's rdtsc run in user mode, or make it
 * fault (prctl PR_SET_TSC, PR_TSC_SIGSEGV); CR4 written only on a change
 * (inline: every switch asks). */
void cpu_tsc_user_set(struct cpu *c, bool faults);
static inline void cpu_tsc_user(struct cpu *c, bool faults)
{
	if (c->tsc_user_faults != faults)
		cpu_tsc_user_set(c, faults);
}

static inline struct cpu *mycpu(void)
{
	struct cpu *c;
	__asm__ volatile("movl %%fs:0, %0" : "=r"(c));
	return c;
}

static inline int cpu_id(void)
{
	return mycpu()->id;
}

/* Give this CPU its GDT, TSS and %fs per-CPU segment. */
void cpu_setup(struct cpu *c);

/*
 * Interrupt-disable nesting, as xv6's pushcli/popcli: matched like
 * parentheses, it takes two pop_cli()s to undo two push_cli()s, and
 * interrupts come back on only if they were on before the first one.
 * Inline: every lock and every switch comes through here, three pairs a
 * yield (make profile, docs/bench.md).
 */
static inline void push_cli(void)
{
	uint32_t eflags = read_eflags();
	cli();
	struct cpu *c = mycpu();
	if (c->ncli++ == 0)
		c->intena = eflags & EFLAGS_IF;
}

__attribute__((noreturn)) void pop_cli_panic(void);	/* interrupts on, or unbalanced */

static inline void pop_cli(void)
{
	struct cpu *c = mycpu();
	if ((read_eflags() & EFLAGS_IF) || --c->ncli < 0)
		pop_cli_panic();
	if (c->ncli == 0 && c->intena)
		sti();
}

int sys_getcpu(unsigned *ucpu, unsigned *unode);

#endif
