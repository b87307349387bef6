/*
 * watchdog.h - report a CPU stuck in kernel mode (kernel/watchdog.c).
 */
#ifndef KERNEL_WATCHDOG_H
#define KERNEL_WATCHDOG_H

struct trapframe;

/* From the timer tick, interrupts off: warn once if this CPU has stayed
 * in kernel mode, in a process, for 5 s without going through schedule(). */
void watchdog_tick(const struct trapframe *tf);

#endif
