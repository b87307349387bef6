/*
 * sysctl - read and write /proc/sys in procps's forms: the scheduler's
 * tunables where the -ck patches put them (/proc/sys/kernel/rr_interval,
 * interactive, compute, iso_cpu, ...; docs/staircase.md §9) and the rest
 * of /proc/sys (kernel.ostype, kernel.pid_max, ...).
 *
 *   sysctl -a                        every one: kernel.rr_interval = 10
 *   sysctl [-n|-N] KEY...            read (-n value only, -N name only)
 *   sysctl [-w] [-q] KEY=VALUE...    write, then print it (-q: quietly)
 *
 * A key is its path under /proc/sys with dots (kernel.rr_interval;
 * kernel/rr_interval works too); a directory ("kernel") means every key
 * under it.  Reading reads the file, writing writes "VALUE\n" to it, as
 * procps does, so the kernel's file decides (docs/abi.md §10): a bad value
 * is EINVAL and changes nothing, an ordinary user may not open it for
 * writing (EACCES), a file without a write bit is read-only.  Like
 * procps-ng 4, KEY=VALUE writes even without -w.  Messages are procps's,
 * one line on stderr, with a tunable's range added where a value was
 * refused (the kernel's table, asked for with call 502: user/lib/tunables.c;
 * none on Linux); status 1 on any error (-e: unknown keys
 * are not errors).  The same program works on Linux.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proclist.h"	/* proc_read_text */
#include "tool.h"
#include "tunables.h"

#define SYS "/proc/sys/"
#define KEY_MAX 128

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
	       "Variables: the files under /proc/sys: kernel.rr_interval, kernel.iso_cpu,\n"
	       "... (docs/staircase.md section 9); writing needs root.\n");
	return 0;
}

/* "kernel.rr_interval" -> "/proc/sys/kernel/rr_interval". */
static void key_path(const char *key, char *path, size_t size)
{
	snprintf(path, size, SYS "%s", key);
	for (char *c = path + strlen(SYS); *c; c++)
		if (*c == '.')
			*c = '/';
}

/* ... and back: the key procps prints. */
static void path_key(const char *path, char *key, size_t size)
{
	snprintf(key, size, "%s", path + strlen(SYS));
	for (char *c = key; *c; c++)
		if (*c == '/')
			*c = '.';
}

/* procps's message for a key /proc/sys does not have. */
static int cannot_stat(const char *path)
{
	if (ignore_unknown)
		return 0;
	fprintf(stderr, "sysctl: cannot stat %s: %s\n", path, strerror(errno));
	return 1;
}

static void print(const char *key, const char *value)
{
	if (names_only)
		printf("%s\n", key);
	else if (values_only)
		printf(no_newline ? "%s" : "%s\n", value);
	else
		printf("%s = %s\n", key, value);
}

/* One file: its text without the last newline. */
static int read_file(const char *path)
{
	char key[KEY_MAX], text[256];
	int n = names_only ? 0 : proc_read_text(path, text, sizeof(text));

	path_key(path, key, sizeof(key));
	if (n < 0) {
		fprintf(stderr, "sysctl: reading key \"%s\": %s\n", key, strerror(errno));
		return 1;
	}
	if (n > 0 && text[n - 1] == '\n')
		text[n - 1] = 0;
	print(key, names_only ? "" : text);
	return 0;
}

/* A file, or every file under a directory. */
static int read_path(const char *path)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (stat(path, &st) < 0)
		return cannot_stat(path);
	if (!S_ISDIR(st.st_mode))
		return read_file(path);
	if (!(d = opendir(path)))
		return cannot_stat(path);
	while ((e = readdir(d)) != NULL) {
		char sub[KEY_MAX + sizeof(SYS)];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		rc |= read_path(sub);
	}
	closedir(d);
	return rc;
}

static int read_key(const char *key)
{
	char path[KEY_MAX + sizeof(SYS)];

	key_path(key, path, sizeof(path));
	while (strlen(path) > strlen(SYS) && path[strlen(path) - 1] == '/')
		path[strlen(path) - 1] = 0;	/* "kernel." and "kernel/": the directory */
	return read_path(path);
}

/* Why the file refused value, as procps words it; for a tunable, its
 * range too. */
static int refused(const char *key, int err)
{
	struct tunable t;
	char range[32];

	if (err == EACCES)
		fprintf(stderr, "sysctl: permission denied on key \"%s\"\n", key);
	else if (err == EINVAL && !strncmp(key, "kernel.", 7) && tunable_find(key + 7, &t) == 0)
		fprintf(stderr, "sysctl: setting key \"%s\": %s (%s %s)\n", key,
			strerror(err), tunable_range(&t, range, sizeof(range)), t.desc.unit);
	else
		fprintf(stderr, "sysctl: setting key \"%s\": %s\n", key, strerror(err));
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

/* "VALUE\n" into the file in one write, as procps's fprintf + fclose. */
static int write_file(const char *path, const char *val)
{
	char line[KEY_MAX];
	int fd = open(path, O_WRONLY), n = snprintf(line, sizeof(line), "%s\n", val), r;

	if (fd < 0)
		return -1;
	r = (int)write(fd, line, n);
	close(fd);
	return r == n ? 0 : -1;
}

/* KEY=VALUE. */
static int write_key(const char *arg)
{
	char buf[KEY_MAX], path[KEY_MAX + sizeof(SYS)], *key, *val, *eq;
	struct stat st;

	snprintf(buf, sizeof(buf), "%s", arg);
	eq = strchr(buf, '=');
	if (!eq) {
		fprintf(stderr, "sysctl: \"%s\" must be of the form name=value\n", arg);
		return 1;
	}
	*eq = 0;
	key = trim(buf), val = trim(eq + 1);
	key_path(key, path, sizeof(path));
	path_key(path, key, KEY_MAX);		/* kernel/x is printed kernel.x */
	if (stat(path, &st) < 0)
		return cannot_stat(path);
	if (!(st.st_mode & S_IWUSR))		/* procps: read-only, not tried */
		return refused(key, EPERM);
	if (write_file(path, val) < 0)
		return refused(key, errno);
	if (!quiet)
		print(key, val);
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
		return read_path("/proc/sys");
	if (o.ind >= argc) {
		fprintf(stderr, "sysctl: no variables specified\n");
		return tool_try_help("sysctl");
	}
	for (int i = o.ind; i < argc; i++)
		rc |= write || strchr(argv[i], '=') ? write_key(argv[i])
						    : read_key(argv[i]);
	return rc;
}
