/*
 * setpriv - run a command with other user and group ids; the id options
 * of util-linux's setpriv.
 *
 *   setpriv [--reuid=UID] [--regid=GID] [--clear-groups] COMMAND [ARG...]
 *   (also --ruid --euid --rgid --egid, --keep-groups, --init-groups,
 *    --groups=GID,...)
 *
 * A UID or GID is a number or a name from /etc/passwd or /etc/group (this
 * kernel's initrd has neither: numbers only there).  As in util-linux the
 * effective id is also made the saved one, and changing gids needs one of
 * the group options.
 *
 * Order: groups, then gids, then uids.  util-linux sets the uid first and
 * keeps CAP_SETGID across it (PR_SET_KEEPCAPS); this kernel has no
 * capabilities, root is euid 0 (docs/staircase.md §7.6), so once the uid
 * is dropped nothing else could be changed.
 *
 * This kernel has no supplementary groups (setgroups: ENOSYS), so
 * --clear-groups has nothing to clear and succeeds; --groups and
 * --init-groups fail there.  Errors: one line on stderr, status 1
 * (util-linux exits 127 when setting an id fails; 1 here so the shell
 * reports it: sh explains 127 only as "not found").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "syscall.h"
#include "tool.h"

#define MAX_GROUPS 32

struct ids {
	int ruid, euid, rgid, egid;	/* -1: leave as is */
	int clear_groups, keep_groups, init_groups;
	int ngroups;			/* -1: no --groups */
	gid_t groups[MAX_GROUPS];
	char user[64];			/* --init-groups: the user's name */
	int user_gid;			/* and primary group, from /etc/passwd */
};

static int usage(void)
{
	printf("\nUsage:\n setpriv [options] <program> [<argument>...]\n\n"
	       "Run a program with different user and group ids.\n\n"
	       "Options:\n"
	       " --ruid <uid|user>           set real uid\n"
	       " --euid <uid|user>           set effective uid\n"
	       " --rgid <gid|user>           set real gid\n"
	       " --egid <gid|group>          set effective gid\n"
	       " --reuid <uid|user>          set real and effective uid\n"
	       " --regid <gid|group>         set real and effective gid\n"
	       " --clear-groups              clear supplementary groups\n"
	       " --keep-groups               keep supplementary groups\n"
	       " --init-groups               initialize supplementary groups\n"
	       " --groups <group,...>        set supplementary groups by GID\n\n"
	       " -h, --help                  display this help\n\n"
	       "Groups, then gids, then uids are set (no capabilities here).\n");
	return 0;
}

/* The whole of a small file into buf (NUL-terminated); 0 if none. */
static int read_file(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY), n = 0, r;

	if (fd < 0)
		return 0;
	while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	return 1;
}

/* Cut the line at *pos off (NUL at its end, *pos to the next one) and
 * split it at sep into at most nf fields; returns how many. */
static int split(char **pos, char sep, char *f[], int nf)
{
	char *line = *pos, *end = strchr(line, '\n');
	int i = 0;

	*pos = end ? end + 1 : line + strlen(line);
	if (end)
		*end = 0;
	while (i < nf) {
		f[i++] = line;
		if (!(line = strchr(line, sep)))
			break;
		*line++ = 0;
	}
	return i;
}

/* In /etc/passwd or /etc/group, the line whose field `field` (0 name,
 * 2 id) is key, split into f[]: its field count, or 0. */
static int lookup(const char *file, int field, const char *key, char *f[],
		  int nf, char *buf, int size)
{
	if (!read_file(file, buf, size))
		return 0;
	for (char *pos = buf; *pos;) {
		int n = split(&pos, ':', f, nf);
		if (n > field && !strcmp(f[field], key))
			return n;
	}
	return 0;
}

