/*
 * timer.c - calibrate the local APIC timer and the TSC, then tick.
 *
 * Neither the APIC timer's input clock nor the TSC's rate is written
 * anywhere we can read portably, so we time both against the PIT, whose
 * input clock is a fixed 1.193182 MHz: start a PIT countdown, read the TSC
 * and the APIC timer's count at its start and end. We do it a few times
 * and keep the shortest run (a host that deschedules us, on QEMU, can only
 * make a run look longer).
 *
 * One-shot, not periodic. Each CPU's APIC timer is programmed for the
 * earlier of two times: its next scheduler tick (every 1/hz s, on fixed
 * TSC boundaries, so ticks do not drift) and the earliest sleep deadline
 * queued on that CPU (kernel/time/sleep.c). So a 1 ms nanosleep ends within
 * microseconds of its deadline instead of at the next tick, while the
 * scheduler still sees its tick at hz: its rules are in ticks
 * (docs/staircase.md §12). An idle CPU keeps ticking: its tick is what
 * pulls work from busy CPUs (docs/kernel.md, "Time").
 *
 * Lost ticks. An APIC raises a second timer interrupt while the first is
 * still pending as one interrupt: the tick is lost. Real hardware does not
 * do that at 1000 Hz, but QEMU does when the host leaves a vCPU thread
 * unscheduled for over a period. So mycpu()->ticks counts like Linux's
 * jiffies: one per interrupt, but never less than the whole periods the
 * TSC says have passed since this CPU's timer started, less one. That one
 * period of slack keeps a late interrupt followed at once by the next from
 * being counted three times; the price is that ticks may trail the TSC by
 * one. sched_tick() still runs once per interrupt, as Linux's
 * scheduler_tick, and the ticks that were lost are charged afterwards
 * (kernel/time/tick.c, which does all of a tick's work: this file only drives
 * the timer). A timer that runs too fast still shows up as too many
 * ticks; one too slow shows up in the interrupt count that test=timer
 * prints.
 */
#include "timer.h"
#include "lapic.h"
#include "pit.h"
#include "kernel/init/bootparam.h"
#include "kernel/arch/cpu.h"
#include "kernel/debug/printk.h"
#include "kernel/time/tick.h"
#include "kernel/time/time.h"
#include "kernel/arch/trap.h"
#include "kernel/arch/x86.h"
#include "sched/sched.h"

#define CALIBRATE_US   PIT_MAX_US	/* 50 ms per run */
#define CALIBRATE_RUNS 5
#define CALIBRATE_AGREE 100000	/* two runs within 1/100,000: enough */

int timer_hz = 1000;
static uint32_t lapic_count;		/* APIC timer counts per tick */
static uint64_t apic_hz;		/* APIC timer counts per second */
static uint64_t tsc_per_tick;		/* the tick period in TSC cycles */
static uint64_t tsc_start[MAX_CPUS];	/* when each CPU's timer started */
static uint64_t interrupts[MAX_CPUS];	/* tick interrupts actually taken */
static uint64_t next_tick[MAX_CPUS];	/* TSC of each CPU's next tick */
static uint64_t next_deadline[MAX_CPUS];	/* earliest sleep deadline (ns) queued there */

/* Program this CPU's one-shot timer for its next tick or deadline. */
static void program(int cpu)
{
	uint64_t now_tsc = rdtsc(), now = clock_ns();
	uint64_t ns = next_tick[cpu] > now_tsc ? clock_cycles_to_ns(next_tick[cpu] - now_tsc) : 0;
	uint64_t count;

	if (next_deadline[cpu] < now + ns)
		ns = next_deadline[cpu] > now ? next_deadline[cpu] - now : 0;
	count = ns * apic_hz / 1000000000ull + 1;	/* never early: round up */
	lapic_timer_oneshot(count > UINT32_MAX ? UINT32_MAX : (uint32_t)count,
			    T_LAPIC_TIMER);
}

/* Is a tick due? Then the next one is a whole period later, on a fixed
 * TSC boundary. kernel/time/tick.c does the work of both the tick and the
 * deadline, and says when the next deadline is. */
