/*
 * tick.h - what a timer interrupt does on a CPU (kernel/time/tick.c).
 */
#ifndef KERNEL_TICK_H
#define KERNEL_TICK_H

#include <stdbool.h>
#include <stdint.h>

struct trapframe;

/* drivers/timer.c, at each interrupt of this CPU's timer, interrupts
 * off: tick_due says whether a tick is due, due is the whole tick periods
 * the TSC says have passed since this CPU's timer started. Does the
 * tick's work if one is due, then wakes the sleepers that are due; returns
 * the next sleep deadline queued here (UINT64_MAX: none), which the
 * driver programs the timer for. */
uint64_t tick_interrupt(struct trapframe *tf, bool tick_due, uint64_t due);

#endif
