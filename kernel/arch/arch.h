/*
 * kernel/arch/ - the x86 CPU as the kernel uses it: segments and the
 * task-state segment (gdt), the trap frame, vectors and dispatch (trap,
 * trapentry.asm), the context switch (switch.asm), each task's FPU
 * registers (fpu) and TLS segments (tls), a process's own segments (ldt;
 * desc.h makes a program's segment a descriptor), per-CPU data and the
 * nesting of interrupt disabling (cpu), starting the other CPUs and sending IPIs
 * (smp), the instructions C cannot say (x86.h) and MAX_CPUS (maxcpus.h).
 * Interrupt controllers and timer hardware are drivers/.
 *
 * Locks: none of its own: an LDT is replaced under its mm's lock. A
 * CPU's struct cpu is written only by that CPU with interrupts off (or
 * before it starts).
 *
 * Face of this folder. May call: lib, drivers, kernel/debug, kernel/init, kernel/mm, kernel/task, kernel/time.
 */
#ifndef KERNEL_ARCH_ARCH_H
#define KERNEL_ARCH_ARCH_H

#include "cpu.h"
#include "fpu.h"
#include "desc.h"
#include "gdt.h"
#include "ldt.h"
#include "maxcpus.h"
#include "smp.h"
#include "tls.h"
#include "trap.h"
#include "x86.h"

#endif