/* A uid or gid: a number, or a name in /etc/passwd (/etc/group). */
static int parse_id(const char *s, const char *file, const char *what, int *out)
{
	static char buf[8192];
	char *f[4];

	if (parse_int_arg(s, 0, 2147483647L, out))
		return 0;
	if (lookup(file, 0, s, f, 4, buf, sizeof(buf)) >= 3 &&
	    parse_int_arg(f[2], 0, 2147483647L, out))
		return 0;
	fprintf(stderr, "setpriv: failed to parse %s: '%s'\n", what, s);
	return 1;
}

/* --groups=GID,GID,... (numbers only) */
static int parse_groups(const char *s, struct ids *id)
{
	static char copy[256];
	char *list[MAX_GROUPS + 1], *pos = copy;
	int n, g;

	snprintf(copy, sizeof(copy), "%s", s);
	n = split(&pos, ',', list, MAX_GROUPS + 1);
	for (id->ngroups = 0; id->ngroups < n; id->ngroups++) {
		if (id->ngroups == MAX_GROUPS ||
		    !parse_int_arg(list[id->ngroups], 0, 2147483647L, &g)) {
			fprintf(stderr, "setpriv: Invalid supplementary group id: "
				"'%s'\n", list[id->ngroups]);
			return 1;
		}
		id->groups[id->ngroups] = g;
	}
	return 0;
}

/* --init-groups: the user's primary group and every /etc/group line that
 * lists the user (what initgroups(3) does with files). */
static int init_groups(struct ids *id)
{
	static char buf[8192];
	char uid[16], *f[7], *users[MAX_GROUPS];

	snprintf(uid, sizeof(uid), "%d", id->ruid);
	if (lookup("/etc/passwd", 2, uid, f, 7, buf, sizeof(buf)) < 4 ||
	    !parse_int_arg(f[3], 0, 2147483647L, &id->user_gid)) {
		fprintf(stderr, "setpriv: uid %d not found, --init-groups requires "
			"an user that can be found on the system\n", id->ruid);
		return 1;
	}
	snprintf(id->user, sizeof(id->user), "%s", f[0]);
	id->groups[0] = id->user_gid;
	id->ngroups = 1;
	if (!read_file("/etc/group", buf, sizeof(buf)))
		return 0;
	for (char *pos = buf; *pos;) {		/* name:x:gid:user,user,... */
		int g, n = split(&pos, ':', f, 4);
		if (n < 4 || !parse_int_arg(f[2], 0, 2147483647L, &g) ||
		    g == id->user_gid)
			continue;
		n = split(&f[3], ',', users, MAX_GROUPS);
		for (int i = 0; i < n && id->ngroups < MAX_GROUPS; i++)
			if (!strcmp(users[i], id->user)) {
				id->groups[id->ngroups++] = g;
				break;
			}
	}
	return 0;
}

static int set_groups(const struct ids *id)
{
	long r;

	if (id->ngroups < 0 && !id->clear_groups)
		return 0;
	r = syscall2(__NR_setgroups32, id->ngroups < 0 ? 0 : id->ngroups,
		     (long)id->groups);
	if (r == -ENOSYS && id->ngroups <= 0)
		return 0;	/* no supplementary groups here: none to clear */
	if (r >= 0)
		return 0;
	fprintf(stderr, "setpriv: setgroups failed: %s\n", strerror(-r));
	return 1;
}

/* util-linux's do_setresgid / do_setresuid: effective copied to saved. */
static int set_gids(const struct ids *id)
{
	gid_t r, e, s;

	if (id->rgid < 0 && id->egid < 0)
		return 0;
	if (getresgid(&r, &e, &s) < 0) {
		fprintf(stderr, "setpriv: getresgid failed: %s\n", strerror(errno));
		return 1;
	}
	r = id->rgid >= 0 ? (gid_t)id->rgid : r;
	e = id->egid >= 0 ? (gid_t)id->egid : e;
	if (setresgid(r, e, e) == 0)
		return 0;
	fprintf(stderr, "setpriv: setresgid failed: %s\n", strerror(errno));
	return 1;
}

