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
 * Everything comes from /proc, as procps's top reads it: each frame starts
 * with procps's summary line (the time, /proc/uptime, /proc/loadavg) and a
 * Tasks line, then one line per CPU with the user/nice/system/idle share
 * of its time over the last interval (/proc/stat; nice = BATCH or nice > 0
 * time), and from /proc/sched_debug its queue length, its ISO share (5 s
 * decaying average) and whether its ISO tasks are throttled to BATCH
 * (iso_cpu, docs/staircase.md §7.5) and who runs there; then the tasks
 * that used the most CPU in that interval (/proc/PID/stat), %CPU being
 * time used / time elapsed (100% = one whole CPU).  On Linux the columns
 * from /proc/sched_debug show "-" (its file has no ISO, and only root may
 * read it).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "proclist.h"

#define MAX_TASKS 512
#define MAX_CPUS 32
#define SHOW 10

/* A CPU's times from /proc/stat (USER_HZ ticks) and its queue from
 * /proc/sched_debug (-1: not there). */
struct cpu_load {
	unsigned long long user, nice, system, idle;
	int nr_running, iso_permille, iso_throttled, curr_pid;
};

static struct proc_info cur[MAX_TASKS];
static unsigned long delta[MAX_TASKS];	/* ticks since the last frame */
static struct { int pid; unsigned long ticks; } prev[MAX_TASKS], seen[MAX_TASKS];
static int nprev;
static char text[32768];		/* sched_debug: a line per task */

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
static void summary(int ntasks, int running, int sleeping, int stopped, int zombie)
{
	char up_text[64], load[64];
	struct timespec now;

	if (proc_read_text("/proc/uptime", up_text, sizeof(up_text)) <= 0 ||
	    proc_read_text("/proc/loadavg", load, sizeof(load)) <= 0)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	long t = now.tv_sec % 86400, up = strtol(up_text, NULL, 10);
	char *l[3] = { load, NULL, NULL };
	for (int i = 1; i < 3; i++) {		/* "1.00 0.52 0.20 1/5 42" */
		l[i] = strchr(l[i - 1], ' ');
		*l[i]++ = 0;
	}
	*strchr(l[2], ' ') = 0;
	printf("top - %02ld:%02ld:%02ld up ", t / 3600, t / 60 % 60, t % 60);
	if (up / 3600)
		printf("%2ld:%02ld, ", up / 3600, up / 60 % 60);
	else
		printf("%ld min, ", up / 60);
	printf(" 0 user,  load average: %s, %s, %s\n", l[0], l[1], l[2]);
	printf("Tasks: %3d total, %3d running, %3d sleeping, %3d stopped, %3d zombie\n",
	       ntasks, running, sleeping, stopped, zombie);
}

/* /proc/stat's "cpuN user nice system idle ...": how many CPUs. */
static int read_cpu_times(struct cpu_load *c)
{
	int n = 0;

	if (proc_read_text("/proc/stat", text, sizeof(text)) <= 0)
		return 0;
	for (char *l = strstr(text, "\ncpu"); l && n < MAX_CPUS; l = strstr(l + 1, "\ncpu")) {
		char *f = l + 4;
		if (*f < '0' || *f > '9')
			continue;
		strtol(f, &f, 10);
		c[n].user = strtoul(f, &f, 10);
		c[n].nice = strtoul(f, &f, 10);
		c[n].system = strtoul(f, &f, 10);
		c[n].idle = strtoul(f, &f, 10);
		n++;
	}
	return n;
}

/* /proc/sched_debug: "cpu#N", then "  .nr_running : 1" and the like. */
static void read_cpu_queues(struct cpu_load *c, int ncpus)
{
	static const char *const keys[] = { "nr_running", "iso_share_permille",
					    "iso_throttled", "curr->pid" };
	int cpu = -1;

	for (int i = 0; i < ncpus; i++)
		c[i].nr_running = c[i].iso_permille = c[i].iso_throttled = c[i].curr_pid = -1;
	if (proc_read_text("/proc/sched_debug", text, sizeof(text)) <= 0)
		return;
	for (char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, "cpu#", 4) == 0)
			cpu = atoi(l + 4);
		if (cpu < 0 || cpu >= ncpus || strncmp(l, "  .", 3) != 0)
			continue;
		int *v[] = { &c[cpu].nr_running, &c[cpu].iso_permille,
			     &c[cpu].iso_throttled, &c[cpu].curr_pid };
		for (int k = 0; k < 4; k++)
			if (strncmp(l + 3, keys[k], strlen(keys[k])) == 0 &&
			    l[3 + strlen(keys[k])] == ' ')
				*v[k] = atoi(strchr(l, ':') + 1);
	}
}

static unsigned long long total(const struct cpu_load *c)
{
	return c->user + c->nice + c->system + c->idle;
}

