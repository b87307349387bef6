/*
 * ps - one line per process, as the staircase scheduler sees it.
 *
 *   ps [-e|-A]    PID STATE POLICY PRIO NICE BURST SLICE CPU TIME RUNS WAIT NAME
 *   ps -v         adds MAXB (max_burst), FULL (full_slice), MASK (cpus_allowed)
 *                 and FLAGS (F forked, Y yielded, U uninterruptible, M migrating)
 *   ps -o LIST    procps' user-defined format: pid,cls,rtprio,ni,pri,psr,time,
 *                 comm ... (comma or space separated; -o again appends)
 *   ps -p PIDS    only these pids (exit status 1 if none of them exists)
 *   ps -f, -ef    procps' full format: UID PID PPID C STIME TTY TIME CMD
 *   ps aux        procps' BSD user format: USER PID %CPU %MEM VSZ RSS TTY
 *                 STAT START TIME COMMAND (a, x: every process, the
 *                 default here; u: this format)
 *
 * It asks call 500 (sched_stat) about every pid up to its own + 64 (pids
 * only grow here, so every older task has a lower one; the 64 are for the
 * later stages of a pipeline: user/lib/proclist.h) and call 507 for the
 * name.  PRIO is the task's current stair (docs/staircase.md
 * §1: 100..139 NORMAL/ISO, 140 BATCH, 0..99 real time); BURST and SLICE are
 * §3's burst and ticks left of the whole slice; TIME is utime + stime, WAIT
 * the time spent runnable but not running, both in ms.
 *
 * The -o columns follow procps (src/ps/output.c): PRI is 139 - prio (0..39
 * on the stairs, 40..139 real time, -1 for BATCH's 140), RTPRIO "-" for
 * NORMAL, CLS/POL TS FF RR B ISO (the one table of policy names,
 * user/lib/sched.c), TIME [dd-]hh:mm:ss.  NI is "-" for FIFO/RR only: procps
 * also blanks it for class 4, but on this kernel nice moves an ISO task's
 * stair.  PPID, UID and the start time come from call 508.
 *
 * On Linux call 500 does not exist: ps then shows only PID, POLICY and
 * NICE (sched_getscheduler, getpriority) and says so; -o needs call 500.
 */
#include <errno.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "proclist.h"

#define LINUX_SCAN 4096		/* pids the Linux fallback asks about */
#define MAX_COLS 32
#define MAX_PIDS 32
#define COLW 32			/* one cell's text */

static int hz;			/* ticks per second, for TIME */

static const char *state_name(int state)
{
	switch (state) {
	case 0: return "R";	/* running or runnable */
	case 1: return "S";	/* interruptible sleep */
	case 2: return "D";	/* uninterruptible sleep */
	case 4: return "X";	/* dead */
	case 8: return "W";	/* being woken */
	case 16: return "T";	/* stopped by a signal (SIGSTOP, Ctrl-Z) */
	default: return "?";
	}
}

static void flags_name(int flags, char *buf)
{
	char *p = buf;
	if (flags & 0x1) *p++ = 'F';
	if (flags & 0x2) *p++ = 'Y';
	if (flags & 0x4) *p++ = 'U';
	if (flags & 0x8) *p++ = 'M';
	if (flags & 0x10) *p++ = 'N';
	if (p == buf) *p++ = '-';
	*p = '\0';
}

/* ---- the -o columns ------------------------------------------------------ */

static int is_rt(int policy) { return policy == SCHED_FIFO || policy == SCHED_RR; }

typedef void show_fn(char *out, const struct proc_info *p);

#define NUM_COL(fn, expr) \
	static void fn(char *o, const struct proc_info *p) \
	{ snprintf(o, COLW, "%ld", (long)(expr)); }

NUM_COL(show_pid, p->t.pid)
NUM_COL(show_psr, p->t.cpu)
NUM_COL(show_stair, p->t.prio)
NUM_COL(show_burst, p->t.burst)
NUM_COL(show_slice, p->t.slice)
NUM_COL(show_maxb, p->t.max_burst)
NUM_COL(show_full, p->t.full_slice)
NUM_COL(show_runs, p->t.nr_runs)
NUM_COL(show_wait, p->t.wait_ns / 1000000)
/* procps: 39 - (prio - 100), "not legal as UNIX PRI": higher runs first. */
NUM_COL(show_pri, 139 - p->t.prio)

