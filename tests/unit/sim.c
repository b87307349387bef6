/*
 * sim.c - the workload driver (see sim.h).
 */
#include "sim.h"

static struct sim_task tasks[SIM_MAX];
static int ntasks;
static uint64_t now_ticks;

void sim_reset(void)
{
	ntasks = 0;
	now_ticks = 0;
}

uint64_t sim_now_ticks(void)
{
	return now_ticks;
}

struct sim_task *sim_add_task(struct fake_proc *p, int run_ticks, int sleep_ticks)
{
	struct sim_task *t = &tasks[ntasks++];

	*t = (struct sim_task){ .proc = p, .run_ticks = run_ticks,
				.sleep_ticks = sleep_ticks, .left = run_ticks };
	return t;
}

struct sim_task *sim_add(int cpu, int run_ticks, int sleep_ticks)
{
	return sim_add_task(fake_spawn(cpu, 1000, 1000), run_ticks, sleep_ticks);
}

static struct sim_task *sim_of(struct sched_task *se)
{
	for (int i = 0; i < ntasks; i++)
		if (&tasks[i].proc->se == se)
			return &tasks[i];
	return NULL;
}

void sim_step(void)
{
	fake_resched_pending();		/* requests made between steps */
	now_ticks++;
	fake_now_ns += TICK_NS;
	for (int cpu = 0; cpu < fake_ncpus; cpu++) {
		struct sim_task *t = sim_of(fake_curr(cpu));
		if (t) {
			t->ran++;
			t->left--;
		}
	}
	for (int cpu = 0; cpu < fake_ncpus; cpu++)
		fake_tick(cpu, true);
	for (int i = 0; i < ntasks; i++) {
		struct sim_task *t = &tasks[i];
		if (t->asleep && t->wake_at <= now_ticks) {
			t->asleep = false;
			t->left = t->run_ticks;
			fake_cpu = t->proc->se.cpu;
			sched_wake_up(&t->proc->se);
			fake_cpu = 0;
		}
	}
	for (int cpu = 0; cpu < fake_ncpus; cpu++) {
		struct sim_task *t = sim_of(fake_curr(cpu));
		if (t && t->run_ticks > 0 && t->left <= 0) {
			t->asleep = true;
			t->wake_at = now_ticks + t->sleep_ticks;
			fake_sleep(cpu, t->uninterruptible ? TASK_UNINTERRUPTIBLE
							   : TASK_INTERRUPTIBLE);
		} else if (fake_need_resched[cpu]) {
			fake_schedule(cpu);
		}
	}
}

void sim_run(int ticks)
{
	for (int i = 0; i < ticks; i++)
		sim_step();
}

double sim_share(const struct sim_task *t, uint64_t ticks)
{
	return ticks ? (double)t->ran / (double)ticks : 0.0;
}
