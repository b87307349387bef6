/*
 * workload.c - read a workload file (the format is in workload.h).
 *
 * One line at a time: cut the comment, split into words, and hand the
 * words to the directive or task parser. A bad line is reported with its
 * number and skipped, so one run shows every mistake in the file.
 */
#include "workload.h"
#include "../../sched/machine.h"
#include "../../sched/sched.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LINE_MAX_CHARS	512
#define MAX_WORDS	32
#define MAX_ERRORS	20	/* then stop: it is probably not a workload */

/* What the parser of one line needs to report an error. */
struct ctx {
	const char *file;
	int line;
	FILE *err;
	int errors;
};

__attribute__((format(printf, 2, 3)))
static void error(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(c->err, "%s:%d: ", c->file, c->line);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	c->errors++;
}

/* Policy names come from the scheduler's own table (sched/policy.c),
 * lower-cased as the trace prints them: "normal", "fifo", ... */
const char *wl_policy_name(int policy)
{
	return policy >= 0 && policy < SCHED_NR_POLICIES ? sched_trace_policy_name(policy) : "?";
}

static int policy_by_name(const char *s)
{
	for (int i = 0; i < SCHED_NR_POLICIES; i++)
		if (strcasecmp(s, sched_trace_policy_name(i)) == 0)
			return i;
	return -1;
}

/* A whole decimal integer in min..max, nothing after it. */
static bool parse_int(const char *s, long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = (int)v;
	return true;
}

/* "4ms", "1.5s", "250us": more than 0 and at most a day. */
bool wl_parse_length(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
	};
	char *end;
	double v;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit) != 0)
			continue;
		double x = v * units[i].ns;
		if (x < 1 || x > 86400e9)
			return false;
		*ns = (uint64_t)llround(x);
		return true;
	}
	return false;
}

/* A length or a range "2-6ms" / "2ms-6ms" (the first takes the second's unit). */
static bool parse_range(const char *s, uint64_t *min, uint64_t *max)
{
	char first[64];
	const char *dash = strchr(s, '-');
	size_t n;

	if (!dash)
		return wl_parse_length(s, min) && (*max = *min, true);
	n = (size_t)(dash - s);
	if (n == 0 || n >= sizeof(first) - 4)
		return false;
	memcpy(first, s, n);
	first[n] = 0;
	if (isdigit((unsigned char)first[n - 1])) {	/* no unit: borrow it */
		const char *unit = dash + 1;
		while (*unit && (isdigit((unsigned char)*unit) || *unit == '.'))
			unit++;
		if (strlen(unit) > 2)
			return false;
		strcat(first, unit);
	}
	return wl_parse_length(first, min) && wl_parse_length(dash + 1, max) && *min <= *max;
}

