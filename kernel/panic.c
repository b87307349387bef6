/*
 * panic.c - the kernel's last words.
 *
 * A panic must print even when things are badly broken: another CPU may
 * hold the console lock, or this one may (a panic inside printk). So panic
 * stops the other CPUs first and then writes with console_emergency(),
 * which takes no lock. Backtraces follow the chain of saved frame pointers
 * (the kernel is built with -fno-omit-frame-pointer) and name each return
 * address with the symbol table built into the image (kernel/ksyms.c).
 */
#include <stdarg.h>
#include "panic.h"
#include "console.h"
#include "cpu.h"
#include "format.h"
#include "smp.h"
#include "trap.h"
#include "x86.h"

static volatile uint32_t panicking;

static void emergency_printf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_emergency(buf);
}

static bool kernel_text(uint32_t addr)
{
	extern char kernel_start[], kernel_end[];
	return addr >= (uint32_t)kernel_start && addr < (uint32_t)kernel_end;
}

void backtrace_from(uint32_t ebp, uint32_t eip)
{
	emergency_printf("backtrace:\n");
	for (int depth = 0; depth < 20; depth++) {
		uint32_t off;
		const char *name = ksym_lookup(eip, &off);
		emergency_printf("  #%d 0x%08x %s+0x%x\n", depth, eip, name ? name : "?", off);
		/* Stop at the bottom of the stack (entry.asm zeroes ebp) or on
		 * a frame pointer that cannot be a kernel stack address. */
		if (ebp == 0 || (ebp & 3) || ebp < 0xC0000000u)
			break;
		uint32_t *frame = (uint32_t *)ebp;
		eip = frame[1];
		ebp = frame[0];
		if (!kernel_text(eip))
			break;
	}
}

/* Only the first CPU to panic gets to speak; the others just stop. */
static void panic_enter(void)
{
	cli();
	if (xchg(&panicking, 1) != 0)
		for (;;)
			hlt();
	smp_halt_others();
}

/* Say how to get out: a newcomer's machine otherwise just sits there. */
static __attribute__((noreturn)) void halt_forever(void)
{
	emergency_printf("panic: the machine is halted. In QEMU on a terminal "
			 "(make run): Ctrl-A then X quits.\n");
	for (;;) {
		cli();
		hlt();
	}
}

void panic(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	panic_enter();
	va_start(ap, fmt);
	kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	emergency_printf("\npanic: %s (cpu%d)\n", buf, mycpu() ? cpu_id() : 0);
	backtrace_from(read_ebp(), (uint32_t)__builtin_return_address(0));
	halt_forever();
}

/* KASSERT (sched/machine.h) for sched/ and the kernel alike. */
void kassert_fail(const char *expr, const char *file, int line)
{
	panic("assertion \"%s\" failed at %s:%d", expr, file, line);
}

void panic_trap(struct trapframe *tf)
{
	panic_enter();
	emergency_printf("\npanic: %s in kernel mode (vector %u, error 0x%x) on cpu%d\n",
			 trap_name(tf->trapno), tf->trapno, tf->err, cpu_id());
	emergency_printf("  eip=%08x cs=%04x eflags=%08x cr2=%08x cr3=%08x\n",
			 tf->eip, tf->cs & 0xFFFF, tf->eflags, read_cr2(), read_cr3());
	emergency_printf("  eax=%08x ebx=%08x ecx=%08x edx=%08x\n",
			 tf->eax, tf->ebx, tf->ecx, tf->edx);
	emergency_printf("  esi=%08x edi=%08x ebp=%08x esp=%08x\n",
			 tf->esi, tf->edi, tf->ebp, tf->oesp);
	backtrace_from(tf->ebp, tf->eip);
	halt_forever();
}
