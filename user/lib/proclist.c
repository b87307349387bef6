/*
 * proclist.c - reading processes from /proc (proclist.h) and pgrep/pkill,
 * which share everything but what they do with a match.
 *
 * pgrep's pattern is a plain substring of the name (procps takes an
 * extended regex; a substring is what most uses of it are), -x the whole
 * name.  Names are /proc/PID/stat's comm: 15 characters at most, as on
 * Linux.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "proclist.h"

/* ---- reading /proc -------------------------------------------------------- */

int proc_read_text(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY), len = 0, n = 0;

	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return n < 0 && len == 0 ? -1 : len;
}

long long proc_sched_field(const char *text, const char *name, long long dflt)
{
	size_t n = strlen(name);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		const char *c = l + n;
		if (strncmp(l, name, n) != 0 || (*c != ' ' && *c != ':'))
			continue;
		while (*c == ' ')
			c++;
		if (*c == ':')
			return strtol(c + 1, NULL, 10);
	}
	return dflt;
}

/* /proc/PID/stat: the name is between the first '(' and the last ')'
 * (a name may hold both); fields 3 on follow, one space apart. */
static int parse_stat(char *text, struct proc_info *p)
{
	char *open_ = strchr(text, '('), *close_ = strrchr(text, ')'), *f[50];
	int n = 0;

	if (!open_ || !close_ || close_ < open_)
		return -1;
	*close_ = 0;
	snprintf(p->name, sizeof(p->name), "%s", open_ + 1);
	for (char *s = close_ + 1; *s && n < 50; ) {
		while (*s == ' ')
			*s++ = 0;
		if (*s)
			f[n++] = s;
		while (*s && *s != ' ' && *s != '\n')
			s++;
		if (*s == '\n')
			*s = 0;
	}
	if (n < 39)			/* f[k] is field k + 3 */
		return -1;
	p->state = f[0][0];
	p->ppid = atoi(f[1]), p->pgid = atoi(f[2]), p->sid = atoi(f[3]), p->tty_nr = atoi(f[4]);
	p->utime = strtoul(f[11], NULL, 10), p->stime = strtoul(f[12], NULL, 10);
	p->prio = atoi(f[15]) + 100, p->nice = atoi(f[16]);
	p->start = strtoul(f[19], NULL, 10);
	p->vsize = strtoul(f[20], NULL, 10), p->rss = strtol(f[21], NULL, 10);
	p->cpu = atoi(f[36]), p->rt_priority = atoi(f[37]), p->policy = atoi(f[38]);
	return 0;
}

/* status: "Uid:\treal\teffective..." and "Cpus_allowed:\tHEX". */
static void parse_status(const char *text, struct proc_info *p)
{
	const char *u = strstr(text, "\nUid:\t"), *c = strstr(text, "\nCpus_allowed:\t");
	char *end;

	p->ruid = p->euid = -1;
	if (u) {
		p->ruid = (int)strtol(u + 6, &end, 10);
		p->euid = (int)strtol(end, NULL, 10);
	}
	p->cpus_allowed = c ? (uint32_t)strtoul(c + 15, NULL, 16) : 0;
}

static void parse_sched(const char *text, struct proc_info *p)
{
	p->burst = proc_sched_field(text, "burst", -1);
	p->max_burst = proc_sched_field(text, "max_burst", -1);
	p->slice = proc_sched_field(text, "slice", -1);
	p->full_slice = proc_sched_field(text, "full_slice", -1);
	p->flags = proc_sched_field(text, "flags", -1);
	p->nr_switches = proc_sched_field(text, "nr_switches", -1);
	p->wait_ns = proc_sched_field(text, "wait_ns", -1);
}

/* cmdline: NUL-separated arguments, shown with spaces (procps' args);
 * a kernel thread's and a zombie's are empty: procps then shows the name
 * in brackets, a zombie's with " <defunct>". */
static void read_args(int pid, struct proc_info *p)
{
	char path[32];
	int n;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	n = proc_read_text(path, p->args, sizeof(p->args));
	for (int i = 0; i < n - 1; i++)
		if (p->args[i] == 0)
			p->args[i] = ' ';
	if (n <= 0)
		snprintf(p->args, sizeof(p->args), "[%s]%s", p->name,
			 p->state == 'Z' ? " <defunct>" : "");
}

static char text[2048];		/* status is the longest: ~1.3 KB */

int proc_get_stat(int pid, struct proc_info *p)
{
	char path[32];

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (proc_read_text(path, text, sizeof(text)) < 0)
		return -1;
	if (parse_stat(text, p) < 0)
		return errno = EINVAL, -1;
	text[0] = 0;
	parse_sched(text, p);		/* none: -1 */
	return 0;
}