/* PPID: call 508's (call 500's struct has no parent). */
static void show_ppid(char *o, const struct proc_info *p)
{
	struct proc_ids ids;
	if (proc_ids(p->t.pid, &ids) < 0)
		strcpy(o, "-");
	else
		snprintf(o, COLW, "%d", ids.ppid);
}
static void show_cls(char *o, const struct proc_info *p) { strcpy(o, sched_policy_class(p->t.policy)); }
static void show_comm(char *o, const struct proc_info *p) { strcpy(o, p->name); }
static void show_state(char *o, const struct proc_info *p) { strcpy(o, state_name(p->t.state)); }
static void show_mask(char *o, const struct proc_info *p) { snprintf(o, COLW, "%x", p->t.cpus_allowed); }

/* procps prints the rtprio of every class but SCHED_OTHER. */
static void show_rtprio(char *o, const struct proc_info *p)
{
	if (p->t.policy == SCHED_OTHER)
		strcpy(o, "-");
	else
		snprintf(o, COLW, "%d", p->t.rt_priority);
}

static void show_ni(char *o, const struct proc_info *p)
{
	if (is_rt(p->t.policy))
		strcpy(o, "-");
	else
		snprintf(o, COLW, "%d", p->t.nice);
}

/* Ids another task may be asked about (getpgid, getsid); "-" if not. */
static void show_id(char *o, int id) { if (id < 0) strcpy(o, "-"); else snprintf(o, COLW, "%d", id); }
static void show_pgid(char *o, const struct proc_info *p) { show_id(o, getpgid(p->t.pid)); }
static void show_sid(char *o, const struct proc_info *p) { show_id(o, getsid(p->t.pid)); }

/* CPU time as procps: [dd-]hh:mm:ss. */
static void show_time(char *o, const struct proc_info *p)
{
	unsigned long s = ((unsigned long long)p->t.utime + p->t.stime) / hz;
	int n = s >= 86400 ? snprintf(o, COLW, "%lu-", s / 86400) : 0;

	snprintf(o + n, COLW - n, "%02lu:%02lu:%02lu", s / 3600 % 24, s / 60 % 60, s % 60);
}

/* BSD STAT: the state, then < (nice < 0), N (nice > 0), s (session
 * leader), + (in the terminal's foreground group). */
static void show_stat(char *o, const struct proc_info *p)
{
	int fg = tcgetpgrp(0);

	strcpy(o, state_name(p->t.state));
	if (p->t.nice < 0)
		strcat(o, "<");
	if (p->t.nice > 0)
		strcat(o, "N");
	if (getsid(p->t.pid) == p->t.pid)
		strcat(o, "s");
	if (fg > 0 && getpgid(p->t.pid) == fg)
		strcat(o, "+");
}

struct column {
	const char *key, *head;
	int width, left;	/* procps' width; text columns are left-justified */
	show_fn *show;
};

static const struct column columns[] = {
	{ "pid", "PID", 5, 0, show_pid },	{ "ppid", "PPID", 5, 0, show_ppid },
	{ "pgid", "PGID", 5, 0, show_pgid },	{ "sid", "SID", 5, 0, show_sid },
	{ "cls", "CLS", 3, 0, show_cls },	{ "class", "CLS", 3, 1, show_cls },
	{ "policy", "POL", 3, 1, show_cls },	{ "rtprio", "RTPRIO", 6, 0, show_rtprio },
	{ "ni", "NI", 3, 0, show_ni },		{ "nice", "NI", 3, 0, show_ni },
	{ "pri", "PRI", 3, 0, show_pri },	{ "psr", "PSR", 3, 0, show_psr },
	{ "time", "TIME", 8, 0, show_time },	{ "cputime", "TIME", 8, 0, show_time },
	{ "stat", "STAT", 4, 1, show_stat },	{ "s", "S", 1, 1, show_state },
	{ "state", "S", 1, 1, show_state },	{ "comm", "COMMAND", 15, 1, show_comm },
	{ "cmd", "CMD", 15, 1, show_comm },	{ "args", "COMMAND", 15, 1, show_comm },
	/* the staircase's own (docs/staircase.md §1, §3) */
	{ "stair", "STAIR", 5, 0, show_stair },	{ "prio", "PRIO", 4, 0, show_stair },
	{ "burst", "BURST", 5, 0, show_burst },	{ "slice", "SLICE", 5, 0, show_slice },
	{ "maxb", "MAXB", 4, 0, show_maxb },	{ "full", "FULL", 5, 0, show_full },
	{ "runs", "RUNS", 6, 0, show_runs },	{ "wait", "WAIT(ms)", 8, 0, show_wait },
	{ "mask", "MASK", 8, 0, show_mask },
};
#define NCOLUMNS (int)(sizeof(columns) / sizeof(columns[0]))

