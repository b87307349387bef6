/*
 * proclist.c - the task walker (proclist.h) and pgrep/pkill, which share
 * everything but what they do with a match.
 *
 * pgrep's pattern is a plain substring of the name (procps takes an
 * extended regex; a substring is what most uses of it are), -x the whole
 * name.  Names are 15 characters at most (call 507), as on Linux.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proclist.h"

/* ---- the walk ------------------------------------------------------------ */

void proc_walk_start(struct proc_walk *w)
{
	w->pid = 0;
	/* Every task alive now is older than we are (pids only grow), but
	 * the shell may fork a pipeline's later stages (ps | wc) after us. */
	w->last = getpid() + PROC_WALK_SLACK;
}

int proc_get(int pid, struct proc_info *p)
{
	if (sched_stat(pid, &p->t) < 0)
		return -1;
	if (proc_name(pid, p->name, sizeof(p->name)) < 0)
		strcpy(p->name, "?");	/* it ended between the two calls */
	return 0;
}

int proc_walk_next(struct proc_walk *w, struct proc_info *p)
{
	while (w->pid < w->last) {
		if (proc_get(++w->pid, p) == 0)
			return 1;
		if (errno != ESRCH)
			return -1;
	}
	return 0;
}

/* ---- pgrep / pkill ------------------------------------------------------- */

struct pgrep {
	const char *prog, *pattern, *delim;
	int pkill, sig, list, count, exact, icase, invert, newest, oldest, echo;
};

static int pg_usage(const struct pgrep *g)
{
	printf("usage: %s [options] PATTERN\n"
	       "  PATTERN is a substring of the task's name (15 characters at most)\n"
	       "  -x, --exact         the whole name, not a substring\n"
	       "  -i, --ignore-case   A and a are the same\n"
	       "  -n, --newest        only the newest match (highest pid: pids only grow)\n"
	       "  -o, --oldest        only the oldest match\n"
	       "  -c, --count         print how many matched\n", g->prog);
	if (g->pkill)
		printf("  -SIG, --signal SIG  the signal to send, a name or number (default TERM)\n"
		       "  -e, --echo          say what was killed\n");
	else
		printf("  -l, --list-name     print the name after the pid\n"
		       "  -d, --delimiter S   between pids (default a newline)\n"
		       "  -v, --inverse       the tasks that do not match\n");
	printf("Never matches itself.  Exit status 0 matched, 1 none, 2 bad usage, 3 fatal.\n");
	return 0;
}

static int pg_bad(const struct pgrep *g, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s\n", g->prog, what, arg ? arg : "");
	return 2;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int same(const char *a, const char *b, size_t n, int icase)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i] && (!icase || lower(a[i]) != lower(b[i])))
			return 0;
	return 1;
}

static int name_matches(const struct pgrep *g, const char *name)
{
	size_t n = strlen(name), m = strlen(g->pattern);

	if (g->exact)
		return n == m && same(name, g->pattern, n, g->icase);
	for (size_t i = 0; i + m <= n; i++)
		if (same(name + i, g->pattern, m, g->icase))
			return 1;
	return 0;
}

/* --signal's value: "Unknown signal" is procps' wording. */
static int pg_signal(struct pgrep *g, const char *s)
{
	g->sig = sig_from_name(s);
	if (g->sig < 0) {
		fprintf(stderr, "%s: Unknown signal \"%s\"\n", g->prog, s);
		return 2;
	}
	return 0;
}

/* One option letter; *i moves on when it takes the next word. */
static int pg_letter(struct pgrep *g, int c, const char *rest, int argc,
		     char **argv, int *i, int *used_rest)
{
	const char *arg;

	switch (c) {
	case 'x': g->exact = 1; return 0;
	case 'i': g->icase = 1; return 0;
	case 'n': g->newest = 1; return 0;
	case 'o': g->oldest = 1; return 0;
	case 'c': g->count = 1; return 0;
	case 'h': return -1;
	}
	if (g->pkill && c == 'e')
		return g->echo = 1, 0;
	if (!g->pkill && (c == 'l' || c == 'v'))
		return *(c == 'l' ? &g->list : &g->invert) = 1, 0;
	if (c != 'u' && (g->pkill || c != 'd')) {
		char s[2] = { (char)c, 0 };
		fprintf(stderr, "%s: invalid option -- '%s'\n", g->prog, s);
		return 2;
	}
	/* -d and -u take a value: the rest of the word, or the next one. */
	*used_rest = 1;
	arg = *rest ? rest : (*i + 1 < argc ? argv[++*i] : NULL);
	if (!arg) {
		char s[2] = { (char)c, 0 };
		fprintf(stderr, "%s: option requires an argument -- '%s'\n", g->prog, s);
		return 2;
	}
	if (c == 'u')
		return pg_bad(g, "-u: not available here: call 500 reports no uids", NULL);
	g->delim = arg;
	return 0;
}

