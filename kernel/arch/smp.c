/*
 * smp.c - AP bring-up (INIT-SIPI-SIPI) and inter-processor interrupts.
 *
 * The start-up sequence is the one in Intel SDM vol. 3 §8.4.4.1: an INIT
 * IPI, 10 ms, a STARTUP IPI naming the trampoline page, 200 us, and a
 * second STARTUP in case the first was missed. The delays are real: udelay
 * runs on the TSC that drivers/timer.c calibrated. The APs start one at a
 * time because they share the trampoline and its parameter block.
 */
#include "smp.h"
#include "cpu.h"
#include "kernel/debug/panic.h"
#include "kernel/mm/pmm.h"
#include "kernel/debug/printk.h"
#include "kernel/init/bootparam.h"
#include "kernel/task/proc.h"
#include "lib/string.h"
#include "kernel/time/time.h"
#include "trap.h"
#include "kernel/mm/vm.h"
#include "x86.h"
#include "drivers/acpi.h"
#include "drivers/lapic.h"
#include "drivers/timer.h"
#include "drivers/topology.h"

#define TRAMPOLINE_PA      0x8000	/* boot/trampoline.asm; below 1 MiB, pmm-reserved */
#define AP_STACK_PAGES     4
#define INIT_DELAY_US      10000
#define STARTUP_DELAY_US   200
/* How long to wait for an AP's first sign of life, the claim; Linux 6.1's
 * do_boot_cpu waits 10 s, and a busy host may not run a vCPU for seconds.
 * Boot parameter smp_wait_ms (0 gives up at once: the test of the late
 * AP, smp_late_ap in tests/cases). */
#define AP_WAIT_MS_DEFAULT 10000
#define CLAIMED   0xfffffffeu	/* boot/trampoline.asm: the AP took its start-up */
#define ABANDONED 0xffffffffu	/* no APIC ID: an AP arriving now halts */

/* boot/trampoline.asm */
extern char trampoline_start[], trampoline_end[], trampoline_params[];
struct trampoline_params {
	uint32_t cr3, stack, entry;
	struct cpu *cpu;
	volatile uint32_t claim;	/* the APIC ID wanted, CLAIMED, or ABANDONED */
};

/* One mailbox per target CPU for smp_call_function. */
struct call_slot {
	volatile uint32_t busy;		/* a caller owns the slot */
	volatile bool pending;		/* fn waiting to be run */
	volatile bool done;		/* fn has returned (when the caller waits) */
	bool wait;			/* the caller waits, and frees busy after */
	void (*fn)(void *);
	void *arg;
};
static struct call_slot call_slots[MAX_CPUS];

/* Set by smp_start_scheduler() once the boot CPU runs the scheduler: from
 * then on an AP halted in cpu_idle_loop() joins it at its next interrupt
 * (its timer tick at the latest). */
static volatile bool scheduler_started;
static volatile int cpus_in_scheduler;

/* This CPU's boot stack becomes its idle task, and the idle loop takes over. */
static __attribute__((noreturn)) void join_scheduler(void)
{
	proc_init_idle();
	__sync_fetch_and_add(&cpus_in_scheduler, 1);
	cpu_idle();
}

/* An AP, once up: halt with interrupts on, waking for each interrupt,
 * until the scheduler has started; then join it, interrupts off. */
static __attribute__((noreturn)) void cpu_idle_loop(void)
{
	for (;;) {
		cli();
		if (scheduler_started)
			join_scheduler();
		sti();
		hlt();
	}
}

static __attribute__((noreturn)) void ap_main(struct cpu *c)
{
	cpu_setup(c);			/* first: mycpu() and locks need %fs */
	idt_load();
	lapic_enable();
	timer_start();
	__sync_synchronize();
	c->online = true;		/* the boot CPU is waiting for this */
	cpu_idle_loop();
}

static struct trampoline_params *params(void)
{
	return (void *)((char *)P2V(TRAMPOLINE_PA) + (trampoline_params - trampoline_start));
}

