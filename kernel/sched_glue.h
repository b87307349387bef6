/*
 * sched_glue.h - starting the scheduler and feeding it ticks.
 */
#ifndef KERNEL_SCHED_GLUE_H
#define KERNEL_SCHED_GLUE_H

#include <stdbool.h>
#include "../sched/sched.h"

void sched_glue_init(int hz, const struct sched_topology *topo);
/* Every timer tick on every CPU (drivers/timer.c), interrupts off;
 * user_mode: the tick interrupted user code (for CPU-time accounting).
 * Does nothing on a CPU that has not joined the scheduler yet. */
void kernel_tick(bool user_mode);

/* Call 502, sched_tunable(id, op, value): op 0 reads a tunable, op 1 sets
 * it (root only), through sched/syscalls.c. */
int sys_sched_tunable(int id, int op, int value);

#endif
