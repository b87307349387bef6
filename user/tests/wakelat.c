/*
 * wakelat - how late a 1 ms sleep ends, cyclictest-style
 * (docs/staircase.md §12, docs/kernel.md "Time").
 *
 *   wakelat [--cpu N] [--count N] [--migrate] [--check [--p99 US] [--max US]]
 *
 * Two CPU hogs (uid 1000, NORMAL) share the CPU with a sleeper that
 * sleeps 1 ms, COUNT times (default 2000), and records how late each
 * sleep ended (wake-up time minus the time asked for). Three sleepers in
 * turn: NORMAL at nice 0 (uid 1000), uid 1000 asking for SCHED_FIFO 50
 * (granted as ISO here, refused on Linux: it stays NORMAL there), and root
 * at SCHED_FIFO 50. Each prints avg / p99 / max in microseconds.
 *
 * On this kernel the timer is programmed for each sleeper's deadline
 * (drivers/timer.c), and a woken FIFO or ISO task is more urgent than
 * the hogs, so it preempts at once: FIFO and ISO must be at most 50 us
 * late at p99 and 100 us at worst. That holds in virtual time (QEMU
 * -icount, the tests' clock); in real time a busy host can stall a vCPU
 * for longer, so the bound is checked only under tests (argument
 * --check). NORMAL is reported, not judged: a task whose run plus sleep
 * is shorter than a quantum did not really sleep (§6.2) and keeps
 * descending its slice beside the hogs, so it waits its turn.
 *
 * --cpu N runs everything on CPU N (a timer on another CPU than the boot
 * CPU); --migrate adds a case where another task moves the sleeper to
 * the other CPU while it sleeps: its deadline must still be kept there.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "testlib.h"

#define MAX_COUNT 10000
static int cpu, count = 2000, check, migrate;
static int p99_bound_us = 50, max_bound_us = 100;	/* --p99, --max */

static int pin(int c)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static pid_t spawn_hog(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		pin(cpu);
		setuid(1000);
		for (;;)
			;
	}
	return pid;
}

struct stats { long long avg, p99, max; int policy; };

/* In a child: become the sleeper, sleep 1 ms count times, report. */
static void sleeper(int uid, int policy, int prio, int fd)
{
	static long long late[MAX_COUNT];
	struct sched_param sp = { prio };
	struct stats st = { 0, 0, 0, -1 };
	long long sum;

	pin(cpu);
	if (uid && setuid(uid) < 0)
		_exit(2);
	if (policy != SCHED_OTHER)
		sched_setscheduler(0, policy, &sp);	/* may be refused (Linux, uid 1000) */
	st.policy = sched_getscheduler(0);
	sum = test_sleep_late_1ms(late, count);
	st.avg = sum / count / 1000;
	st.p99 = late[count * 99 / 100] / 1000;
	st.max = late[count - 1] / 1000;
	write(fd, &st, sizeof(st));
	_exit(0);
}

static const char *policy_name(int policy)
{
	switch (policy) {
	case SCHED_OTHER: return "NORMAL";
	case SCHED_FIFO: return "FIFO";
	case SCHED_RR: return "RR";
	case 3: return "BATCH";
	case 4: return "ISO";
	default: return "?";
	}
}

static int measure(const char *name, int uid, int policy, int prio, int judged)
{
	int fd[2];
	struct stats st = { 0, 0, 0, -1 };
	pid_t h1, h2, s;

	pipe(fd);
	h1 = spawn_hog();
	h2 = spawn_hog();
	s = fork();
	if (s == 0)
		sleeper(uid, policy, prio, fd[1]);
	if (read(fd[0], &st, sizeof(st)) != sizeof(st))
		st.policy = -1;
	kill(h1, SIGKILL), kill(h2, SIGKILL);
	waitpid(h1, NULL, 0), waitpid(h2, NULL, 0), waitpid(s, NULL, 0);
	close(fd[0]), close(fd[1]);
	int ok = st.policy >= 0 && (!judged || !check ||
		 (st.p99 <= p99_bound_us && st.max <= max_bound_us));
	ktap_ok(ok, name, "cpu %d, %s beside 2 hogs, %d sleeps of 1 ms: late avg %lld / "
		"p99 %lld / max %lld us%s", cpu, policy_name(st.policy), count,
		st.avg, st.p99, st.max, judged && check ? "" :
		judged ? " (not judged: no --check)" : " (reported, not judged)");
	if (judged && check)
		printf("# want p99 <= %d us, max <= %d us\n", p99_bound_us, max_bound_us);
	return ok;
}

