/*
 * sleep.h - sleeping for a while: nanosleep and kernel timeouts.
 *
 * Sleepers wait on one list sorted by deadline; every timer tick checks
 * its head and wakes whoever is due, so sleeps end on a tick boundary
 * (resolution 1/hz) and never early.
 */
#ifndef KERNEL_SLEEP_H
#define KERNEL_SLEEP_H

#include <stdint.h>

/* Sleep until clock_ns() >= deadline. state is TASK_INTERRUPTIBLE (a
 * kill ends it early: returns -EINTR) or TASK_UNINTERRUPTIBLE. */
int sleep_until(uint64_t deadline_ns, int state);
/* Called from every CPU's timer tick. */
void sleep_tick(void);

int sys_nanosleep(const void *ureq, void *urem);
int sys_clock_nanosleep(int clock, int flags, const void *ureq, void *urem);

#endif
