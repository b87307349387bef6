/*
 * watchdog.h - report a CPU stuck in kernel mode (kernel/debug/watchdog.c).
 */
#ifndef KERNEL_WATCHDOG_H
#define KERNEL_WATCHDOG_H

struct trapframe;

/* The threshold from the boot line (watchdog_thresh=S, default 5 s). */
void watchdog_init(void);

/* From the timer tick, interrupts off: warn once if this CPU has stayed
 * in kernel mode, in a process, for the threshold without going through schedule(). */
void watchdog_tick(const struct trapframe *tf);

#endif
