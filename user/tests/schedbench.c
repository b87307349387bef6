/*
 * schedbench - make bench's scheduling-quality, boot and memory figures
 * (issue 12, docs/bench.md). A static i386 Linux program: the same binary
 * runs on this kernel and on Linux, as /bin/pathlen does.
 *
 *   schedbench boot              the TSC when this program starts (run it
 *                                as init's first run= program: under
 *                                -icount, virtual time since reset),
 *                                CLOCK_MONOTONIC (since the kernel's
 *                                clock started) and the idle time so far
 *   schedbench mem [K]           free memory now, and per process: free
 *                                memory before and while K (16, 1..MEM_KIDS)
 *                                forked children sleep
 *   schedbench picknext [MAX]    sched_yield between two FIFO tasks on
 *                                CPU 0 beside N NORMAL hog threads, N = 1, 10,
 *                                100, 1000, 4000 (at most MAX, 1..4000,
 *                                or as many as fork allows)
 *   schedbench latency [COUNT]   cyclictest-style: COUNT (10000, 1..50000)
 *                                sleeps of 1 ms, as NORMAL, ISO and FIFO,
 *                                idle and beside 2 hogs: min / avg / p99 /
 *                                max late
 *   schedbench periodic [SEC]    /bin/periodic --audio and --video beside
 *                                4 hogs, as NORMAL, ISO and FIFO, SEC (5,
 *                                1..3600) s each
 *   schedbench fair [MS]         hogs at nice 0, 5, 10, 19 on CPU 0 for
 *                                MS (10000, 10..3600000) ms: each one's share
 *   schedbench ingo [MS]         Ingo Molnar's workload: two tasks run 4 ms
 *                                / sleep 1 ms beside a hog, MS (10000) ms
 *   schedbench pipe2 [N]         1-byte pipe round trip between CPU 0 and
 *                                CPU 1, median of 9 x N (200, 1..100000)
 *                                (needs 2 CPUs)
 *   schedbench scalefork [K]     K workers (default: one per CPU), worker i
 *   schedbench scalepipe [K]     pinned to CPU i, each looping one
 *   schedbench scalegetpid [K]   operation for 1.5 s in real time: fork +
 *                                exit + wait, a 1-byte pipe ping-pong with
 *                                its partner on the same CPU, or getpid;
 *                                the total operations per second (issue
 *                                29; tools/bench/scale.sh)
 *   schedbench -h                this text, on stdout; exit status 0
 *
 * Every figure is one line "name value unit" on stdout, value a number or
 * a word (a policy's name), or "name n/a (reason)". A bad subcommand or
 * number prints what was wrong and the usage on stderr, exit status 2.
 * Everything runs on CPU 0 except pipe2's partner. Run as root (init's
 * child): ISO is asked for as policy 4, which Linux refuses (EINVAL): the
 * task stays NORMAL there, and every case says which policy was granted
 * (sched_getscheduler after the request), as wakelat does.
 *
 * Task count: threads-max follows the memory on both kernels (this one:
 * 2,039 at 128 MiB; kernel/task/proc.c). picknext's hogs are threads of one
 * process (4,000 fit in 128 MiB) and, as root, it raises threads-max for
 * its run as sysctl would and puts it back; if clone still fails it
 * prints picknext_limit and measures with as many as it got.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "syscall.h"
#include "testlib.h"
#include "thread.h"
#include <uapi/futex.h>

#define REPS 9

static unsigned long long tsc_at_start;

static inline unsigned long long rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((unsigned long long)hi << 32) | lo;
}

static int pin(int c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int set_policy(int policy, int prio)
{
	struct sched_param sp = { prio };

	return sched_setscheduler(0, policy, &sp);
}

/* The policy the caller has now, as ps names it ("NORMAL", "ISO"). */
static const char *granted(void)
{
	int p = sched_getscheduler(0);

	return p < 0 ? "?" : sched_policy_name(p & ~0x40000000);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void out(const char *name, long long v, const char *unit)
{
	printf("%s %lld %s\n", name, v, unit);
	fflush(NULL);
}

/* ---- Linux's /proc, for the figures our kernel gives through 501/505 ---- */

/* The first `len` bytes of /proc/<file> (mounted first if it is not),
 * NUL-terminated: the length, or -1. */
static int read_proc(const char *file, char *buf, int len)
{
	char path[64];
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%s", file);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		syscall2(__NR_mkdir, (long)"/proc", 0555);
		syscall5(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", 0, 0);
		fd = open(path, O_RDONLY);
	}
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* Runnable tasks on CPU 0 (ours: 501's nr_running) or in the system
 * (Linux: /proc/loadavg's "running/total"), or -1. */
static int runnable_now(void)
{
	if (kernel_is_ours()) {
		struct sched_cpu_info ci;

		return sched_cpustat(0, &ci) < 0 ? -1 : ci.nr_running;
	}
	char buf[128], *p;

	if (read_proc("loadavg", buf, sizeof(buf)) < 0 || !(p = strchr(buf, '/')))
		return -1;
	while (p > buf && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return atoi(p);
}

/* ---- hogs: NORMAL nice 0 CPU burners on CPU 0 ---- */

#define MAX_HOGS 4000
static pid_t hog[MAX_HOGS];
static int nhogs, hogs_errno;	/* errno of the fork that failed */

/* Start n hogs (after hogs_kill, or the first time). Each drops to
 * SCHED_OTHER first (a FIFO parent's child starts FIFO), says so on a
 * pipe and waits at a gate; once every one has said so the gate opens, so
 * that when this returns every hog is NORMAL and runnable. None spins
 * before the gate opens: with spinning hogs about, a new one (or a killed
 * one, which must run to die) waits its turn among them, a quantum each
 * (with 250 hogs, a FIFO parent waited 2.5 s of virtual time). If fork
 * fails (hogs_errno says why), the last `spare` hogs are killed before the
 * gate opens, to leave room for other processes. Returns how many there
 * are. Call it before opening a pipe of your own: the hogs inherit every
 * open descriptor and keep it until they are killed. */
static int hogs_to(int n, int spare)
{
	int rd[2], gate[2], made = 0;
	char c;

	if (n > MAX_HOGS)
		n = MAX_HOGS;
	if (pipe(rd) < 0)
		return nhogs;
	if (pipe(gate) < 0) {
		close(rd[0]), close(rd[1]);
		return nhogs;
	}
	while (nhogs < n) {
		pid_t p = fork();

		if (p < 0) {
			hogs_errno = errno;
			break;
		}
		if (p == 0) {
			close(rd[0]), close(gate[1]);
			pin(0);
			set_policy(SCHED_OTHER, 0);
			write(rd[1], "h", 1);
			close(rd[1]);
			read(gate[0], &c, 1);	/* until the parent closes it */
			close(gate[0]);
			for (;;)
				;
		}
		hog[nhogs++] = p;
		made++;
	}
	close(rd[1]), close(gate[0]);
	for (int i = 0; i < made; i++)
		read(rd[0], &c, 1);
	close(rd[0]);
	if (nhogs < n)			/* fork failed: give some slots back */
		for (; spare > 0 && nhogs > 0; spare--) {
			kill(hog[--nhogs], SIGKILL);
			waitpid(hog[nhogs], NULL, 0);
		}
	close(gate[1]);			/* open the gate: all runnable */
	return nhogs;
}

static void hogs_kill(void)
{
	for (int i = 0; i < nhogs; i++)
		kill(hog[i], SIGKILL);
	for (int i = 0; i < nhogs; i++)
		waitpid(hog[i], NULL, 0);
	nhogs = 0;
}

/* ---- boot ---- */

/* Idle time since boot in ms: ours, idle ticks of every CPU (501) at hz;
 * Linux, /proc/uptime's second field. -1 if not known. */
static long long idle_ms(void)
{
	if (kernel_is_ours()) {
		struct sched_cpu_info ci;
		long long ticks = 0;
		int hz = sched_tunable_get(SCHED_TUNABLE_HZ);

		for (int cpu = 0; sched_cpustat(cpu, &ci) == 0; cpu++)
			ticks += ci.idle_ticks;
		return hz > 0 ? ticks * 1000 / hz : -1;
	}
	char buf[128], *p;

	if (read_proc("uptime", buf, sizeof(buf)) < 0 || !(p = strchr(buf, ' ')))
		return -1;
	long long s = atoi(p + 1), frac = 0;	/* "12.34 5.67" */
	char *dot = strchr(p + 1, '.');
	if (dot && dot[1] >= '0' && dot[1] <= '9' && dot[2] >= '0' && dot[2] <= '9')
		frac = (dot[1] - '0') * 10 + dot[2] - '0';
	return s * 1000 + frac * 10;
}

static int do_boot(void)
{
	long long idle = idle_ms();

	printf("# boot: the TSC when this program started (virtual ns since reset "
	       "under -icount), the kernel's clock, idle time\n");
	out("boot_tsc_at_first_program", (long long)tsc_at_start, "tsc");
	out("boot_clock_at_first_program", monotonic_ns() / 1000, "us");
	if (idle < 0)
		printf("boot_idle n/a (no idle counter)\n");
	else
		out("boot_idle", idle, "ms");
	return 0;
}

/* ---- mem ---- */

/* Free memory in KiB: free frames (505) here, MemFree on Linux. -1 if not
 * known. */
static long free_kb(const char **why)
{
	if (kernel_is_ours()) {
		int f = free_frames();

		if (f < 0)
			*why = "(free_frames failed)";
		return f < 0 ? -1 : f * 4L;
	}
	char buf[2048];

	if (read_proc("meminfo", buf, sizeof(buf)) < 0) {
		*why = "(no /proc/meminfo: mount proc failed)";
		return -1;
	}
	char *p = strstr(buf, "MemFree:");
	if (!p) {
		*why = "(no MemFree in /proc/meminfo)";
		return -1;
	}
	return atoi(p + 8);	/* atoi skips the spaces */
}

/* mem's children at most: enough that Linux's per-CPU lists of free
 * pages (not counted in MemFree, a few hundred frames) are a small part
 * of what the children take. */
#define MEM_KIDS 512

static int do_mem(int k)
{
	const char *why = "(unknown)";
	long before = free_kb(&why), during;
	int fd[2];
	pid_t kids[MEM_KIDS];
	char c;

	printf("# mem: free memory, then while %d forked children sleep\n", k);
	if (before < 0) {
		printf("mem_free_after_boot n/a %s\n", why);
		printf("mem_per_process n/a %s\n", why);
		return 0;
	}
	out("mem_free_after_boot", before, "kib");
	if (pipe(fd) < 0) {
		printf("mem_per_process n/a (pipe: %s)\n", strerror(errno));
		return 0;
	}
	for (int i = 0; i < k; i++) {
		kids[i] = fork();
		if (kids[i] < 0) {
			k = i;
			break;
		}
		if (kids[i] == 0) {
			close(fd[1]);
			read(fd[0], &c, 1);	/* sleeps until the parent closes */
			_exit(0);
		}
	}
	test_sleep_ms(50);		/* let each child reach its read */
	during = free_kb(&why);
	close(fd[1]);
	for (int i = 0; i < k; i++)
		waitpid(kids[i], NULL, 0);
	close(fd[0]);
	if (k == 0 || during < 0) {
		printf("mem_per_process n/a (no children)\n");
		return 0;
	}
	out("mem_per_process", (before - during) / k, "kib");
	out("mem_per_process_children", k, "processes");
	return 0;
}

/* ---- picknext ---- */

/*
 * picknext's hogs are threads (issue 32): one forked process of n
 * threads, so that 4,000 of them fit in 128 MiB. A thread costs its
 * task and kernel stack (12 KiB here) and a page of its own stack; a
 * process would add a page directory, page tables and the pages fork
 * copies. To the scheduler a thread is a task like any other, and the
 * pair whose yields are measured are two processes either way.
 *
 * The threads wait on a futex word until the last is made, so that none
 * spins while the others are being made (see hogs_to). The leader reports
 * how many it made on a pipe, then wakes them all and spins too: in that
 * order, because once they spin the leader (NORMAL, low on its stairs
 * after making them) would wait its turn behind every one of them. The
 * FIFO parent, woken by the report, sleeps until they are all runnable.
 */
#define HOG_STACK 2048
static pid_t thread_hogs;		/* the hog process, or 0 */
static int hog_gate;			/* the hog process's own copy: 1 = spin */
static void hog_threads_kill(void);

static int hog_thread(void *arg) __attribute__((noreturn));
static int hog_thread(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&hog_gate, __ATOMIC_ACQUIRE))
		syscall4(__NR_futex, (long)&hog_gate, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, 0);
	for (;;)
		;
}

static void hog_leader(int n, int report)
{
	static struct thread t[MAX_HOGS];
	char *stacks = mmap(NULL, (size_t)n * HOG_STACK, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int made = 1, err = 0;		/* the leader is a hog too */

	set_policy(SCHED_OTHER, 0);
	for (; stacks != MAP_FAILED && made < n; made++) {
		err = thread_create(&t[made], hog_thread, NULL, stacks + (size_t)made * HOG_STACK,
				    HOG_STACK);
		if (err < 0)
			break;
	}
	int said[2] = { made, stacks == MAP_FAILED ? ENOMEM : -err };
	write(report, said, sizeof(said));
	close(report);
	__atomic_store_n(&hog_gate, 1, __ATOMIC_RELEASE);
	syscall3(__NR_futex, (long)&hog_gate, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 0x7fffffff);
	for (;;)
		;
}

/* n hog threads on CPU 0 (the caller is pinned there; threads inherit
 * it), all NORMAL and runnable when this returns: how many were made
 * (fewer if clone failed: hogs_errno says why). */
static int hog_threads_to(int n)
{
	int rd[2], said[2] = { 0, 0 };

	hog_threads_kill();
	if (pipe(rd) < 0)
		return 0;
	thread_hogs = fork();
	if (thread_hogs < 0) {
		hogs_errno = errno;
		thread_hogs = 0;
	} else if (thread_hogs == 0) {
		close(rd[0]);
		hog_leader(n, rd[1]);
	}
	close(rd[1]);
	if (thread_hogs && read(rd[0], said, sizeof(said)) != sizeof(said))
		said[0] = 0;
	close(rd[0]);
	hogs_errno = said[1];
	/* the leader wakes them while we sleep; 2 s at most (1 ms a turn) */
	for (int i = 0; said[0] > 0 && i < 2000 && runnable_now() < said[0] + 1; i++)
		test_sleep_ms(1);
	return said[0];
}

static void hog_threads_kill(void)
{
	if (thread_hogs) {
		kill(thread_hogs, SIGKILL);
		waitpid(thread_hogs, NULL, 0);
	}
	thread_hogs = 0;
}

/* picknext's 4,000 hogs need threads-max above 4,000 (2,039 at 128 MiB
 * here, Linux's rule; about 1,900 on Linux): root raises it as sysctl
 * would, for the run, and puts it back. Returns the old value, or -1 if
 * it was high enough or could not be raised. */
static int raise_threads_max(int want)
{
	int old = test_read_number("/proc/sys/kernel/threads-max", 0);
	if (old < 0 || old >= want || test_write_number("/proc/sys/kernel/threads-max", want) < 0)
		return -1;
	return old;
}

static unsigned long long run_yield(int n)
{
	unsigned long long t0 = rdtsc();

	for (int i = 0; i < n; i++)
		sched_yield();
	return rdtsc() - t0;
}

static int do_picknext(int max)
{
	static const int ns[] = { 1, 10, 100, 1000, 4000 };
	char name[48];

	pin(0);
	if (set_policy(SCHED_FIFO, 50) < 0) {
		printf("picknext n/a (SCHED_FIFO refused: %s)\n", strerror(errno));
		return 0;
	}
	int threads_max = raise_threads_max(max + 64);	/* 64: room for the rest */
	printf("# picknext: sched_yield between two FIFO 50 tasks on CPU 0 beside N "
	       "NORMAL hog threads, median of %d x 500, insn per call\n", REPS);
	if (threads_max >= 0)
		printf("# picknext: threads-max raised from %d to %d for the run\n", threads_max,
		       max + 64);
	for (unsigned i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		int want = ns[i] < max ? ns[i] : max;
		int got, last = want == max;

		long long t0 = monotonic_ns();
		hog_threads_kill();
		long long t1 = monotonic_ns();
		got = hog_threads_to(want);	/* a fresh set each time */
		nhogs = got;
		printf("# picknext: old hogs killed in %lld ms, %d made in %lld ms\n",
		       (t1 - t0) / 1000000, got, (monotonic_ns() - t1) / 1000000);
		fflush(NULL);
		if (got < want) {		/* clone refused: threads-max or memory */
			last = 1;
			if (got < 1)
				break;
			printf("picknext_limit %d hogs (clone refused hog %d of %d: %s)\n",
			       got, got + 1, want, strerror(hogs_errno));
			fflush(NULL);
		}
		pid_t partner = fork();
		if (partner < 0) {
			printf("picknext n/a (no partner: %s)\n", strerror(errno));
			break;
		}
		if (partner == 0)
			for (;;)
				sched_yield();
		unsigned long long per[REPS];
		int runnable = runnable_now();

		run_yield(100);
		for (int r = 0; r < REPS; r++)
			per[r] = run_yield(500) / 500;
		kill(partner, SIGKILL);
		waitpid(partner, NULL, 0);
		qsort(per, REPS, sizeof(per[0]), cmp_ll);
		snprintf(name, sizeof(name), "picknext_%d", nhogs);
		out(name, per[REPS / 2], "insn");
		if (runnable >= 0) {
			snprintf(name, sizeof(name), "picknext_%d_runnable", nhogs);
			out(name, runnable, "tasks");
		}
		if (last)
			break;
	}
	hog_threads_kill();
	nhogs = 0;
	if (threads_max >= 0)
		test_write_number("/proc/sys/kernel/threads-max", threads_max);
	set_policy(SCHED_OTHER, 0);
	return 0;
}

/* ---- latency ---- */

struct lat { long long min, avg, p99, max; char policy[16]; };

static void sleeper(int policy, int prio, int count, int fd)
{
	long long *late = malloc(count * sizeof(*late)), sum;
	struct lat st = { 0 };

	if (!late)
		_exit(1);
	pin(0);
	if (policy != SCHED_OTHER)
		set_policy(policy, prio);	/* may be refused (ISO on Linux) */
	snprintf(st.policy, sizeof(st.policy), "%s", granted());
	sum = test_sleep_late_1ms(late, count);
	st.min = late[0] / 1000;
	st.avg = sum / count / 1000;
	st.p99 = late[count * 99 / 100] / 1000;
	st.max = late[count - 1] / 1000;
	write(fd, &st, sizeof(st));
	_exit(0);
}

static const struct { const char *name; int policy, prio; } cases[] = {
	{ "normal", SCHED_OTHER, 0 },
	{ "iso", SCHED_ISO, 0 },
	{ "fifo", SCHED_FIFO, 50 },
};
#define NCASES 3

static int do_latency(int count)
{
	static const char *loads[] = { "idle", "hogs2" };

	pin(0);
	printf("# latency: %d sleeps of 1 ms on CPU 0, us late (wake-up minus "
	       "the time asked for)\n", count);
	for (int l = 0; l < 2; l++)
		for (int c = 0; c < NCASES; c++) {
			int fd[2], ok;
			struct lat st;
			char name[64];

			if (l)
				hogs_to(2, 0);	/* before the pipe: see hogs_to */
			if (pipe(fd) < 0) {
				hogs_kill();
				printf("lat_%s_%s n/a (pipe: %s)\n", loads[l],
				       cases[c].name, strerror(errno));
				continue;
			}
			pid_t s = fork();
			if (s == 0) {
				close(fd[0]);
				sleeper(cases[c].policy, cases[c].prio, count, fd[1]);
			}
			close(fd[1]);
			ok = s > 0 && read(fd[0], &st, sizeof(st)) == sizeof(st);
			close(fd[0]);
			if (s > 0)
				waitpid(s, NULL, 0);
			hogs_kill();
			if (!ok) {
				printf("lat_%s_%s n/a (the sleeper died)\n", loads[l], cases[c].name);
				continue;
			}
			snprintf(name, sizeof(name), "lat_%s_%s_policy", loads[l], cases[c].name);
			printf("%s %s policy\n", name, st.policy);
			const char *what[] = { "min", "avg", "p99", "max" };
			long long v[] = { st.min, st.avg, st.p99, st.max };
			for (int i = 0; i < 4; i++) {
				snprintf(name, sizeof(name), "lat_%s_%s_%s", loads[l],
					 cases[c].name, what[i]);
				out(name, v[i], "us");
			}
		}
	return 0;
}

/* ---- periodic: interbench-style audio and video, /bin/periodic ---- */

/* The number right after the first `key` in s: 1, or 0 if there is none. */
static int after(const char *s, const char *key, int *v)
{
	const char *p = strstr(s, key);

	if (!p || p[strlen(key)] < '0' || p[strlen(key)] > '9')
		return 0;
	*v = atoi(p + strlen(key));
	return 1;
}

static int do_periodic(int seconds)
{
	static const char *kinds[] = { "audio", "video" };
	char secs[16];

	snprintf(secs, sizeof(secs), "%d", seconds);
	pin(0);
	printf("# periodic: /bin/periodic beside 4 NORMAL hogs on CPU 0, %d s each\n",
	       seconds);
	for (int k = 0; k < 2; k++)
		for (int c = 0; c < NCASES; c++) {
			int fd[2];
			char buf[512], arg[16], pol[16], name[64];
			int n = 0, r, periods, met, mean, p99, max;

			snprintf(arg, sizeof(arg), "--%s", kinds[k]);
			hogs_to(4, 0);		/* before the pipe: see hogs_to */
			if (pipe(fd) < 0) {
				hogs_kill();
				printf("periodic_%s_%s n/a (pipe: %s)\n", kinds[k],
				       cases[c].name, strerror(errno));
				continue;
			}
			pid_t p = fork();
			if (p == 0) {
				char *argv[] = { "/bin/periodic", arg, "-t", secs, NULL };
				char *envp[] = { NULL };

				if (cases[c].policy != SCHED_OTHER)
					set_policy(cases[c].policy, cases[c].prio);
				dup2(fd[1], 1);
				close(fd[0]);
				close(fd[1]);
				execve(argv[0], argv, envp);
				_exit(127);
			}
			close(fd[1]);
			while (p > 0 && n < (int)sizeof(buf) - 1 &&
			       (r = read(fd[0], buf + n, sizeof(buf) - 1 - n)) > 0)
				n += r;
			buf[n] = '\0';
			close(fd[0]);
			if (p > 0)
				waitpid(p, NULL, 0);
			hogs_kill();
			/* periodic: audio 5% of 50 ms under NORMAL: 40 periods, 40
			 * deadlines met (100.0%), latency mean 21 us, p99 25 us, max 27 us */
			char *u = strstr(buf, " under "), *colon = u ? strchr(u, ':') : NULL;
			if (!colon || !after(colon, ": ", &periods) ||
			    !after(colon, " periods, ", &met) ||
			    !after(colon, "latency mean ", &mean) ||
			    !after(colon, "p99 ", &p99) || !after(colon, "max ", &max)) {
				printf("periodic_%s_%s n/a (no summary from /bin/periodic)\n",
				       kinds[k], cases[c].name);
				continue;
			}
			snprintf(pol, sizeof(pol), "%.*s", (int)(colon - u - 7), u + 7);
			for (char *q = pol; *q; q++)
				if (*q == ' ')
					*q = '_';	/* "FIFO 50" */
			snprintf(name, sizeof(name), "periodic_%s_%s_", kinds[k], cases[c].name);
			size_t len = strlen(name);
			printf("%spolicy %s policy\n", name, pol);
			strcpy(name + len, "periods"), out(name, periods, "periods");
			strcpy(name + len, "met"), out(name, met, "periods");
			strcpy(name + len, "mean"), out(name, mean, "us");
			strcpy(name + len, "p99"), out(name, p99, "us");
			strcpy(name + len, "max"), out(name, max, "us");
		}
	return 0;
}

/* ---- fairness and Ingo's workload: testlib's hogs ---- */

static int do_fair(int ms)
{
	static const int nices[] = { 0, 5, 10, 19 };
	struct hog_spec spec[4];
	struct hog_report rep[4];
	char name[32];

	memset(spec, 0, sizeof(spec));
	for (int i = 0; i < 4; i++)
		spec[i].policy = SCHED_OTHER, spec[i].nice = nices[i];
	printf("# fair: 4 NORMAL hogs on CPU 0 for %d ms, per mille of the CPU\n", ms);
	if (hogs_run(spec, 4, ms, ms / HOG_BUCKETS + 1, rep) < 0)
		return printf("fair n/a (hogs could not be set up)\n"), 0;
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "fair_nice%d", nices[i]);
		out(name, hog_pm(&rep[i], ms), "permille");
	}
	return 0;
}

static int do_ingo(int ms)
{
	struct hog_spec spec[3];
	struct hog_report rep[3];
	static const char *names[] = { "hog", "task1", "task2" };
	char name[40];

	memset(spec, 0, sizeof(spec));
	for (int i = 0; i < 3; i++)
		spec[i].policy = SCHED_OTHER;
	spec[1].run_us = spec[2].run_us = 4000;
	spec[1].sleep_us = spec[2].sleep_us = 1000;
	printf("# ingo: a hog and two tasks that run 4 ms / sleep 1 ms, NORMAL, "
	       "CPU 0, %d ms\n", ms);
	if (hogs_run(spec, 3, ms, ms / HOG_BUCKETS + 1, rep) < 0)
		return printf("ingo n/a (hogs could not be set up)\n"), 0;
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "ingo_%s_share", names[i]);
		out(name, hog_pm(&rep[i], ms), "permille");
		if (i == 0) {
			/* the hog's longest time without the CPU */
			out("ingo_hog_maxgap", rep[0].max_gap_ns / 1000, "us");
			continue;
		}
		/* a task's wake-ups: how late it ran after each 1 ms sleep */
		snprintf(name, sizeof(name), "ingo_%s_wakeavg", names[i]);
		out(name, rep[i].wakeups ? rep[i].late_sum_ns / rep[i].wakeups / 1000 : 0, "us");
		snprintf(name, sizeof(name), "ingo_%s_wakemax", names[i]);
		out(name, rep[i].late_max_ns / 1000, "us");
	}
	return 0;
}

