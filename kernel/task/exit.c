/*
 * exit.c - a task's end: exit and exit_group, the group's end (what the
 * threads shared is given back, the children go to init, the parent is
 * told), the faults that end a process, and the small calls that read a
 * process's ids. The parent's side, wait4 and waitid, is wait.c.
 *
 * Locking (kernel/task/proc.c says the whole order): a process's exit and
 * its parent's wait4 meet under the parent's family_lock; a group's
 * thread counts and exits are under signal_lock.
 */
#include "proc.h"
#include <uapi/ourcalls.h>
#include <uapi/wait.h>
#include "lib/errno.h"
#include "kernel/fs/file.h"
#include "futex.h"
#include "kernel/time/itimer.h"
#include "kernel/debug/panic.h"
#include "pid.h"
#include "kernel/sys/power.h"
#include "kernel/debug/printk.h"
#include "proc_internal.h"
#include "kernel/debug/selftest.h"
#include "signal.h"
#include "lib/string.h"
#include "kernel/time/systime.h"
#include "thread.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/debug/trace.h"	/* TRACE_WAKE */
#include "kernel/ipc/ipc.h"	/* sem_exit */

/* ---- exit ----------------------------------------------------------------- */

static int status_code(int status)
{
	return (status & 0x7F) ? 128 + (status & 0x7F) : (status >> 8) & 0xFF;
}

/*
 * c's parent, with its family lock held: read, locked, and read again,
 * since the parent may be handing c to init meanwhile (its own exit).
 * Between the read and the lock the parent may be reaped, but not freed
 * before this CPU next sleeps (kernel/sync/rcu.c). NULL if c has none.
 */
static struct proc *lock_parent(struct proc *c)
{
	for (;;) {
		struct proc *parent = __atomic_load_n(&c->parent, __ATOMIC_ACQUIRE);
		if (!parent)
			return NULL;
		family_lock(parent);
		if (c->parent == parent)
			return parent;
		spin_unlock(&parent->family_lock);
	}
}

void proc_take_family(struct proc *p, struct proc *leader)
{
	/* The group's pid moves with the place on the parent's list, in one
	 * hold of the parent's family lock: a wait4 for that pid, which looks
	 * under it, finds the leader or p, never neither (ECHILD). */
	struct proc *parent = lock_parent(leader), *c;
	spin_lock(&signal_lock);
	pid_transfer(leader, p);
	spin_unlock(&signal_lock);
	if (parent) {
		proc_set_parent_locked(p, parent);	/* in the leader's place */
		proc_set_parent_locked(leader, NULL);
		spin_unlock(&parent->family_lock);
	}
	family_lock(leader);
	family_lock(p);
	while ((c = leader->children) != NULL)
		proc_set_parent_locked(c, p);
	spin_unlock(&p->family_lock);
	spin_unlock(&leader->family_lock);
}

/*
 * The parent learns of the exit: SIGCHLD (not if it ignores SIGCHLD) and a
 * wake-up of its wait4. A parent that ignores SIGCHLD, or asked
 * SA_NOCLDWAIT, never collects the child: init reaps it, and the
 * parent's wait4, woken, finds no child left (ECHILD), as on Linux.
 * Returns whether init has a child to reap. parent's family lock held.
 */
static bool tell_parent(struct proc *p, struct proc *parent, int status)
{
	const struct sigaction *a = &parent->group->sighand->action[SIGCHLD - 1];
	bool ignored = sa_addr(a) == SIG_IGN;
	bool autoreap = ignored || (a->sa_flags & SA_NOCLDWAIT);
	if (!ignored)
		signal_child_exited(p, parent, status);
	if (!autoreap)
		return false;
	if (parent != initproc) {
		family_lock(initproc);
		proc_set_parent_locked(p, initproc);
		spin_unlock(&initproc->family_lock);
		TRACE_WAKE(WAKE_EXIT, waitq_wake_all(&parent->child_exit));
	}
	return true;
}