/* per mille of part in whole, printed as 12.3% */
static void pct(uint64_t part, uint64_t whole)
{
	unsigned pm = whole ? (unsigned)(part * 1000 / whole) : 0;
	printf(" %3u.%u%%", pm / 10, pm % 10);
}

/* The ticks pid had at the last frame (0: new). */
static unsigned long prev_ticks(int pid)
{
	for (int i = 0; i < nprev; i++)
		if (prev[i].pid == pid)
			return prev[i].ticks;
	return 0;
}

/* Read every process (/proc/PID/stat only); returns how many. */
static int scan_tasks(void)
{
	struct proc_walk w;
	int n = 0;

	if (proc_walk_start(&w) < 0)
		return 0;
	w.stat_only = 1;
	while (n < MAX_TASKS && proc_walk_next(&w, &cur[n])) {
		unsigned long t = cur[n].utime + cur[n].stime;
		delta[n] = t - prev_ticks(cur[n].pid);
		seen[n].pid = cur[n].pid, seen[n].ticks = t;
		n++;
	}
	proc_walk_end(&w);
	memcpy(prev, seen, n * sizeof(seen[0]));
	nprev = n;
	return n;
}

/* A queue number, or "-" where /proc/sched_debug had none. */
static void queue_num(const char *fmt, int v, int width)
{
	if (v < 0)
		printf(" %*s", width, "-");
	else
		printf(fmt, v);
}

static void cpu_lines(struct cpu_load *before, const struct cpu_load *after, int ncpus,
		      unsigned long long elapsed)
{
	printf("CPU    USER    NICE  SYSTEM    IDLE  RUN     ISO THROTTLED CURR   "
	       "(%llu ticks of 1/%d s)\n", elapsed, PROC_USER_HZ);
	for (int c = 0; c < ncpus; c++) {
		const struct cpu_load *a = &after[c], *b = &before[c];
		unsigned long long all = total(a) - total(b);
		printf("%3d", c);
		pct(a->user - b->user, all);
		pct(a->nice - b->nice, all);
		pct(a->system - b->system, all);
		pct(a->idle - b->idle, all);
		queue_num(" %4d", a->nr_running, 4);
		if (a->iso_permille < 0)
			printf(" %7s", "-");
		else
			printf(" %3d.%d%%", a->iso_permille / 10, a->iso_permille % 10);
		printf(" %9s", a->iso_throttled < 0 ? "-" : a->iso_throttled ? "yes" : "no");
		queue_num(" %4d", a->curr_pid, 4);
		printf("\n");
		before[c] = *a;
	}
}

/* One frame: the CPUs over the last interval, then the SHOW busiest. */
static void frame(struct cpu_load *before, int ncpus)
{
	struct cpu_load after[MAX_CPUS];
	int n = scan_tasks(), r = 0, s = 0, t = 0, z = 0;

	for (int c = read_cpu_times(after); c < ncpus; c++)
		after[c] = before[c];		/* unreadable: no change */
	read_cpu_queues(after, ncpus);

	for (int k = 0; k < n; k++) {
		r += cur[k].state == 'R';
		s += cur[k].state == 'S' || cur[k].state == 'D';
		t += cur[k].state == 'T';
		z += cur[k].state == 'Z';
	}
	/* the interval, in ticks of one CPU: CPU 0's */
	unsigned long long elapsed = total(&after[0]) - total(&before[0]);
	summary(n, r, s, t, z);
	cpu_lines(before, after, ncpus, elapsed);

	/* the SHOW busiest: a partial selection sort by delta */
	printf("  PID STATE POLICY PRIO NICE CPU   %%CPU TIME(ms)\n");
	for (int k = 0; k < n && k < SHOW; k++) {
		int best = k;
		for (int j = k + 1; j < n; j++)
			if (delta[j] > delta[best])
				best = j;
		struct proc_info p = cur[k];
		unsigned long d = delta[k];
		cur[k] = cur[best], delta[k] = delta[best];
		cur[best] = p, delta[best] = d;
		printf("%5d %-5c %-6s %4d %4d %3d", cur[k].pid, cur[k].state,
		       sched_policy_name(cur[k].policy), cur[k].prio, cur[k].nice, cur[k].cpu);
		pct(delta[k], elapsed);
		printf(" %8lu\n", (cur[k].utime + cur[k].stime) * (1000 / PROC_USER_HZ));
	}
}

int main(int argc, char **argv)
{
	struct cpu_load before[MAX_CPUS];
	int rounds = 0, tenths = 30, ncpus;
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
	ncpus = read_cpu_times(before);
	if (ncpus == 0) {
		printf("top: cannot read /proc/stat: %s\n", strerror(errno));
		return 1;
	}
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
		frame(before, ncpus);
		fflush(stdout);
		if (rounds && r >= rounds)
			break;
		wait_or_key(tenths);
	}
	keys_end();
	return 0;
}
