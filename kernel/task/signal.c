/*
 * signal.c - sending, blocking and delivering signals; the frames a
 * handler runs on, and the return from it, are kernel/task/sigframe.c's.
 *
 * The rules are Linux's (docs/kernel.md "Signals"):
 *  - sending (signal_send_locked): SIGKILL and SIGCONT continue a stopped
 *    process and drop its pending stop signals; a stop signal drops a
 *    pending SIGCONT; a signal that would be ignored is discarded unless
 *    it is blocked; standard signals do not queue (one pending bit each).
 *  - delivery (signal_deliver, on the way back to user mode): the lowest
 *    unblocked pending signal first, SIGKILL before all; its action is a
 *    user handler (a frame on the user stack, below), ignore, or the
 *    default: terminate (for some signals with a core file first:
 *    kernel/task/coredump.c), stop (every thread of the process sleeps in
 *    TASK_STOPPED until SIGCONT: group_stop; docs/staircase.md §6.8), or
 *    nothing.
 *  - init (pid 1) receives only the signals it has a handler for.
 *  - an interrupted call returns an ERESTART code; a handler turns it into
 *    EINTR (or restarts the call with SA_RESTART), no handler restarts it.
 *
 * Locking: a process's pending, blocked and actions, and its stopped
 * state, change under signal_lock (taken by senders on other CPUs and by
 * the tty's interrupt handler); only the process itself writes its frame.
 */
#include "signal.h"
#include "sigframe.h"
#include "lib/errno.h"
#include "kernel/debug/printk.h"
#include "kernel/mm/kmalloc.h"
#include "pid.h"
#include "proc.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/debug/trace.h"	/* TRACE_WAKE */


#define STOP_SIGS	(SIGBIT(SIGSTOP) | SIGBIT(SIGTSTP) | SIGBIT(SIGTTIN) | SIGBIT(SIGTTOU))

enum action { ACT_TERM, ACT_IGN, ACT_STOP, ACT_CONT };

static enum action default_action(int sig)
{
	switch (sig) {
	case SIGCHLD: case SIGURG: case SIGWINCH:	return ACT_IGN;
	case SIGCONT:					return ACT_CONT;
	case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU: return ACT_STOP;
	default:					return ACT_TERM;
	}
}

static bool sig_valid(int sig) { return sig >= 1 && sig <= NSIG; }

static struct sigaction *action_of(const struct proc *p, int sig)
{
	return &p->group->sighand->action[sig - 1];	/* the group's */
}

/* Would delivery do nothing? init takes only what it handles. */
static bool sig_discarded(const struct proc *p, int sig)
{
	uint32_t h = sa_addr(action_of(p, sig));
	if (h == SIG_IGN)
		return true;
	if (h != SIG_DFL)
		return false;
	return proc_is_init(p) || default_action(sig) == ACT_IGN ||
	       default_action(sig) == ACT_CONT;
}

bool signal_ignored_or_blocked(const struct proc *p, int sig)
{
	return (p->sig_blocked & SIGBIT(sig)) || sig_discarded(p, sig);
}

bool signal_fatal_pending(const struct proc *p)
{
	return (p->sig_pending & SIGBIT(SIGKILL)) != 0;
}

/* ---- sending --------------------------------------------------------------- */

/* Make a sleeper notice a signal: any interruptible sleep; a killable or
 * stopped one only for SIGKILL. Pending was set (and fenced) first, and a
 * sleeper sets its state before it checks: one of us sees the other. */
static void kick(struct proc *t, int sig)
{
	int state = t->sched.state;
	if (state == TASK_INTERRUPTIBLE ||
	    (sig == SIGKILL && (state == TASK_STOPPED ||
				(state == TASK_UNINTERRUPTIBLE && t->killable))))
		TRACE_WAKE(WAKE_SIGNAL, sched_wake_up(&t->sched));
}

/* Tell the parent that child stopped or continued (SIGCHLD, and a
 * wake-up of its wait4; an end is signal_child_exited's). Ptable_lock
 * held. */
