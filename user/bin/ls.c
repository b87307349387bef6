/*
 * ls - list directory contents (GNU coreutils' ls, its common options).
 *
 *   ls [-aAdlhn1] [FILE...]      no FILE: the working directory
 *
 * -a also names starting with '.', with . and ..; -A the same without
 * . and ..; -d a directory itself, not its contents; -l the long format
 * (mode, links, owner, group, size, date, name; "total" in 1K blocks first);
 * -h sizes as 4.0K, 12M (with -l); -n numeric user and group ids; -1 one
 * name a line. Names sort by byte value (the C locale). On a terminal
 * names go in columns, down then across, as wide as the terminal; into a
 * pipe, one a line, as GNU ls does. Owners come from /etc/passwd and
 * /etc/group. --help for this text. Exit status 2 if a FILE cannot be
 * listed, as GNU ls.
 */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

#define MAX_ENTRIES 512
#define NAME_MAX_LEN 128
#define SIX_MONTHS (365 * 24 * 3600 / 2)

struct entry {
	char name[NAME_MAX_LEN];
	struct stat st;
};

static bool all, almost_all, dir_itself, long_format, human, numeric, one_per_line;
static int status;
static struct entry entries[MAX_ENTRIES];

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void mode_string(unsigned mode, char *s)
{
	const char *rwx = "rwxrwxrwx";
	s[0] = S_ISDIR(mode) ? 'd' : S_ISCHR(mode) ? 'c' : S_ISFIFO(mode) ? 'p' :
	       S_ISLNK(mode) ? 'l' : S_ISSOCK(mode) ? 's' : '-';
	for (int i = 0; i < 9; i++)
		s[1 + i] = mode & (0400 >> i) ? rwx[i] : '-';
	s[10] = 0;
}

/* "4.0K", "12M": GNU's -h (powers of 1024, one decimal under 10). */
static void human_size(long long n, char *buf, size_t len)
{
	const char *units = "KMGT";
	if (n < 1024) {
		snprintf(buf, len, "%lld", n);
		return;
	}
	long long tenths = n * 10 / 1024;
	int u = 0;
	while (tenths >= 10240 && units[u + 1]) {
		tenths /= 1024;
		u++;
	}
	if (tenths < 100)	/* GNU rounds up: 1025 bytes is 1.1K */
		snprintf(buf, len, "%lld.%lld%c", (tenths + (n * 10 % 1024 != 0)) / 10,
			 (tenths + (n * 10 % 1024 != 0)) % 10, units[u]);
	else
		snprintf(buf, len, "%lld%c", (tenths + 9) / 10, units[u]);
}

/* "Dec  5 06:58" for the last six months, "Dec  5  2026" otherwise (and
 * for the future: the clock here starts at 1970 when the machine boots). */
static void date_string(long t, char *buf, size_t len)
{
	static const char *months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					"Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	/* days since 1970-01-01 to a civil date (Howard Hinnant's algorithm) */
	long days = t / 86400, secs = t % 86400;
	long z = days + 719468, era = z / 146097, doe = z - era * 146097;
	long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
	long y = yoe + era * 400 + (m <= 2);
	if (t <= now.tv_sec && now.tv_sec - t < SIX_MONTHS)
		snprintf(buf, len, "%s %2ld %02ld:%02ld", months[m - 1], d, secs / 3600, secs / 60 % 60);
	else
		snprintf(buf, len, "%s %2ld  %ld", months[m - 1], d, y);
}

static int width_of(unsigned long long v)
{
	int w = 1;
	while (v >= 10) {
		v /= 10;
		w++;
	}
	return w;
}

static void owner_name(bool user, unsigned id, char *buf, size_t len)
{
	const char *name = NULL;
	if (!numeric) {
		if (user) {
			struct passwd *pw = getpwuid(id);
			name = pw ? pw->pw_name : NULL;
		} else {
			struct group *gr = getgrgid(id);
			name = gr ? gr->gr_name : NULL;
		}
	}
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%u", id);
}

