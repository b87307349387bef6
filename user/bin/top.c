/*
 * top - per-CPU load and the busiest tasks, every SEC seconds, until q.
 *
 *   top [-b] [-n N] [-d SEC]    procps's options: -b batch mode (no screen
 *                               control, no keys), -n N frames then exit,
 *                               -d SEC between frames (default 3; 0.5 too)
 *
 * On a terminal it redraws the screen each frame and runs until q (or
 * Ctrl-C), as procps's top; -b, or output into a pipe, prints the frames
 * one after another, separated by a blank line, for ever unless -n.
 * Each frame starts with procps's summary line (the time, uptime, load
 * averages: sysinfo) and a Tasks line, then
 *
 * Each block: one line per CPU with the user/nice/system/idle share of its
 * ticks over the last interval (call 501; nice = BATCH or nice > 0 time),
 * its queue length, its ISO share (5 s decaying average) and whether its
 * ISO tasks are throttled to BATCH (iso_cpu, docs/staircase.md §7.5); then the
 * tasks that used the most CPU in that interval (call 500, pids 1..4096),
 * %CPU being ticks used / ticks elapsed (100% = one whole CPU).  Linux has
 * no calls 500/501: top says so and exits 1.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "args.h"

#include "kernel_calls.h"

#define MAX_PID 4096
#define MAX_CPUS 32
#define SHOW 10

static uint32_t prev_ticks[MAX_PID + 1];
static struct sched_task_info cur[MAX_PID + 1];
static int ids[MAX_PID + 1];
static uint32_t delta[MAX_PID + 1];

static int usage(FILE *f)
{
	fprintf(f, "Usage:\n top [-b] [-n N] [-d SECS]\n"
		"  -b       batch mode: frames one after another, no keys\n"
		"  -n N     N frames, then exit (default: until q)\n"
		"  -d SECS  delay between frames, 0.1..3600 (default 3)\n"
		"Keys: q quits (Ctrl-C too).\n");
	return f == stdout ? 0 : 1;
}

/* "1", "0.5": tenths of a second, 1..36000; 0 if it is not that. */
static int parse_tenths(const char *s)
{
	int whole = 0, tenths = 0, digits = 0;
	for (; *s >= '0' && *s <= '9' && whole <= 3600; s++, digits++)
		whole = whole * 10 + (*s - '0');
	if (*s == '.' && s[1] >= '0' && s[1] <= '9')
		tenths = s[1] - '0', s += 2;
	while (*s >= '0' && *s <= '9')
		s++;			/* hundredths and beyond: dropped */
	if (*s || !digits || whole > 3600)
		return 0;
	int t = whole * 10 + tenths;
	return t >= 1 && t <= 36000 ? t : 0;
}

/* ---- the terminal: keys without Enter, the modes put back on exit ---- */

static struct termios saved;
static bool keys;		/* reading keys from a terminal */
static volatile int quit;

static void on_signal(int sig)
{
	(void)sig;
	quit = 1;
}

