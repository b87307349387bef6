/*
 * sim.c - the workload driver (see sim.h).
 */
#include "sim.h"

static struct sim_task tasks[SIM_MAX];
static int ntasks;
static uint64_t now_ticks;
static uint64_t rng;

void sim_seed(uint64_t seed)
{
	rng = seed;
}

void sim_reset(void)
{
	ntasks = 0;
	now_ticks = 0;
	sim_seed(1);
}

/* splitmix64: small, and the same numbers on every host */
static uint64_t sim_random(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A length in ticks from min..max, or min if there is no range. */
static int draw(int min, int max)
{
	if (max <= min)
		return min;
	return min + (int)(sim_random() % (uint64_t)(max - min + 1));
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

void sim_set_ranges(struct sim_task *t, int run_max, int sleep_max)
{
	t->run_max = run_max;
	t->sleep_max = sleep_max;
	t->left = draw(t->run_ticks, t->run_max);
}

struct sim_task *sim_add(int cpu, int run_ticks, int sleep_ticks)
{
	return sim_add_task(fake_spawn(cpu, 1000, 1000), run_ticks, sleep_ticks);
}

static struct sim_task *sim_of(struct sched_task *se)
{
	for (int i = 0; i < ntasks; i++)
		if (&tasks[i].proc->sched == se)
			return &tasks[i];
	return NULL;
}

void sim_step(void)
{
	fake_resched_pending();		/* requests made between steps */
	now_ticks++;
	fake_now_ns += fake_tick_ns();
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
			t->left = draw(t->run_ticks, t->run_max);
			fake_cpu = t->proc->sched.cpu;
			sched_wake_up(&t->proc->sched);
			fake_cpu = 0;
		}
	}
	for (int cpu = 0; cpu < fake_ncpus; cpu++) {
		struct sim_task *t = sim_of(fake_curr(cpu));
		if (t && t->run_ticks > 0 && t->left <= 0) {
			t->asleep = true;
			t->wake_at = now_ticks + draw(t->sleep_ticks, t->sleep_max);
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
