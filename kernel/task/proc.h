/*
 * proc.h - processes: the kernel's unit of execution.
 *
 * A process is an address space (mm, NULL for the idle task), a
 * kernel stack, open files, credentials and a place in the family tree.
 * Its scheduling state is the embedded struct sched_task, which only
 * sched/ writes.
 *
 * Threads (kernel/task/thread.c): a struct proc is one thread, one scheduler
 * task with its own id (its pid field: Linux's tid). Threads made by
 * clone(CLONE_THREAD) form a group around its first thread, the group
 * leader, whose pid is the group's (Linux's tgid: what getpid says).
 * What the group shares is in two places. Its struct thread_group (below:
 * Linux's signal_struct) holds the process's pending signals, the thread
 * count and group exit, limits, interval timers and times, and its
 * handlers (struct sighand, Linux's sighand_struct, a block of its own,
 * which clone(CLONE_SIGHAND) shares with another process too); every
 * thread points at it, so exec's de_thread moves nothing of it. The
 * leader's slot holds the process's program, children and place in the
 * family tree, and keeps its hold on the address space, descriptors and
 * fs information (each shareable: struct proc says how) until the last
 * thread of the group has exited (wait4 does not reap the leader
 * before).
 *
 * Lifecycle: fork (or proc_kthread) -> runnable -> ... -> exit leaves a
 * ZOMBIE holding its exit status -> the parent's wait4 reaps it, freeing
 * the rest. Orphans are re-parented to init (pid 1), which reaps them.
 */
#ifndef KERNEL_PROC_H
#define KERNEL_PROC_H

#include <stdint.h>
#include <stdbool.h>
#include "sched/sched.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/trap.h"
#include "kernel/mm/vm.h"
#include "kernel/mm/mm.h"
#include "kernel/sync/waitq.h"
#include <uapi/resource.h>	/* RLIMIT_*, RLIM_NLIMITS, RLIM_INFINITY, struct rlimit */
#include "signal.h"
#include "kernel/arch/fpu.h"
#include "kernel/arch/tls.h"
#include "kernel/mm/kstack.h"
#include "kernel/fs/fdtable.h"
#include "kernel/time/itimer.h"
#include "pid.h"
#include "cred.h"
#include "kernel/sync/rcu.h"

/* RLIMIT_NPROC (docs/kernel.md, "Limits"): an ordinary user's processes,
 * zombies included, by default; and the last tasks of threads-max that
 * only root may take. */
#define NPROC_USER_DEFAULT	64
#define NPROC_ROOT_RESERVE	16
/* threads-max's bounds (Linux's MIN_THREADS; a kernel stack a slot of
 * kernel/mm/kstack.c's range). The range has KSTACK_SLACK slots more than
 * threads-max: for stacks that no longer count (a reaped task that a
 * proc_get() holder keeps) and forks that race to the limit, so that the
 * limit says EAGAIN, never ENOMEM. */
#define THREADS_MIN		20
#define KSTACK_SLACK		(2 * MAX_CPUS)
#define THREADS_MAX_LIMIT	((int)KSTACK_SLOTS_MAX - KSTACK_SLACK)

#define PROC_NAME_MAX	16
#define TIMER_SLACK_NS	50000		/* Linux's init_task's timer slack */

/* User address-space layout (below KERNEL_OFFSET). */
#define USER_STACK_TOP	0xBFFFF000u	/* one unmapped page below the kernel */
#define USER_STACK_MAX	(8u << 20)	/* grows on demand down to here (RLIMIT_STACK) */
#define USER_STACK_START (4 * PAGE_SIZE)	/* made by exec */
#define USER_STACK_LOW	(USER_STACK_TOP - USER_STACK_MAX)

/* Callee-saved registers, as kernel/arch/switch.asm pushes them. */
struct context {
	uint32_t edi, esi, ebx, ebp, eip;
};

/* P_DEAD: a thread other than the leader that has exited. Nothing waits
 * for it (Linux's autoreaped thread): it is freed once it is off its CPU
 * (proc_alloc). P_UNUSED: reaped, freed by the last proc_put(). */
