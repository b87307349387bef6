/*
 * selftest.c - every test-only hook and call of the kernel, in one file.
 *
 * Linux keeps such code behind CONFIG_*_SELFTEST and xv6 in usertests.c;
 * here it is compiled in, because the boot tests (tests/cases/) need it,
 * and the kernel's real paths reach it through one named hook each
 * (selftest.h): kmain calls selftest_boot(), proc_get calls
 * selftest_lookup_delay(), proc_exit calls selftest_exit(), and
 * kernel/syscall.c's table has call 503, sys_test_mutex(). Nothing else
 * in the kernel calls into this file, and nothing here is reached unless
 * a test asks for it (a test= boot parameter, or call 503).
 *
 * In order: the boot self-tests (test=panic, timer, echo, ipi,
 * slowfind), then call 503 and its exit hook.
 */
#include <stddef.h>
#include "selftest.h"
#include "kernel/init/bootparam.h"
#include "console.h"
#include "kernel/arch/cpu.h"
#include "lib/errno.h"
#include "kernel/sync/mutex.h"
#include "printk.h"
#include "kernel/task/proc.h"
#include "kernel/time/sleep.h"
#include "kernel/arch/smp.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "kernel/time/time.h"
#include "kernel/arch/x86.h"
#include "drivers/timer.h"
#include <uapi/ourcalls.h>	/* TEST_MUTEX_LOCK ...: call 503's operations */

/* ---------- test=panic ---------- */

/* A deliberate kernel page fault, so the harness can check
 * that a kernel bug produces "panic:" and a symbolized backtrace. */
static __attribute__((noinline)) void test_panic_fault(void)
{
	volatile uint32_t *unmapped = (uint32_t *)0x40000000;
	printk("test: writing to unmapped address %p from kernel mode\n", unmapped);
	*unmapped = 0xdead;
}

/* ---------- test=timer ---------- */

/* Count every CPU's ticks over 2 s of TSC time and print
 * "timer: cpuK T ticks in M ms (N interrupts, L lost)" for each: a timer
 * too fast shows as too many ticks, one too slow in the interrupt count. */
#define TIMER_TEST_MS	2000

static void timer_selftest(void)
{
	uint64_t ticks0[MAX_CPUS], irqs0[MAX_CPUS];

	uint64_t start = clock_ns();
	for (int i = 0; i < ncpus; i++) {
		ticks0[i] = cpu_ticks(i);
		irqs0[i] = timer_interrupts(i);
	}
	while (clock_ns() - start < TIMER_TEST_MS * 1000000ull)
		hlt();
	uint64_t ms = (clock_ns() - start) / 1000000;
	for (int i = 0; i < ncpus; i++) {	/* snapshot all before printing any */
		ticks0[i] = cpu_ticks(i) - ticks0[i];
		irqs0[i] = timer_interrupts(i) - irqs0[i];
	}
	for (int i = 0; i < ncpus; i++) {
		uint64_t t = ticks0[i], n = irqs0[i];
		printk("timer: cpu%d %llu ticks in %llu ms (%llu interrupts, %llu lost)\n",
		       i, t, ms, n, t > n ? t - n : 0);
	}
}

/* ---------- test=echo ---------- */

/* Print "echo: ready", read one line from console input (sleeping in hlt
 * between interrupts), print `echo: got "<line>"`. */
#define ECHO_MAX 80

static void serial_echo_test(void)
{
	char line[ECHO_MAX + 1];
	int n = 0;

	printk("echo: ready\n");
	for (;;) {
		int c = console_getc_nowait();
		if (c < 0) {
			hlt();		/* the next interrupt: a byte, or a tick */
			continue;
		}
		if (c == '\r' || c == '\n')
			break;
		if (n < ECHO_MAX)
			line[n++] = (char)c;
	}
	line[n] = 0;
	printk("echo: got \"%s\"\n", line);
}

/* ---------- test=ipi ---------- */

/*
 * The inter-processor calls of kernel/arch/smp.c, checked on every CPU (the
 * harness case "ipi"). Three checks, each printing "ipi: ... reached N of
 * N CPUs": a waiting smp_call_function() to each CPU in turn; a ring in
 * which every CPU, called without waiting, calls the next one and waits
 * for it (nested calls in interrupt context, which would deadlock if a
 * waiting CPU did not run the calls sent to it); and a resched IPI to
 * each CPU.
 */
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

static void smp_selftest(void)
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

/* ---------- test=slowfind ---------- */

static bool slow_lookup;

void selftest_lookup_delay(void)
{
	if (slow_lookup)
		udelay(500);	/* widens the pid-lookup race window */
}

/* ---------- the boot parameter test= ---------- */