static const struct column *column(const char *key, size_t n)
{
	for (int i = 0; i < NCOLUMNS; i++)
		if (strlen(columns[i].key) == n && strncmp(columns[i].key, key, n) == 0)
			return &columns[i];
	return NULL;
}

/* Length of the next word of a list ("pid,comm" or "pid comm"). */
static size_t word_len(const char *s)
{
	size_t n = 0;
	while (s[n] && s[n] != ',' && s[n] != ' ')
		n++;
	return n;
}

struct format {
	const struct column *col[MAX_COLS];
	int ncols;
	int pids[MAX_PIDS], npids;
};

/* procps' message for a bad key, naming it. */
static int add_columns(struct format *f, const char *list)
{
	while (*list) {
		size_t n = word_len(list);
		const struct column *c = column(list, n);

		if (n == 0) {
			list++;
			continue;
		}
		if (!c) {
			fprintf(stderr, "error: unknown user-defined format specifier \"%.*s\"\n",
				(int)n, list);
			return -1;
		}
		if (f->ncols == MAX_COLS) {
			fprintf(stderr, "error: too many columns (%d at most)\n", MAX_COLS);
			return -1;
		}
		f->col[f->ncols++] = c;
		list += n;
	}
	return 0;
}

static int add_pids(struct format *f, const char *list)
{
	while (*list) {
		char word[16];
		size_t n = word_len(list);
		int pid;

		if (n == 0) {
			list++;
			continue;
		}
		snprintf(word, sizeof(word), "%.*s", (int)n, list);
		if (n >= sizeof(word) || !parse_int_arg(word, 1, 2147483647L, &pid)) {
			fprintf(stderr, "error: process ID list syntax error: \"%.*s\"\n",
				(int)n, list);
			return -1;
		}
		if (f->npids == MAX_PIDS) {
			fprintf(stderr, "error: too many pids for -p (%d at most)\n", MAX_PIDS);
			return -1;
		}
		f->pids[f->npids++] = pid;
		list += n;
	}
	return 0;
}

static void print_cell(const struct column *c, const char *text, int last)
{
	int w = (int)strlen(c->head) > c->width ? (int)strlen(c->head) : c->width;

	if (c->left && last)
		printf("%s", text);
	else if (c->left)
		printf("%-*s", w, text);
	else
		printf("%*s", w, text);
	printf(last ? "\n" : " ");
}

static void print_user_row(const struct format *f, const struct proc_info *p)
{
	for (int i = 0; i < f->ncols; i++) {
		char cell[COLW];

		if (p)
			f->col[i]->show(cell, p);
		print_cell(f->col[i], p ? cell : f->col[i]->head, i == f->ncols - 1);
	}
}

/* ---- today's default format ---------------------------------------------- */

static void print_default_head(int verbose)
{
	printf("%5s %-5s %-6s %4s %4s %5s %5s %3s %8s %6s %8s", "PID", "STATE",
	       "POLICY", "PRIO", "NICE", "BURST", "SLICE", "CPU", "TIME(ms)",
	       "RUNS", "WAIT(ms)");
	if (verbose)
		printf(" %4s %5s %8s %5s", "MAXB", "FULL", "MASK", "FLAGS");
	printf(" %s\n", "NAME");
}

static void print_default_row(const struct proc_info *p, int verbose)
{
	const struct sched_task_info *t = &p->t;
	unsigned long long ms = ((unsigned long long)t->utime + t->stime) * 1000 / hz;

	printf("%5d %-5s %-6s %4d %4d %5d %5d %3d %8llu %6u %8llu",
	       t->pid, state_name(t->state), sched_policy_name(t->policy), t->prio,
	       t->nice, t->burst, t->slice, t->cpu, ms, t->nr_runs,
	       t->wait_ns / 1000000);
	if (verbose) {
		char f[8];
		flags_name(t->flags, f);
		printf(" %4d %5d %8x %5s", t->max_burst, t->full_slice,
		       t->cpus_allowed, f);
	}
	printf(" %s\n", p->name);
}

/* ---- procps' -f and BSD u formats (call 508 for the ids) ------------------ */

enum { FMT_DEFAULT, FMT_FULL, FMT_USER };

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* A user's name as procps prints it: the number when there is none, or
 * when the name is longer than the column (procps: "+" truncation aside). */
