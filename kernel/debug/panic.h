/*
 * panic.h - stopping the machine when the kernel finds itself wrong.
 */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include <stdint.h>
#include "lib/assert.h"	/* KASSERT(), through kassert_fail() */

struct trapframe;

/* Print "panic: <message>", a backtrace with symbol names, halt all CPUs. */
__attribute__((noreturn, format(printf, 1, 2)))
void panic(const char *fmt, ...);

/* The same for a CPU exception taken in kernel mode: registers, CR2. */
__attribute__((noreturn)) void panic_trap(struct trapframe *tf);

/* Print the call chain starting at frame pointer ebp. */
void backtrace_from(uint32_t ebp, uint32_t eip);
/* The same for code a trap interrupted in kernel mode, whose stack top
 * was esp: right also on a function's first two instructions and its ret. */
void backtrace_trap(uint32_t ebp, const uint32_t *esp, uint32_t eip);

/* Symbol lookup in the table linked into the kernel (kernel/debug/ksyms.c). */
const char *ksym_lookup(uint32_t addr, uint32_t *offset);

#endif
