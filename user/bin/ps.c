/*
 * ps - one line per process, as the staircase scheduler sees it.
 *
 *   ps [-e|-A]    PID PPID USER STATE POLICY PRIO NICE BURST SLICE CPU TIME RUNS
 *                 WAIT NAME
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
 * It reads /proc as procps' ps does (user/lib/proclist.h): every
 * process /proc lists, from its stat, status, cmdline and sched files.
 * PRIO is the task's current stair (stat's priority + 100;
 * docs/staircase.md §1: 100..139 NORMAL/ISO, 140 BATCH, 0..99 real time);
 * BURST and SLICE are §3's burst and ticks left of the whole slice
 * (/proc/PID/sched); TIME is utime + stime, WAIT the time spent runnable
 * but not running, both in ms.
 *
 * The -o columns follow procps (src/ps/output.c): PRI is 139 - prio (0..39
 * on the stairs, 40..139 real time, -1 for BATCH's 140), RTPRIO "-" for
 * NORMAL, CLS/POL TS FF RR B ISO (the one table of policy names,
 * user/lib/sched.c), TIME [dd-]hh:mm:ss.  NI is "-" for FIFO/RR only: procps
 * also blanks it for class 4, but on this kernel nice moves an ISO task's
 * stair.  USER, VSZ, RSS, TTY and the start time are procps' too.
 *
 * On Linux the same ps runs: /proc/PID/sched there has none of the
 * staircase's fields, so BURST, SLICE, RUNS, WAIT, MAXB, FULL and FLAGS
 * show "-".
 */
#include <errno.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "proclist.h"

#define MAX_COLS 40
#define MAX_PIDS 32
#define COLW PROC_ARGS_MAX	/* one cell's text */

/* What every row needs: the clock and the memory, read once. */
static long boot_s;		/* when the machine booted, in CLOCK_REALTIME s */
static unsigned long mem_kb;	/* MemTotal */

static void read_system(void)
{
	char text[512], *m;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	if (proc_read_text("/proc/uptime", text, sizeof(text)) > 0)
		boot_s = now.tv_sec - strtol(text, NULL, 10);
	if (proc_read_text("/proc/meminfo", text, sizeof(text)) > 0 &&
	    (m = strstr(text, "MemTotal:")) != NULL)
		mem_kb = strtoul(m + 9, NULL, 10);
}

