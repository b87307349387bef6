/*
 * cpu.c - per-CPU set-up, interrupt-disable nesting, user-mode rdtsc, and
 * getcpu(2).
 */
#include "cpu.h"
#include "lib/errno.h"
#include "fpu.h"
#include "kernel/debug/panic.h"
#include "kernel/mm/uaccess.h"
#include "x86.h"

struct cpu cpus[MAX_CPUS];
int ncpus = 1;

void cpu_setup(struct cpu *c)
{
	c->self = c;
	gdt_load(c);
	fpu_cpu_init();
}

#define CR4_TSD	0x4u	/* time stamp disable: rdtsc only in ring 0 */

void cpu_tsc_user_set(struct cpu *c, bool faults)
{
	c->tsc_user_faults = faults;
	write_cr4(faults ? read_cr4() | CR4_TSD : read_cr4() & ~CR4_TSD);
}

/* pop_cli() (cpu.h) found interrupts on, or more pops than pushes. */
void pop_cli_panic(void)
{
	if (read_eflags() & EFLAGS_IF)
		panic("pop_cli: interrupts enabled");
	panic("pop_cli: unbalanced (ncli %d)", mycpu()->ncli);
}

/* getcpu(2) (call 318): this CPU, and its package as the NUMA node. */
int sys_getcpu(unsigned *ucpu, unsigned *unode)
{
	struct cpu *c = mycpu();
	unsigned cpu = c->id, node = c->package;
	if (ucpu && copy_to_user(ucpu, &cpu, sizeof(cpu)) < 0)
		return -EFAULT;
	if (unode && copy_to_user(unode, &node, sizeof(node)) < 0)
		return -EFAULT;
	return 0;
}