static void signal_notify_parent(struct proc *child, int code, int status)
{
	struct proc *parent = child->parent;
	if (!parent)
		return;
	bool stop_or_cont = code == CLD_STOPPED || code == CLD_CONTINUED;
	if (!(stop_or_cont && (action_of(parent, SIGCHLD)->sa_flags & SA_NOCLDSTOP))) {
		struct ksiginfo info = { code, child->pid, child->uid, status, 0 };
		signal_send_process(parent, SIGCHLD, &info);
	}
	TRACE_WAKE(WAKE_EXIT, waitq_wake_all(&parent->child_exit));
}

/* Would SIGCHLD to parent be dropped at once: no handler, its default
 * action (ignore), and not blocked? Read without signal_lock: a sigaction
 * or sigprocmask that races the exit is ordered after it, and then the
 * signal would have been dropped as it was sent, as here. One thread
 * only: another might block it and keep it pending. */
static bool sigchld_dropped(const struct proc *parent)
{
	return parent->group->nr_threads == 1 && !(parent->sig_blocked & SIGBIT(SIGCHLD)) &&
	       sig_discarded(parent, SIGCHLD);
}

void signal_child_exited(struct proc *child, struct proc *parent, int status)
{
	if (!sigchld_dropped(parent)) {
		int code = (status & 0x7F) ? CLD_KILLED : CLD_EXITED;
		int value = (status & 0x7F) ? status & 0x7F : (status >> 8) & 0xFF;
		struct ksiginfo info = { code, child->pid, child->uid, value, 0 };
		spin_lock(&signal_lock);
		signal_send_process(parent, SIGCHLD, &info);
		spin_unlock(&signal_lock);
	}
	TRACE_WAKE(WAKE_EXIT, waitq_wake_all(&parent->child_exit));
}

/* SIGCONT's (and SIGKILL's) effect at send time, even if it is blocked. */
/* Returns whether t was stopped; the parent hears of it if notify (once
 * for a whole group: continue_group). */
static bool continue_stopped(struct proc *t, bool notify)
{
	t->sig_pending &= ~STOP_SIGS;
	t->group->sig_shared &= ~STOP_SIGS;
	t->stop_requested = false;
	if (!t->stopped)
		return false;
	t->stopped = false;
	if (notify) {			/* the process's: wait4 asks its leader */
		t->group_leader->wait_report = WAIT_REPORT_CONTINUED;
		signal_notify_parent(t->group_leader, CLD_CONTINUED, SIGCONT);
	}
	TRACE_WAKE(WAKE_SIGNAL, sched_wake_up(&t->sched));
	return true;
}

/* The siginfo of a pending signal, in a table of NSIG (a thread's own
 * set's, or its group's shared set's) made at the first signal that
 * needs one: most tasks never get one. When memory is out the signal
 * still comes, with no sender (SI_USER from pid 0, as Linux's
 * collect_signal when its sigqueue could not be allocated). SIGKILL's
 * is never read. */
static void keep_info(struct ksiginfo **table, int sig, const struct ksiginfo *info)
{
	if (sig == SIGKILL)
		return;
	if (!*table)
		*table = kzalloc(NSIG * sizeof(**table));
	if (*table)
		(*table)[sig - 1] = *info;
}

static struct ksiginfo info_of(const struct ksiginfo *table, int sig)
{
	if (!table || sig == SIGKILL)
		return (struct ksiginfo){ SI_USER, 0, 0, 0, 0 };
	return table[sig - 1];
}

void signal_send_locked(struct proc *t, int sig, const struct ksiginfo *info)
{
	if (t->pstate != P_LIVE)
		return;
	if (sig == SIGKILL || sig == SIGCONT)
		continue_stopped(t, true);
	else if (SIGBIT(sig) & STOP_SIGS) {
		t->sig_pending &= ~SIGBIT(SIGCONT);
		t->group->sig_shared &= ~SIGBIT(SIGCONT);
	}
	if (!(t->sig_blocked & SIGBIT(sig)) && sig_discarded(t, sig))
		return;
	if (t->sig_pending & SIGBIT(sig))
		return;				/* standard signals do not queue */
	keep_info(&t->siginfo, sig, info);
	t->sig_pending |= SIGBIT(sig);
	__sync_synchronize();
	if (!(t->sig_blocked & SIGBIT(sig)) || sig == SIGKILL)
		kick(t, sig);
}