/* The staircase's flags (/proc/PID/sched "flags"; docs/staircase.md). */
static void flags_name(long long flags, char *buf)
{
	char *p = buf;
	if (flags < 0) {
		strcpy(buf, "-");
		return;
	}
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
/* A /proc/PID/sched field: "-" where the file has none (Linux). */
#define SCHED_COL(fn, field, div) \
	static void fn(char *o, const struct proc_info *p) \
	{ if (p->field < 0) strcpy(o, "-"); \
	  else snprintf(o, COLW, "%lld", p->field / (div)); }

NUM_COL(show_pid, p->pid)
NUM_COL(show_ppid, p->ppid)
NUM_COL(show_pgid, p->pgid)
NUM_COL(show_sid, p->sid)
NUM_COL(show_psr, p->cpu)
NUM_COL(show_stair, p->prio)
NUM_COL(show_ruid, p->ruid)
NUM_COL(show_euid, p->euid)
NUM_COL(show_vsz, p->vsize / 1024)
NUM_COL(show_rss, p->rss * 4)		/* 4 KiB pages, in KiB as procps */
SCHED_COL(show_burst, burst, 1)
SCHED_COL(show_slice, slice, 1)
SCHED_COL(show_maxb, max_burst, 1)
SCHED_COL(show_full, full_slice, 1)
SCHED_COL(show_runs, nr_switches, 1)
SCHED_COL(show_wait, wait_ns, 1000000)
/* procps: 39 - (prio - 100), "not legal as UNIX PRI": higher runs first. */
NUM_COL(show_pri, 139 - p->prio)

static void show_cls(char *o, const struct proc_info *p) { strcpy(o, sched_policy_class(p->policy)); }
static void show_comm(char *o, const struct proc_info *p) { strcpy(o, p->name); }
static void show_args(char *o, const struct proc_info *p) { strcpy(o, p->args); }
static void show_state(char *o, const struct proc_info *p) { o[0] = p->state, o[1] = 0; }
static void show_mask(char *o, const struct proc_info *p) { snprintf(o, COLW, "%x", p->cpus_allowed); }

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

static void show_user(char *o, const struct proc_info *p) { user_name(p->euid, o, COLW); }
static void show_ruser(char *o, const struct proc_info *p) { user_name(p->ruid, o, COLW); }

/* TTY from stat's tty_nr (major << 8 | minor): serial lines are major 4
 * from minor 64, pseudo-terminals major 136; none is "?". */
static void show_tty(char *o, const struct proc_info *p)
{
	int major = p->tty_nr >> 8 & 0xfff, minor = p->tty_nr & 0xff;

	if (major == 4 && minor >= 64)
		snprintf(o, COLW, "ttyS%d", minor - 64);
	else if (major == 136)
		snprintf(o, COLW, "pts/%d", minor);
	else
		strcpy(o, "?");
}

/* procps prints the rtprio of every class but SCHED_OTHER. */
static void show_rtprio(char *o, const struct proc_info *p)
{
	if (p->policy == SCHED_OTHER)
		strcpy(o, "-");
	else
		snprintf(o, COLW, "%d", p->rt_priority);
}

static void show_ni(char *o, const struct proc_info *p)
{
	if (is_rt(p->policy))
		strcpy(o, "-");
	else
		snprintf(o, COLW, "%d", p->nice);
}

/* CPU time as procps: [dd-]hh:mm:ss. */
static void show_time(char *o, const struct proc_info *p)
{
	unsigned long s = (p->utime + p->stime) / PROC_USER_HZ;
	int n = s >= 86400 ? snprintf(o, COLW, "%lu-", s / 86400) : 0;

	snprintf(o + n, COLW - n, "%02lu:%02lu:%02lu", s / 3600 % 24, s / 60 % 60, s % 60);
}

/* BSD STAT: the state, then < (nice < 0), N (nice > 0), s (session
 * leader), + (in the terminal's foreground group). */
static void show_stat(char *o, const struct proc_info *p)
{
	int fg = tcgetpgrp(0);

	show_state(o, p);
	if (p->nice < 0)
		strcat(o, "<");
	if (p->nice > 0)
		strcat(o, "N");
	if (p->sid == p->pid)
		strcat(o, "s");
	if (fg > 0 && p->pgid == fg)
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
	{ "cmd", "CMD", 15, 1, show_args },	{ "args", "COMMAND", 15, 1, show_args },
	{ "user", "USER", 8, 1, show_user },	{ "euser", "EUSER", 8, 1, show_user },
	{ "ruser", "RUSER", 8, 1, show_ruser },	{ "uid", "UID", 5, 0, show_euid },
	{ "euid", "EUID", 5, 0, show_euid },	{ "ruid", "RUID", 5, 0, show_ruid },
	{ "tty", "TT", 8, 1, show_tty },	{ "vsz", "VSZ", 6, 0, show_vsz },
	{ "rss", "RSS", 5, 0, show_rss },
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
	printf("%5s %5s %-8s %-5s %-6s %4s %4s %5s %5s %3s %8s %6s %8s", "PID", "PPID",
	       "USER", "STATE", "POLICY", "PRIO", "NICE", "BURST", "SLICE", "CPU", "TIME(ms)",
	       "RUNS", "WAIT(ms)");
	if (verbose)
		printf(" %4s %5s %8s %5s", "MAXB", "FULL", "MASK", "FLAGS");
	printf(" %s\n", "NAME");
}

/* A /proc/PID/sched number, or "-" where Linux's file has none. */
static const char *sched_num(char *buf, long long v)
{
	if (v < 0)
		return "-";
	snprintf(buf, 24, "%lld", v);
	return buf;
}

static void print_default_row(const struct proc_info *p, int verbose)
{
	char b[6][24], user[COLW];

	/* PPID and USER as procps prints them (USER: the effective uid's name) */
	user_name(p->euid, user, sizeof(user));
	printf("%5d %5d %-8s %-5c %-6s %4d %4d %5s %5s %3d %8lu %6s %8s", p->pid, p->ppid,
	       user, p->state, sched_policy_name(p->policy), p->prio, p->nice, sched_num(b[0], p->burst),
	       sched_num(b[1], p->slice), p->cpu, (p->utime + p->stime) * (1000 / PROC_USER_HZ),
	       sched_num(b[2], p->nr_switches),
	       sched_num(b[3], p->wait_ns < 0 ? -1 : p->wait_ns / 1000000));
	if (verbose) {
		char f[8];
		flags_name(p->flags, f);
		printf(" %4s %5s %8x %5s", sched_num(b[4], p->max_burst),
		       sched_num(b[5], p->full_slice), p->cpus_allowed, f);
	}
	printf(" %s\n", p->name);
}

/* ---- procps' -f and BSD u formats ---------------------------------------- */

enum { FMT_DEFAULT, FMT_FULL, FMT_USER };

/* CPU use over the process's life in tenths of a percent (procps' %CPU
 * and C: CPU time / time since it started). */
static unsigned pcpu_tenths(const struct proc_info *p)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	long long age = (now.tv_sec - boot_s) * 1000LL + now.tv_nsec / 1000000 -
			(long long)p->start * (1000 / PROC_USER_HZ);
	unsigned long long cpu_ms = (p->utime + p->stime) * (1000ULL / PROC_USER_HZ);
	return age > 0 ? (unsigned)(cpu_ms * 1000 / (unsigned long long)age) : 0;
}

