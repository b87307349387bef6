/*
 * passwd.c - the user and group databases: /etc/passwd and /etc/group of
 * the initrd (user/etc/), in their Linux format of ':'-separated fields.
 * Each call reads the file again; a few entries make that cheap.
 */
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DB_MAX 4096
#define FIELDS 7

static char db[DB_MAX];

/* Read path into db; 0 on success. */
static int load(const char *path)
{
	int fd = open(path, O_RDONLY), n = 0, r;
	if (fd < 0)
		return -1;
	while (n < DB_MAX - 1 && (r = read(fd, db + n, DB_MAX - 1 - n)) > 0)
		n += r;
	close(fd);
	db[n] = 0;
	return 0;
}

/* Split the line at *s into up to FIELDS fields; *s moves to the next
 * line. Returns the number of fields. */
static int split(char **s, char *f[FIELDS])
{
	char *line = *s, *end = strchr(line, '\n');
	int n = 0;
	if (end)
		*end = 0;
	*s = end ? end + 1 : line + strlen(line);
	f[n++] = line;
	for (char *c = line; *c && n < FIELDS; c++)
		if (*c == ':') {
			*c = 0;
			f[n++] = c + 1;
		}
	return n;
}

/* The entry whose field `key` (0 name, 2 id) matches; in f[]. */
static int find(const char *path, int key, const char *name, unsigned id, char *f[FIELDS], int want)
{
	if (load(path) < 0)
		return 0;
	for (char *s = db; *s;) {
		int n = split(&s, f);
		if (n < want)
			continue;
		if (key == 0 ? strcmp(f[0], name) == 0 : strtoul(f[2], NULL, 10) == id)
			return 1;
	}
	return 0;
}

static struct passwd *fill_pw(char *f[FIELDS])
{
	static struct passwd pw;
	pw.pw_name = f[0];
	pw.pw_passwd = f[1];
	pw.pw_uid = (uid_t)strtoul(f[2], NULL, 10);
	pw.pw_gid = (gid_t)strtoul(f[3], NULL, 10);
	pw.pw_gecos = f[4];
	pw.pw_dir = f[5];
	pw.pw_shell = f[6];
	return &pw;
}

struct passwd *getpwuid(uid_t uid)
{
	char *f[FIELDS];
	return find("/etc/passwd", 2, NULL, uid, f, 7) ? fill_pw(f) : NULL;
}

struct passwd *getpwnam(const char *name)
{
	char *f[FIELDS];
	return find("/etc/passwd", 0, name, 0, f, 7) ? fill_pw(f) : NULL;
}

struct group *getgrgid(gid_t gid)
{
	static struct group gr;
	static char *no_members[1];
	char *f[FIELDS];
	if (!find("/etc/group", 2, NULL, gid, f, 3))
		return NULL;
	gr.gr_name = f[0];
	gr.gr_passwd = f[1];
	gr.gr_gid = (gid_t)strtoul(f[2], NULL, 10);
	gr.gr_mem = no_members;
	return &gr;
}
