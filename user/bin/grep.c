/*
 * grep - print the lines that match a pattern (GNU grep's habits, small).
 *
 *   grep [-v] [-i] [-c] [-n] [-q] [-F] PATTERN [FILE...]    (no FILE, or -: stdin)
 *
 * The pattern is a tiny regular expression: ^ at its start and $ at its end
 * anchor it, . is any character, x* is any number of x (also .*), \x is x
 * itself; every other character matches itself (so [ ] + ? are plain).  -F
 * takes the pattern as a fixed string.  The matcher is Rob Pike's, from
 * Kernighan and Pike, "The Practice of Programming", ch. 9.
 *
 * Exit status as GNU grep: 0 a line was selected, 1 none, 2 an error (a
 * file that cannot be read, a bad command line), unless -q already found
 * one.  With several files each line starts with "FILE:".  Note: GNU's -h
 * (no file names) is help here, as in every tool in user/bin.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct grep {
	const char *pattern;
	int invert, icase, count, number, quiet, fixed, names;
	int matched, error;
};

/* ---- the matcher --------------------------------------------------------- */

static int fold(const struct grep *g, int c)
{
	return g->icase && c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* A pattern character, with \x taken as x: its length (1 or 2), 0 at end. */
static int atom(const char *re, int *c, int *any)
{
	if (re[0] == '\\' && re[1]) {
		*c = (unsigned char)re[1], *any = 0;
		return 2;
	}
	*c = (unsigned char)re[0], *any = re[0] == '.';
	return re[0] ? 1 : 0;
}

static int one(const struct grep *g, int c, int any, int ch)
{
	return any ? 1 : fold(g, c) == fold(g, ch);
}

static int match_here(const struct grep *g, const char *re, const char *s);

/* x*: as few x as possible first, then one more each time. */
static int match_star(const struct grep *g, int c, int any, const char *re, const char *s)
{
	do {
		if (match_here(g, re, s))
			return 1;
	} while (*s && one(g, c, any, (unsigned char)*s++));
	return 0;
}

static int match_here(const struct grep *g, const char *re, const char *s)
{
	int c, any, n = atom(re, &c, &any);

	if (n == 0)
		return 1;
	if (re[n] == '*')
		return match_star(g, c, any, re + n + 1, s);
	if (n == 1 && c == '$' && re[1] == 0)
		return *s == 0;
	if (*s && one(g, c, any, (unsigned char)*s))
		return match_here(g, re + n, s + 1);
	return 0;
}

static int match_fixed(const struct grep *g, const char *s)
{
	size_t m = strlen(g->pattern);

	for (; *s; s++) {
		size_t i = 0;
		while (i < m && s[i] && fold(g, g->pattern[i]) == fold(g, s[i]))
			i++;
		if (i == m)
			return 1;
	}
	return m == 0;
}

static int matches(const struct grep *g, const char *line)
{
	const char *re = g->pattern;

	if (g->fixed)
		return match_fixed(g, line);
	if (re[0] == '^')
		return match_here(g, re + 1, line);
	do {		/* unanchored: try every start, the empty tail too */
		if (match_here(g, re, line))
			return 1;
	} while (*line++);
	return 0;
}

/* ---- reading lines ------------------------------------------------------- */

struct reader {
	int fd;
	char buf[4096];
	int pos, len;
};

/* The next line (without '\n') into *line, grown as needed: its length,
 * or -1 at the end.  A last line without '\n' still counts. */
static long next_line(struct reader *r, char **line, size_t *cap)
{
	size_t n = 0;

	for (;;) {
		if (r->pos == r->len) {
			r->len = (int)read(r->fd, r->buf, sizeof(r->buf));
			r->pos = 0;
			if (r->len <= 0) {
				r->len = 0;
				return n ? (long)n : -1;
			}
		}
		char c = r->buf[r->pos++];
		if (n + 1 >= *cap) {
			*cap = *cap ? 2 * *cap : 256;
			*line = realloc(*line, *cap);
			if (!*line) {
				fprintf(stderr, "grep: out of memory\n");
				exit(2);
			}
		}
		if (c == '\n')
			break;
		(*line)[n++] = c;
	}
	(*line)[n] = 0;
	return (long)n;
}

/* ---- main ---------------------------------------------------------------- */

static void grep_fd(struct grep *g, int fd, const char *name)
{
	struct reader r = { .fd = fd };
	char *line = NULL;
	size_t cap = 0;
	long count = 0, nr = 0;

	while (next_line(&r, &line, &cap) >= 0) {
		nr++;
		if (matches(g, line) == g->invert)
			continue;
		count++;
		g->matched = 1;
		if (g->quiet)
			exit(0);	/* GNU: the first match decides */
		if (g->count)
			continue;
		if (g->names)
			printf("%s:", name);
		if (g->number)
			printf("%ld:", nr);
		printf("%s\n", line);
	}
	if (g->count && g->names)
		printf("%s:%ld\n", name, count);
	else if (g->count)
		printf("%ld\n", count);
	free(line);
}

static void grep_file(struct grep *g, const char *name)
{
	if (strcmp(name, "-") == 0) {
		grep_fd(g, 0, "(standard input)");
		return;
	}
	int fd = open(name, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "grep: %s: %s\n", name, strerror(errno));
		g->error = 1;
		return;
	}
	grep_fd(g, fd, name);
	close(fd);
}

static int usage(void)
{
	printf("usage: grep [-vicnqF] PATTERN [FILE...]   (no FILE, or -: standard input)\n"
	       "  PATTERN: ^ and $ anchor, . any character, x* any number of x, \\x a plain x\n"
	       "  -v  the lines that do not match      -i  A and a are the same\n"
	       "  -c  only count the selected lines    -n  with their line numbers\n"
	       "  -q  print nothing: the status says   -F  PATTERN is a fixed string\n"
	       "Exit status 0 a line was selected, 1 none, 2 an error.\n");
	return 0;
}

/* The letters of one "-vin" word; -1 for help, 2 for a bad one. */
static int flags(struct grep *g, const char *w)
{
	for (; *w; w++) {
		switch (*w) {
		case 'v': g->invert = 1; break;
		case 'i': g->icase = 1; break;
		case 'c': g->count = 1; break;
		case 'n': g->number = 1; break;
		case 'q': g->quiet = 1; break;
		case 'F': g->fixed = 1; break;
		case 'h': return -1;
		default:
			fprintf(stderr, "grep: invalid option -- '%c'\n", *w);
			return 2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct grep g = { 0 };
	int i, r;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "--help") == 0)
			return usage();
		if (argv[i][1] == '-') {
			fprintf(stderr, "grep: unrecognized option '%s'\n", argv[i]);
			return 2;
		}
		if ((r = flags(&g, argv[i] + 1)) != 0)
			return r < 0 ? usage() : r;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: grep [-vicnqF] PATTERN [FILE...] (grep -h: help)\n");
		return 2;
	}
	g.pattern = argv[i++];
	g.names = argc - i > 1;
	if (i == argc)
		grep_fd(&g, 0, "(standard input)");
	for (; i < argc; i++)
		grep_file(&g, argv[i]);
	if (g.error)
		return 2;
	return g.matched ? 0 : 1;
}
