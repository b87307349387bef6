/*
 * sleep.h - sleeping for a while: nanosleep and kernel timeouts.
 *
 * Sleepers wait on their CPU's queue, sorted by deadline; that CPU's
 * one-shot timer is armed for the earliest one, so a sleep ends within
 * microseconds after its deadline (not at the next tick), and never early.
 */
#ifndef KERNEL_SLEEP_H
#define KERNEL_SLEEP_H

#include <stdint.h>

/* Sleep until clock_ns() >= deadline. state is TASK_INTERRUPTIBLE (a
 * kill ends it early: returns -EINTR) or TASK_UNINTERRUPTIBLE. */
int sleep_until(uint64_t deadline_ns, int state);
/* For a sleep that something else ends too (a futex wake): the caller
 * set its state already; its CPU's timer wakes it at deadline unless
 * sleep_timer_cancel() took it off first (call it after schedule()). */
void sleep_timer_start(uint64_t deadline_ns);
void sleep_timer_cancel(void);
/* The timer interrupt (drivers/timer.c): wake this CPU's due sleepers;
 * returns the next deadline queued here, or UINT64_MAX. */
uint64_t sleep_expire(void);
/* With the state already set by the caller: sleep until the deadline or a
 * wake-up, whichever is first (kernel/fs/poll.c). */
void sleep_nap_until(uint64_t deadline_ns);

int sys_nanosleep(const void *ureq, void *urem);
int sys_clock_nanosleep(int clock, int flags, const void *ureq, void *urem);
/* 407 clock_nanosleep_time64: the same with struct __kernel_timespec. */
int sys_clock_nanosleep_time64(int clock, int flags, const void *ureq, void *urem);

#endif