/* --migrate: a root FIFO sleeper on CPU cpu sleeps 20 ms; 5 ms in, its
 * parent moves it to the other CPU. It must wake on time, over there. */
static int migrate_case(void)
{
	int other = cpu ? 0 : 1, fd[2];
	long long worst = 0;
	int moved = 0, rounds = 20;

	pipe(fd);
	for (int i = 0; i < rounds; i++) {
		pid_t s = fork();
		if (s == 0) {
			struct sched_param sp = { 50 };
			pin(cpu);
			sched_setscheduler(0, SCHED_FIFO, &sp);
			struct timespec ts = { 0, 20000000 };
			long long t0 = monotonic_ns();
			nanosleep(&ts, NULL);
			long long late = monotonic_ns() - t0 - 20000000;
			int where = test_getcpu();
			write(fd[1], &late, sizeof(late));
			write(fd[1], &where, sizeof(where));
			_exit(0);
		}
		struct timespec five = { 0, 5000000 };
		nanosleep(&five, NULL);
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(other, &set);
		sched_setaffinity(s, sizeof(set), &set);
		long long late = 0;
		int where = -1;
		read(fd[0], &late, sizeof(late));
		read(fd[0], &where, sizeof(where));
		waitpid(s, NULL, 0);
		if (late > worst)
			worst = late;
		moved += where == other;
	}
	close(fd[0]), close(fd[1]);
	int ok = moved == rounds && (!check || worst / 1000 <= max_bound_us);
	ktap_ok(ok, "deadline_survives_a_move_while_asleep",
		"%d sleeps of 20 ms moved from cpu %d to cpu %d after 5 ms: "
		"%d woke on cpu %d, worst %lld us late; want all there%s", rounds, cpu,
		other, moved, other, worst / 1000, check ? ", within --max" : "");
	return ok;
}

static int usage(void)
{
	fprintf(stderr, "usage: wakelat [--cpu N] [--count N] [--migrate] "
		"[--check [--p99 US] [--max US]]\n");
	return 2;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
			if (!parse_int_arg(argv[++i], 0, 31, &cpu))
				return usage();
		} else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
			if (!parse_int_arg(argv[++i], 1, MAX_COUNT, &count))
				return usage();
		} else if (!strcmp(argv[i], "--p99") && i + 1 < argc) {
			if (!parse_int_arg(argv[++i], 1, 1000000, &p99_bound_us))
				return usage();
		} else if (!strcmp(argv[i], "--max") && i + 1 < argc) {
			if (!parse_int_arg(argv[++i], 1, 1000000, &max_bound_us))
				return usage();
		} else if (!strcmp(argv[i], "--migrate")) {
			migrate = 1;
		} else if (!strcmp(argv[i], "--check")) {
			check = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("wakelat: how late 1 ms sleeps end beside two CPU hogs\n");
			usage();
			return 0;
		} else {
			return usage();
		}
	}
	if (getuid() != 0)
		ktap_skip_all("needs root (FIFO, and the others drop to uid 1000)");
	if (cpu >= test_ncpus() || (migrate && test_ncpus() < 2))
		ktap_skip_all("not enough CPUs for --cpu/--migrate");
	if (check && !kernel_is_ours())
		check = 0;			/* the bounds are this kernel's */
	ktap_plan(3 + migrate);
	measure("normal_sleeper_latency", 1000, SCHED_OTHER, 0, 0);
	measure("unprivileged_fifo_request_sleeper_latency", 1000, SCHED_FIFO, 50, 1);
	measure("root_fifo_sleeper_latency", 0, SCHED_FIFO, 50, 1);
	if (migrate)
		migrate_case();
	return ktap_done();
}