/* One entry's owner, group and size columns, as text. */
static void columns(const struct entry *e, char *owner, char *group, char *size, int len)
{
	owner_name(true, e->st.st_uid, owner, len);
	owner_name(false, e->st.st_gid, group, len);
	if (human)
		human_size(e->st.st_size, size, len);
	else
		snprintf(size, len, "%lld", e->st.st_size);
}

/* The directory being listed ("" for the command line's operands): a
 * symbolic link's name is read from there. */
static const char *listing = "";

/* " -> TARGET" for a symbolic link, as GNU's -l; "" else. */
static void link_target(const struct entry *e, char *buf, size_t len)
{
	char path[512], target[256];
	buf[0] = 0;
	if (!S_ISLNK(e->st.st_mode))
		return;
	snprintf(path, sizeof(path), "%s%s%s", listing, *listing ? "/" : "", e->name);
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n >= 0) {
		target[n] = 0;
		snprintf(buf, len, " -> %s", target);
	}
}

static void print_long(struct entry *e, int n, bool total)
{
	char arrow[270];
	char owner[32], group[32], size[32], mode[12], date[32];
	int wl = 1, wo = 1, wg = 1, ws = 1;
	unsigned long long blocks = 0;

	for (int i = 0; i < n; i++) {	/* the column widths first, as GNU */
		columns(&e[i], owner, group, size, sizeof(owner));
		wl = width_of(e[i].st.st_nlink) > wl ? width_of(e[i].st.st_nlink) : wl;
		wo = (int)strlen(owner) > wo ? (int)strlen(owner) : wo;
		wg = (int)strlen(group) > wg ? (int)strlen(group) : wg;
		ws = (int)strlen(size) > ws ? (int)strlen(size) : ws;
		blocks += (e[i].st.st_blocks + 1) / 2;
	}
	if (total) {
		if (human && blocks >= 1024)
			human_size((long long)blocks * 1024, size, sizeof(size));
		else
			snprintf(size, sizeof(size), "%llu", blocks);
		printf("total %s\n", size);
	}
	for (int i = 0; i < n; i++) {
		mode_string(e[i].st.st_mode, mode);
		columns(&e[i], owner, group, size, sizeof(owner));
		date_string(e[i].st.st_mtime, date, sizeof(date));
		link_target(&e[i], arrow, sizeof(arrow));
		printf("%s %*u %-*s %-*s %*s %s %s%s\n", mode, wl, e[i].st.st_nlink, wo, owner,
		       wg, group, ws, size, date, e[i].name, arrow);
	}
}

static int terminal_width(void)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	if (cols && atoi(cols) > 0)
		return atoi(cols);
	if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* The longest name of column c (rows names a column). */
static int col_width(struct entry *e, int n, int rows, int c)
{
	int w = 0;
	for (int i = c * rows; i < (c + 1) * rows && i < n; i++)
		if ((int)strlen(e[i].name) > w)
			w = (int)strlen(e[i].name);
	return w;
}

/* GNU's vertical layout: the most columns that fit, each as wide as its
 * longest name plus two spaces (none after the last). */
static void print_columns(struct entry *e, int n)
{
	int width = terminal_width(), cols, rows = n;
	for (cols = n; cols > 1; cols--) {
		rows = (n + cols - 1) / cols;
		if ((cols - 1) * rows >= n)
			continue;		/* an empty last column */
		int line = 0;
		for (int c = 0; c < cols; c++)
			line += col_width(e, n, rows, c) + (c == cols - 1 ? 0 : 2);
		if (line < width)
			break;
	}
	rows = (n + cols - 1) / cols;
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < cols && c * rows + r < n; c++) {
			const char *name = e[c * rows + r].name;
			if (c == cols - 1 || (c + 1) * rows + r >= n)
				printf("%s", name);
			else
				printf("%-*s  ", col_width(e, n, rows, c), name);
		}
		printf("\n");
	}
}

static void print_entries(struct entry *e, int n, bool total)
{
	qsort(e, (size_t)n, sizeof(*e), by_name);
	if (long_format)
		print_long(e, n, total);
	else if (one_per_line || !isatty(1))
		for (int i = 0; i < n; i++)
			printf("%s\n", e[i].name);
	else if (n)
		print_columns(e, n);
}

