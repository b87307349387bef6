/*
 * panic.c - the kernel's last words.
 *
 * A panic must print even when things are badly broken: another CPU may
 * hold the console lock, or this one may (a panic inside printk). So panic
 * stops the other CPUs first and then writes with console_emergency(),
 * which takes no lock. Backtraces follow the chain of saved frame pointers
 * (the kernel is built with -fno-omit-frame-pointer) and name each return
 * address with the symbol table built into the image (kernel/debug/ksyms.c).
 */
#include <stdarg.h>
#include "panic.h"
#include "console.h"
#include "kernel/arch/cpu.h"
#include "lib/format.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/trap.h"
#include "kernel/arch/x86.h"

#define BACKTRACE_DEPTH 20	/* frames printed at most */

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

static void print_frame(int depth, uint32_t eip)
{
	uint32_t off;
	const char *name = ksym_lookup(eip, &off);
	emergency_printf("  #%d 0x%08x %s+0x%x\n", depth, eip, name ? name : "?", off);
}

/* The return addresses saved in the chain of frames from ebp on. */
static void walk_frames(int depth, uint32_t ebp)
{
	for (; depth < BACKTRACE_DEPTH; depth++) {
		/* Stop at the bottom of the stack (entry.asm zeroes ebp) or on
		 * a frame pointer that cannot be a kernel stack address. */
		if (ebp == 0 || (ebp & 3) || ebp < 0xC0000000u)
			break;
		uint32_t *frame = (uint32_t *)ebp;
		uint32_t eip = frame[1];
		ebp = frame[0];
		if (!kernel_text(eip))
			break;
		print_frame(depth, eip);
	}
}

void backtrace_from(uint32_t ebp, uint32_t eip)
{
	emergency_printf("backtrace:\n");
	print_frame(0, eip);
	walk_frames(1, ebp);
}

/*
 * ebp is the interrupted function's frame once its prologue (push %ebp;
 * mov %esp,%ebp) has run. On those two instructions, and on its final
 * ret, ebp is still (or again) its caller's frame, and the walk would
 * skip the caller: the caller's return address is then on top of the
 * stack (esp[1] after the push, else esp[0]). Code that gcc runs before
 * the prologue (a shrink-wrapped fast path) still loses its caller.
 */
void backtrace_trap(uint32_t ebp, const uint32_t *esp, uint32_t eip)
{
	const uint8_t *code = (const uint8_t *)eip;
	int on_stack = -1, depth = 1;

	emergency_printf("backtrace:\n");
	print_frame(0, eip);
	if (kernel_text(eip)) {
		if (code[0] == 0x55 && code[1] == 0x89 && code[2] == 0xe5)
			on_stack = 0;		/* at push %ebp */
		else if (code[-1] == 0x55 && code[0] == 0x89 && code[1] == 0xe5)
			on_stack = 1;		/* at mov %esp,%ebp */
		else if (code[0] == 0xc3)
			on_stack = 0;		/* at ret */
	}
	if (on_stack >= 0 && kernel_text(esp[on_stack]))
		print_frame(depth++, esp[on_stack]);
	walk_frames(depth, ebp);
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
	backtrace_trap(tf->ebp, &tf->esp, tf->eip);	/* kernel mode: the stack went on at &tf->esp */
	halt_forever();
}
