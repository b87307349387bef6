/*
 * pgrp.c - process groups and sessions (POSIX job control, Linux's rules).
 *
 * A session is what a login (here: init and the console) starts; a
 * process group is a job a shell runs, all its pipeline's processes. The
 * terminal sends its signals to one group, the foreground one
 * (kernel/fs/tty.c); kill(-pgid) reaches a whole group (kernel/task/signal.c).
 * Every process starts in its parent's group and session (fork).
 */
#include <stddef.h>
#include "lib/errno.h"
#include "pgrp.h"
#include "pid.h"
#include "proc.h"

/* Is there a live process in group pgid of session sid? signal_lock held. */
static bool group_exists_locked(int pgid, int sid)
{
	struct proc *t;
	for_each_task(t)
		if (t->pstate == P_LIVE && t->pgid == pgid && t->sid == sid)
			return true;
	return false;
}

bool pgrp_in_session(int pgid, int sid)
{
	spin_lock(&signal_lock);
	bool ok = group_exists_locked(pgid, sid);
	spin_unlock(&signal_lock);
	return ok;
}

/* The caller itself (pid 0 or its pid) or one of its children. */
static struct proc *self_or_child_locked(int pid)
{
	struct proc *me = current();
	if (pid == 0 || pid == me->pid)
		return me;
	struct proc *t = pid_find(pid);
	if (t && t->parent == me && t->pstate == P_LIVE)
		return t;
	return NULL;
}

/* The errors in POSIX's order: ESRCH not us or our child; EACCES a child
 * that has exec'd; EPERM another session, a session leader, or a group
 * that does not exist in our session. */
static int check_setpgid(struct proc *me, struct proc *t, int pgid)
{
	if (t != me && t->did_exec)
		return -EACCES;
	if (t->sid != me->sid || t->sid == t->pid)
		return -EPERM;
	if (pgid != t->pid && !group_exists_locked(pgid, me->sid))
		return -EPERM;
	return 0;
}

int sys_setpgid(int pid, int pgid)
{
	struct proc *me = current();
	if (pid < 0 || pgid < 0)
		return -EINVAL;
	spin_lock(&signal_lock);
	struct proc *t = self_or_child_locked(pid);
	int err = t ? 0 : -ESRCH;
	if (t && pgid == 0)
		pgid = t->pid;
	if (!err)
		err = check_setpgid(me, t, pgid);
	if (!err)
		pid_set_groups(t, pgid, t->sid);
	spin_unlock(&signal_lock);
	return err;
}

/* pid 0 is the caller. */
static int field_of(int pid, bool sid)
{
	if (pid < 0)
		return -ESRCH;
	if (pid == 0)
		return sid ? current()->sid : current()->pgid;
	int r = -ESRCH;
	spin_lock(&signal_lock);
	struct proc *t = pid_find(pid);
	if (t && t->pstate == P_LIVE)
		r = sid ? t->sid : t->pgid;
	spin_unlock(&signal_lock);
	return r;
}

int sys_getpgid(int pid) { return field_of(pid, false); }
int sys_getsid(int pid) { return field_of(pid, true); }
int sys_getpgrp(void) { return current()->pgid; }

/* A new session and group led by the caller; not for a group leader
 * (its group's other members would be left in the old session). The new
 * session has no terminal: the console's job control ignores it. */
int sys_setsid(void)
{
	struct proc *me = current();
	int err = 0;
	spin_lock(&signal_lock);
	struct proc *t;
	for_each_task(t)
		if (t->pgid == me->pid)
			err = -EPERM;
	if (!err)
		pid_set_groups(me, me->pid, me->pid);
	spin_unlock(&signal_lock);
	return err ? err : me->pid;
}