static void cannot(const char *what, const char *path)
{
	fprintf(stderr, "ls: cannot %s '%s': %s\n", what, path, strerror(errno));
	status = 2;
}

static void list_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	if (!d) {
		cannot("open directory", path);
		return;
	}
	while ((de = readdir(d)) != NULL && n < MAX_ENTRIES) {
		if (de->d_name[0] == '.' && !all &&
		    (!almost_all || !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")))
			continue;
		char full[256];
		snprintf(entries[n].name, NAME_MAX_LEN, "%s", de->d_name);
		snprintf(full, sizeof(full), "%s/%s", path, de->d_name);
		if (lstat(full, &entries[n].st) < 0) {
			cannot("access", full);
			continue;
		}
		n++;
	}
	closedir(d);
	listing = path;
	print_entries(entries, n, true);
	listing = "";
}

/* An operand's stat: with -l or -d a symbolic link named here is listed
 * itself, else what it names (GNU's default, without -H or -L). */
static int operand_stat(const char *path, struct stat *st)
{
	return long_format || dir_itself ? lstat(path, st) : stat(path, st);
}

static int usage(void)
{
	printf("Usage: ls [OPTION]... [FILE]...\n"
	       "List information about the FILEs (the current directory by default).\n"
	       "  -a   do not ignore entries starting with .\n"
	       "  -A   do not list implied . and ..\n"
	       "  -d   list directories themselves, not their contents\n"
	       "  -h   with -l, print sizes like 1K 234M 2G\n"
	       "  -l   use a long listing format\n"
	       "  -n   like -l, but list numeric user and group IDs\n"
	       "  -1   list one file per line\n"
	       "      --help  display this help and exit\n"
	       "Exit status: 0 if OK, 2 if a FILE could not be listed.\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct tool_opt opts[] = {
		{ NULL, 'a', 0 }, { NULL, 'A', 0 }, { NULL, 'd', 0 }, { NULL, 'h', 0 },
		{ NULL, 'l', 0 }, { NULL, 'n', 0 }, { NULL, '1', 0 },
		{ "all", 'a', 0 }, { "almost-all", 'A', 0 }, { "directory", 'd', 0 },
		{ "human-readable", 'h', 0 }, { "numeric-uid-gid", 'n', 0 }, { "help", 256, 0 },
		{ 0 } };
	struct tool_opts o = { .prog = "ls", .opts = opts, .argc = argc, .argv = argv, .ind = 1 };
	int key;

	while ((key = tool_next_opt(&o)) != TOOL_OPTS_END) {
		switch (key) {
		case 'a': all = true; break;
		case 'A': almost_all = true; break;
		case 'd': dir_itself = true; break;
		case 'h': human = true; break;
		case 'l': long_format = true; break;
		case 'n': numeric = long_format = true; break;
		case '1': one_per_line = true; break;
		case 256: return usage();
		default: return tool_try_help("ls") + 1;	/* GNU ls: 2 */
		}
	}
	char *dot[] = { ".", NULL };
	char **ops = o.ind < argc ? argv + o.ind : dot;
	int nops = o.ind < argc ? argc - o.ind : 1, nfiles = 0, ndirs = 0;
	static struct entry files[64];

	/* Files (and -d's directories) first, in one listing; then each directory. */
	for (int i = 0; i < nops && nfiles < 64; i++) {
		struct stat st;
		if (operand_stat(ops[i], &st) < 0) {
			cannot("access", ops[i]);
			continue;
		}
		if (S_ISDIR(st.st_mode) && !dir_itself) {
			ndirs++;
			continue;
		}
		snprintf(files[nfiles].name, NAME_MAX_LEN, "%s", ops[i]);
		files[nfiles++].st = st;
	}
	print_entries(files, nfiles, false);
	bool headers = nops > 1 || status;
	int shown = nfiles;
	for (int i = 0; i < nops && ndirs; i++) {
		struct stat st;
		if (operand_stat(ops[i], &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (headers)
			printf("%s%s:\n", shown++ ? "\n" : "", ops[i]);
		list_dir(ops[i]);
	}
	return status;
}