/* The nearest ancestor of leader that is a subreaper still taking
 * children, else init (Linux's find_new_reaper). The walk takes no lock:
 * no task here is freed before this CPU sleeps (kernel/sync/rcu.c), and
 * the caller checks adoption_closed again under the reaper's lock. */
static struct proc *new_reaper(struct proc *leader)
{
	for (struct proc *r = __atomic_load_n(&leader->parent, __ATOMIC_ACQUIRE);
	     r && r != initproc; r = __atomic_load_n(&r->parent, __ATOMIC_ACQUIRE))
		if (__atomic_load_n(&r->child_subreaper, __ATOMIC_RELAXED) &&
		    !__atomic_load_n(&r->adoption_closed, __ATOMIC_ACQUIRE))
			return r;
	return initproc;
}

/* leader's and the reaper's family locks, the reaper one that still
 * takes children (init always does). */
static struct proc *lock_reaper(struct proc *leader)
{
	for (;;) {
		struct proc *r = new_reaper(leader);
		family_lock(r);
		if (!r->adoption_closed)
			return r;
		spin_unlock(&r->family_lock);	/* it ended meanwhile: the next one */
	}
}

/* The children of a process that ends go to its subreaper or init
 * (Linux's forget_original_parent), each with its PR_SET_PDEATHSIG
 * signal; a zombie among them is reported to a subreaper as if it had
 * just exited. Returns whether init has a zombie among them to reap. */
static bool reparent_children(struct proc *leader)
{
	if (!__atomic_load_n(&leader->children, __ATOMIC_ACQUIRE) &&
	    !__atomic_load_n(&leader->child_subreaper, __ATOMIC_RELAXED))
		return false;	/* no thread is left to fork one, no orphan comes here */
	bool zombie = false;
	struct ksiginfo info = { SI_USER, leader->pid, leader->uid, 0, 0 };
	struct proc *c;
	family_lock(leader);
	leader->adoption_closed = true;		/* no subreaper's walk stops here now */
	if (!leader->children) {		/* no thread is left to fork one */
		spin_unlock(&leader->family_lock);
		return false;
	}
	struct proc *reaper = lock_reaper(leader);
	while ((c = leader->children) != NULL) {
		proc_set_parent_locked(c, reaper);
		if (c->pstate == P_ZOMBIE) {
			zombie = true;
			if (reaper != initproc)
				signal_child_exited(c, reaper, c->exit_status);
		}
		/* Linux sends it when the forking thread exits; here,
		 * where children are the process's, when it ends. */
		if (c->pdeath_signal) {
			spin_lock(&signal_lock);
			signal_send_process(c, c->pdeath_signal, &info);
			spin_unlock(&signal_lock);
		}
	}
	spin_unlock(&reaper->family_lock);
	spin_unlock(&leader->family_lock);
	return zombie && reaper == initproc;
}

/* The group's last thread is gone: the process lets go of what its
 * threads shared (the leader's; the last user of each frees it), hands
 * the children to init, and lets the parent reap the leader. Takes no
 * global lock. */
static void group_end(struct proc *p, struct proc *leader, int status)
{
	itimer_exit(leader);
	sem_exit(leader->pid);		/* SEM_UNDO's adjustments go back */
	release_mm_files(leader, true);

	bool wake_init = reparent_children(leader);
	/* No other thread is left to change these. */
	if (leader->group->exiting)
		status = leader->group->exit_code;
	else if (leader != p)
		status = leader->exit_status;	/* Linux: the leader's own exit code */
	leader->exit_status = status;
	/* Under the parent's family lock, which its wait4 holds while it
	 * looks: it sees a zombie it may reap, or a live child and sleeps
	 * until the wake-up. Held, it also keeps the parent from exiting
	 * (and being freed) before the wake-up lands. */
	struct proc *parent = lock_parent(leader);
	leader->group->nr_threads = 0;		/* reapable from here on */
	leader->pstate = P_ZOMBIE;
	if (parent) {
		wake_init |= tell_parent(leader, parent, status);
		spin_unlock(&parent->family_lock);
	}
	if (wake_init)
		TRACE_WAKE(WAKE_EXIT, waitq_wake_all(&initproc->child_exit));
}