static int set_uids(const struct ids *id)
{
	uid_t r, e, s;

	if (id->ruid < 0 && id->euid < 0)
		return 0;
	if (getresuid(&r, &e, &s) < 0) {
		fprintf(stderr, "setpriv: getresuid failed: %s\n", strerror(errno));
		return 1;
	}
	r = id->ruid >= 0 ? (uid_t)id->ruid : r;
	e = id->euid >= 0 ? (uid_t)id->euid : e;
	if (setresuid(r, e, e) == 0)
		return 0;
	fprintf(stderr, "setpriv: setresuid failed: %s\n", strerror(errno));
	return 1;
}

/* util-linux's rules between the options. */
static int check(const struct ids *id, int argc)
{
	const char *why = NULL;

	if (argc < 1)
		why = "No program specified";
	else if ((id->rgid >= 0 || id->egid >= 0) && !id->keep_groups &&
		 !id->clear_groups && !id->init_groups && id->ngroups < 0)
		why = "--[re]gid requires --keep-groups, --clear-groups, "
		      "--init-groups, or --groups";
	else if (id->init_groups && id->ruid < 0)
		why = "--init-groups requires --ruid or --reuid";
	else if (id->clear_groups + id->keep_groups + id->init_groups +
		 (id->ngroups >= 0) > 1)
		why = "mutually exclusive arguments: --clear-groups --keep-groups "
		      "--init-groups --groups";
	if (why)
		fprintf(stderr, "setpriv: %s\n", why);
	return why != NULL;
}

/* One option into id; 1 after a message. */
static int take(int c, const char *arg, struct ids *id)
{
	enum { RUID = 256, EUID, RGID, EGID, REUID, REGID };

	switch (c) {
	case RUID: return parse_id(arg, "/etc/passwd", "ruid", &id->ruid);
	case EUID: return parse_id(arg, "/etc/passwd", "euid", &id->euid);
	case REUID:
		if (parse_id(arg, "/etc/passwd", "reuid", &id->ruid))
			return 1;
		id->euid = id->ruid;
		return 0;
	case RGID: return parse_id(arg, "/etc/group", "rgid", &id->rgid);
	case EGID: return parse_id(arg, "/etc/group", "egid", &id->egid);
	case REGID:
		if (parse_id(arg, "/etc/group", "regid", &id->rgid))
			return 1;
		id->egid = id->rgid;
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	enum { CLEAR = 300, KEEP, INIT, GROUPS };
	static const struct tool_opt opts[] = {
		{ "ruid", 256, 1 }, { "euid", 257, 1 }, { "rgid", 258, 1 },
		{ "egid", 259, 1 }, { "reuid", 260, 1 }, { "regid", 261, 1 },
		{ "clear-groups", CLEAR, 0 }, { "keep-groups", KEEP, 0 },
		{ "init-groups", INIT, 0 }, { "groups", GROUPS, 1 },
		{ "help", 'h', 0 }, { 0 },
	};
	struct tool_opts o = { "setpriv", opts, argc, argv, 1, NULL, NULL };
	struct ids id = { -1, -1, -1, -1, 0, 0, 0, -1, { 0 }, "", 0 };
	int c;

	while ((c = tool_next_opt(&o)) != TOOL_OPTS_END) {
		if (c == 'h')
			return usage();
		if (c == TOOL_OPTS_BAD)
			return tool_try_help("setpriv");
		if (c == CLEAR || c == KEEP || c == INIT)
			*(c == CLEAR ? &id.clear_groups : c == KEEP ?
			  &id.keep_groups : &id.init_groups) = 1;
		else if (c == GROUPS ? parse_groups(o.arg, &id) : take(c, o.arg, &id))
			return 1;
	}
	argc -= o.ind, argv += o.ind;
	if (check(&id, argc) || (id.init_groups && init_groups(&id)))
		return 1;
	if (set_groups(&id) || set_gids(&id) || set_uids(&id))
		return 1;
	return tool_exec("setpriv", o.argv[0], argv);
}