static void user_name(int uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid((uid_t)uid);
	if (pw && strlen(pw->pw_name) <= 8)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%d", uid);
}

/* CPU use over the process's life in tenths of a percent (procps' %CPU
 * and C: CPU time / time since it started). */
static unsigned pcpu_tenths(const struct proc_info *p, const struct proc_ids *ids)
{
	unsigned long long cpu_ms = ((unsigned long long)p->t.utime + p->t.stime) * 1000 / hz;
	long age = now_ms() - (long)ids->start_ms;
	return age > 0 ? (unsigned)(cpu_ms * 1000 / (unsigned long long)age) : 0;
}

/* START and STIME: "HH:MM" for today (the clock starts at boot here). */
static void start_time(const struct proc_ids *ids, char *buf, size_t len)
{
	unsigned m = ids->start_ms / 60000;
	snprintf(buf, len, "%02u:%02u", m / 60 % 24, m % 60);
}

static void print_format_head(int fmt)
{
	if (fmt == FMT_FULL)
		printf("UID          PID    PPID  C STIME TTY          TIME CMD\n");
	else
		printf("USER         PID %%CPU %%MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n");
}

/*
 * One row of -f or u, with procps' widths. VSZ and RSS are 0: the kernel
 * counts no pages per process yet (nor does it keep the argument list,
 * so CMD and COMMAND are the program's name).
 */
static void print_format_row(int fmt, const struct proc_info *p)
{
	struct proc_ids ids;
	char user[32], start[8], stat[COLW], cputime[COLW];
	unsigned long s = ((unsigned long long)p->t.utime + p->t.stime) / hz;
	unsigned pcpu;

	if (proc_ids(p->t.pid, &ids) < 0)
		return;				/* gone since the walk found it */
	user_name(ids.euid, user, sizeof(user));
	start_time(&ids, start, sizeof(start));
	pcpu = pcpu_tenths(p, &ids);
	if (fmt == FMT_FULL) {
		show_time(cputime, p);
		printf("%-8s %7d %7d %2u %s %-8s %8s %s\n", user, ids.pid, ids.ppid,
		       pcpu / 10 > 99 ? 99 : pcpu / 10, start, ids.tty ? "ttyS0" : "?",
		       cputime, p->name);
		return;
	}
	show_stat(stat, p);
	snprintf(cputime, sizeof(cputime), "%lu:%02lu", s / 60, s % 60);
	printf("%-8s %7d %2u.%u %4s %6d %5d %-8s %-4s %5s %6s %s\n", user, ids.pid,
	       pcpu / 10, pcpu % 10, "0.0", 0, 0, ids.tty ? "ttyS0" : "?", stat, start,
	       cputime, p->name);
}

/* ---- main ---------------------------------------------------------------- */

static int usage(void)
{
	int col = 11;

	printf("usage: ps [-e|-A] [-f] [-v] [-o LIST]... [-p PID[,PID...]]   or   ps aux\n"
	       "  -e, -A   every task (the default here)\n"
	       "  -f       full format: UID PID PPID C STIME TTY TIME CMD\n"
	       "  aux      BSD user format: USER PID %%CPU %%MEM VSZ RSS TTY STAT START TIME COMMAND\n"
	       "  -v       also max_burst, full_slice, cpus_allowed mask, flags\n"
	       "  -o LIST  these columns, comma separated:\n"
	       "           ");
	for (int i = 0; i < NCOLUMNS; i++) {	/* wrapped at 72 */
		int n = (int)strlen(columns[i].key) + 1;
		if (col + n > 72)
			printf("\n           "), col = 11;
		printf("%s%s", columns[i].key, i + 1 < NCOLUMNS ? "," : "\n");
		col += n;
	}
	printf("  -p PIDS  only these pids\n");
	return 0;
}

/* Linux: only what the standard calls tell about any pid. */
static int ps_linux(void)
{
	printf("ps: not the staircase kernel (call 500 sched_stat: %s);\n"
	       "ps: showing PID, POLICY and NICE only, pids 1..%d\n",
	       strerror(ENOSYS), LINUX_SCAN);
	printf("%5s %-6s %4s\n", "PID", "POLICY", "NICE");
	for (int pid = 1; pid <= LINUX_SCAN; pid++) {
		int policy = sched_getscheduler(pid);
		if (policy < 0)
			continue;
		errno = 0;
		int n = getpriority(PRIO_PROCESS, pid);
		if (n == -1 && errno)
			continue;
		/* Linux's 3 is SCHED_BATCH too; 5 is SCHED_IDLE. */
		printf("%5d %-6s %4d\n", pid, sched_policy_name(policy & ~0x40000000), n);
	}
	return 0;
}