/* Wait up to ms for the AP to claim its start-up; then it is either ours
 * (it will come online: it runs kernel code now) or abandoned (the claim
 * is taken back in one atomic step, so it cannot be both). */
static bool ap_claimed(struct trampoline_params *p, uint32_t apic, int ms)
{
	uint64_t deadline = clock_ns() + (uint64_t)ms * 1000 * 1000;
	while (p->claim != CLAIMED && clock_ns() < deadline)
		pause();
	return !__sync_bool_compare_and_swap(&p->claim, apic, ABANDONED);
}

static bool start_ap(struct cpu *c, int wait_ms)
{
	uint32_t stack = pmm_alloc_contig(AP_STACK_PAGES);
	if (!stack)
		panic("smp: no memory for cpu%d's stack", c->id);
	c->boot_stack = P2V(stack);
	struct trampoline_params *p = params();
	p->cr3 = V2P(kernel_pgdir);
	p->stack = (uint32_t)P2V(stack) + AP_STACK_PAGES * PAGE_SIZE;
	p->entry = (uint32_t)ap_main;
	p->cpu = c;
	p->claim = c->apic_id;
	__sync_synchronize();

	lapic_send_init(c->apic_id);
	if (wait_ms)
		udelay(INIT_DELAY_US);
	for (int i = 0; i < 2 && p->claim != CLAIMED; i++) {
		lapic_send_startup(c->apic_id, TRAMPOLINE_PA >> 12);
		if (wait_ms)
			udelay(STARTUP_DELAY_US);
	}
	if (ap_claimed(p, c->apic_id, wait_ms)) {
		while (!c->online)
			pause();
		return true;
	}
	/* Park it in wait-for-SIPI. A STARTUP it has not yet taken may
	 * still start it later (QEMU keeps one pending across INIT): the
	 * trampoline then finds ABANDONED and halts before using the stack
	 * freed here or the struct cpu given to the next AP. */
	lapic_send_init(c->apic_id);
	pmm_free_contig(stack, AP_STACK_PAGES);
	c->boot_stack = NULL;
	return false;
}

/* ---- IPI handlers ---------------------------------------------------- */

/* Run the call waiting in this CPU's slot, if any. The slot is emptied
 * before fn runs, so fn may make calls of its own (and run ours). */
void smp_poll_calls(void)
{
	struct call_slot *s = &call_slots[cpu_id()];
	if (!s->pending)
		return;
	void (*fn)(void *) = s->fn;
	void *arg = s->arg;
	bool wait = s->wait;
	s->pending = false;
	if (!wait)
		xchg(&s->busy, 0);
	fn(arg);
	if (wait) {
		__sync_synchronize();
		s->done = true;
	}
}

volatile uint32_t smp_resched_ipis[MAX_CPUS];

void ipi_resched(struct trapframe *tf)
{
	(void)tf;
	smp_resched_ipis[cpu_id()]++;
	mycpu()->need_resched = 1;
}

void ipi_call(struct trapframe *tf)
{
	(void)tf;
	smp_poll_calls();
}

void ipi_halt(struct trapframe *tf)
{
	(void)tf;
	for (;;) {
		cli();
		hlt();
	}
}

/* ---- the public API -------------------------------------------------- */

void smp_boot_aps(void)
{
	struct cpu *bsp = &cpus[0];
	bsp->apic_id = lapic_id();
	topology_assign(bsp);
	bsp->online = true;

	int wait_ms = bootparam_int("smp_wait_ms", AP_WAIT_MS_DEFAULT, 0, AP_WAIT_MS_DEFAULT);
	memcpy(P2V(TRAMPOLINE_PA), trampoline_start, trampoline_end - trampoline_start);
	for (int i = 0; i < acpi_ncpus; i++) {
		uint32_t apic = acpi_cpu_apic_ids[i];
		if (apic == bsp->apic_id)
			continue;
		if (ncpus == MAX_CPUS) {
			pr_warn("smp: MAX_CPUS is %d: apic %u not started\n", MAX_CPUS, apic);
			continue;
		}
		struct cpu *c = &cpus[ncpus];
		memset(c, 0, sizeof(*c));
		c->id = ncpus;
		c->apic_id = apic;
		topology_assign(c);
		if (start_ap(c, wait_ms))
			ncpus++;
		else
			pr_warn("smp: cpu with apic %u did not answer in %d ms; skipped\n",
				apic, wait_ms);
	}
	vm_drop_identity_map();		/* the trampoline was its last user */
}

