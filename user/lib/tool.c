/*
 * tool.c - option parsing and running a command, for the util-linux-style
 * tools (tool.h).  The error messages are glibc's getopt_long's, word for
 * word, so `chrt --bogus` says what Linux's chrt says.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

/* A long option: exact name first, else a prefix that picks one key. */
static const struct tool_opt *find_long(const struct tool_opts *o,
					const char *word, size_t n, int *ambiguous)
{
	const struct tool_opt *hit = NULL, *p;

	*ambiguous = 0;
	for (p = o->opts; p->key; p++) {
		if (!p->name || strncmp(p->name, word, n))
			continue;
		if (strlen(p->name) == n)
			return p;
		if (hit && hit->key != p->key)
			*ambiguous = 1;
		hit = p;
	}
	return *ambiguous ? NULL : hit;
}

static void print_ambiguous(const struct tool_opts *o, const char *word, size_t n)
{
	char line[256];
	int len = snprintf(line, sizeof(line), "%s: option '--%s' is ambiguous; "
			   "possibilities:", o->prog, word);

	for (const struct tool_opt *p = o->opts; p->key; p++)
		if (p->name && !strncmp(p->name, word, n) && len < (int)sizeof(line))
			len += snprintf(line + len, sizeof(line) - len, " '--%s'",
					p->name);
	fprintf(stderr, "%s\n", line);	/* one write: one line */
}

static int next_long(struct tool_opts *o, const char *word)
{
	const char *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word) : strlen(word);
	int ambiguous;
	const struct tool_opt *p = n ? find_long(o, word, n, &ambiguous) : NULL;

	if (n && ambiguous) {
		print_ambiguous(o, word, n);
		return TOOL_OPTS_BAD;
	}
	if (!p) {
		fprintf(stderr, "%s: unrecognized option '--%s'\n", o->prog, word);
		return TOOL_OPTS_BAD;
	}
	o->arg = NULL;
	if (!p->has_arg && eq) {
		fprintf(stderr, "%s: option '--%s' doesn't allow an argument\n",
			o->prog, p->name);
		return TOOL_OPTS_BAD;
	}
	if (p->has_arg) {
		if (eq)
			o->arg = eq + 1;
		else if (o->ind < o->argc)
			o->arg = o->argv[o->ind++];
		else {
			fprintf(stderr, "%s: option '--%s' requires an argument\n",
				o->prog, p->name);
			return TOOL_OPTS_BAD;
		}
	}
	return p->key;
}

static int next_short(struct tool_opts *o)
{
	int c = (unsigned char)*o->cluster++;
	const struct tool_opt *p;

	for (p = o->opts; p->key; p++)
		if (p->key == c)
			break;
	if (!p->key) {
		fprintf(stderr, "%s: invalid option -- '%c'\n", o->prog, c);
		o->cluster = NULL;
		return TOOL_OPTS_BAD;
	}
	o->arg = NULL;
	if (p->has_arg) {
		if (*o->cluster)
			o->arg = o->cluster;	/* -n10 */
		else if (o->ind < o->argc)
			o->arg = o->argv[o->ind++];
		else {
			fprintf(stderr, "%s: option requires an argument -- '%c'\n",
				o->prog, c);
			return TOOL_OPTS_BAD;
		}
		o->cluster = NULL;
	}
	if (o->cluster && !*o->cluster)
		o->cluster = NULL;
	return c;
}

int tool_next_opt(struct tool_opts *o)
{
	const char *w;

	if (o->cluster)
		return next_short(o);
	if (o->ind >= o->argc)
		return TOOL_OPTS_END;
	w = o->argv[o->ind];
	if (w[0] != '-' || !w[1])	/* an operand ("-" alone is one too) */
		return TOOL_OPTS_END;
	o->ind++;
	if (w[1] == '-') {
		if (!w[2])		/* "--": the operands follow */
			return TOOL_OPTS_END;
		return next_long(o, w + 2);
	}
	o->cluster = w + 1;
	return next_short(o);
}

int tool_try_help(const char *prog)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return EXIT_FAILURE;
}

/* Try one path; returns only if it failed.  A file that is there but
 * cannot run sets *err; EACCES from a directory we may not search (root's
 * $PATH after dropping to uid 1000) is only "not there". */
static void try_exec(const char *path, char **argv, int *err)
{
	int e, fd;

	argv[0] = (char *)path;
	fflush(stdout);
	execve(path, argv, environ);
	e = errno;
	if (e == ENOENT || e == ENOTDIR)
		return;
	if (e == EACCES && (fd = open(path, O_RDONLY)) < 0)
		return;
	if (e == EACCES)
		close(fd);
	*err = e;
}

/* dir + "/" + name into buf; 0 if it does not fit. */
static int join(char *buf, size_t size, const char *dir, size_t dirlen,
		const char *name)
{
	return snprintf(buf, size, "%.*s/%s", (int)dirlen, dir, name) < (int)size;
}

int tool_exec(const char *prog, const char *self, char **argv)
{
	static char path[256];	/* argv[0] points here if an exec worked */
	const char *name = argv[0], *slash = strrchr(self, '/');
	const char *dirs = getenv("PATH");
	int err = ENOENT;

	if (strchr(name, '/')) {	/* a path: that one, as execvp does */
		fflush(stdout);
		execve(name, argv, environ);
		err = errno;
	} else {
		if (slash && join(path, sizeof(path), self, slash - self, name))
			try_exec(path, argv, &err);
		while (dirs && *dirs) {
			const char *colon = strchr(dirs, ':');
			size_t n = colon ? (size_t)(colon - dirs) : strlen(dirs);
			if (n && join(path, sizeof(path), dirs, n, name))
				try_exec(path, argv, &err);
			dirs += n + (dirs[n] == ':');
		}
		if (join(path, sizeof(path), "/bin", 4, name))
			try_exec(path, argv, &err);
	}
	argv[0] = (char *)name;
	fprintf(stderr, "%s: failed to execute %s: %s\n", prog, name, strerror(err));
	return err == ENOENT ? 127 : 126;
}