/* A thread's own end: the tid word glibc's pthread_join waits on is
 * cleared and woken (CLONE_CHILD_CLEARTID, set_tid_address), as Linux's
 * mm_release does when others use the memory (another thread, or a
 * process clone(CLONE_VM) shares it with); before that, the robust
 * futexes it still holds are marked FUTEX_OWNER_DIED (futex_exit_robust).
 * A vfork parent waiting for it goes on. */
static void thread_release(struct proc *p)
{
	int zero = 0;
	if (p->robust_list)
		futex_exit_robust((uint32_t)p->robust_list, p->pid);
	p->robust_list = NULL;
	if (p->clear_child_tid && __atomic_load_n(&p->mm->users, __ATOMIC_ACQUIRE) > 1 &&
	    copy_to_user(p->clear_child_tid, &zero, sizeof(zero)) == 0)
		futex_wake_address((uint32_t)p->clear_child_tid, 1);
	p->clear_child_tid = NULL;
	thread_vfork_release(p);	/* a vfork parent goes on */
	selftest_exit();	/* call 503's mutexes (kernel/debug/selftest.c) */
}

void proc_exit(int status)
{
	struct proc *p = current(), *leader = p->group_leader;

	if (leader == initproc && leader->group->nr_threads == 1) {
		printk("init exited: status %d\n", status_code(status));
		power_off(status_code(status));
	}
	if (p != leader)
		task_leaving();
	thread_release(p);
	/* Leave the address space before it may be freed. */
	vm_switch(kernel_pgdir);
	/* A process of one thread is its group's last: nobody else can
	 * change its count, so it goes straight to group_end. */
	bool last = p == leader && leader->group->nr_threads == 1;
	if (!last) {
		spin_lock(&signal_lock);
		/* The last thread leaves nr_threads at 1 until group_end has
		 * given everything back: a leader that exited first is a
		 * zombie already, and at 0 its parent's wait4 would reap it
		 * (and free the address space) while group_end still frees it. */
		last = leader->group->nr_threads == 1;
		if (!last)
			leader->group->nr_threads--;
		if (!last && p == leader) {
			p->exit_status = status;
			p->pstate = P_ZOMBIE;	/* not reaped before the group ends */
		}
		if (p != leader)	/* the process's times keep this thread's */
			group_add_dead(leader->group, p);
		spin_unlock(&signal_lock);
	}
	if (last)
		group_end(p, leader, status);
	if (p != leader) {
		release_mm_files(p, false);	/* its own uses: the process goes on */
		spin_lock(&signal_lock);
		proc_forget_locked(p);		/* no one waits for a thread */
		spin_unlock(&signal_lock);
	}
	sched_set_current_state(TASK_DEAD);
	schedule();
	panic("zombie %d ran again", p->pid);
}

void proc_kill_group_locked(struct proc *me)
{
	struct ksiginfo info = { SI_KERNEL, 0, 0, 0, 0 };
	struct proc *t;
	for_each_task(t) {
		if (t != me && t->pstate == P_LIVE && t->group_leader == me->group_leader)
			signal_send_locked(t, SIGKILL, &info);
	}
}

void proc_exit_group(int status)
{
	struct proc *p = current(), *leader = p->group_leader;

	/* Whoever set group_exiting first (exit_group, a fatal signal, an
	 * exec) has sent the others SIGKILL already: this thread just goes. */
	if (leader->group->nr_threads > 1) {
		spin_lock(&signal_lock);
		if (!leader->group->exiting) {
			leader->group->exiting = true;
			leader->group->exit_code = status;
			proc_kill_group_locked(p);
		}
		spin_unlock(&signal_lock);
	}
	proc_exit(status);
}

/* ---- the small process calls ----------------------------------------------- */