/* START and STIME: "HH:MM" of the day it started (boot + stat's starttime). */
static void start_time(const struct proc_info *p, char *buf, size_t len)
{
	long t = boot_s + (long)(p->start / PROC_USER_HZ);
	snprintf(buf, len, "%02ld:%02ld", t / 3600 % 24, t / 60 % 60);
}

static void print_format_head(int fmt)
{
	if (fmt == FMT_FULL)
		printf("UID          PID    PPID  C STIME TTY          TIME CMD\n");
	else
		printf("USER         PID %%CPU %%MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n");
}

/* One row of -f or u, with procps' widths. RSS counts every mapped page
 * (the kernel does not count pages as they are touched: /proc/PID/status). */
static void print_format_row(int fmt, const struct proc_info *p)
{
	char user[COLW], start[8], stat[COLW], cputime[COLW], tty[COLW];
	unsigned long s = (p->utime + p->stime) / PROC_USER_HZ;
	unsigned pcpu = pcpu_tenths(p), pmem;

	user_name(p->euid, user, sizeof(user));
	start_time(p, start, sizeof(start));
	show_tty(tty, p);
	if (fmt == FMT_FULL) {
		show_time(cputime, p);
		printf("%-8s %7d %7d %2u %s %-8s %8s %s\n", user, p->pid, p->ppid,
		       pcpu / 10 > 99 ? 99 : pcpu / 10, start, tty, cputime, p->args);
		return;
	}
	show_stat(stat, p);
	pmem = mem_kb ? (unsigned)((unsigned long long)p->rss * 4 * 1000 / mem_kb) : 0;
	snprintf(cputime, sizeof(cputime), "%lu:%02lu", s / 60, s % 60);
	printf("%-8s %7d %2u.%u %2u.%u %6lu %5ld %-8s %-4s %5s %6s %s\n", user, p->pid,
	       pcpu / 10, pcpu % 10, pmem / 10, pmem % 10, p->vsize / 1024, p->rss * 4,
	       tty, stat, start, cputime, p->args);
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
	if (fmt != FMT_DEFAULT && (f.ncols || verbose)) {
		fprintf(stderr, "error: conflicting format options (-f or u with -o or -v)\n");
		return 1;
	}
	if (proc_walk_start(&w) < 0) {
		fprintf(stderr, "error: cannot open /proc: %s\n", strerror(errno));
		return 1;
	}
	read_system();
	if (fmt != FMT_DEFAULT)
		print_format_head(fmt);
	else if (f.ncols)
		print_user_row(&f, NULL);
	else
		print_default_head(verbose);
	while (proc_walk_next(&w, &p)) {
		if (!wanted(&f, p.pid))
			continue;
		if (fmt != FMT_DEFAULT)
			print_format_row(fmt, &p);
		else if (f.ncols)
			print_user_row(&f, &p);
		else
			print_default_row(&p, verbose);
		shown++;
	}
	proc_walk_end(&w);
	/* procps: a -p that selects nothing is a failure. */
	return f.npids && !shown ? 1 : 0;
}
