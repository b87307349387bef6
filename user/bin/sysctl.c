/*
 * sysctl - the scheduler's tunables in procps's forms (`tune` shows the
 * same table in this project's own words: user/lib/tunables.c).
 *
 *   sysctl -a                        every one: kernel.rr_interval = 10
 *   sysctl [-n|-N] KEY...            read (-n value only, -N name only)
 *   sysctl [-w] [-q] KEY=VALUE...    write, then print it (-q: quietly)
 *
 * Keys are kernel.<name> (kernel/<name> works too), as the -ck patches kept
 * rr_interval and iso_cpu in /proc/sys/kernel; the names are the boot
 * parameters'; "kernel" alone lists them all.  Call 502 reads and writes
 * them (/proc/sys/kernel has the same values as files, docs/abi.md §10);
 * the kernel checks the range (EINVAL) and that the caller is root (EPERM).  Like procps-ng 4, KEY=VALUE writes even
 * without -w.  Messages are procps's, one line on stderr, with the range
 * added where a value was refused; status 1 on any error (-e: unknown keys
 * are not errors).  On Linux call 502 does not exist: status 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "tool.h"
#include "tunables.h"

static int values_only, names_only, quiet, ignore_unknown, no_newline;

static int usage(void)
{
	printf("\nUsage:\n sysctl [options] [variable[=value] ...]\n\n"
	       "Options:\n"
	       "  -a, --all            display all variables\n"
	       "  -A                   alias of -a\n"
	       "  -X                   alias of -a\n"
	       "  -b, --binary         print value without new line\n"
	       "  -e, --ignore         ignore unknown variables errors\n"
	       "  -N, --names          print variable names without values\n"
	       "  -n, --values         print only values of the given variable(s)\n"
	       "  -q, --quiet          do not echo variable set\n"
	       "  -w, --write          enable writing a value to variable\n"
	       "  -o                   does nothing\n"
	       "  -x                   does nothing\n"
	       "  -d                   alias of -h\n\n"
	       " -h, --help     display this help and exit\n\n"
	       "Variables: kernel.<tunable> (docs/staircase.md section 9), as `tune`\n"
	       "lists them; writing needs root.\n");
	return 0;
}

/* "kernel.rr_interval" or "kernel/rr_interval" -> the tunable; NULL if
 * none (then *all says whether the key was "kernel", meaning every one). */
static const struct tunable *find_key(const char *key, int *all)
{
	*all = 0;
	if (strncmp(key, "kernel", 6))
		return NULL;
	if (!key[6] || (key[7] == 0 && (key[6] == '.' || key[6] == '/'))) {
		*all = 1;
		return NULL;
	}
	return key[6] == '.' || key[6] == '/' ? tunable_find(key + 7) : NULL;
}

/* procps's message for a key /proc/sys does not have. */
static int unknown_key(const char *key)
{
	char path[128];
	int i;

	if (ignore_unknown)
		return 0;
	snprintf(path, sizeof(path), "/proc/sys/%s", key);
	for (i = 10; path[i]; i++)
		if (path[i] == '.')
			path[i] = '/';
	fprintf(stderr, "sysctl: cannot stat %s: No such file or directory\n", path);
	return 1;
}

static void print(const struct tunable *t, int value)
{
	if (names_only)
		printf("kernel.%s\n", t->name);
	else if (values_only)
		printf(no_newline ? "%d" : "%d\n", value);
	else
		printf("kernel.%s = %d\n", t->name, value);
}

static int read_one(const struct tunable *t)
{
	int v;

	if (names_only) {
		print(t, 0);
		return 0;
	}
	v = tunable_get(t);
	if (v < 0) {
		if (errno == ENOSYS)
			fprintf(stderr, "sysctl: %s\n", tunable_nosys_why());
		else
			fprintf(stderr, "sysctl: reading key \"kernel.%s\": %s\n",
				t->name, strerror(errno));
		return 1;
	}
	print(t, v);
	return 0;
}

static int read_all(void)
{
	for (int i = 0; i < ntunables; i++)
		if (read_one(&tunables[i]))
			return 1;	/* the same reason for every one */
	return 0;
}

static int read_key(const char *key)
{
	int all;
	const struct tunable *t = find_key(key, &all);

	if (all)
		return read_all();
	return t ? read_one(t) : unknown_key(key);
}

/* Why the kernel (or we, for hz) refused value, as procps words it. */
static int refused(const struct tunable *t, int err)
{
	if (err == ENOSYS)
		fprintf(stderr, "sysctl: %s\n", tunable_nosys_why());
	else if (err == EPERM)
		fprintf(stderr, "sysctl: permission denied on key \"kernel.%s\"\n",
			t->name);
	else if (err == EROFS)
		fprintf(stderr, "sysctl: setting key \"kernel.%s\": %s (read-only: "
			"a boot parameter, %s=N)\n", t->name, strerror(EPERM),
			t->name);
	else
		fprintf(stderr, "sysctl: setting key \"kernel.%s\": %s (%s %s)\n",
			t->name, strerror(err), t->range, t->unit);
	return 1;
}

static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = 0;
	return s;
}

/* KEY=VALUE; a value that is not a whole int is EINVAL, as a write of it
 * to /proc/sys would be. */
static int write_key(const char *arg)
{
	char buf[128], *key, *val, *eq;
	const struct tunable *t;
	int all, v, got;

	snprintf(buf, sizeof(buf), "%s", arg);
	eq = strchr(buf, '=');
	if (!eq) {
		fprintf(stderr, "sysctl: \"%s\" must be of the form name=value\n", arg);
		return 1;
	}
	*eq = 0;
	key = trim(buf), val = trim(eq + 1);
	t = find_key(key, &all);
	if (!t)
		return unknown_key(key);
	if (!parse_int_arg(val, -2147483647L - 1, 2147483647L, &v))
		return refused(t, t->read_only ? EROFS : EINVAL);
	if (tunable_set(t, v) < 0)
		return refused(t, errno);
	got = tunable_get(t);
	if (!quiet)
		print(t, got < 0 ? v : got);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct tool_opt opts[] = {
		{ "all", 'a', 0 }, { NULL, 'A', 0 }, { NULL, 'X', 0 },
		{ "binary", 'b', 0 }, { "ignore", 'e', 0 }, { "names", 'N', 0 },
		{ "values", 'n', 0 }, { "quiet", 'q', 0 }, { "write", 'w', 0 },
		{ NULL, 'o', 0 }, { NULL, 'x', 0 }, { NULL, 'd', 0 },
		{ "help", 'h', 0 }, { 0 },
	};
	struct tool_opts o = { "sysctl", opts, argc, argv, 1, NULL, NULL };
	int all = 0, write = 0, rc = 0, c;

	while ((c = tool_next_opt(&o)) != TOOL_OPTS_END) {
		switch (c) {
		case 'a': case 'A': case 'X': all = 1; break;
		case 'b': values_only = no_newline = 1; break;
		case 'e': ignore_unknown = 1; break;
		case 'N': names_only = 1; break;
		case 'n': values_only = 1; break;
		case 'q': quiet = 1; break;
		case 'w': write = 1; break;
		case 'o': case 'x': break;	/* procps: "does nothing" */
		case 'h': case 'd': return usage();
		default: return tool_try_help("sysctl");
		}
	}
	if (all)
		return read_all();
	if (o.ind >= argc) {
		fprintf(stderr, "sysctl: no variables specified\n");
		return tool_try_help("sysctl");
	}
	for (int i = o.ind; i < argc; i++)
		rc |= write || strchr(argv[i], '=') ? write_key(argv[i])
						    : read_key(argv[i]);
	return rc;
}
