/*
 * cpu.c - per-CPU set-up and interrupt-disable nesting.
 */
#include "cpu.h"
#include "fpu.h"
#include "panic.h"
#include "x86.h"

struct cpu cpus[MAX_CPUS];
int ncpus = 1;

void cpu_setup(struct cpu *c)
{
	c->self = c;
	gdt_load(c);
	fpu_cpu_init();
}

/*
 * push_cli/pop_cli are matched like parentheses: it takes two pop_cli()s
 * to undo two push_cli()s, and interrupts come back on only if they were
 * on before the first one.
 */
void push_cli(void)
{
	uint32_t eflags = read_eflags();
	cli();
	struct cpu *c = mycpu();
	if (c->ncli++ == 0)
		c->intena = eflags & EFLAGS_IF;
}

void pop_cli(void)
{
	struct cpu *c = mycpu();
	if (read_eflags() & EFLAGS_IF)
		panic("pop_cli: interrupts enabled");
	if (--c->ncli < 0)
		panic("pop_cli: unbalanced");
	if (c->ncli == 0 && c->intena)
		sti();
}
