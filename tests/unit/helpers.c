/*
 * helpers.c - the small steps many unit tests share (test.h).
 */
#include "test.h"
#include "../../sched/policy.h"
#include "../../sched/syscalls.h"

void tick0(void)
{
	fake_now_ns += TICK_NS;
	fake_tick(0, true);
	fake_resched_pending();
}

struct sched_param *user_param(int prio)
{
	struct sched_param *p = (void *)fake_user_mem;
	p->sched_priority = prio;
	return p;
}

void boot_topology(int packages, int cores, int threads)
{
	static struct sched_topology topo;
	int n = 0;
	for (int p = 0; p < packages; p++)
		for (int c = 0; c < cores; c++)
			for (int t = 0; t < threads; t++, n++) {
				topo.cpu[n].package = p;
				topo.cpu[n].core = c;
				topo.cpu[n].thread = t;
			}
	fake_boot(n, &topo);
}

struct sched_task *pinned(int cpu, int policy, int nice)
{
	struct fake_proc *p = fake_new_task(cpu, 1000, 1000);
	p->sched.cpus_allowed = 1u << cpu;
	sched_set_policy(&p->sched, policy, sched_policies[policy]->rt ? 10 : 0);
	p->sched.static_prio = NICE_TO_PRIO(nice);
	p->sched.slice = full_slice(&p->sched);
	p->sched.prio = effective_prio(&p->sched);
	int saved = fake_cpu;
	fake_cpu = cpu;
	sched_wake_new(&p->sched);
	fake_cpu = saved;
	return &p->sched;
}