/* The thread to wake for a signal to the whole process: the first that
 * does not block it, the leader first (Linux's complete_signal); NULL if
 * every thread blocks it. Ptable_lock held. */
static struct proc *pick_thread(struct proc *leader, int sig)
{
	if (leader->pstate == P_LIVE && !(leader->sig_blocked & SIGBIT(sig)))
		return leader;
	struct proc *t;
	if (leader->group->nr_threads <= 1)
		return NULL;
	for_each_task(t)
		if (t->group_leader == leader && t->pstate == P_LIVE &&
		    !(t->sig_blocked & SIGBIT(sig)))
			return t;
	return NULL;
}

/* A live thread of the group (the leader if it lives), for the rules
 * that look at one: stop and continue, ignored or not. */
static struct proc *any_thread(struct proc *leader)
{
	if (leader->pstate == P_LIVE || leader->group->nr_threads <= 1)
		return leader;
	struct proc *t;
	for_each_task(t)
		if (t->group_leader == leader && t->pstate == P_LIVE)
			return t;
	return leader;
}

/* SIGCONT to the process: every thread of it goes on (a group stop
 * stopped them all: group_stop), every pending stop is dropped, and the
 * parent hears of it once. */
static void continue_group(struct proc *leader)
{
	bool told = leader->pstate == P_LIVE && continue_stopped(leader, true);
	if (leader->group->nr_threads <= 1)
		return;
	struct proc *t;
	for_each_task(t)
		if (t->group_leader == leader && t != leader && t->pstate == P_LIVE)
			told |= continue_stopped(t, !told);
}

/* A signal to the process waits in its shared set for the first thread
 * that does not block it: one is woken now, or whichever unblocks it
 * first takes it (signal_deliver). Standard signals do not queue. */
static void send_shared(struct proc *leader, int sig, const struct ksiginfo *info)
{
	struct proc *t = any_thread(leader);
	if (t->pstate != P_LIVE)
		return;
	if (sig == SIGCONT)
		continue_group(leader);
	else if (SIGBIT(sig) & STOP_SIGS) {
		t->sig_pending &= ~SIGBIT(SIGCONT);
		leader->group->sig_shared &= ~SIGBIT(SIGCONT);
	}
	if (sig_discarded(t, sig) && !(t->sig_blocked & SIGBIT(sig)))
		return;
	if (leader->group->sig_shared & SIGBIT(sig))
		return;
	keep_info(&leader->group->shared_info, sig, info);
	leader->group->sig_shared |= SIGBIT(sig);
	__sync_synchronize();
	struct proc *to = pick_thread(leader, sig);
	if (to)
		kick(to, sig);
}

/* SIGKILL to a process reaches every thread at once (Linux's
 * complete_signal for a fatal signal): each dies the next time it runs.
 * Sent to one thread only, the others would die when that one ran and
 * ended the group, which behind many CPU-bound threads is one quantum
 * each later (a 1,000-thread hog took 103 s of real time to die).
 * Other fatal signals still go to one thread, whose signal is then the
 * group's wait status. Ptable_lock held. */
static void kill_every_thread(struct proc *leader, const struct ksiginfo *info)
{
	struct proc *t;
	for_each_task(t)
		if (t->group_leader == leader && t != leader)
			signal_send_locked(t, SIGKILL, info);
}

void signal_send_process(struct proc *t, int sig, const struct ksiginfo *info)
{
	struct proc *leader = t->group_leader;
	if (sig != SIGKILL) {
		send_shared(leader, sig, info);
		return;
	}
	signal_send_locked(any_thread(leader), SIGKILL, info);
	if (leader->group->nr_threads > 1)
		kill_every_thread(leader, info);
}

/* A process: its leader, alive, a zombie, or waiting for its threads. */
static bool is_process(const struct proc *t)
{
	return t == t->group_leader && (t->pstate == P_LIVE || t->pstate == P_ZOMBIE);
}

