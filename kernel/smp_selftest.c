/*
 * smp_selftest.c - test=ipi: the inter-processor calls of kernel/smp.c,
 * checked at boot on every CPU (the harness case "ipi").
 *
 * Three checks, each printing "ipi: ... reached N of N CPUs": a waiting
 * smp_call_function() to each CPU in turn; a ring in which every CPU,
 * called without waiting, calls the next one and waits for it (nested
 * calls in interrupt context, which would deadlock if a waiting CPU did
 * not run the calls sent to it); and a resched IPI to each CPU.
 */
#include <stddef.h>
#include "smp.h"
#include "cpu.h"
#include "printk.h"
#include "time.h"
#include "x86.h"

static volatile uint32_t calls_taken[MAX_CPUS];

static void count_call(void *arg)
{
	(void)arg;
	__sync_fetch_and_add(&calls_taken[cpu_id()], 1);
}

/* Runs in interrupt context on CPU i and calls CPU i+1, waiting: all of
 * them at once form a ring of CPUs each waiting for the next. */
static void call_next(void *arg)
{
	(void)arg;
	smp_call_function((cpu_id() + 1) % ncpus, count_call, NULL, true);
}

static bool wait_until(volatile uint32_t *counter, uint32_t want)
{
	uint64_t deadline = clock_ns() + 1000000000ull;
	while (*counter < want && clock_ns() < deadline)
		pause();
	return *counter >= want;
}

void smp_selftest(void)
{
	int ok = 0;
	for (int i = 0; i < ncpus; i++) {
		smp_call_function(i, count_call, NULL, true);
		ok += calls_taken[i] == 1;
	}
	printk("ipi: call-function (wait) reached %d of %d CPUs\n", ok, ncpus);

	for (int i = 0; i < ncpus; i++)
		smp_call_function(i, call_next, NULL, false);
	ok = 0;
	for (int i = 0; i < ncpus; i++)
		ok += wait_until(&calls_taken[i], 2);
	printk("ipi: call-function ring (no wait, nested) reached %d of %d CPUs\n", ok, ncpus);

	ok = 0;
	for (int i = 0; i < ncpus; i++) {
		/* Another CPU's scheduler may clear need_resched at once, so
		 * what we check there is that the IPI arrived. */
		uint32_t before = smp_resched_ipis[i];
		push_cli();
		resched_cpu(i);
		bool arrived = i == cpu_id() ? mycpu()->need_resched
					     : wait_until(&smp_resched_ipis[i], before + 1);
		pop_cli();
		ok += arrived;
	}
	printk("ipi: resched reached %d of %d CPUs\n", ok, ncpus);
}