void selftest_boot(void)
{
	const char *t = bootparam_str("test");
	if (!t)
		return;
	if (strcmp(t, "panic") == 0)
		test_panic_fault();
	else if (strcmp(t, "timer") == 0)
		timer_selftest();
	else if (strcmp(t, "echo") == 0)
		serial_echo_test();
	else if (strcmp(t, "ipi") == 0)
		smp_selftest();
	else if (strcmp(t, "slowfind") == 0)
		slow_lookup = true;
	else
		pr_warn("bootparam: test: unknown test \"%s\"\n", t);
}

/* ---------- call 503, the test mutexes ---------- */

/*
 * sys_test_mutex(op, arg) - system call 503, exists for tests only.
 *   0 LOCK(index)       take test mutex index (0..3), sleeping
 *                       uninterruptibly while another task holds it (a
 *                       kill ends the wait: -EINTR, as TASK_KILLABLE)
 *   1 UNLOCK(index)     release it (-EPERM if not the owner)
 *   2 HOLD_SLEEP(ms)    take mutex 0, sleep uninterruptibly for ms
 *                       (as if waiting for a disk), release it: all in
 *                       kernel mode, which is where the BATCH rule matters
 *   3 KERNEL_SPIN(ms)   root only: stay in kernel mode, interrupts on,
 *                       for ms without scheduling (the watchdog's test)
 *   4 STACK_OVERFLOW    root only: recurse in kernel mode until the
 *                       kernel stack's guard page stops it (a panic)
 *   5 SPIN_HOLD(us)     take the spinlock "test spin", hold it for us
 *                       microseconds (0..1000), release it: a lock the
 *                       lock-statistics test can contend on purpose
 * Returns 0, or -EINVAL for a bad op, index or ms.
 */
/* Op 4: each call takes 512 bytes more of the 8 KiB kernel stack. */
static volatile int keep_recursing = 1;

static __attribute__((noinline)) int overflow_stack(int depth)
{
	volatile char frame[512];
	frame[0] = (char)depth;
	return keep_recursing ? overflow_stack(depth + 1) + frame[0] : 0;
}

#define TEST_MUTEXES 4
static struct mutex test_mutexes[TEST_MUTEXES];
static bool test_mutexes_ready;
static struct spinlock init_lock = SPINLOCK_INIT("test mutex init");
static struct spinlock test_spin = SPINLOCK_INIT("test spin");

int sys_test_mutex(int op, int arg)
{
	spin_lock(&init_lock);
	if (!test_mutexes_ready) {
		for (int i = 0; i < TEST_MUTEXES; i++)
			mutex_init(&test_mutexes[i], "test mutex");
		test_mutexes_ready = true;
	}
	spin_unlock(&init_lock);

	switch (op) {
	case TEST_MUTEX_LOCK:
	case TEST_MUTEX_UNLOCK:
		if (arg < 0 || arg >= TEST_MUTEXES)
			return -EINVAL;
		if (op == TEST_MUTEX_LOCK) {
			if (test_mutexes[arg].owner == current())
				return -EINVAL;	/* would deadlock */
			return mutex_lock_killable(&test_mutexes[arg]);
		} else {
			if (test_mutexes[arg].owner != current())
				return -EPERM;
			mutex_unlock(&test_mutexes[arg]);
		}
		return 0;
	case TEST_MUTEX_HOLD_SLEEP:
		if (arg < 0 || arg > 10000)
			return -EINVAL;
		if (test_mutexes[0].owner == current())
			return -EINVAL;
		if (mutex_lock_killable(&test_mutexes[0]) < 0)
			return -EINTR;
		sleep_until(clock_ns() + (uint64_t)arg * 1000000, TASK_UNINTERRUPTIBLE);
		mutex_unlock(&test_mutexes[0]);
		return 0;
	case TEST_KERNEL_SPIN:
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		if (arg < 0 || arg > 10000)
			return -EINVAL;
		for (uint64_t end = clock_ns() + (uint64_t)arg * 1000000; clock_ns() < end;)
			__asm__ volatile("pause");
		return 0;
	case TEST_STACK_OVERFLOW:
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return overflow_stack(0);
	case TEST_SPIN_HOLD:
		if (arg < 0 || arg > 1000)
			return -EINVAL;
		spin_lock(&test_spin);
		for (uint64_t end = clock_ns() + (uint64_t)arg * 1000; clock_ns() < end;)
			__asm__ volatile("pause");
		spin_unlock(&test_spin);
		return 0;
	default:
		return -EINVAL;
	}
}

/* The proc_exit hook: a process that dies holding a test mutex must not
 * leave every later user of it asleep for ever. (Kernel code proper never
 * exits with a mutex held; only call 503 can leave one held across calls.) */
void selftest_exit(void)
{
	if (!test_mutexes_ready)
		return;
	for (int i = 0; i < TEST_MUTEXES; i++)
		if (test_mutexes[i].owner == current())
			mutex_unlock(&test_mutexes[i]);
}
