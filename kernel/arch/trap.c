/*
 * trap.c - the IDT and the one C function every trap goes through.
 *
 * trap() sorts traps into two kinds: CPU exceptions (a fault in the
 * kernel is a bug: panic; a fault in user mode kills that process only)
 * and device and inter-processor interrupts, every one of which is listed
 * in interrupt() with its handler, as xv6's trap() lists them. System
 * calls (vector 0x80) do not come here:
 * trapentry.asm sends them straight to syscall() (kernel/syscall.c),
 * which returns the same way. On the way back to user mode it calls proc_return_to_user(),
 * which is where the scheduler gets its chance to switch tasks: the kernel
 * is not preemptible in kernel mode (docs/staircase.md §7.4 relies on it).
 */
#include "trap.h"
#include "cpu.h"
#include "kernel/mm/fault.h"
#include "gdt.h"
#include "kernel/debug/panic.h"
#include "kernel/debug/printk.h"
#include "kernel/task/proc.h"
#include "lib/string.h"
#include "kernel/mm/vm.h"
#include "x86.h"
#include "smp.h"
#include "drivers/keyboard.h"
#include "drivers/lapic.h"
#include "drivers/serial.h"
#include "drivers/serial_irq.h"
#include "drivers/timer.h"

struct gate {
	uint16_t off_lo, sel;
	uint8_t zero, type;	/* present | DPL | 0xE interrupt gate / 0xF trap gate */
	uint16_t off_hi;
} __attribute__((packed));

static struct gate idt[256];
extern uint32_t trap_vectors[256];

static void set_gate(int v, uint32_t addr, int dpl, bool trap_gate)
{
	idt[v].off_lo = addr & 0xFFFF;
	idt[v].off_hi = addr >> 16;
	idt[v].sel = KCODE_SEL;
	idt[v].zero = 0;
	idt[v].type = 0x80 | (dpl << 5) | (trap_gate ? 0xF : 0xE);
}

/* ---- the double-fault task ---------------------------------------------- */

static uint8_t df_stacks[MAX_CPUS][4096] __attribute__((aligned(16)));

/*
 * Runs as its own task: the CPU saved the faulting state in mycpu()->tss.
 * A page fault on a kernel stack's guard page (cr2) is an overflow of that
 * stack: say so, with the backtrace of the code that overflowed.
 */
static __attribute__((noreturn, used)) void double_fault_task(void)
{
	struct cpu *c = mycpu();
	const struct tss *t = &c->tss;
	uint32_t cr2 = read_cr2();

	if (kstack_in_guard(cr2)) {
		struct proc *p = c->current;
		printk("kernel stack overflow on cpu%d: pid %d (%s) touched 0x%08x, the "
		       "guard page below its stack; esp=%08x eip=%08x\n", c->id,
		       p ? p->pid : -1, p ? p->name : "?", cr2, t->esp, t->eip);
		backtrace_from(t->ebp, t->eip);
		panic("kernel stack overflow (pid %d)", p ? p->pid : -1);
	}
	panic("double fault: eip=%08x esp=%08x cr2=%08x", t->eip, t->esp, cr2);
}

void double_fault_tss_init(struct cpu *c)
{
	struct tss *d = &c->df_tss;

	memset(d, 0, sizeof(*d));
	d->eip = (uint32_t)double_fault_task;
	d->esp = (uint32_t)&df_stacks[c->id][4096 - 16];
	d->cs = KCODE_SEL;
	d->ds = d->es = d->ss = KDATA_SEL;
	d->fs = PERCPU_SEL;
	d->cr3 = V2P(kernel_pgdir);
	d->eflags = 0x2;			/* interrupts off */
	d->iomap_base = sizeof(*d);
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, trap_vectors[v], 0, false);
	/* int 0x80 may be raised from ring 3; as a trap gate it leaves
	 * interrupts on, so a long system call does not hold off the timer. */
	set_gate(T_SYSCALL, trap_vectors[T_SYSCALL], 3, true);
	/* int3 and into may be used from ring 3, as on Linux: they trap as
	 * #BP (SIGTRAP) and #OF (SIGSEGV) instead of a #GP from the gate. */
	set_gate(T_BRKPT, trap_vectors[T_BRKPT], 3, false);
	set_gate(T_OFLOW, trap_vectors[T_OFLOW], 3, false);
	/* A double fault is a task gate: the CPU switches to the double-fault
	 * task, with a stack of its own, since the fault may be that the
	 * kernel stack is gone (an overflow into its guard page). */
	idt[T_DBLFLT] = (struct gate){ 0, DFTSS_SEL, 0, 0x85, 0 };
}

