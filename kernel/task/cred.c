/*
 * cred.c - user and group ids: real, effective and saved, as Linux keeps
 * them (setuid(2), setreuid(2), setresuid(2) and the gid twins).
 *
 * Root (effective uid 0) may set any id. Anyone else may only move each
 * id among the three values it already has; so a program that gave up
 * root (setpriv --reuid=1000) cannot take it back. The scheduler's
 * permission rules read uid and euid (docs/staircase.md §7.5); kill reads
 * uid and suid (kernel/task/signal.c).
 *
 * Capabilities are not kept apart from the ids: capget (184) reports the
 * sets Linux derives from them when nothing changed them otherwise (every
 * capability effective while the effective uid is 0, permitted while any
 * of the three is). capset is not built.
 */
#include "lib/errno.h"
#include "proc.h"
#include "kernel/mm/uaccess.h"
#include "cred.h"
#include <uapi/prctl.h>	/* CAP_LAST_CAP, the capget structures */

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
static bool root(void) { return current()->euid == 0; }

int sys_setuid(int uid) { return set_one(uids(current()), uid, root()); }
int sys_setgid(int gid) { return set_one(gids(current()), gid, root()); }
int sys_setreuid(int r, int e) { return set_re(uids(current()), r, e, root()); }
int sys_setregid(int r, int e) { return set_re(gids(current()), r, e, root()); }
int sys_setresuid(int r, int e, int s) { return set_res(uids(current()), r, e, s, root()); }
int sys_setresgid(int r, int e, int s) { return set_res(gids(current()), r, e, s, root()); }

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

/* How many words each set takes in this header's version, or 0 for a
 * version Linux does not know (it then writes its own into the header). */
static int cap_words(struct __user_cap_header_struct *uh, uint32_t *version)
{
	if (copy_from_user(version, &uh->version, sizeof(*version)) < 0)
		return -EFAULT;
	if (*version == _LINUX_CAPABILITY_VERSION_1)
		return 1;
	if (*version == _LINUX_CAPABILITY_VERSION_2 || *version == _LINUX_CAPABILITY_VERSION_3)
		return 2;
	uint32_t v3 = _LINUX_CAPABILITY_VERSION_3;
	return copy_to_user(&uh->version, &v3, sizeof(v3)) < 0 ? -EFAULT : 0;
}

/* The sets of task pid (0: the caller), word by word: Linux's
 * CAP_FULL_SET where the ids give it. */
static int cap_sets(int pid, struct __user_cap_data_struct d[2])
{
	struct proc *p = pid ? proc_get(pid) : current();
	if (!p)
		return -ESRCH;
	bool eff = p->euid == 0, perm = p->uid == 0 || p->euid == 0 || p->suid == 0;
	if (pid)
		proc_put(p);
	uint32_t full[2] = { 0xffffffffu, (1u << (CAP_LAST_CAP - 31)) - 1 };
	for (int i = 0; i < 2; i++)
		d[i] = (struct __user_cap_data_struct){ eff ? full[i] : 0, perm ? full[i] : 0, 0 };
	return 0;
}

/* Linux's capget, in its order: the version (a NULL data pointer only
 * asks for it: 0 even for an unknown one), the pid, the sets. */
int sys_capget(void *uheader, void *udata)
{
	struct __user_cap_header_struct *uh = uheader;
	struct __user_cap_data_struct d[2];
	uint32_t version;
	int pid, words = cap_words(uh, &version);

	if (words < 0)
		return words;
	if (!udata)
		return 0;
	if (words == 0)
		return -EINVAL;
	if (copy_from_user(&pid, &uh->pid, sizeof(pid)) < 0)
		return -EFAULT;
	if (pid < 0)
		return -EINVAL;
	int err = cap_sets(pid, d);
	if (err)
		return err;
	return copy_to_user(udata, d, (uint32_t)words * sizeof(d[0])) < 0 ? -EFAULT : 0;
}