static const struct { const char *name; int letter; } pg_longs[] = {
	{ "exact", 'x' }, { "ignore-case", 'i' }, { "newest", 'n' },
	{ "oldest", 'o' }, { "count", 'c' }, { "help", 'h' }, { "echo", 'e' },
	{ "list-name", 'l' }, { "inverse", 'v' }, { "delimiter", 'd' },
	{ "euid", 'u' },
};

/* "--name" or "--name=VALUE"; --signal is pkill's only long-only one. */
static int pg_long(struct pgrep *g, const char *word, int argc, char **argv, int *i)
{
	const char *eq = strchr(word, '='), *val;
	size_t n = eq ? (size_t)(eq - word) : strlen(word);
	int used = 0;

	if (g->pkill && n == 6 && strncmp(word, "signal", 6) == 0) {
		val = eq ? eq + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
		if (!val)
			return pg_bad(g, "option '--signal' requires an argument", NULL);
		return pg_signal(g, val);
	}
	for (unsigned k = 0; k < sizeof(pg_longs) / sizeof(pg_longs[0]); k++)
		if (strlen(pg_longs[k].name) == n && strncmp(word, pg_longs[k].name, n) == 0)
			return pg_letter(g, pg_longs[k].letter, eq ? eq + 1 : "",
					 argc, argv, i, &used);
	fprintf(stderr, "%s: unrecognized option '--%s'\n", g->prog, word);
	return 2;
}

/* pkill's -SIG: a word that starts with a capital or a digit. */
static int is_sig_word(const struct pgrep *g, const char *w)
{
	return g->pkill && ((w[1] >= 'A' && w[1] <= 'Z') || (w[1] >= '0' && w[1] <= '9'));
}

static int pg_parse(struct pgrep *g, int argc, char **argv)
{
	int i, r, opts_done = 0;

	for (i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (opts_done || w[0] != '-' || w[1] == 0) {
			if (g->pattern)
				return pg_bad(g, "only one pattern can be provided", NULL);
			g->pattern = w;
			continue;
		}
		if (strcmp(w, "--") == 0) {
			opts_done = 1;
			continue;
		}
		if (w[1] == '-')
			r = pg_long(g, w + 2, argc, argv, &i);
		else if (is_sig_word(g, w))
			r = pg_signal(g, w + 1);
		else
			for (const char *c = w + 1; *c; c++) {
				int used = 0;
				r = pg_letter(g, *c, c + 1, argc, argv, &i, &used);
				if (r || used)
					break;
			}
		if (r)
			return r;
	}
	if (!g->pattern)
		return pg_bad(g, "no matching criteria specified", NULL);
	if (g->newest && g->oldest)
		return pg_bad(g, "-n and -o cannot be used together", NULL);
	return 0;
}

/* The matching tasks in pid order into *infos (malloc'd); their count,
 * or -1 (the message printed). */
static int pg_collect(const struct pgrep *g, struct proc_info **infos)
{
	struct proc_walk w;
	struct proc_info p;
	int n = 0, cap = 0, r, self = getpid();

	*infos = NULL;
	proc_walk_start(&w);
	while ((r = proc_walk_next(&w, &p)) == 1) {
		if (p.t.pid == self || name_matches(g, p.name) == g->invert)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			*infos = realloc(*infos, cap * sizeof(**infos));
			if (!*infos)
				return fprintf(stderr, "%s: out of memory\n", g->prog), -1;
		}
		(*infos)[n++] = p;
	}
	if (r < 0) {
		fprintf(stderr, "%s: call 500 (sched_stat): %s%s\n", g->prog,
			strerror(errno), errno == ENOSYS ? " (not the staircase kernel)" : "");
		return -1;
	}
	return n;
}

static int pg_act(const struct pgrep *g, const struct proc_info *p, int first)
{
	if (!g->pkill) {
		if (!g->count)
			printf("%s%d%s%s", first ? "" : g->delim, p->t.pid,
			       g->list ? " " : "", g->list ? p->name : "");
		return 1;
	}
	if (kill(p->t.pid, g->sig) < 0) {
		fprintf(stderr, "%s: killing pid %d failed: %s\n", g->prog, p->t.pid,
			strerror(errno));
		return 0;
	}
	if (g->echo)
		printf("%s killed (pid %d)\n", p->name, p->t.pid);
	return 1;
}

int pgrep_main(int argc, char **argv, int pkill)
{
	struct pgrep g = { .prog = pkill ? "pkill" : "pgrep", .delim = "\n",
			   .pkill = pkill, .sig = SIGTERM };
	struct proc_info *m;
	int n, done = 0, r = pg_parse(&g, argc, argv);

	if (r)
		return r < 0 ? pg_usage(&g) : r;
	n = pg_collect(&g, &m);
	if (n < 0)
		return 3;
	/* -n / -o: keep one; the list is in pid order, oldest first. */
	int from = g.newest && n ? n - 1 : 0, to = g.oldest && n ? 1 : n;
	for (int k = from; k < to; k++)
		done += pg_act(&g, &m[k], k == from);
	if (g.count)
		printf("%d\n", done);
	else if (!g.pkill && done)
		printf("\n");
	free(m);
	return done ? 0 : 1;
}