int signal_send_group_locked(int pgid, int sig, const struct ksiginfo *info)
{
	int n = 0;
	struct proc *t;
	for_each_task(t) {
		if (is_process(t) && t->pgid == pgid) {
			signal_send_process(t, sig, info);
			n++;
		}
	}
	return n;
}

void signal_send_group(int pgid, int sig)
{
	struct ksiginfo info = { SI_KERNEL, 0, 0, 0, 0 };
	spin_lock(&signal_lock);
	signal_send_group_locked(pgid, sig, &info);
	spin_unlock(&signal_lock);
}

void signal_send_self(int sig)
{
	struct proc *p = current();
	struct ksiginfo info = { SI_USER, p->pid, p->uid, 0, 0 };
	spin_lock(&signal_lock);
	signal_send_locked(p, sig, &info);
	spin_unlock(&signal_lock);
}

/* ---- kill(2) --------------------------------------------------------------- */

/* Linux's rule: CAP_KILL, or the sender's real or effective uid is the
 * target's real or saved uid; SIGCONT also within the same session. */
static bool may_signal(const struct proc *me, const struct proc *t, int sig)
{
	if (proc_capable(me, CAP_KILL))
		return true;
	if (me->euid == t->uid || me->euid == t->suid ||
	    me->uid == t->uid || me->uid == t->suid)
		return true;
	return sig == SIGCONT && me->sid == t->sid;
}

/* Which processes pid names for kill(2): > 0 that one (or the process
 * of that thread id, as Linux), 0 the caller's group, -1 everyone but
 * init and the caller, < -1 the group -pid. Each process once: t is a
 * thread of it, its leader for all but the first form. */
static bool kill_target(const struct proc *me, const struct proc *t, int pid)
{
	if (pid > 0)
		return t->pid == pid && (t->pstate == P_LIVE || is_process(t));
	if (!is_process(t))
		return false;
	if (pid == 0)
		return t->pgid == me->group_leader->pgid;
	if (pid == -1)
		return t != me->group_leader && !proc_is_init(t) && t->pid > 0;
	return t->pgid == -pid;
}

int sys_kill(int pid, int sig)
{
	struct proc *me = current();
	struct ksiginfo info = { SI_USER, me->group_leader->pid, me->uid, 0, 0 };
	int found = 0, sent = 0;

	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;		/* Linux: -INT_MIN names no group */
	spin_lock(&signal_lock);
	struct proc *t;
	for_each_task(t) {
		if (!kill_target(me, t, pid))
			continue;
		found++;
		if (!may_signal(me, t, sig))
			continue;
		sent++;
		if (sig != 0)
			signal_send_process(t, sig, &info);
	}
	spin_unlock(&signal_lock);
	if (!found)
		return -ESRCH;
	/* Linux: kill(-1) succeeds if it found anyone, even if it could
	 * signal none of them; the other forms say EPERM then. */
	return sent || pid == -1 ? 0 : -EPERM;
}

/* A signal to one thread: tgkill (270) checks that it is in group tgid
 * (tgid -1: tkill, 238, any group). SI_TKILL in its siginfo, as Linux. */
int sys_tgkill(int tgid, int tid, int sig)
{
	struct proc *me = current();
	struct ksiginfo info = { SI_TKILL, me->group_leader->pid, me->uid, 0, 0 };
	int err = -ESRCH;

	if (tid <= 0 || (tgid <= 0 && tgid != -1) || sig < 0 || sig > NSIG)
		return -EINVAL;
	spin_lock(&signal_lock);
	struct proc *t = pid_find(tid);
	if (t && t->pstate == P_LIVE && (tgid == -1 || t->group_leader->pid == tgid)) {
		err = may_signal(me, t, sig) ? 0 : -EPERM;
		if (!err && sig)
			signal_send_locked(t, sig, &info);
	}
	spin_unlock(&signal_lock);
	return err;
}

int sys_tkill(int tid, int sig)
{
	return sys_tgkill(-1, tid, sig);
}