void timer_interrupt(struct trapframe *tf)
{
	int cpu = cpu_id();
	uint64_t now = rdtsc(), due = 0;
	bool tick_due = now >= next_tick[cpu];

	if (tick_due) {
		due = (now - tsc_start[cpu]) / tsc_per_tick;
		next_tick[cpu] = tsc_start[cpu] + (due + 1) * tsc_per_tick;
		interrupts[cpu]++;
	}
	next_deadline[cpu] = tick_interrupt(tf, tick_due, due);
	program(cpu);
}

/* Interrupts off: make this CPU's timer fire by deadline_ns as well. */
void timer_arm(uint64_t deadline_ns)
{
	int cpu = cpu_id();

	if (!apic_hz || deadline_ns >= next_deadline[cpu])
		return;
	next_deadline[cpu] = deadline_ns;
	program(cpu);
}

/* One PIT countdown: how far the TSC advanced and the APIC timer fell. */
static void measure(uint64_t *tsc, uint32_t *apic)
{
	lapic_timer_oneshot_max();
	pit_countdown_start(CALIBRATE_US);
	uint64_t t0 = rdtsc();
	uint32_t a0 = lapic_timer_current();
	while (!pit_countdown_done())
		;	/* no pause: QEMU leaves its CPU loop at each one */
	*tsc = rdtsc() - t0;
	*apic = a0 - lapic_timer_current();
}

void timer_calibrate(void)
{
	uint64_t best_tsc = UINT64_MAX;
	uint32_t best_apic = 0;

	timer_hz = bootparam_int("hz", 1000, HZ_MIN, HZ_MAX);
	/* Keep the shortest run. A virtual CPU that the host stops for a
	 * while sees the countdown end late, while the TSC and the APIC
	 * timer go on counting: a stall can only make a run look longer.
	 * So two runs that agree to CALIBRATE_AGREE are both undisturbed,
	 * and the rest are not needed (under -icount every run agrees). */
	uint64_t second_tsc = UINT64_MAX;
	for (int i = 0; i < CALIBRATE_RUNS; i++) {
		uint64_t tsc;
		uint32_t apic;
		measure(&tsc, &apic);
		if (tsc < best_tsc) {
			second_tsc = best_tsc;
			best_tsc = tsc;
			best_apic = apic;
		} else if (tsc < second_tsc) {
			second_tsc = tsc;
		}
		if (second_tsc != UINT64_MAX &&
		    (second_tsc - best_tsc) * CALIBRATE_AGREE <= best_tsc)
			break;
	}
	/* The countdown is a whole number of PIT clocks, not exactly 50 ms. */
	uint64_t pit_clocks = (uint64_t)PIT_HZ * CALIBRATE_US / 1000000;
	uint64_t tsc_hz = best_tsc * PIT_HZ / pit_clocks;
	apic_hz = (uint64_t)best_apic * PIT_HZ / pit_clocks;

	clock_set_tsc_khz(tsc_hz / 1000);
	lapic_count = apic_hz / timer_hz;
	tsc_per_tick = tsc_hz * lapic_count / apic_hz;
	printk("timer: lapic %d Hz (timer clock %llu Hz, %u per tick), tsc %llu.%03llu MHz\n",
	       timer_hz, apic_hz, lapic_count, tsc_hz / 1000000, tsc_hz / 1000 % 1000);
}

void timer_start(void)
{
	int cpu = cpu_id();

	tsc_start[cpu] = rdtsc();
	next_tick[cpu] = tsc_start[cpu] + tsc_per_tick;
	next_deadline[cpu] = UINT64_MAX;
	program(cpu);
}

/* A 64-bit counter written by its own CPU: re-read until both halves agree. */
static uint64_t read64(volatile uint64_t *p)
{
	uint64_t a, b;
	do {
		a = *p;
		b = *p;
	} while (a != b);
	return a;
}

uint64_t timer_interrupts(int cpu)
{
	return read64(&interrupts[cpu]);
}

uint64_t cpu_ticks(int cpu)
{
	return read64(&cpus[cpu].ticks);
}
