/*
 * sim.h - a small workload driver over the fake machine.
 *
 * A workload task runs for run_ticks, then sleeps for sleep_ticks, for
 * ever (run_ticks = 0: a CPU hog that never sleeps). sim_run() advances
 * the fake clock one tick at a time on every CPU, in this order:
 * the running tasks use up the tick, every CPU takes its timer tick,
 * sleepers whose time has come are woken, and then each CPU whose task
 * has finished its run goes to sleep, or which was asked to, reschedules.
 * With sim_set_ranges(), each run and each sleep instead lasts a number of
 * ticks drawn from a range, by a generator that sim_seed() starts, so the
 * same seed gives the same run.
 */
#ifndef SIM_H
#define SIM_H

#include "fake_machine.h"

struct sim_task {
	struct fake_proc *proc;
	int run_ticks, sleep_ticks;
	int run_max, sleep_max;		/* above run/sleep_ticks: drawn from the range */
	bool uninterruptible;		/* sleeps as TASK_UNINTERRUPTIBLE */
	/* driver state */
	int left;			/* ticks left of the current run */
	bool asleep;
	uint64_t wake_at;		/* tick number */
	uint64_t ran;			/* ticks it was running at a tick */
};

#define SIM_MAX 64

void sim_reset(void);
/* A task on CPU cpu (queued with sched_wake_new); returns its record. */
struct sim_task *sim_add(int cpu, int run_ticks, int sleep_ticks);
struct sim_task *sim_add_task(struct fake_proc *p, int run_ticks, int sleep_ticks);
/* Runs last run_ticks..run_max, sleeps sleep_ticks..sleep_max (inclusive). */
void sim_set_ranges(struct sim_task *t, int run_max, int sleep_max);
void sim_seed(uint64_t seed);		/* sim_reset() seeds with 1 */
void sim_step(void);
void sim_run(int ticks);
uint64_t sim_now_ticks(void);
double sim_share(const struct sim_task *t, uint64_t ticks);	/* ran / ticks */

#endif