enum proc_state { P_UNUSED, P_EMBRYO, P_LIVE, P_ZOMBIE, P_DEAD };
enum { WAIT_REPORT_NONE, WAIT_REPORT_STOPPED, WAIT_REPORT_CONTINUED };

struct file;
struct initrd_file;
struct files_struct;
struct fs_struct;

/*
 * What a thread group shares, beyond its address space and its files:
 * Linux's signal_struct and sighand_struct in one. Every thread of the
 * group points at it (p->group); fork makes a new one, clone(CLONE_THREAD)
 * shares it, and exec's de_thread only changes its leader. It is freed
 * with the last struct proc that names it (refs), after their grace
 * period, so a /proc reader that found a task may read its group.
 */
/* A process's signal handlers: made with its group, copied by fork, kept
 * by its threads, shared with another process by clone(CLONE_SIGHAND)
 * (count: the groups naming it); exec gives a shared one up for a copy
 * of its own. Its own heap block (a third of a frame), so that the
 * group's is a small one. */
struct sighand {
	int count;			/* changed atomically */
	struct rcu_head rcu;		/* exec's let-go: freed after a grace period */
	struct sigaction action[NSIG];	/* Under signal_lock */
};

/* What running has cost a task, or a process's threads together:
 * getrusage's and times' fields (ticks and switches out). */
struct task_usage {
	uint32_t utime, stime;
	uint32_t nvcsw, nivcsw;		/* asleep; preempted or yielding */
};

struct thread_group {
	int refs;			/* struct procs naming it; changed atomically */
	/* Under signal_lock: */
	struct proc *leader;		/* the group's first thread, or exec's heir */
	int nr_threads;			/* threads not yet exited */
	bool exiting;			/* exit_group or a fatal signal ends them all */
	int exit_code;			/* what wait4 then reports */
	struct task_usage dead;		/* of its threads that have exited */
	volatile sigset64_t sig_shared;	/* sent to the process (ShdPnd) */
	struct ksiginfo *shared_info;	/* their siginfos: NSIG, made at the first */
	struct sighand *sighand;	/* its handlers; never NULL, changed by exec only */
	/* Under the leader's family_lock: ticks of its reaped children, and
	 * their switches and faults (getrusage's RUSAGE_CHILDREN). */
	uint32_t cutime, cstime;
	uint32_t cnvcsw, cnivcsw, cminflt;
	uint32_t cmaxrss;		/* pages: the largest peak among them */
	/* The peak of its address spaces gone (exec's old ones, at the end
	 * the last), in pages: getrusage's ru_maxrss. Its threads' writes. */
	uint32_t maxrss;
	/* Changed only by its own threads (the call's caller): */
	struct rlimit rlim[RLIM_NLIMITS];	/* inherited by fork, kept by exec */
	uint8_t dumpable;		/* prctl PR_SET_DUMPABLE: 1 from fork and exec */
	bool thp_disable;		/* prctl PR_SET_THP_DISABLE: kept by fork and exec */
	/* Under its address space's lock (its faults; Linux's min_flt):
	 * pages faulted in or copied, and of those copied for copy-on-write.
	 * A process's, kept by exec. */
	uint32_t minflt, cow_copies;
	/* Under itimer_lock: alarm, setitimer (kernel/time/itimer.c); kept
	 * by exec, not by fork. */
	struct itimers it;
};

struct proc {
	/*
	 * Identity and life. Set at fork and then read by anyone who found
	 * the task (a pid lookup, a walk of the tasks), but for the fields
	 * that say which lock or rule changes them.
	 */
	struct sched_task sched;		/* scheduler state: owned by sched/ */
	int pid;			/* its slot in kernel/task/pid.c's table: the thread's id */
	enum proc_state pstate;		/* a process's to LIVE and ZOMBIE under its parent's
					 * family_lock, a thread's under signal_lock */
	/* References, changed atomically: its own from fork until it is
	 * reaped (or, a thread, off its CPU), and one per proc_get()
	 * holder. The last proc_put() frees it, after a grace period. */
	int refs;
	struct rcu_head rcu;		/* its freeing, after a grace period (kernel/sync/rcu.c) */
	struct proc *dead_next;		/* exited threads waiting to be off their CPU (dead_tasks_lock) */
	char name[PROC_NAME_MAX];	/* exec, prctl (name_lock) */
	uint64_t start_ns;
	struct proc *group_leader;	/* the group's first thread; itself in it (signal_lock) */
	struct thread_group *group;	/* what the group shares; never NULL, never changes */