/* ---- actions and masks ----------------------------------------------------- */

/* Setting an action to ignore drops what is pending of it (POSIX). */
int sys_rt_sigaction(int sig, const void *uact, void *uold, uint32_t size)
{
	struct proc *p = current();
	struct sigaction act, old;

	if (size != sizeof(sigset64_t) || !sig_valid(sig))
		return -EINVAL;
	if (uact && (SIGBIT(sig) & SIG_UNBLOCKABLE))
		return -EINVAL;
	if (uact && copy_from_user(&act, uact, sizeof(act)) < 0)
		return -EFAULT;
	if (uold && !user_range_ok(uold, sizeof(old), true))
		return -EFAULT;
	spin_lock(&signal_lock);
	old = *action_of(p, sig);
	if (uact) {
		act.sa_mask = sigset_of(sigset_bits(act.sa_mask) & ~SIG_UNBLOCKABLE);
		*action_of(p, sig) = act;
		if (sig_discarded(p, sig)) {
			p->sig_pending &= ~SIGBIT(sig);
			p->group->sig_shared &= ~SIGBIT(sig);
		}
	}
	spin_unlock(&signal_lock);
	return uold ? copy_to_user(uold, &old, sizeof(old)) : 0;
}

int sys_rt_sigprocmask(int how, const void *uset, void *uold, uint32_t size)
{
	struct proc *p = current();
	sigset64_t set, old = p->sig_blocked;

	if (size != sizeof(sigset64_t))
		return -EINVAL;
	if (uset) {
		if (how < SIG_BLOCK || how > SIG_SETMASK)
			return -EINVAL;
		if (copy_from_user(&set, uset, sizeof(set)) < 0)
			return -EFAULT;
	}
	if (uold && copy_to_user(uold, &old, sizeof(old)) < 0)
		return -EFAULT;
	if (!uset)
		return 0;
	spin_lock(&signal_lock);
	if (how == SIG_BLOCK)
		p->sig_blocked |= set;
	else if (how == SIG_UNBLOCK)
		p->sig_blocked &= ~set;
	else
		p->sig_blocked = set;
	p->sig_blocked &= ~SIG_UNBLOCKABLE;
	spin_unlock(&signal_lock);
	return 0;
}

int sys_rt_sigpending(void *uset, uint32_t size)
{
	struct proc *p = current();
	if (size != sizeof(sigset64_t))
		return -EINVAL;
	sigset64_t set = (p->sig_pending | p->group->sig_shared) & p->sig_blocked;
	return copy_to_user(uset, &set, sizeof(set));
}

/* pselect6: mask for the call's length (Linux's set_user_sigmask). After
 * it, an interrupted call's mask comes back once the signal is handled
 * (kernel/task/sigframe.c, as sigsuspend's); otherwise at once. */
void signal_mask_for_call(sigset64_t mask)
{
	struct proc *p = current();
	spin_lock(&signal_lock);
	p->sig_saved = p->sig_blocked;
	p->sig_restore_mask = true;
	p->sig_blocked = mask & ~SIG_UNBLOCKABLE;
	spin_unlock(&signal_lock);
}

void signal_unmask_after_call(bool interrupted)
{
	struct proc *p = current();
	if (interrupted)
		return;
	spin_lock(&signal_lock);
	if (p->sig_restore_mask) {
		p->sig_blocked = p->sig_saved;
		p->sig_restore_mask = false;
	}
	spin_unlock(&signal_lock);
}

/* Sleep until a signal is pending (pause, sigsuspend). */
static void wait_for_signal(struct proc *p)
{
	for (;;) {
		sched_set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(p))
			break;
		schedule();
	}
	sched_set_current_state(TASK_RUNNING);
}

int sys_pause(void)
{
	wait_for_signal(current());
	return -ERESTARTNOHAND;
}

/* The mask is the given one until a handler has run; the handler's frame
 * keeps the old one, which its sigreturn puts back. */
