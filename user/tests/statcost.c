/*
 * statcost - what one sample of the scheduler's numbers costs, through
 * this kernel's calls 500/501 or through /proc (docs/abi.md §4 gives the
 * figures and why the calls stay).
 *
 *   statcost      one "name value insn" line per figure
 *
 * Each figure is the median of REPS repetitions of the time stamp
 * counter around N samples, divided by N. Under QEMU's
 * -icount shift=0,sleep=off the guest TSC counts instructions:
 *
 *   qemu-system-i386 -accel tcg -icount shift=0,sleep=off -smp 1 -m 128M \
 *     -kernel build/kernel.elf -initrd build/initrd.tar \
 *     -append "tests=none run=/bin/statcost then=exit" -serial stdio ...
 *
 *   cpu_call       call 501: one CPU's user/nice/system/idle ticks
 *   cpu_procstat   the same four from /proc/stat (open, read, close, parse)
 *   task_call      call 500: my stair, burst and CPU time
 *   task_procstat  my CPU time from /proc/self/stat
 *   task_procsched my stair and burst from /proc/self/sched
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel_calls.h"
#include "testlib.h"

#define REPS 5
#define N 200

static char text[8192];
static volatile unsigned long long sink;	/* keeps the parse from being dropped */

static inline unsigned long long rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((unsigned long long)hi << 32) | lo;
}

static int slurp(const char *path)
{
	int fd = open(path, O_RDONLY), len = 0, k;

	if (fd < 0)
		return -1;
	while ((k = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
		len += k;
	close(fd);
	text[len] = 0;
	return len;
}

/* The n-th space-separated number after `from`. */
static unsigned long long nth(const char *from, int n)
{
	char *p = (char *)from;

	for (int i = 0; i < n; i++)
		strtoul(p, &p, 10);
	return strtoul(p, NULL, 10);
}

static void cpu_call(void)
{
	struct sched_cpu_info ci;

	if (sched_cpustat(0, &ci) == 0)
		sink += ci.user_ticks + ci.nice_ticks + ci.system_ticks + ci.idle_ticks;
}

static void cpu_procstat(void)
{
	const char *l = slurp("/proc/stat") > 0 ? strstr(text, "\ncpu0 ") : NULL;

	if (l)
		sink += nth(l + 6, 0) + nth(l + 6, 1) + nth(l + 6, 2) + nth(l + 6, 3);
}

static void task_call(void)
{
	struct sched_task_info ti;

	if (sched_stat(getpid(), &ti) == 0)
		sink += ti.prio + ti.burst + ti.utime + ti.stime;
}

static void task_procstat(void)
{
	const char *p = slurp("/proc/self/stat") > 0 ? strrchr(text, ')') : NULL;

	if (p)			/* fields 14 and 15: 11 and 12 after the state */
		sink += nth(p + 4, 10) + nth(p + 4, 11);
}

static long long sched_field(const char *name)
{
	const char *l = strstr(text, name);
	const char *c = l ? strchr(l, ':') : NULL;

	return c ? strtol(c + 1, NULL, 10) : 0;
}

static void task_procsched(void)
{
	if (slurp("/proc/self/sched") > 0)
		sink += sched_field("\nprio ") + sched_field("\nburst ");
}

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static void figure(const char *name, void (*sample)(void))
{
	unsigned long long t[REPS];

	sample();			/* warm-up: the /proc nodes made, pages in */
	for (int r = 0; r < REPS; r++) {
		unsigned long long t0 = rdtsc();
		for (int i = 0; i < N; i++)
			sample();
		t[r] = (rdtsc() - t0) / N;
	}
	qsort(t, REPS, sizeof(t[0]), cmp);
	printf("%s %llu insn\n", name, t[REPS / 2]);
}

int main(int argc, char **argv)
{
	test_require_our_kernel(argc, argv, 0);
	figure("cpu_call", cpu_call);
	figure("cpu_procstat", cpu_procstat);
	figure("task_call", task_call);
	figure("task_procstat", task_procstat);
	figure("task_procsched", task_procsched);
	return 0;
}
