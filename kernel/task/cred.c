/*
 * cred.c - user and group ids: real, effective and saved, as Linux keeps
 * them (setuid(2), setreuid(2), setresuid(2) and the gid twins).
 *
 * A task with CAP_SETUID (CAP_SETGID for the group ids) may set any id.
 * Anyone else may only move each id among the three values it already
 * has; so a program that gave up root (setpriv --reuid=1000) cannot take
 * it back. A change of uids moves the capabilities as Linux's does
 * (kernel/task/capability.c: caps_setuid_fixup). The scheduler's
 * permission rules read uid and euid (docs/staircase.md §7.5); kill reads
 * uid and suid (kernel/task/signal.c).
 */
#include "lib/errno.h"
#include "proc.h"
#include "kernel/mm/uaccess.h"
#include "cred.h"

#define KEEP (-1)		/* "leave this id as it is" */

struct ids { int *r, *e, *s; };

static bool may_take(const struct ids *cur, int id)
{
	return id == KEEP || id == *cur->r || id == *cur->e || id == *cur->s;
}

/* setresuid's rule for one family of ids; root is judged by euid. */
static int set_res(struct ids cur, int r, int e, int s, bool root)
{
	if (r < KEEP || e < KEEP || s < KEEP)
		return -EINVAL;
	if (!root && !(may_take(&cur, r) && may_take(&cur, e) && may_take(&cur, s)))
		return -EPERM;
	if (r != KEEP)
		*cur.r = r;
	if (e != KEEP)
		*cur.e = e;
	if (s != KEEP)
		*cur.s = s;
	return 0;
}

/* setreuid: the saved id follows the new effective one when the real id
 * is set or the effective one leaves the real one (Linux). */
static int set_re(struct ids cur, int r, int e, bool root)
{
	int old_r = *cur.r;
	if (r < KEEP || e < KEEP)
		return -EINVAL;
	if (!root && ((r != KEEP && r != *cur.r && r != *cur.e) || !may_take(&cur, e)))
		return -EPERM;
	int s = (r != KEEP || (e != KEEP && e != old_r)) ? (e != KEEP ? e : *cur.e) : KEEP;
	return set_res(cur, r, e, s, true);
}

/* setuid: root sets all three; others only the effective id, to the real
 * or saved one. */
static int set_one(struct ids cur, int id, bool root)
{
	if (id < 0)
		return -EINVAL;
	if (root)
		return set_res(cur, id, id, id, true);
	if (id != *cur.r && id != *cur.s)
		return -EPERM;
	*cur.e = id;
	return 0;
}

static struct ids uids(struct proc *p) { return (struct ids){ &p->uid, &p->euid, &p->suid }; }
static struct ids gids(struct proc *p) { return (struct ids){ &p->gid, &p->egid, &p->sgid }; }

/* A uid call's result, after the capabilities followed the new uids. */
static int uid_changed(int err, int old_r, int old_e, int old_s)
{
	if (!err)
		caps_setuid_fixup(current(), old_r, old_e, old_s);
	return err;
}

int sys_setuid(int uid)
{
	int r = current()->uid, e = current()->euid, s = current()->suid;
	return uid_changed(set_one(uids(current()), uid, capable(CAP_SETUID)), r, e, s);
}

int sys_setreuid(int ru, int eu)
{
	int r = current()->uid, e = current()->euid, s = current()->suid;
	return uid_changed(set_re(uids(current()), ru, eu, capable(CAP_SETUID)), r, e, s);
}

int sys_setresuid(int ru, int eu, int su)
{
	int r = current()->uid, e = current()->euid, s = current()->suid;
	return uid_changed(set_res(uids(current()), ru, eu, su, capable(CAP_SETUID)), r, e, s);
}

int sys_setgid(int gid) { return set_one(gids(current()), gid, capable(CAP_SETGID)); }
int sys_setregid(int r, int e) { return set_re(gids(current()), r, e, capable(CAP_SETGID)); }
int sys_setresgid(int r, int e, int s) { return set_res(gids(current()), r, e, s, capable(CAP_SETGID)); }

static int get_res(struct ids cur, int *ur, int *ue, int *us)
{
	if (copy_to_user(ur, cur.r, sizeof(int)) < 0 || copy_to_user(ue, cur.e, sizeof(int)) < 0 ||
	    copy_to_user(us, cur.s, sizeof(int)) < 0)
		return -EFAULT;
	return 0;
}

int sys_getresuid(int *r, int *e, int *s) { return get_res(uids(current()), r, e, s); }
int sys_getresgid(int *r, int *e, int *s) { return get_res(gids(current()), r, e, s); }
int sys_getuid(void) { return current()->uid; }
int sys_geteuid(void) { return current()->euid; }
int sys_getgid(void) { return current()->gid; }
int sys_getegid(void) { return current()->egid; }