void idt_load(void)
{
	struct { uint16_t limit; uint32_t base; } __attribute__((packed)) desc = {
		sizeof(idt) - 1, (uint32_t)idt
	};
	lidt(&desc);
}

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range exceeded", "invalid opcode", "device not available",
	"double fault", "coprocessor segment overrun", "invalid TSS",
	"segment not present", "stack-segment fault", "general protection fault",
	"page fault", "reserved", "x87 floating-point error", "alignment check",
	"machine check", "SIMD floating-point error",
	[T_IRET] = "bad frame for iret to user mode",
};

const char *trap_name(int vector)
{
	if (vector < 32)
		return exception_names[vector] ? exception_names[vector] : "reserved exception";
	if (vector == T_SYSCALL)
		return "system call";
	return "interrupt";
}

/* ---- faults on the way back to user mode -------------------------------- */

extern char trapret_pop_gs[], trapret_pop_fs[], trapret_pop_es[], trapret_pop_ds[];
extern char trapret_iret[], iret_fault[];

/*
 * A fault in kernel mode at one of trapret's loads of a user selector
 * (trapentry.asm) is the user's doing, not a kernel bug: Linux's
 * exception-table fix-ups for the same instructions. tf is the nested
 * frame; the CPU pushed no esp into it (no privilege change), so the
 * stack pointer at the fault is &tf->esp, and a pop that faults had not
 * moved it: it still points at the selector being popped.
 */
static bool return_fixup(struct trapframe *tf)
{
	uint32_t *sp = &tf->esp;
	char *at = (char *)tf->eip;

	if (at == trapret_pop_gs || at == trapret_pop_fs || at == trapret_pop_es ||
	    at == trapret_pop_ds) {
		*sp = 0;	/* pop it again as the null selector, as Linux does */
		return true;
	}
	if (at == trapret_iret) {
		tf->eip = (uint32_t)iret_fault;	/* SIGILL from a rebuilt user frame */
		return true;
	}
	return false;
}

static void exception(struct trapframe *tf)
{
	if (trap_from_user(tf)) {
		user_fault(tf);		/* a signal, or the stack grows */
		return;
	}
	if (return_fixup(tf))
		return;
	panic_trap(tf);
}

/* Every interrupt vector the kernel uses, and its handler. */
static void interrupt(struct trapframe *tf)
{
	switch (tf->trapno) {
	case T_LAPIC_TIMER:	/* the tick and sleep deadlines: drivers/timer.c, kernel/time/tick.c */
		timer_interrupt(tf);
		break;
	case T_IPI_RESCHED:	/* another CPU's resched_cpu(): kernel/arch/smp.c */
		ipi_resched(tf);
		break;
	case T_IPI_CALL:	/* smp_call_function(): kernel/arch/smp.c */
		ipi_call(tf);
		break;
	case T_IPI_HALT:	/* panic() stops the other CPUs: kernel/arch/smp.c */
		ipi_halt(tf);
		break;
	case T_IRQ0 + KBD_IRQ:	/* PS/2 keyboard, through the IOAPIC: drivers/keyboard.c */
		keyboard_intr(tf);
		break;
	case T_IRQ0 + COM1_IRQ:	/* COM1 received bytes, through the IOAPIC: drivers/serial_irq.c */
		serial_intr(tf);
		break;
	default:
		pr_warn("trap: unexpected vector %u on cpu%d\n", tf->trapno, cpu_id());
	}
}

void trap(struct trapframe *tf)
{
	if (tf->trapno < 32) {
		exception(tf);
	} else if (tf->trapno != T_SPURIOUS) {	/* the local APIC's: no EOI */
		interrupt(tf);
		lapic_eoi();
	}
	if (trap_from_user(tf))
		proc_return_to_user(tf);
}