	/* Credentials (kernel/task/cred.c, capability.c): written by the
	 * task itself. */
	int uid, euid, suid;		/* real, effective, saved */
	int gid, egid, sgid;
	struct caps caps;

	/* Job control, under signal_lock: kill(-pgid) and the tty address
	 * tasks by these, and a stop is a signal's doing. */
	int pgid, sid;			/* process group and session */
	bool did_exec;			/* setpgid by the parent: EACCES once set */
	bool stopped;			/* by SIGSTOP/SIGTSTP/SIGTTIN/SIGTTOU until SIGCONT */
	bool stop_requested;		/* another thread of its group took one: stop too */
	int stop_sig;
	int wait_report;		/* WAIT_REPORT_*: a stop or continue wait4 has not told */

	/*
	 * The family. A leader's family_lock guards its children list and,
	 * for each child, the child's parent pointer, its place on the list,
	 * its exit status and its passage to a reapable zombie. A child is
	 * on its parent's list from fork_start until it is reaped. Fork,
	 * exit and wait4 take no global lock. Lock order: a process's family
	 * lock, then an ancestor's (its subreaper's), then init's, then
	 * signal_lock.
	 */
	struct spinlock family_lock;
	struct proc *parent;		/* the leader's; NULL in other threads */
	int forked_by;			/* the parent's thread that made it (__WNOTHREAD):
					 * its tid, or the leader's after a reparenting */
	struct proc *children;		/* the leader's: those whose parent it is */
	struct proc *sibling_next, **sibling_pprev;	/* pprev NULL: on no list */
	int exit_status;		/* wait4 status (docs/abi.md §7) */
	struct waitq child_exit;	/* the parent sleeps here in wait4 */
	int pdeath_signal;		/* prctl PR_SET_PDEATHSIG: sent when the parent process ends; 0 by fork */
	/* The leader's: prctl PR_SET_CHILD_SUBREAPER (not inherited by fork,
	 * kept by exec): orphaned descendants come here, not to init. Once
	 * its own children have been handed on (its end), adoption_closed,
	 * under its family lock: none may come any more. */
	bool child_subreaper, adoption_closed;
	/* prctl PR_SET_TIMERSLACK's value, and what 0 resets it to: the
	 * creator's value when the task was made. Kept and reported only:
	 * this kernel's timers take no slack. */
	uint32_t timer_slack_ns, default_timer_slack_ns;
	bool tsc_sigsegv;		/* prctl PR_TSC_SIGSEGV: rdtsc faults; kept by fork and exec */
	uint16_t ioprio;		/* ioprio_set's (kernel/task/ioprio.c); 0: none set */

	/*
	 * What it uses, each an object of its own, counted by the tasks
	 * that use it (Linux's task->mm, ->files, ->fs): clone's CLONE_VM,
	 * CLONE_FILES and CLONE_FS share them with the new thread or
	 * process, fork copies them. A thread shares its group's address
	 * space always (NULL: the idle task), its descriptors and fs
	 * information when it asked (glibc's threads do). A leader keeps
	 * its own until its group ends. They change under alloc_lock
	 * (Linux's task_lock): exec, exit and unshare swap or drop them, and
	 * a reader of another task's (/proc) holds it while it looks, which
	 * keeps them from going. Lock order: alloc_lock, then the mm's lock
	 * or the descriptor table's.
	 */
	struct spinlock alloc_lock;
	struct mm *mm;			/* kernel/mm/mm.c */
	struct files_struct *files;	/* kernel/fs/fdtable.c */
	struct fs_struct *fs;		/* working directory, umask (kernel/fs/fs.c) */
	const struct initrd_file *exe;	/* its program, held, /proc/self/exe (kernel/fs/proc/procfs.c) */