static void keys_start(void)
{
	struct termios t;
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART: wakes the sleep */
	if (tcgetattr(0, &saved) < 0)
		return;
	t = saved;
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = 0;	/* a read returns at once, with or without a key */
	t.c_cc[VTIME] = 0;
	if (tcsetattr(0, TCSANOW, &t) < 0)
		return;
	keys = true;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void keys_end(void)
{
	if (keys)
		tcsetattr(0, TCSANOW, &saved);
}

/* Wait tenths/10 s, a tenth at a time, watching for q. */
static void wait_or_key(int tenths)
{
	for (int i = 0; i < tenths && !quit; i++) {
		struct timespec ts = { 0, 100000000L };
		char c;
		nanosleep(&ts, NULL);
		while (keys && read(0, &c, 1) == 1)
			if (c == 'q' || c == 'Q')
				quit = 1;
	}
}

/* procps's first two lines: " HH:MM:SS up ..., load average: ..." and Tasks. */
static void summary(int ntasks, int running, int sleeping, int stopped)
{
	struct sysinfo si;
	struct timespec now;
	unsigned long l[3];

	if (sysinfo(&si) < 0)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	long t = now.tv_sec % 86400, up = si.uptime;
	for (int i = 0; i < 3; i++)
		l[i] = (si.loads[i] * 100 + (1 << (SI_LOAD_SHIFT - 1))) >> SI_LOAD_SHIFT;
	printf("top - %02ld:%02ld:%02ld up ", t / 3600, t / 60 % 60, t % 60);
	if (up / 3600)
		printf("%2ld:%02ld, ", up / 3600, up / 60 % 60);
	else
		printf("%ld min, ", up / 60);
	printf(" 0 user,  load average: %lu.%02lu, %lu.%02lu, %lu.%02lu\n",
	       l[0] / 100, l[0] % 100, l[1] / 100, l[1] % 100, l[2] / 100, l[2] % 100);
	printf("Tasks: %3d total, %3d running, %3d sleeping, %3d stopped,   0 zombie\n",
	       ntasks, running, sleeping, stopped);
}


static uint64_t total(const struct sched_cpu_info *c)
{
	return c->user_ticks + c->nice_ticks + c->system_ticks + c->idle_ticks;
}

/* per mille of part in whole, printed as 12.3% */
static void pct(uint64_t part, uint64_t whole)
{
	unsigned pm = whole ? (unsigned)(part * 1000 / whole) : 0;
	printf(" %3u.%u%%", pm / 10, pm % 10);
}

/*
 * Read every task; returns how many (indices in ids[]).  Pids only grow
 * here, so the scan stops 64 above the highest pid seen so far (or our
 * own): asking about all 4096 every frame was most of the SYSTEM time a
 * lone hog seemed to have (top's own calls, charged to its CPU).
 */
static int scan_tasks(void)
{
	static int highest;
	int n = 0, last;

	if (highest < getpid())
		highest = getpid();
	last = highest + 64 < MAX_PID ? highest + 64 : MAX_PID;
	for (int pid = 1; pid <= last; pid++) {
		if (sched_stat(pid, &cur[pid]) < 0)
			continue;
		uint32_t t = cur[pid].utime + cur[pid].stime;
		delta[pid] = t - prev_ticks[pid];	/* new pid: prev 0 */
		prev_ticks[pid] = t;
		ids[n++] = pid;
		if (pid > highest)
			highest = pid;
	}
	return n;
}

/* One frame: the CPUs over the last interval, then the SHOW busiest. */
static void frame(struct sched_cpu_info *before, int ncpus, int hz)
{
	struct sched_cpu_info after[MAX_CPUS];
	int n = scan_tasks(), running = 0, sleeping = 0, stopped = 0;

	for (int c = 0; c < ncpus; c++)
		if (sched_cpustat(c, &after[c]) < 0)
			after[c] = before[c];
	for (int k = 0; k < n; k++) {
		int st = cur[ids[k]].state;
		running += st == 0;
		stopped += st == 16;
		sleeping += st == 1 || st == 2;
	}
	uint64_t elapsed = total(&after[0]) - total(&before[0]);
	summary(n, running, sleeping, stopped);
	printf("CPU    USER    NICE  SYSTEM    IDLE  RUN     ISO THROTTLED CURR   (%llu ticks, hz %d)\n",
	       (unsigned long long)elapsed, hz);
	for (int c = 0; c < ncpus; c++) {
		const struct sched_cpu_info *a = &after[c], *b = &before[c];
		uint64_t all = total(a) - total(b);
		printf("%3d", c);
		pct(a->user_ticks - b->user_ticks, all);
		pct(a->nice_ticks - b->nice_ticks, all);
		pct(a->system_ticks - b->system_ticks, all);
		pct(a->idle_ticks - b->idle_ticks, all);
		printf(" %4d %3d.%d%% %9s %4d\n", a->nr_running,
		       a->iso_share_permille / 10, a->iso_share_permille % 10,
		       a->iso_throttled ? "yes" : "no", a->curr_pid);
		before[c] = *a;
	}

	/* the SHOW busiest: a partial selection sort of ids[] by delta */
	printf("  PID STATE POLICY PRIO NICE CPU   %%CPU TIME(ms)\n");
	for (int k = 0; k < n && k < SHOW; k++) {
		int best = k;
		for (int j = k + 1; j < n; j++)
			if (delta[ids[j]] > delta[ids[best]])
				best = j;
		int t = ids[k]; ids[k] = ids[best]; ids[best] = t;
		const struct sched_task_info *p = &cur[ids[k]];
		printf("%5d %-5c %-6s %4d %4d %3d", p->pid,
		       "RSD?X???W"[p->state >= 0 && p->state <= 8 ? p->state : 3],
		       sched_policy_name(p->policy), p->prio, p->nice, p->cpu);
		pct(delta[ids[k]], elapsed);
		printf(" %8llu\n", ((unsigned long long)p->utime + p->stime) * 1000 / hz);
	}
}

int main(int argc, char **argv)
{
	struct sched_cpu_info before[MAX_CPUS];
	int rounds = 0, tenths = 30, ncpus = 0, hz;
	bool batch = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return usage(stdout);
		if (!strcmp(a, "-b")) {
			batch = true;
		} else if (!strncmp(a, "-n", 2) || !strncmp(a, "-d", 2)) {
			const char *v = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
			if (!v) {
				fprintf(stderr, "top: option requires an argument -- '%c'\n", a[1]);
				return usage(stderr);
			}
			if (a[1] == 'n' && !parse_int_arg(v, 1, 1000000, &rounds)) {
				fprintf(stderr, "top: bad iterations argument '%s'\n", v);
				return usage(stderr);
			}
			if (a[1] == 'd' && !(tenths = parse_tenths(v))) {
				fprintf(stderr, "top: bad delay interval '%s'\n", v);
				return usage(stderr);
			}
		} else {
			fprintf(stderr, "top: unknown option '%s'\n", a);
			return usage(stderr);
		}
	}
	hz = sched_tunable_get(SCHED_TUNABLE_HZ);
	if (hz <= 0) {
		printf("top: needs the staircase kernel's calls 500/501 (%s here); "
		       "on Linux use top(1)\n", strerror(errno));
		return 1;
	}
	while (ncpus < MAX_CPUS && sched_cpustat(ncpus, &before[ncpus]) == 0)
		ncpus++;
	scan_tasks();
	bool screen = !batch && isatty(1) && isatty(0);
	if (screen)
		keys_start();
	/* The first frame after a short look (procps shows one at once too). */
	wait_or_key(tenths < 10 ? tenths : 10);
	for (int r = 1; !quit; r++) {
		if (screen)
			printf("\033[H\033[2J");
		else if (r > 1)
			printf("\n");
		frame(before, ncpus, hz);
		fflush(stdout);
		if (rounds && r >= rounds)
			break;
		wait_or_key(tenths);
	}
	keys_end();
	return 0;
}