int proc_get(int pid, struct proc_info *p)
{
	char path[32];

	if (proc_get_stat(pid, p) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	text[0] = 0;
	proc_read_text(path, text, sizeof(text));
	parse_status(text, p);
	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	text[0] = 0;
	proc_read_text(path, text, sizeof(text));
	parse_sched(text, p);
	read_args(pid, p);
	return 0;
}

/* ---- the walk ------------------------------------------------------------ */

static int by_pid(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int numeric(const char *s)
{
	if (*s < '1' || *s > '9')
		return 0;
	while (*s >= '0' && *s <= '9')
		s++;
	return *s == 0;
}

int proc_walk_start(struct proc_walk *w)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int cap = 0;

	w->pids = NULL, w->n = w->next = w->stat_only = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (!numeric(e->d_name))
			continue;
		if (w->n == cap) {
			int *more = realloc(w->pids, (cap = cap ? 2 * cap : 64) * sizeof(int));
			if (!more)
				break;		/* the ones so far */
			w->pids = more;
		}
		w->pids[w->n++] = atoi(e->d_name);
	}
	closedir(d);
	qsort(w->pids, w->n, sizeof(int), by_pid);
	return 0;
}

int proc_walk_next(struct proc_walk *w, struct proc_info *p)
{
	while (w->next < w->n) {
		int pid = w->pids[w->next++];
		if ((w->stat_only ? proc_get_stat(pid, p) : proc_get(pid, p)) == 0)
			return 1;	/* else it ended since the listing */
	}
	return 0;
}

void proc_walk_end(struct proc_walk *w)
{
	free(w->pids);
	w->pids = NULL;
}

/* ---- pgrep / pkill ------------------------------------------------------- */

#define PG_UIDS 8

struct pgrep {
	const char *prog, *pattern, *delim;
	int pkill, sig, list, count, exact, icase, invert, newest, oldest, echo;
	int uids[PG_UIDS], nuids;	/* -u: effective uids, any of them */
};

static int pg_usage(const struct pgrep *g)
{
	printf("usage: %s [options] PATTERN\n"
	       "  PATTERN is a substring of the task's name (15 characters at most)\n"
	       "  -x, --exact         the whole name, not a substring\n"
	       "  -i, --ignore-case   A and a are the same\n"
	       "  -n, --newest        only the most recently started match\n"
	       "  -o, --oldest        only the first started match\n"
	       "  -c, --count         print how many matched\n"
	       "  -u, --euid ID,...   only processes whose effective uid is one of these\n"
	       "                      (names or numbers)\n", g->prog);
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

/* -u's list: "root,1000"; procps' message for a name that is no user. */
static int pg_uids(struct pgrep *g, const char *list)
{
	char word[32];

	while (*list) {
		const char *comma = strchr(list, ',');
		size_t n = comma ? (size_t)(comma - list) : strlen(list);
		struct passwd *pw;
		int uid;

		snprintf(word, sizeof(word), "%.*s", (int)n, list);
		if (!parse_int_arg(word, 0, 2147483647L, &uid)) {
			if (!(pw = getpwnam(word)))
				return pg_bad(g, "invalid user name: ", word);
			uid = (int)pw->pw_uid;
		}
		if (g->nuids == PG_UIDS)
			return pg_bad(g, "-u: too many users", NULL);
		g->uids[g->nuids++] = uid;
		list += n + (list[n] == ',');
	}
	return 0;
}

static int uid_matches(const struct pgrep *g, int euid)
{
	for (int k = 0; k < g->nuids; k++)
		if (g->uids[k] == euid)
			return 1;
	return g->nuids == 0;
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
		return pg_uids(g, arg);
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
	if (!g->pattern && !g->nuids)
		return pg_bad(g, "no matching criteria specified", NULL);
	if (!g->pattern)
		g->pattern = "";		/* -u alone: every name */
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
	int n = 0, cap = 0, self = getpid();

	*infos = NULL;
	if (proc_walk_start(&w) < 0) {
		fprintf(stderr, "%s: cannot open /proc: %s\n", g->prog, strerror(errno));
		return -1;
	}
	while (proc_walk_next(&w, &p) == 1) {
		if (p.pid == self || !uid_matches(g, p.euid) ||
		    name_matches(g, p.name) == g->invert)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			*infos = realloc(*infos, cap * sizeof(**infos));
			if (!*infos)
				return fprintf(stderr, "%s: out of memory\n", g->prog), -1;
		}
		(*infos)[n++] = p;
	}
	proc_walk_end(&w);
	return n;
}

static int pg_act(const struct pgrep *g, const struct proc_info *p, int first)
{
	if (!g->pkill) {
		if (!g->count)
			printf("%s%d%s%s", first ? "" : g->delim, p->pid,
			       g->list ? " " : "", g->list ? p->name : "");
		return 1;
	}
	if (kill(p->pid, g->sig) < 0) {
		fprintf(stderr, "%s: killing pid %d failed: %s\n", g->prog, p->pid,
			strerror(errno));
		return 0;
	}
	if (g->echo)
		printf("%s killed (pid %d)\n", p->name, p->pid);
	return 1;
}

/* -n: the latest started (the higher pid of a tie), -o the first. */
static int pg_pick(const struct proc_info *m, int n, int newest)
{
	int best = 0;

	for (int k = 1; k < n; k++)
		if (newest ? m[k].start >= m[best].start : m[k].start < m[best].start)
			best = k;
	return best;
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
	int from = 0, to = n;
	if ((g.newest || g.oldest) && n) {	/* keep one: by start time, as procps */
		from = pg_pick(m, n, g.newest);
		to = from + 1;
	}
	for (int k = from; k < to; k++)
		done += pg_act(&g, &m[k], k == from);
	if (g.count)
		printf("%d\n", done);
	else if (!g.pkill && done)
		printf("\n");
	free(m);
	return done ? 0 : 1;
}