	/* Signals (kernel/task/signal.c), under signal_lock. The process's
	 * own pending set and the handlers are its group's. */
	volatile sigset64_t sig_pending;	/* sent to this thread (tkill, a fault, SIGKILL) */
	sigset64_t sig_blocked;
	struct ksiginfo *siginfo;	/* of each signal in sig_pending: NSIG of them, made at the first */
	sigset64_t sig_saved;		/* sigsuspend: the mask to put back */
	bool sig_restore_mask;
	uint32_t sas_ss_sp, sas_ss_size, sas_ss_flags;	/* sigaltstack: this thread's */

	/* Running: touched only by the thread itself, or while it is off
	 * every CPU (fork, the switch). */
	void *kstack;			/* KSTACK_SIZE bytes (kernel/mm/kstack.c) */
	int kstack_slot;		/* its place in the stacks' range */
	struct trapframe *tf;		/* user registers, at the top of kstack */
	struct context *context;	/* saved by swtch() */
	struct fpu_state fpu;		/* its FPU registers while it is not running */
	struct tls_state tls;		/* its set_thread_area slots (kernel/arch/tls.c) */
	int syscall_nr;			/* the call in progress, -1 once it must not restart */
	uint64_t restart_deadline;	/* nanosleep's end, for restart_syscall */
	void *restart_urem;
	bool restart_time64;		/* restart_urem is a struct __kernel_timespec */
	volatile int killable;		/* asleep uninterruptibly, but SIGKILL wakes it (TASK_KILLABLE) */
	int *clear_child_tid;		/* set_tid_address (kernel/task/thread.c) */
	int *set_child_tid;		/* clone's CLONE_CHILD_SETTID: written at first run */
	struct vfork_done *vfork_done;	/* vfork's parent waits on it (kernel/task/thread.c); NULL else */
	void *robust_list;		/* set_robust_list: walked at exit (kernel/task/futex.c) */

	/* Its timed sleep, under its CPU's sleepers' lock (kernel/time/sleep.c). */
	uint64_t sleep_until;		/* the deadline */
	struct proc *sleep_next;
	int sleep_cpu;			/* whose timer queue holds it, or -1 */
};

/*
 * Every task from fork to reap (P_EMBRYO, P_LIVE, P_ZOMBIE; a thread
 * until its exit), in pid order: kernel/task/pid.c's table, walked without a
 * lock, as Linux's for_each_process walks its list under RCU. A task
 * forked or reaped meanwhile may or may not be seen; what is seen stays
 * readable until the walker sleeps (kernel/sync/rcu.h).
 *
 * signal_lock guards what a signal is and what it is sent by: every
 * task's and group's signal state (kernel/task/signal.c; the fields
 * marked in struct proc and struct thread_group), the thread counts and
 * group exits that decide which threads a signal reaches, a task's
 * passage to P_LIVE, and job control's groups and sessions (pgid, sid,
 * stopped: kill(-pgid) and the tty address them). Its holders walk the
 * tasks to send a signal to a group or to everyone. Linux splits this
 * between tasklist_lock and each group's siglock. Fork, exit and wait4 of
 * a process of one thread do not take it; they take family locks.
 */
extern struct spinlock signal_lock;
#define for_each_task(p) \
	for (int pid_at_ = 1; ((p) = pid_task_from(&pid_at_)) != NULL; pid_at_++)
/* parent's family_lock held. */
#define for_each_child(c, parent) \
	for ((c) = (parent)->children; (c); (c) = (c)->sibling_next)

/* exec in a thread: p takes the old leader's place in its parent's
 * children, its pid, and the old leader's children (kernel/task/thread.c).
 * No lock held. */
void proc_take_family(struct proc *p, struct proc *leader);
/* threads-max: the most tasks at once (proc_init: from the memory). */
extern int max_threads;
/* Root's write of /proc/sys/kernel/threads-max: 0, or -EINVAL outside
 * THREADS_MIN .. THREADS_MAX_LIMIT (the stacks' range; Linux's upper
 * bound, FUTEX_TID_MASK, is far above it). */
