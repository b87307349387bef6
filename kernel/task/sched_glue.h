/*
 * sched_glue.h - starting the scheduler (its ticks come from
 * kernel/time/tick.c, which calls sched_tick() itself).
 */
#ifndef KERNEL_SCHED_GLUE_H
#define KERNEL_SCHED_GLUE_H

#include <stdbool.h>
#include "sched/sched.h"

void sched_glue_init(int hz, const struct sched_topology *topo);
/* Call 502, sched_tunable(id, op, value): op 0 reads a tunable, op 1 sets
 * it (root only), through sched/syscalls.c. */
int sys_sched_tunable(int id, int op, int value);

#endif