/* "all", or "0,2-3": CPUs below WL_MAX_CPUS. 0 means all. */
static bool parse_cpus(const char *s, uint32_t *mask)
{
	char buf[128], *save, *part;

	*mask = 0;
	if (strcasecmp(s, "all") == 0)
		return true;
	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	for (part = strtok_r(buf, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(part, '-');
		int lo, hi;
		if (dash) {
			*dash = 0;
			if (!parse_int(part, 0, WL_MAX_CPUS - 1, &lo) ||
			    !parse_int(dash + 1, 0, WL_MAX_CPUS - 1, &hi) || lo > hi)
				return false;
		} else if (parse_int(part, 0, WL_MAX_CPUS - 1, &lo)) {
			hi = lo;
		} else {
			return false;
		}
		for (int cpu = lo; cpu <= hi; cpu++)
			*mask |= 1u << cpu;
	}
	return *mask != 0 && s[strlen(s) - 1] != ',';
}

/* ---- header directives ---- */

/* cpus N [cores C] [threads T]: C cores per package, T threads per core. */
static void parse_cpus_directive(struct ctx *c, char **w, int n, struct workload *wl)
{
	int ncpus, cores = 0, threads = 1;

	if (n < 2 || n % 2 || !parse_int(w[1], 1, WL_MAX_CPUS, &ncpus)) {
		error(c, "expected 'cpus N [cores C] [threads T]' with N 1..%d", WL_MAX_CPUS);
		return;
	}
	for (int i = 2; i < n; i += 2) {
		int *dst = strcmp(w[i], "cores") == 0 ? &cores :
			   strcmp(w[i], "threads") == 0 ? &threads : NULL;
		if (!dst || !parse_int(w[i + 1], 1, WL_MAX_CPUS, dst)) {
			error(c, "bad '%s %s' (expected 'cores C' or 'threads T')", w[i], w[i + 1]);
			return;
		}
	}
	if (cores == 0)
		cores = ncpus / threads;	/* one package */
	if (cores == 0 || ncpus % (cores * threads)) {
		error(c, "%d CPUs cannot be packages of %d cores x %d threads", ncpus, cores, threads);
		return;
	}
	wl->ncpus = ncpus;
	wl->cores = cores;
	wl->threads = threads;
}

static bool parse_directive(struct ctx *c, char **w, int n, struct workload *wl)
{
	if (strcmp(w[0], "cpus") == 0) {
		parse_cpus_directive(c, w, n, wl);
	} else if (strcmp(w[0], "duration") == 0) {
		if (n != 2 || !wl_parse_length(w[1], &wl->duration_ns) ||
		    wl->duration_ns > 3600 * 1000000000ull)
			error(c, "expected 'duration LENGTH' (e.g. 10s or 500ms, at most 1 hour)");
	} else if (strcmp(w[0], "hz") == 0) {
		if (n != 2 || !parse_int(w[1], HZ_MIN, HZ_MAX, &wl->hz))
			error(c, "expected 'hz N' with N %d..%d", HZ_MIN, HZ_MAX);
	} else if (strcmp(w[0], "tunable") == 0) {
		struct wl_tunable *t = &wl->tunables[wl->ntunables];
		if (n != 3 || strlen(w[1]) >= sizeof(t->name) ||
		    !parse_int(w[2], INT_MIN, INT_MAX, &t->value))
			error(c, "expected 'tunable NAME VALUE' (e.g. tunable iso_cpu 70)");
		else if (wl->ntunables == WL_MAX_TUNABLES)
			error(c, "too many tunable lines (at most %d)", WL_MAX_TUNABLES);
		else {
			strcpy(t->name, w[1]);
			t->line = c->line;
			wl->ntunables++;
		}
	} else {
		return false;
	}
	return true;
}

/* ---- task lines ---- */

static bool is_pattern_word(const char *s)
{
	return !strcmp(s, "run") || !strcmp(s, "sleep") || !strcmp(s, "block") ||
	       !strcmp(s, "start");
}

/* The words between the nice/prio column and the CPU list. */
static bool parse_pattern(struct ctx *c, char **w, int n, struct wl_task *t)
{
	bool run = false, sleep = false, start = false;

	for (int i = 0; i < n; i++) {
		uint64_t lo, hi;
		bool has_len = i + 1 < n && parse_range(w[i + 1], &lo, &hi);
		if (strcmp(w[i], "run") == 0 && !run) {
			run = true;
			t->hog = !has_len;
			if (has_len)
				t->run_ns = lo, t->run_max_ns = hi, i++;
		} else if ((!strcmp(w[i], "sleep") || !strcmp(w[i], "block")) && !sleep) {
			if (!has_len) {
				error(c, "'%s' needs a length (e.g. %s 1ms or %s 1-5ms)", w[i], w[i], w[i]);
				return false;
			}
			sleep = true;
			t->uninterruptible = w[i][0] == 'b';
			t->sleep_ns = lo, t->sleep_max_ns = hi, i++;
		} else if (strcmp(w[i], "start") == 0 && !start) {
			if (!has_len || lo != hi) {
				error(c, "'start' needs one length (e.g. start 2s)");
				return false;
			}
			start = true;
			t->start_ns = lo, i++;
		} else if (is_pattern_word(w[i])) {
			error(c, "'%s' given twice", w[i]);
			return false;
		} else if (isdigit((unsigned char)w[i][0]) || w[i][0] == '-' || w[i][0] == '.') {
			error(c, "'%s' is not a length where one is allowed (a length is 1us to 1 day: "
			      "4ms, 1.5s, 250us, or a range 2-6ms; it follows run, sleep, block or start)",
			      w[i]);
			return false;
		} else {
			error(c, "unexpected '%s' in the pattern (expected run, sleep, block or start, "
			      "and lengths such as 4ms or 2-6ms)", w[i]);
			return false;
		}
	}
	if (!run) {
		error(c, "the pattern needs 'run' ('run' alone for a hog, or 'run 4ms sleep 1ms')");
		return false;
	}
	if (t->hog && sleep) {
		error(c, "'run' with no length never stops, so it cannot sleep: write 'run 4ms sleep 1ms'");
		return false;
	}
	if (!t->hog && !sleep) {
		error(c, "a 'run' with a length needs a 'sleep' (or write 'run' alone for a hog)");
		return false;
	}
	return true;
}

static void parse_task(struct ctx *c, char **w, int n, struct workload *wl)
{
	struct wl_task *t = &wl->tasks[wl->ntasks];
	const char *last = w[n - 1];

	if (n < 5) {
		error(c, "expected a directive (cpus, duration, hz, tunable) or a task "
		      "'NAME POLICY NICE/PRIO PATTERN CPUS' (e.g. 'hog normal 0 run all')");
		return;
	}
	if (wl->ntasks == WL_MAX_TASKS) {
		error(c, "too many tasks (at most %d)", WL_MAX_TASKS);
		return;
	}
	memset(t, 0, sizeof(*t));
	t->line = c->line;
	if (strlen(w[0]) >= WL_NAME_MAX) {
		error(c, "task name '%s' is longer than %d characters", w[0], WL_NAME_MAX - 1);
		return;
	}
	strcpy(t->name, w[0]);
	for (int i = 0; i < wl->ntasks; i++)
		if (strcmp(wl->tasks[i].name, t->name) == 0) {
			error(c, "task name '%s' already used on line %d", t->name, wl->tasks[i].line);
			return;
		}
	t->policy = policy_by_name(w[1]);
	if (t->policy < 0) {
		error(c, "unknown policy '%s' (normal, fifo, rr, batch or iso)", w[1]);
		return;
	}
	if (t->policy == SCHED_FIFO || t->policy == SCHED_RR) {
		if (!parse_int(w[2], 1, MAX_USER_RT_PRIO - 1, &t->rt_priority)) {
			error(c, "%s needs a real-time priority 1..99, not '%s'", w[1], w[2]);
			return;
		}
	} else if (!parse_int(w[2], -20, 19, &t->nice)) {
		error(c, "%s needs a nice value -20..19, not '%s'", w[1], w[2]);
		return;
	}
	if (is_pattern_word(last) || parse_range(last, &(uint64_t){0}, &(uint64_t){0})) {
		error(c, "the last word must be the CPUs the task may use ('all', '0', '0-3', '0,2'); "
		      "it is missing");
		return;
	}
	if (!parse_cpus(last, &t->cpus)) {
		error(c, "bad CPU list '%s' (expected 'all', '0', '0-3' or '0,2')", last);
		return;
	}
	if (!parse_pattern(c, w + 3, n - 4, t))
		return;
	wl->ntasks++;
}

/* ---- the file ---- */

static int split_words(char *s, char **w)
{
	int n = 0;
	char *save, *tok;

	for (tok = strtok_r(s, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == MAX_WORDS)
			return -1;
		w[n++] = tok;
	}
	return n;
}

int wl_parse(FILE *f, const char *name, struct workload *wl, FILE *err)
{
	struct ctx c = { name, 0, err, 0 };
	char *buf = NULL, *w[MAX_WORDS];
	size_t cap = 0;
	ssize_t len;

	memset(wl, 0, sizeof(*wl));
	wl->ncpus = wl->cores = wl->threads = 1;
	wl->hz = 1000;
	wl->duration_ns = 10 * 1000000000ull;

	while ((len = getline(&buf, &cap, f)) >= 0) {
		int n;

		if (c.errors >= MAX_ERRORS) {
			fprintf(err, "%s: %d errors; not reading further\n", name, c.errors);
			break;
		}
		c.line++;
		if (len > LINE_MAX_CHARS) {
			error(&c, "line longer than %d characters", LINE_MAX_CHARS);
			continue;
		}
		if (memchr(buf, 0, (size_t)len)) {
			error(&c, "a NUL byte: is this a text file?");
			continue;
		}
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		n = split_words(buf, w);
		if (n < 0) {
			error(&c, "more than %d words", MAX_WORDS);
			continue;
		}
		if (n == 0)
			continue;
		if (!parse_directive(&c, w, n, wl))
			parse_task(&c, w, n, wl);
	}
	free(buf);
	if (ferror(f)) {
		fprintf(err, "%s: read error\n", name);
		return c.errors + 1;
	}
	/* CPU lists are checked at the end: 'cpus' may come after the tasks. */
	for (int i = 0; i < wl->ntasks; i++) {
		struct wl_task *t = &wl->tasks[i];
		uint32_t online = wl->ncpus >= 32 ? ~0u : (1u << wl->ncpus) - 1;
		if (t->cpus & ~online) {
			c.line = t->line;
			error(&c, "task '%s' names a CPU this machine does not have (cpus %d: 0..%d)",
			      t->name, wl->ncpus, wl->ncpus - 1);
		}
		if (t->cpus == 0)
			t->cpus = online;
	}
	if (wl->ntasks == 0 && c.errors == 0) {
		fprintf(err, "%s: no tasks (a task line is e.g. 'hog normal 0 run all')\n", name);
		c.errors++;
	}
	return c.errors;
}