int sys_rt_sigsuspend(const void *umask, uint32_t size)
{
	struct proc *p = current();
	sigset64_t mask;

	if (size != sizeof(sigset64_t))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)) < 0)
		return -EFAULT;
	spin_lock(&signal_lock);
	p->sig_saved = p->sig_blocked;
	p->sig_restore_mask = true;
	p->sig_blocked = mask & ~SIG_UNBLOCKABLE;
	spin_unlock(&signal_lock);
	wait_for_signal(p);
	return -ERESTARTNOHAND;
}

/* ---- fork and exec --------------------------------------------------------- */

void signal_fork(struct proc *child, const struct proc *parent)
{
	child->sig_blocked = parent->sig_blocked;
	child->sig_pending = 0;
	child->group->sig_shared = 0;
	/* fork keeps the alternate stack (its memory is copied too) */
	child->sas_ss_sp = parent->sas_ss_sp;
	child->sas_ss_size = parent->sas_ss_size;
	child->sas_ss_flags = parent->sas_ss_flags;
}

/* A handler's address means nothing in the new program. Handlers that
 * another process shares stay as they are for it: p's group takes own,
 * a copy of them, first (Linux's de_thread), and lets go of theirs. */
void signal_exec(struct proc *p, struct sighand *own)
{
	struct sighand *shared = own ? p->group->sighand : NULL;
	p->sas_ss_sp = p->sas_ss_size = p->sas_ss_flags = 0;	/* its memory is gone */
	spin_lock(&signal_lock);
	if (own) {
		memcpy(own->action, shared->action, sizeof(own->action));
		own->count = 1;
		p->group->sighand = own;
	}
	for (int sig = 1; sig <= NSIG; sig++) {
		struct sigaction *a = action_of(p, sig);
		if (sa_addr(a) != SIG_IGN)
			*a = (struct sigaction){ 0 };
	}
	spin_unlock(&signal_lock);
	if (shared)
		sighand_put(shared, true);	/* a reader may have found it: after a grace period */
}

/* ---- delivery --------------------------------------------------------------- */

/* Is every live thread of p's group stopped? signal_lock held. */
static bool group_all_stopped(const struct proc *p)
{
	struct proc *t;
	if (p->group->nr_threads <= 1)
		return true;
	for_each_task(t)
		if (t->group == p->group && t->pstate == P_LIVE && !t->stopped)
			return false;
	return true;
}

/* Stop until SIGCONT or SIGKILL; called and returns with signal_lock held.
 * The stop is a sleep to the scheduler (docs/staircase.md §6.8). The
 * thread whose stop completes its group's (group_stop) tells the parent,
 * through the leader, whom wait4 asks: once per stop, as Linux's. */
static void do_stop(struct proc *p, int sig)
{
	p->stopped = true;
	p->stop_sig = sig;
	if (group_all_stopped(p)) {
		struct proc *leader = p->group_leader;
		leader->stop_sig = sig;
		leader->wait_report = WAIT_REPORT_STOPPED;
		signal_notify_parent(leader, CLD_STOPPED, sig);
	}
	while (p->stopped && !signal_fatal_pending(p)) {
		sched_set_current_state(TASK_STOPPED);
		spin_unlock(&signal_lock);
		schedule();
		spin_lock(&signal_lock);
	}
	sched_set_current_state(TASK_RUNNING);
	p->stopped = false;
}

/* Linux's group stop: a stop signal stops the whole process. The thread
 * that took it stops; every other live thread of its group is asked to
 * (stop_requested, which signal_pending reports, so a sleep ends and the
 * way back to user mode stops it) and woken if it sleeps. signal_lock held. */
static void group_stop(struct proc *p, int sig)
{
	if (p->group->nr_threads > 1) {
		struct proc *t;
		for_each_task(t)
			if (t->group == p->group && t != p && t->pstate == P_LIVE && !t->stopped) {
				t->stop_requested = true;
				t->stop_sig = sig;
				kick(t, sig);
			}
	}
	do_stop(p, sig);
}

/* The lowest unblocked pending signal of a set, SIGKILL first; 0 if none. */
static int lowest(sigset64_t pending, sigset64_t blocked)
{
	sigset64_t ready = pending & ~blocked;
	if (!ready)
		return 0;
	if (ready & SIGBIT(SIGKILL))
		return SIGKILL;
	return __builtin_ctzll(ready) + 1;
}