int sys_exit(int code)
{
	proc_exit((code & 0xFF) << 8);
}

int sys_exit_group(int code)
{
	proc_exit_group((code & 0xFF) << 8);
}

int sys_getpid(void)  { return current()->group_leader->pid; }
int sys_gettid(void)  { return current()->pid; }

int sys_getppid(void)
{
	struct proc *parent = current()->group_leader->parent;
	return parent ? parent->pid : 0;
}

/* ---- faults that end a process (kernel/task/signal.c decides) ------------------- */

static const char *signal_name(int sig)
{
	switch (sig) {
	case 4:  return "SIGILL";
	case 5:  return "SIGTRAP";
	case 7:  return "SIGBUS";
	case 8:  return "SIGFPE";
	case 9:  return "SIGKILL";
	case 11: return "SIGSEGV";
	case 15: return "SIGTERM";
	default: return "signal";
	}
}

void proc_fault_kill(struct trapframe *tf, int sig)
{
	struct proc *p = current();
	printk("pid %d (%s): %s at eip=0x%08x addr=0x%08x (%s)\n", p->pid, p->name,
	       signal_name(sig), tf->eip, tf->trapno == T_PGFLT ? read_cr2() : 0,
	       trap_name(tf->trapno));
	proc_exit_group(sig | (signal_dumps_core(sig) && coredump(sig, tf) ? 0x80 : 0));
}

/*
 * 507: proc_name(pid, buf, len) - a process's name (its program's file
 * name), for ps. pid 0 is the caller; a thread other than its group's
 * leader is ESRCH here and in 508, so ps lists processes (no ps -L yet).
 * The name is copied while the table is locked, so a process that exits
 * meanwhile cannot hand over a reused slot's name. Returns the length copied (without the NUL).
 */
/*
 * 508: proc_ids(pid, buf) - a process's parent, ids and start time, what
 * ps -ef and ps aux show in UID, PPID, STIME (Linux has them in
 * /proc/PID/stat and status, as kernel/fs/proc/procfs_pid.c does). Copied under the
 * table lock, like 507.
 */
int sys_proc_ids(int pid, void *uids)
{
	struct proc_ids ids;
	bool found = false;

	if (pid < 0)
		return -EINVAL;
	if (pid == 0)
		pid = current()->group_leader->pid;
	spin_lock(&signal_lock);
	const struct proc *p = pid_find(pid);
	if (p && p == p->group_leader && (p->pstate == P_LIVE || p->pstate == P_ZOMBIE)) {
		ids = (struct proc_ids){
			.pid = p->pid, .ppid = p->parent ? p->parent->pid : 0,
			.pgid = p->pgid, .sid = p->sid, .uid = p->uid, .euid = p->euid,
			.gid = p->gid, .egid = p->egid,
			.start_ms = (uint32_t)(p->start_ns / 1000000), .tty = p->sid == 1,
		};
		found = true;
	}
	spin_unlock(&signal_lock);
	if (!found)
		return -ESRCH;
	return copy_to_user(uids, &ids, sizeof(ids)) < 0 ? -EFAULT : 0;
}

int sys_proc_name(int pid, char *ubuf, uint32_t len)
{
	char name[PROC_NAME_MAX];
	bool found = false;

	if (pid < 0 || len < PROC_NAME_MAX)
		return -EINVAL;
	if (pid == 0)
		pid = current()->group_leader->pid;
	spin_lock(&signal_lock);
	const struct proc *p = pid_find(pid);
	if (p && p == p->group_leader && (p->pstate == P_LIVE || p->pstate == P_ZOMBIE)) {
		memcpy(name, p->name, sizeof(name));
		found = true;
	}
	spin_unlock(&signal_lock);
	if (!found)
		return -ESRCH;
	name[PROC_NAME_MAX - 1] = 0;
	int n = (int)strlen(name);
	return copy_to_user(ubuf, name, n + 1) < 0 ? -EFAULT : n;
}
