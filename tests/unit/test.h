/*
 * test.h - what the unit tests of sched/ share: one TEST per rule, named after it.
 *
 * TEST, CHECK, CHECK_EQ, CHECK_RANGE are the host tests' runner's
 * (tests/lib/ctest.h). Each test here starts from a freshly booted fake
 * machine with one CPU and the default tunables (HZ 1000, RR 10 ticks;
 * around.c); it may boot another one. A failed KASSERT fails it.
 */
#ifndef TEST_H
#define TEST_H

#include "../lib/ctest.h"
#include "fake_machine.h"
#include "sim.h"

/* Shared steps (helpers.c). */
struct sched_param;
void tick0(void);			/* one tick on CPU 0, and the schedule() it asks for */
struct sched_param *user_param(int prio);	/* a sched_param in "user memory" */
void boot_topology(int packages, int cores, int threads);	/* CPUs thread-fastest */
/* A task of uid 1000 pinned to cpu with policy and nice, queued there. */
struct sched_task *pinned(int cpu, int policy, int nice);

#endif