/* The next signal for p, taken off its set with its info: the thread's
 * own first, then the process's (Linux's dequeue_signal); 0 if none. */
static int take_signal(struct proc *p, struct ksiginfo *info)
{
	struct thread_group *g = p->group;
	int sig = lowest(p->sig_pending, p->sig_blocked);
	if (sig) {
		p->sig_pending &= ~SIGBIT(sig);
		*info = info_of(p->siginfo, sig);
	} else if ((sig = lowest(g->sig_shared, p->sig_blocked)) != 0) {
		g->sig_shared &= ~SIGBIT(sig);
		*info = info_of(g->shared_info, sig);
	}
	return sig;
}

void signal_deliver(struct trapframe *tf)
{
	struct proc *p = current();

	for (;;) {
		spin_lock(&signal_lock);
		if (p->stop_requested) {	/* another thread of ours took a stop signal */
			p->stop_requested = false;
			do_stop(p, p->stop_sig);
			spin_unlock(&signal_lock);
			continue;
		}
		struct ksiginfo info;
		int sig = take_signal(p, &info);
		if (!sig) {
			spin_unlock(&signal_lock);
			break;
		}
		if (sig == SIGALRM)
			itimer_sigalrm_taken(p->group_leader);
		struct sigaction ka = *action_of(p, sig);
		if (sa_addr(&ka) > SIG_IGN && (ka.sa_flags & SA_RESETHAND))
			*action_of(p, sig) = (struct sigaction){ 0 };
		if (sa_addr(&ka) > SIG_IGN) {
			spin_unlock(&signal_lock);
			sigframe_enter(tf, sig, &ka, &info);
			return;
		}
		enum action act = default_action(sig);
		if (sa_addr(&ka) == SIG_IGN || proc_is_init(p) || act == ACT_IGN || act == ACT_CONT) {
			spin_unlock(&signal_lock);
			continue;
		}
		if (act == ACT_STOP) {
			group_stop(p, sig);
			spin_unlock(&signal_lock);
			continue;
		}
		spin_unlock(&signal_lock);
		/* the wait status is the signal, with 0x80 if a core was written */
		proc_exit_group(sig | (signal_dumps_core(sig) && coredump(sig, tf) ? 0x80 : 0));
	}
	sigframe_restart_without_handler(p, tf);
}

/* ---- faults ---------------------------------------------------------------- */

static int fault_code(const struct trapframe *tf, uint32_t *addr)
{
	*addr = 0;
	switch (tf->trapno) {
	case T_DIVIDE:	*addr = tf->eip; return FPE_INTDIV;
	case T_ILLOP:	*addr = tf->eip; return ILL_ILLOPN;
	case T_IRET:	return ILL_BADSTK;	/* Linux's iret_error, address 0 */
	default:	return SI_KERNEL;	/* int3, #GP: as Linux */
	}
}

/* As Linux's force_sig: a handler that is not blocked gets the fault; a
 * blocked or ignored one cannot, and the process dies of it. */
void signal_fault(struct trapframe *tf, int sig)
{
	uint32_t addr;
	int code = fault_code(tf, &addr);
	signal_fault_at(tf, sig, code, addr);
}

/* A page fault's signal: kernel/mm/fault.c knows its si_code, not the CPU. */
void signal_fault_at(struct trapframe *tf, int sig, int code, uint32_t addr)
{
	struct proc *p = current();
	struct ksiginfo info = { 0, 0, 0, 0, 0 };
	info.code = code;
	info.addr = addr;

	spin_lock(&signal_lock);
	bool handled = sa_addr(action_of(p, sig)) > SIG_IGN && !(p->sig_blocked & SIGBIT(sig));
	if (handled) {
		p->sig_pending &= ~SIGBIT(sig);		/* this fault's info wins */
		signal_send_locked(p, sig, &info);
	}
	spin_unlock(&signal_lock);
	if (!handled)
		proc_fault_kill(tf, sig);
}