static int wanted(const struct format *f, int pid)
{
	if (f->npids == 0)
		return 1;
	for (int i = 0; i < f->npids; i++)
		if (f->pids[i] == pid)
			return 1;
	return 0;
}

/* The option's value: glued (-opid) or the next word. */
static const char *value(int argc, char **argv, int *i, const char *what)
{
	if (argv[*i][2])
		return argv[*i] + 2;
	if (*i + 1 < argc)
		return argv[++*i];
	fprintf(stderr, "error: %s must follow %s\n", what, argv[*i]);
	return NULL;
}

/* procps' BSD options: letters without a dash. a and x (everyone's, with
 * or without a terminal) are what this ps always shows; u is the user
 * format. */
static int parse_bsd(const char *a, int *fmt)
{
	for (const char *c = a; *c; c++) {
		if (*c == 'u')
			*fmt = FMT_USER;
		else if (*c != 'a' && *c != 'x' && *c != 'w')
			return fprintf(stderr, "error: unsupported option (BSD syntax) '%c' in \"%s\" "
				       "(ps -h lists them)\n", *c, a), -1;
	}
	return 0;
}

/* -e, -A, -f clustered as procps takes them: -ef, -fe, -Af. */
static int unix_cluster(const char *a, int *fmt)
{
	if (a[0] != '-' || !a[1])
		return 0;
	for (const char *c = a + 1; *c; c++)
		if (!strchr("eAf", *c))
			return 0;
	if (strchr(a, 'f'))
		*fmt = FMT_FULL;
	return 1;
}

static int parse(int argc, char **argv, struct format *f, int *verbose, int *fmt)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;

		if (a[0] != '-') {
			if (parse_bsd(a, fmt) < 0)
				return -1;
		} else if (unix_cluster(a, fmt))
			continue;
		else if (strcmp(a, "-v") == 0)
			*verbose = 1;
		else if (strcmp(a, "-e") == 0 || strcmp(a, "-A") == 0)
			continue;	/* every task is the default */
		else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			return usage(), 1;
		else if (strncmp(a, "-o", 2) == 0) {
			if (!(v = value(argc, argv, &i, "format specification")) ||
			    add_columns(f, v) < 0)
				return -1;
			if (f->ncols == 0)
				return fprintf(stderr, "error: improper format list\n"), -1;
		} else if (strncmp(a, "-p", 2) == 0) {
			if (!(v = value(argc, argv, &i, "list of process IDs")) ||
			    add_pids(f, v) < 0)
				return -1;
		} else {
			fprintf(stderr, "error: unsupported option \"%s\" (ps -h lists them)\n", a);
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct format f = { .ncols = 0 };
	struct proc_walk w;
	struct proc_info p;
	int verbose = 0, shown = 0, fmt = FMT_DEFAULT, r = parse(argc, argv, &f, &verbose, &fmt);

	if (r)
		return r > 0 ? 0 : 1;
	hz = sched_tunable_get(SCHED_TUNABLE_HZ);
	if (hz <= 0) {
		if (errno == ENOSYS && f.ncols == 0 && f.npids == 0)
			return ps_linux();
		fprintf(stderr, "error: cannot read hz (call 502): %s%s\n", strerror(errno),
			errno == ENOSYS ? ": -o and -p need the staircase kernel" : "");
		return 1;
	}
	if (fmt != FMT_DEFAULT && (f.ncols || verbose)) {
		fprintf(stderr, "error: conflicting format options (-f or u with -o or -v)\n");
		return 1;
	}
	if (fmt != FMT_DEFAULT)
		print_format_head(fmt);
	else if (f.ncols)
		print_user_row(&f, NULL);
	else
		print_default_head(verbose);
	proc_walk_start(&w);
	while ((r = proc_walk_next(&w, &p)) != 0) {
		if (r < 0) {	/* not ESRCH: say which pid, go on */
			printf("ps: pid %d: %s\n", w.pid, strerror(errno));
			continue;
		}
		if (!wanted(&f, p.t.pid))
			continue;
		if (fmt != FMT_DEFAULT)
			print_format_row(fmt, &p);
		else if (f.ncols)
			print_user_row(&f, &p);
		else
			print_default_row(&p, verbose);
		shown++;
	}
	/* procps: a -p that selects nothing is a failure. */
	return f.npids && !shown ? 1 : 0;
}