int proc_set_threads_max(int n);
bool proc_is_init(const struct proc *p);
/* The pid last handed out (/proc/loadavg); tasks made since boot (/proc/stat's "processes"). */
int proc_last_pid(void);
uint32_t proc_total_forks(void);
/* The lowest pid >= from of a live process (a group leader), or of a live
 * task, threads too, or 0; the kernel stack slot of live task pid, or -1
 * (/proc's listings, /proc/sched_debug, /proc's nodes). Each caller
 * proc_get()s what it reads: the task may have exited since. */
int proc_next_process(int from);
int proc_next_task(int from);
int proc_kstack_slot(int pid);
/* The lowest pid >= from of a live thread of group tgid (its leader
 * too), or 0: /proc/PID/task's listing, in tid order. */
int proc_next_thread(int tgid, int from);
/* The group (its leader's pid) of live task pid, or 0. */
int proc_tgid(int pid);
/* The threads of pid's group not yet exited (at least 1): num_threads. */
int proc_nr_threads(int pid);
/* A thread gone for good (exit, exec's de_thread): out of the pid table
 * now, freed once no CPU runs on its stack. signal_lock held. */
void proc_forget_locked(struct proc *p);
/* 505: free_frames() - the frame allocator's free count, for leak tests,
 * once the exited threads that wait for the next fork are freed (joined
 * ones still on their way out waited for, briefly), the CPUs' cached
 * kernel stacks given back, the /proc nodes no one holds freed, the
 * initrd's cached pages no one maps dropped and the heap's wholly free
 * pages given back (Linux's drop_caches). */
int sys_free_frames(void);

/* The process running on this CPU. */
static inline struct proc *current(void)
{
	return mycpu()->current;
}

/* p's mm, files and fs pointers held still (struct proc says why). */
static inline void task_lock(struct proc *p)
{
	spin_lock(&p->alloc_lock);
}

static inline void task_unlock(struct proc *p)
{
	spin_unlock(&p->alloc_lock);
}

/* An unblocked signal waits: blocking calls must return (interruptible).
 * Inline, since every return to user mode asks (kernel/task/signal.c). */
static inline bool signal_pending(const struct proc *p)
{
	const volatile sigset64_t *shared = &p->group->sig_shared;
	if (!(p->sig_pending | *shared))		/* usually */
		return p->stop_requested;
	return ((p->sig_pending | *shared) & ~p->sig_blocked) != 0 || p->stop_requested;
}

/* A signal to act on, or an interrupted call to finish (kernel/task/signal.c). */
static inline bool signal_work(const struct proc *p, const struct trapframe *tf)
{
	return signal_pending(p) || p->sig_restore_mask || syscall_interrupted(tf, p->syscall_nr);
}

/* Anything for proc_return_to_user() to do before user mode? Asked with
 * interrupts off, so that no reschedule request slips in after it. */
static inline bool return_work(const struct proc *p, const struct trapframe *tf)
{
	return mycpu()->need_resched || signal_work(p, tf);
}

#define proc_of(task) ((struct proc *)((char *)(task) - __builtin_offsetof(struct proc, sched)))

void proc_init(void);
/* Make the code running on this CPU (its boot stack) the CPU's idle task. */
void proc_init_idle(void);
/* The idle loop: halt until there is something to schedule. Never returns. */
__attribute__((noreturn)) void cpu_idle(void);
/* Start the first user process from path (docs/abi.md §8: init=). */
int proc_start_init(const char *path, char *const argv[], char *const envp[]);

void schedule(void);
/* Called on every return to user mode: act on signals, reschedule. */
void proc_return_to_user(struct trapframe *tf);

int proc_fork(void);
/* fork in two halves, for clone (kernel/task/thread.c): a copy of the caller
 * not yet runnable, sharing what clone's flags say (CLONE_VM, CLONE_FILES,
 * CLONE_FS, CLONE_SIGHAND; NULL and *err: EAGAIN, ENOMEM), then let it
 * run (its pid), or give it up. */