/* A CPU spinning with interrupts off will not hear this; panic prints
 * without locks, so it does not need to. ncpus is 1 until the first AP is
 * up, so before smp_boot_aps() (and before the LAPIC is mapped) this sends
 * nothing. */
void smp_halt_others(void)
{
	if (ncpus > 1)
		lapic_send_ipi_all_but_self(T_IPI_HALT);
}

void smp_start_scheduler(void)
{
	cpus_in_scheduler = 1;		/* the boot CPU, which is already in */
	scheduler_started = true;
	while (cpus_in_scheduler < ncpus)
		pause();
}

void resched_cpu(int cpu)
{
	KASSERT(cpu >= 0 && cpu < ncpus);
	cpus[cpu].need_resched = 1;
	if (cpu != cpu_id())
		lapic_send_ipi(cpus[cpu].apic_id, T_IPI_RESCHED);
}

static void call_post(int cpu, void (*fn)(void *), void *arg, bool wait);
static void call_wait(int cpu);

static void flush_if_loaded(void *pd)
{
	if (read_cr3() == V2P(pd))
		write_cr3(V2P(pd));
}

/* Only the CPUs that have pd loaded, asked all at once and then awaited
 * (Linux's flush_tlb_mm_range over mm_cpumask): a CPU that loads pd later
 * reads the changed tables (vm_loaded_on says why). */
void smp_flush_tlb(pde_t *pd)
{
	if (ncpus == 1)
		return;
	bool asked[MAX_CPUS];
	__sync_synchronize();		/* the table changes, then the look */
	push_cli();
	for (int cpu = 0; cpu < ncpus; cpu++) {
		asked[cpu] = cpu != cpu_id() && vm_loaded_on(cpu, pd);
		if (asked[cpu])
			call_post(cpu, flush_if_loaded, pd, true);
	}
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (asked[cpu])
			call_wait(cpu);
	pop_cli();
}

struct kernel_range { uint32_t va, npages; };

static void flush_range(void *arg)
{
	const struct kernel_range *r = arg;
	for (uint32_t i = 0; i < r->npages; i++)
		invlpg(r->va + i * PAGE_SIZE);
}

void smp_flush_tlb_kernel(uint32_t va, uint32_t npages)
{
	struct kernel_range r = { va, npages };
	for (int cpu = 0; cpu < ncpus; cpu++)
		smp_call_function(cpu, flush_range, &r, true);	/* this CPU too */
}

/* Put fn(arg) in another CPU's slot and interrupt it; with wait, the
 * slot stays ours until call_wait. Interrupts off. */
static void call_post(int cpu, void (*fn)(void *), void *arg, bool wait)
{
	struct call_slot *s = &call_slots[cpu];
	while (xchg(&s->busy, 1) != 0) {
		smp_poll_calls();
		pause();
	}
	s->fn = fn;
	s->arg = arg;
	s->wait = wait;
	s->done = false;
	__sync_synchronize();
	s->pending = true;
	lapic_send_ipi(cpus[cpu].apic_id, T_IPI_CALL);
}

/* Until the call posted with wait has run there; then the slot is free. */
static void call_wait(int cpu)
{
	struct call_slot *s = &call_slots[cpu];
	while (!s->done) {
		smp_poll_calls();
		pause();
	}
	xchg(&s->busy, 0);
}

void smp_call_function(int cpu, void (*fn)(void *), void *arg, bool wait)
{
	KASSERT(cpu >= 0 && cpu < ncpus);
	push_cli();
	if (cpu == cpu_id()) {
		fn(arg);
		pop_cli();
		return;
	}
	call_post(cpu, fn, arg, wait);
	if (wait)
		call_wait(cpu);
	pop_cli();
}
