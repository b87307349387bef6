/*
 * watchdog.c - a CPU stuck in the kernel says so instead of going silent.
 *
 * Every timer tick that interrupts kernel code checks how long ago this
 * CPU last went through schedule() (or was last seen in user mode, which
 * is not watched). The kernel is not preemptible, so a
 * task in a system call normally returns or sleeps within milliseconds;
 * one that has kept the CPU in kernel mode for 5 s (boot parameter
 * watchdog_thresh=S, 1..60 s: Linux's name, whose soft-lockup report
 * comes after twice its value) is stuck
 * (a loop that never ends, a wait that never comes). The watchdog prints
 * which CPU, which process, for how long, and the interrupted code's
 * backtrace, once per stall, and lets the CPU go on: the harness fails a
 * case whose console shows it, and a student sees where it hangs. User
 * mode is not watched (a FIFO hog alone on a CPU may run for ever), nor
 * the idle task. A CPU spinning on a lock has interrupts off, so no tick
 * reaches it: kernel/sync/spinlock.c reports that itself (the lock, its holder
 * and where it was taken).
 */
#include "watchdog.h"
#include "kernel/init/bootparam.h"
#include "kernel/arch/cpu.h"
#include "panic.h"
#include "printk.h"
#include "kernel/task/proc.h"
#include "kernel/time/time.h"
#include "kernel/arch/trap.h"
#include "kernel/arch/x86.h"

static uint64_t watchdog_ns = 5ull * 1000 * 1000 * 1000;
/* A tick this long after the last one: the host kept the virtual CPU from
 * running (QEMU on a busy host drops ticks then), and that time was
 * nobody's in the guest. */
#define HOST_STALL_NS	(100ull * 1000 * 1000)
/* rdtsc() at each CPU's last tick (here, not in struct cpu, whose size
 * the hot paths index by). */
static uint64_t last_tick_tsc[MAX_CPUS];

void watchdog_init(void)
{
	watchdog_ns = (uint64_t)bootparam_int("watchdog_thresh", 5, 1, 60) * 1000 * 1000 * 1000;
}

void watchdog_tick(const struct trapframe *tf)
{
	struct cpu *c = mycpu();
	struct proc *p = c->current;
	uint64_t now = rdtsc(), stuck_ns;
	bool stalled = last_tick_tsc[c->id] &&
		       clock_cycles_to_ns(now - last_tick_tsc[c->id]) > HOST_STALL_NS;

	last_tick_tsc[c->id] = now;
	if (trap_from_user(tf) || stalled) {	/* the kernel's stretch starts again */
		c->scheduled_tsc = now;
		return;
	}
	if (!p || p->pid == 0 || c->watchdog_warned || !c->scheduled_tsc)
		return;
	stuck_ns = clock_cycles_to_ns(now - c->scheduled_tsc);
	if (stuck_ns < watchdog_ns)
		return;
	c->watchdog_warned = true;
	printk("watchdog: cpu%d has run pid %d (%s) in kernel mode for %llu ms "
	       "without scheduling; interrupted at:\n", c->id, p->pid, p->name,
	       stuck_ns / 1000000);
	backtrace_trap(tf->ebp, &tf->esp, tf->eip);	/* kernel mode: the stack went on at &tf->esp */
}
