/*
 * fault.c - CPU exceptions raised by user programs.
 *
 * A fault in user mode is the signal Linux would deliver: its handler
 * gets it, or it ends that process only (docs/abi.md §7): SIGSEGV for bad memory accesses and for privileged
 * instructions (cli, hlt, in/out raise a general protection fault, which
 * Linux reports as SIGSEGV too), SIGILL for an invalid opcode, SIGFPE for
 * a divide error. One exception is not a fault: touching the unmapped part
 * of the stack region just below the stack grows the stack by a page.
 */
#include "fault.h"
#include "proc.h"
#include "signal.h"
#include "trap.h"
#include "x86.h"

/* A page fault inside the stack region gets a fresh zeroed page. */
bool fault_grow_stack(struct proc *p, uint32_t addr)
{
	if (addr < USER_STACK_LOW || addr >= USER_STACK_TOP)
		return false;
	return vm_alloc_user(p->pgdir, PAGE_ROUND_DOWN(addr), PAGE_SIZE, PTE_W) == 0;
}

static int fault_signal(const struct trapframe *tf)
{
	switch (tf->trapno) {
	case T_DIVIDE:
	case T_FPERR:
	case T_SIMDERR:	return SIGFPE;
	case T_ILLOP:	return SIGILL;
	case T_BRKPT:
	case T_DEBUG:	return SIGTRAP;
	default:	return SIGSEGV;
	}
}

void user_fault(struct trapframe *tf)
{
	struct proc *p = current();
	if (tf->trapno == T_PGFLT && !(tf->err & 1) && fault_grow_stack(p, read_cr2()))
		return;
	signal_fault(tf, fault_signal(tf));
}
