/*
 * lockstat - the kernel's lock statistics (kernel/sync/lockstat.c, call 509),
 * in the layout of Linux's /proc/lock_stat (Documentation/locking/
 * lockstat.rst), classes sorted by contentions as there.
 *
 *   lockstat [-n N] [-a]     the N most contended classes (default 10;
 *                            -a all, also those never taken)
 *   lockstat reset           zero every counter (root; Linux: echo 0 >
 *                            /proc/lock_stat)
 *   lockstat on | off        start or stop counting (root; off at boot, as
 *                            Linux's sysctl kernel.lock_stat)
 *
 * A class is every lock of one name (the 32 run queues are "runqueue");
 * mutexes are marked "(mutex)", and their wait is the sleep until the
 * mutex was theirs. Times are microseconds with two decimals, as Linux
 * prints them. Contentions: acquisitions that found the lock taken;
 * bounces: acquisitions on another CPU than the lock's previous one (its
 * cache line moved). docs/kernel.md "Lock statistics" says how to read it.
 * Status 1 with one line on stderr on any error; on Linux call 509 does
 * not exist (read /proc/lock_stat there, with CONFIG_LOCK_STAT).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uapi/lockstat.h>

#include "kernel_calls.h"
#include "tool.h"

#define MAX_CLASSES 128

static int usage(void)
{
	printf("Usage: lockstat [-n N] [-a]\n"
	       "       lockstat reset|on|off\n\n"
	       "The kernel's lock statistics, most contended first, in the columns\n"
	       "of Linux's /proc/lock_stat (times in microseconds).\n\n"
	       "Options:\n"
	       "  -n, --top N    show the N most contended classes (default 10)\n"
	       "  -a, --all      show every class, also those never taken\n"
	       "  -h, --help     display this help and exit\n\n"
	       "on starts counting, off stops it, reset zeroes every counter (root\n"
	       "only). Counting is off at boot: it costs every lock a few dozen\n"
	       "instructions (docs/kernel.md).\n");
	return 0;
}

static struct lock_stat_info info[MAX_CLASSES];

/* Most contentions first, then most acquisitions, then by name. */
static int cmp(const void *a, const void *b)
{
	const struct lock_stat_info *x = a, *y = b;
	if (x->contentions != y->contentions)
		return x->contentions < y->contentions ? 1 : -1;
	if (x->acquisitions != y->acquisitions)
		return x->acquisitions < y->acquisitions ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* ns as Linux's "%14llu.%02llu" microseconds. */
static void us(unsigned long long ns)
{
	printf(" %11llu.%02llu", ns / 1000, (ns % 1000) / 10);
}

static void rule(void)
{
	for (int i = 0; i < 40 + 12 * 15; i++)
		putchar('-');
	putchar('\n');
}

static void row(const struct lock_stat_info *s)
{
	char name[LOCK_STAT_NAME + 8];
	snprintf(name, sizeof(name), "%s%s", s->name, s->kind ? " (mutex)" : "");
	printf("%40s:", name);
	printf(" %14llu %14llu", (unsigned long long)s->con_bounces,
	       (unsigned long long)s->contentions);
	us(s->wait_min_ns); us(s->wait_max_ns); us(s->wait_total_ns);
	us(s->contentions ? s->wait_total_ns / s->contentions : 0);
	printf(" %14llu %14llu", (unsigned long long)s->acq_bounces,
	       (unsigned long long)s->acquisitions);
	us(s->hold_min_ns); us(s->hold_max_ns); us(s->hold_total_ns);
	us(s->acquisitions ? s->hold_total_ns / s->acquisitions : 0);
	putchar('\n');
}

static int show(int top, int all)
{
	int n = lock_stat_read(info, MAX_CLASSES);
	if (n < 0) {
		fprintf(stderr, "lockstat: cannot read the lock statistics (call 509): %s\n",
			strerror(errno));
		return 1;
	}
	if (n > MAX_CLASSES)
		n = MAX_CLASSES;
	if (lock_stat_state() == 0)
		fprintf(stderr, "lockstat: not counting now (`lockstat on` starts it)\n");
	qsort(info, n, sizeof(info[0]), cmp);
	printf("lock_stat version 0.4\n");
	rule();
	printf("%40s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s\n",
	       "class name", "con-bounces", "contentions", "waittime-min", "waittime-max",
	       "waittime-total", "waittime-avg", "acq-bounces", "acquisitions",
	       "holdtime-min", "holdtime-max", "holdtime-total", "holdtime-avg");
	rule();
	putchar('\n');
	for (int i = 0, shown = 0; i < n && (all || shown < top); i++) {
		if (!all && info[i].acquisitions == 0)
			continue;
		row(&info[i]);
		shown++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct tool_opt opts[] = {
		{ "top", 'n', 1 }, { "all", 'a', 0 }, { "help", 'h', 0 }, { 0 }
	};
	struct tool_opts o = { "lockstat", opts, argc, argv, 1, 0, 0 };
	int top = 10, all = 0, c;
	char *end;

	while ((c = tool_next_opt(&o)) != TOOL_OPTS_END) {
		switch (c) {
		case 'n':
			top = (int)strtol(o.arg, &end, 10);
			if (*o.arg == 0 || *end || top <= 0) {
				fprintf(stderr, "lockstat: invalid number of classes: '%s'\n", o.arg);
				return 1;
			}
			break;
		case 'a': all = 1; break;
		case 'h': return usage();
		default: return tool_try_help("lockstat");
		}
	}
	if (o.ind + 1 == argc) {
		const char *w = argv[o.ind];
		int on = strcmp(w, "on") == 0, off = strcmp(w, "off") == 0;
		if (strcmp(w, "reset") == 0 || on || off) {
			if ((on || off ? lock_stat_set(on) : lock_stat_reset()) < 0) {
				fprintf(stderr, "lockstat: cannot %s the lock statistics: %s\n",
					on ? "start" : off ? "stop" : "reset", strerror(errno));
				return 1;
			}
			return 0;
		}
	}
	if (o.ind < argc) {
		fprintf(stderr, "lockstat: unexpected argument '%s'\n", argv[o.ind]);
		return tool_try_help("lockstat");
	}
	return show(top, all);
}