/* ---- pipe2: a context switch through a pipe on 2 CPUs ---- */

static int do_pipe2(int n)
{
	int a[2], b[2];
	char c = 'x';
	long long per[REPS], ns[REPS];

	if (test_ncpus() < 2) {
		printf("pipe2cpu n/a (1 CPU)\n");
		return 0;
	}
	pin(0);
	if (pipe(a) < 0 || pipe(b) < 0) {
		printf("pipe2cpu n/a (pipe: %s)\n", strerror(errno));
		return 0;
	}
	pid_t p = fork();
	if (p < 0) {
		printf("pipe2cpu n/a (fork: %s)\n", strerror(errno));
		return 0;
	}
	if (p == 0) {
		close(a[1]), close(b[0]);
		pin(1);
		while (read(a[0], &c, 1) == 1)
			write(b[1], &c, 1);
		_exit(0);
	}
	close(a[0]), close(b[1]);
	for (int i = 0; i < 50; i++)
		write(a[1], &c, 1), read(b[0], &c, 1);
	for (int r = 0; r < REPS; r++) {
		long long t0 = monotonic_ns();
		unsigned long long s = rdtsc();

		for (int i = 0; i < n; i++)
			write(a[1], &c, 1), read(b[0], &c, 1);
		per[r] = (rdtsc() - s) / n;
		ns[r] = (monotonic_ns() - t0) / n;
	}
	close(a[1]);
	waitpid(p, NULL, 0);
	close(b[0]);
	qsort(per, REPS, sizeof(per[0]), cmp_ll);
	qsort(ns, REPS, sizeof(ns[0]), cmp_ll);
	out("pipe2cpu_tsc", per[REPS / 2], "ticks");
	out("pipe2cpu_ns", ns[REPS / 2], "ns");
	return 0;
}