struct proc *fork_prepare(uint32_t flags, int *err);
int fork_start(struct proc *child, bool clone_parent);
void fork_abandon(struct proc *child);
/* The usage of every thread of leader's group, the exited ones too (what
 * times, getrusage and wait4 report for a process), and of one task. */
void proc_group_usage(const struct proc *leader, struct task_usage *u);
void task_usage_of(const struct proc *t, struct task_usage *u);
/* Its CPU ticks alone. */
void proc_group_times(const struct proc *leader, uint32_t *utime, uint32_t *stime);
/* The peak so far, in pages, of g's process whose current address
 * space is mm (NULL: gone). */
uint32_t group_maxrss(const struct thread_group *g, const struct mm *mm);
/* mm, g's address space, is about to go (exec, exit): its peak (VmHWM)
 * joins g's maxrss. */
static inline void group_note_maxrss(struct thread_group *g, const struct mm *mm)
{
	if (mm->map.hiwater > g->maxrss)
		g->maxrss = mm->map.hiwater;
}
/* Ids, group and name that a new thread or process takes from me. */
void proc_copy_ids(struct proc *child, const struct proc *me);
/* End the calling thread (exit); the group ends with its last thread. */
__attribute__((noreturn)) void proc_exit(int status);
/* End every thread of the caller's group (exit_group, a fatal signal):
 * status is what wait4 reports. */
__attribute__((noreturn)) void proc_exit_group(int status);
/* Every other live thread of me's group gets SIGKILL (signal_lock held). */
void proc_kill_group_locked(struct proc *me);
/* wait4, waitpid and waitid (kernel/task/wait.c). */
int proc_wait4(int pid, int *ustatus, int options, void *urusage);
int sys_waitpid(int pid, int *ustatus, int options);
int sys_waitid(int which, int id, siginfo_t *uinfo, int options, void *urusage);
/* A fault in user mode: report it and kill the process with sig. */
__attribute__((noreturn)) void proc_fault_kill(struct trapframe *tf, int sig);
/* System call 507: a process's name, for ps. */
int sys_proc_name(int pid, char *ubuf, uint32_t len);
/* System call 508: who a process is (parent, ids, start), for ps -ef/aux. */
int sys_proc_ids(int pid, void *uids);
int sys_exit(int code);			/* exit and exit_group: status code << 8 */
int sys_exit_group(int code);
int sys_getpid(void);			/* the group's id (tgid) */
int sys_gettid(void);			/* the thread's */
int sys_getppid(void);

/* A new task of uid, P_EMBRYO with a pid and a kernel stack, in group
 * (a thread) or leading a new group (NULL: a process, whose handlers
 * are the caller's with share_sighand, else a copy), or NULL and
 * *err: -EAGAIN when threads-max is reached, or uid (not root)
 * already has nproc_limit tasks or would take one of the last
 * NPROC_ROOT_RESERVE, or no pid is free; -ENOMEM. */
struct proc *proc_alloc(int uid, uint32_t nproc_limit, struct thread_group *group,
			bool share_sighand, int *err);
/* A copy of handlers h, count 1 (alone: the caller's own, which no other
 * task can change meanwhile); NULL when memory is out. A group lets go
 * of its handlers: rcu when a reader may still have found them (exec's
 * swap), the last one freed after a grace period. */
struct sighand *sighand_copy(struct sighand *h, bool alone);
void sighand_put(struct sighand *h, bool rcu);
/* The live task with that pid, with a reference: its memory is not
 * freed until proc_put(), and lookups never hand out a task that has
 * gone (pids are reused after a wrap, kernel/task/pid.c). NULL if there is
 * none. */
struct proc *proc_get(int pid);
/* The same, a zombie too (until it is reaped). */
struct proc *proc_get_or_zombie(int pid);
void proc_put(struct proc *p);
/* The limits a process starts with (init; fork copies its parent's). */
void proc_default_limits(struct proc *p);
int sys_getrlimit(int resource, void *urlim);
int sys_setrlimit(int resource, const void *urlim);
int sys_prlimit64(int pid, int resource, const void *unew, void *uold);
void proc_set_name(struct proc *p, const char *path);

#endif