/* ---- scale: one worker per CPU, each looping one operation ---- */

#define SCALE_MS 1500
enum scale_op { SCALE_GETPID, SCALE_FORK, SCALE_PIPE };

/* One operation of worker's kind; pipe: fd[0] to write, fd[1] to read. */
static void scale_once(enum scale_op op, const int *fd)
{
	char c = 'x';
	pid_t p;

	switch (op) {
	case SCALE_GETPID:
		getpid();
		break;
	case SCALE_FORK:
		if ((p = fork()) == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
		break;
	case SCALE_PIPE:
		write(fd[0], &c, 1);
		read(fd[1], &c, 1);
		break;
	}
}

/* Operations done from start_ns to end_ns (a pipe worker first forks its
 * echoing partner, which inherits the CPU). */
static long long scale_worker(enum scale_op op, long long start_ns, long long end_ns)
{
	int a[2], b[2], fd[2] = { -1, -1 };
	pid_t partner = -1;
	long long n = 0;
	char c;

	if (op == SCALE_PIPE) {
		if (pipe(a) < 0 || pipe(b) < 0 || (partner = fork()) < 0)
			return -1;
		if (partner == 0) {
			close(a[1]), close(b[0]);
			while (read(a[0], &c, 1) == 1)
				write(b[1], &c, 1);
			_exit(0);
		}
		close(a[0]), close(b[1]);
		fd[0] = a[1], fd[1] = b[0];
	}
	while (monotonic_ns() < start_ns)
		;
	while (monotonic_ns() < end_ns) {
		for (int i = 0; i < 16; i++)
			scale_once(op, fd);
		n += 16;
	}
	if (partner > 0) {
		close(fd[0]);
		waitpid(partner, NULL, 0);
	}
	return n;
}

static int do_scale(enum scale_op op, const char *name, int k)
{
	int ncpus = test_ncpus(), fd[2];
	long long total = 0, n;

	if (k == 0)
		k = ncpus;
	if (k > ncpus) {
		printf("scale_%s_%d n/a (%d CPUs)\n", name, k, ncpus);
		return 0;
	}
	if (pipe(fd) < 0) {
		printf("scale_%s_%d n/a (pipe: %s)\n", name, k, strerror(errno));
		return 0;
	}
	long long start = monotonic_ns() + 200000000LL, end = start + SCALE_MS * 1000000LL;
	for (int i = 0; i < k; i++) {
		pid_t p = fork();
		if (p == 0) {
			close(fd[0]);
			pin(i);
			n = scale_worker(op, start, end);
			write(fd[1], &n, sizeof(n));
			_exit(0);
		}
	}
	close(fd[1]);
	for (int i = 0; i < k; i++) {
		if (read(fd[0], &n, sizeof(n)) != sizeof(n) || n < 0) {
			printf("scale_%s_%d n/a (a worker failed)\n", name, k);
			total = -1;
			break;
		}
		total += n;
	}
	close(fd[0]);
	while (wait(NULL) > 0)
		;
	if (total >= 0) {
		char label[64];
		snprintf(label, sizeof(label), "scale_%s_%d", name, k);
		out(label, total * 1000 / SCALE_MS, "ops");
	}
	return 0;
}

static int do_scalefork(int k) { return do_scale(SCALE_FORK, "fork", k); }
static int do_scalepipe(int k) { return do_scale(SCALE_PIPE, "pipe", k); }
static int do_scalegetpid(int k) { return do_scale(SCALE_GETPID, "getpid", k); }

static const char usage_text[] =
	"usage: schedbench boot | mem [K] | picknext [MAX] | latency [COUNT] |\n"
	"                  periodic [SEC] | fair [MS] | ingo [MS] | pipe2 [N] |\n"
	"                  scalefork [K] | scalepipe [K] | scalegetpid [K] | -h\n";

/* What was wrong (if anything), then the usage, on stderr: status 2. */
static int usage(const char *why)
{
	if (why)
		fprintf(stderr, "schedbench: %s\n", why);
	fputs(usage_text, stderr);
	return 2;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int);
		int def, lo, hi;	/* the number: default and range; lo 0: none */
	} cmds[] = {
		{ "boot", NULL, 0, 0, 0 },
		{ "mem", do_mem, 16, 1, MEM_KIDS },
		{ "picknext", do_picknext, 4000, 1, MAX_HOGS },
		{ "latency", do_latency, 10000, 1, 50000 },
		{ "periodic", do_periodic, 5, 1, 3600 },
		{ "fair", do_fair, 10000, 10, 3600000 },
		{ "ingo", do_ingo, 10000, 10, 3600000 },
		{ "pipe2", do_pipe2, 200, 1, 100000 },
		{ "scalefork", do_scalefork, 0, 1, 32 },	/* 0: one per CPU */
		{ "scalepipe", do_scalepipe, 0, 1, 32 },
		{ "scalegetpid", do_scalegetpid, 0, 1, 32 },
	};

	tsc_at_start = rdtsc();
	char why[128];

	if (argc < 2)
		return usage(NULL);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		int v = cmds[i].def;

		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (argc > (cmds[i].lo ? 3 : 2)) {
			snprintf(why, sizeof(why), "%s: too many arguments", argv[1]);
			return usage(why);
		}
		if (argc == 3 && !parse_int_arg(argv[2], cmds[i].lo, cmds[i].hi, &v)) {
			snprintf(why, sizeof(why), "%s: bad number '%s' (%d..%d)",
				 argv[1], argv[2], cmds[i].lo, cmds[i].hi);
			return usage(why);
		}
		return cmds[i].run ? cmds[i].run(v) : do_boot();
	}
	snprintf(why, sizeof(why), "unknown subcommand '%s'", argv[1]);
	return usage(why);
}
