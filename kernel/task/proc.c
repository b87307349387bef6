/*
 * proc.c - the tasks: allocation, lookup by pid, context switching and
 * idle, fork, and init. Their end and wait4 are kernel/task/exit.c's, their
 * resource limits kernel/task/rlimit.c's.
 *
 * Tasks are allocated, not slotted: a struct proc from kmalloc, a kernel
 * stack from kernel/mm/kstack.c, a pid from kernel/task/pid.c, as many at once as
 * threads-max, which proc_init() derives from the memory as Linux does.
 *
 * Locking: fork, exit and wait4 of a process of one thread
 * take no global lock. Pids are claimed and freed by atomic operations
 * (kernel/task/pid.c); a parent's family_lock guards its children and their
 * passage to zombies (proc.h); a reaped task is freed after a grace
 * period (kernel/sync/rcu.c), so that whoever found it by its pid a moment
 * before may still read it. signal_lock guards the signal state, thread
 * counts and group exits, and job control (proc.h). Order: family locks
 * (a process's, then init's), then signal_lock, then the leaves
 * (nproc_lock, dead_tasks_lock, the scheduler's per-CPU locks inside
 * sched/).
 * The kernel is not preemptible: a task switches only inside schedule(),
 * which it calls to sleep, to exit, or on its way back to user mode when
 * its CPU's need_resched flag is set.
 */
#include "proc.h"
#include "lib/errno.h"
#include "exec.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/filemap.h"
#include "kernel/debug/panic.h"
#include "pid.h"
#include "kernel/mm/pmm.h"
#include "kernel/debug/printk.h"
#include "proc_internal.h"
#include "kernel/fs/initrd.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/debug/selftest.h"
#include "kernel/time/sleep.h"
#include "kernel/arch/ldt.h"
#include "kernel/arch/smp.h"
#include "lib/string.h"
#include "kernel/time/time.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/arch/x86.h"

struct spinlock signal_lock = SPINLOCK_INIT("signal");
/* RLIMIT_NPROC's count: one user's forks pass it one at a time. */
static struct spinlock nproc_lock = SPINLOCK_INIT("nproc");
/* dead_tasks, below. */
static struct spinlock dead_tasks_lock = SPINLOCK_INIT("dead tasks");
static int nr_tasks;		/* from fork to reap (threads-max counts them); atomic */
/* Threads between their own exit and their freeing; atomic. */
static int threads_leaving;
static uint32_t total_forks;	/* atomic */
int max_threads;
/* Threads that have exited, waiting to be off their CPU to be let go
 * (dead_tasks_lock). */
static struct proc *dead_tasks;
static struct proc idle_procs[MAX_CPUS];
/* No signal is ever sent to idle; init, which an idle task makes, starts
 * with its handlers: none. */
static struct sighand idle_handlers = { .count = 1 };
static struct thread_group idle_group = { .refs = 1, .sighand = &idle_handlers };
struct proc *initproc;

void swtch(struct context **old, struct context *new);
extern char trapret[];

/*
 * Linux's set_max_threads(): the kernel stacks may take at most an eighth
 * of the memory, so threads-max = totalram_pages / (8 * THREAD_SIZE /
 * PAGE_SIZE), bounded below by MIN_THREADS and above by the stacks' range.
 * 128 MiB: 2,048 tasks; 32 MiB: 512; 1 GiB: 5,397 (the range).
 */
static int threads_max_for(uint32_t totalram_pages)
{
	uint32_t threads = totalram_pages / (8 * KSTACK_SIZE / PAGE_SIZE);
	if (threads < THREADS_MIN)
		return THREADS_MIN;
	return threads > (uint32_t)THREADS_MAX_LIMIT ? THREADS_MAX_LIMIT : (int)threads;
}

void proc_init(void)
{
	max_threads = threads_max_for(pmm_total_count());
	kstack_init(THREADS_MAX_LIMIT + KSTACK_SLACK);	/* root may raise threads-max */
	pid_init();
	/* A task's own kernel memory: its struct proc and its stack (an
	 * address space adds its page directory and page tables). */
	printk("tasks: threads-max %d (%u MiB), pid_max %d, %u KiB a task "
	       "(struct proc %u bytes in a %u-byte heap block, kernel stack %u KiB, "
	       "guard page unmapped)\n",
	       max_threads, pmm_total_count() / 256, pid_max,
	       (unsigned)(kmalloc_block_size(sizeof(struct proc)) + KSTACK_SIZE) / 1024,
	       (unsigned)sizeof(struct proc), (unsigned)kmalloc_block_size(sizeof(struct proc)),
	       KSTACK_SIZE / 1024);
}

int proc_set_threads_max(int n)
{
	if (n < THREADS_MIN || n > THREADS_MAX_LIMIT)
		return -EINVAL;
	__atomic_store_n(&max_threads, n, __ATOMIC_RELAXED);
	return 0;
}

bool proc_is_init(const struct proc *p)
{
	return p == initproc;
}

void proc_set_name(struct proc *p, const char *path)
{
	const char *base = path;
	for (const char *s = path; *s; s++)
		if (*s == '/' && s[1])
			base = s + 1;
	strlcpy(p->name, base, sizeof(p->name));
}

/* ---- switching ------------------------------------------------------- */

/* Point the CPU at next's kernel stack (for traps from user mode),
 * address space and LDT (a kernel thread: none but the kernel's). */
static void switch_space(struct cpu *c, struct proc *next)
{
	struct mm *mm = next->mm;
	pde_t *pd = kernel_pgdir;
	const struct ldt *ldt = NULL;
	if (mm) {
		c->tss.esp0 = (uint32_t)next->kstack + KSTACK_SIZE;
		pd = mm->pgdir;
		ldt = mm->ldt;
	}
	if (c->pgdir != pd)		/* not when next shares prev's address space */
		vm_switch(pd);
	ldt_switch(c, ldt);
}

/*
 * Give up the CPU: ask the scheduler for the next task and switch to it.
 * Returns when this task is picked again, possibly on another CPU.
 * Must be called with no spinlock held (interrupts may be on or off).
 */
void schedule(void)
{
	push_cli();
	struct cpu *c = mycpu();
	KASSERT(c->ncli == 1);
	c->need_resched = 0;
	rcu_quiescent(c->id);	/* the task that sleeps holds no unreferenced pointer */
	c->scheduled_tsc = rdtsc();
	c->watchdog_warned = false;
	struct proc *prev = c->current;
	struct proc *next = proc_of(sched_schedule());
	if (next != prev) {
		c->current = next;
		c->prev = prev;
		switch_space(c, next);
		tls_load(c, &next->tls);
		cpu_tsc_user(c, next->tsc_sigsegv);
		fpu_save(&prev->fpu);
		fpu_restore(&next->fpu);
		bool intena = c->intena;
		swtch(&prev->context, next->context);
		/* We are prev again, perhaps on another CPU. */
		c = mycpu();
		c->intena = intena;
		sched_finish_switch(&c->prev->sched);
	}
	pop_cli();
}

/* A new task's first instructions (from swtch's ret): finish the switch
 * that schedule() began on the other task's stack, then return to user
 * mode through trapret. */
static void proc_first_return(void)
{
	struct cpu *c = mycpu();
	sched_finish_switch(&c->prev->sched);
	c->intena = false;	/* the iret to user mode turns interrupts on */
	pop_cli();
	/* clone's CLONE_CHILD_SETTID: written here, in the child's memory
	 * (its own copy, or the caller's with CLONE_VM), as Linux's
	 * schedule_tail() does. */
	struct proc *p = current();
	if (p->set_child_tid)
		copy_to_user(p->set_child_tid, &p->pid, sizeof(p->pid));
}

/*
 * The last look (return_work) is taken with interrupts off, and iret
 * turns them back on: a resched IPI that lands after it still finds us in
 * user mode an instruction later, not a tick later. Signals are delivered
 * first, then the scheduler gets its turn, until there is nothing left.
 */
void proc_return_to_user(struct trapframe *tf)
{
	for (;;) {
		struct proc *p = current();
		bool signals;

		cli();
		signals = signal_work(p, tf);
		if (!signals && !mycpu()->need_resched)
			return;
		sti();
		if (signals)
			signal_deliver(tf);
		else
			schedule();
	}
}

/* ---- idle ------------------------------------------------------------ */

void proc_init_idle(void)
{
	struct cpu *c = mycpu();
	struct proc *p = &idle_procs[c->id];
	memset(p, 0, sizeof(*p));
	p->pid = 0;
	p->pstate = P_LIVE;
	p->group_leader = p;		/* every task has one (signal_pending reads it) */
	p->group = &idle_group;
	strlcpy(p->name, "idle", sizeof(p->name));
	fpu_clean(&p->fpu);
	sched_init_idle(c->id, &p->sched);
	/* Last: from now on the timer (drivers/timer.c) gives this CPU's ticks to sched/
	 * (the boot CPU gets here with interrupts on). */
	c->current = p;
}

void cpu_idle(void)
{
	for (;;) {
		rcu_reclaim();		/* what this CPU freed last, once it may go */
		cli();
		rcu_quiescent(cpu_id());
		if (mycpu()->need_resched) {
			sti();
			schedule();
			continue;
		}
		/* sti takes effect after the next instruction, so an interrupt
		 * cannot slip in between the check and the hlt. */
		__asm__ volatile("sti; hlt" ::: "memory");
	}
}

/* ---- allocation ------------------------------------------------------- */

/* A copy of h (count 1), not torn by another task's sigaction; NULL
 * when memory is out. A process of one thread whose handlers are its
 * own (the caller's) has nobody to race with, and takes no global lock. */
struct sighand *sighand_copy(struct sighand *h, bool alone)
{
	struct sighand *copy = kmalloc(sizeof(*copy));
	if (!copy)
		return NULL;
	if (!alone)
		spin_lock(&signal_lock);
	*copy = *h;
	if (!alone)
		spin_unlock(&signal_lock);
	copy->count = 1;
	return copy;
}

/* The caller's handlers, for a new process: the same with share
 * (clone's CLONE_SIGHAND), else a copy (a fork's child starts with its
 * parent's, init with an idle task's: none). NULL when memory is out. */
static struct sighand *sighand_for_child(bool share)
{
	struct thread_group *from = current()->group;
	struct sighand *h = from->sighand;
	if (share) {
		__atomic_add_fetch(&h->count, 1, __ATOMIC_RELAXED);
		return h;
	}
	return sighand_copy(h, from->nr_threads <= 1 &&
			       __atomic_load_n(&h->count, __ATOMIC_RELAXED) == 1);
}

static void sighand_free_rcu(struct rcu_head *head)
{
	kfree((char *)head - __builtin_offsetof(struct sighand, rcu));
}

/* A group lets go of h. rcu: a reader may still have found it through
 * the group (exec's swap), so it waits for a grace period. */
void sighand_put(struct sighand *h, bool rcu)
{
	if (__atomic_sub_fetch(&h->count, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	if (rcu)
		rcu_call(&h->rcu, sighand_free_rcu);
	else
		kfree(h);
}

/* A new group led by leader, its one thread, with the caller's handlers
 * (sighand_for_child); NULL when memory is out. */
static struct thread_group *group_new(struct proc *leader, bool share_sighand)
{
	struct thread_group *g = kzalloc(sizeof(*g));
	struct sighand *h = g ? sighand_for_child(share_sighand) : NULL;
	if (!h) {
		kfree(g);
		return NULL;
	}
	g->sighand = h;
	g->refs = 1;
	g->leader = leader;
	g->nr_threads = 1;
	return g;
}

static struct thread_group *group_get(struct thread_group *g)
{
	__atomic_add_fetch(&g->refs, 1, __ATOMIC_RELAXED);
	return g;
}

/* The last struct proc that names g is being freed (after its grace
 * period, or never published): so is g. */
static void group_put(struct thread_group *g)
{
	if (g && __atomic_sub_fetch(&g->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		kfree(g->shared_info);
		sighand_put(g->sighand, false);	/* after the group's grace period */
		kfree(g);
	}
}

/* Its memory back: the stack and the struct. No CPU runs on it, no
 * lookup can find it, nobody holds a reference; no spinlock held. */
static void task_free(struct proc *p)
{
	group_put(p->group);
	kstack_free(p->kstack);
	kfree(p);
}

static void task_free_rcu(struct rcu_head *h)
{
	struct proc *p = (struct proc *)((char *)h - __builtin_offsetof(struct proc, rcu));
	group_put(p->group);
	kfree(p->siginfo);
	kfree(p);
}

/* Take a reference unless the last is gone (a task found by its pid just
 * as it was reaped: it may only be read, not kept). */
static bool proc_ref(struct proc *p)
{
	int refs = __atomic_load_n(&p->refs, __ATOMIC_RELAXED);
	while (refs > 0) {
		if (__atomic_compare_exchange_n(&p->refs, &refs, refs + 1, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

/* Free the exited threads no CPU runs on any more (Linux frees them in
 * finish_task_switch(); here the next fork does, which needs no work in
 * the switch path). One still referenced becomes P_UNUSED: proc_put()
 * frees it. */
static void free_dead_tasks(void)
{
	struct proc *gone = NULL;
	if (!__atomic_load_n(&dead_tasks, __ATOMIC_RELAXED))
		return;		/* the common case: no thread has exited */
	spin_lock(&dead_tasks_lock);
	for (struct proc **link = &dead_tasks; *link;) {
		struct proc *p = *link;
		if (p->sched.on_cpu) {
			link = &p->dead_next;
			continue;
		}
		*link = p->dead_next;
		p->pstate = P_UNUSED;
		p->dead_next = gone;
		gone = p;
	}
	spin_unlock(&dead_tasks_lock);
	while (gone) {
		struct proc *p = gone;
		gone = p->dead_next;
		__atomic_sub_fetch(&nr_tasks, 1, __ATOMIC_RELAXED);
		if (p->group_leader != p)	/* not a leader de_thread let go */
			__atomic_sub_fetch(&threads_leaving, 1, __ATOMIC_RELAXED);
		proc_put(p);		/* its own reference */
	}
}

/* Root is never limited but by threads-max; the others leave root the
 * last NPROC_ROOT_RESERVE tasks. */
static int threads_for(int uid)
{
	return uid == 0 ? max_threads : max_threads - NPROC_ROOT_RESERVE;
}

/* RLIMIT_NPROC: uid's tasks, threads too (as Linux), below nproc_limit.
 * nproc_lock held, so that two forks of one user cannot both pass. */
static bool nproc_ok(int uid, uint32_t nproc_limit)
{
	uint32_t mine = 0;
	struct proc *t;
	for_each_task(t)
		mine += t->uid == uid;
	return mine < nproc_limit;
}

/* p counts and has a pid: from here on a walk of the tasks sees it.
 * A root fork takes no lock: a place under threads-max is reserved by
 * one atomic add, the pid claimed by one compare-and-swap. */
static int task_publish(struct proc *p, int uid, uint32_t nproc_limit)
{
	if (__atomic_add_fetch(&nr_tasks, 1, __ATOMIC_RELAXED) > threads_for(uid)) {
		__atomic_sub_fetch(&nr_tasks, 1, __ATOMIC_RELAXED);
		return -EAGAIN;
	}
	int err;
	if (uid == 0) {
		err = pid_alloc(p);
	} else {
		spin_lock(&nproc_lock);
		err = nproc_ok(uid, nproc_limit) ? pid_alloc(p) : -EAGAIN;
		spin_unlock(&nproc_lock);
	}
	if (err < 0)
		__atomic_sub_fetch(&nr_tasks, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&total_forks, 1, __ATOMIC_RELAXED);
	return err;
}

void task_leaving(void)
{
	__atomic_add_fetch(&threads_leaving, 1, __ATOMIC_RELAXED);
}

void task_uncount(void)
{
	__atomic_sub_fetch(&nr_tasks, 1, __ATOMIC_RELAXED);
}

void proc_forget_locked(struct proc *p)
{
	pid_free(p);
	p->pstate = P_DEAD;
	spin_lock(&dead_tasks_lock);
	p->dead_next = dead_tasks;	/* nr_tasks still counts it until it is let go */
	dead_tasks = p;
	spin_unlock(&dead_tasks_lock);
}

/* A family lock (proc.h): never taken under signal_lock, which comes
 * after it in the order; init's comes after any other's. */
void family_lock(struct proc *p)
{
	KASSERT(!spin_held(&signal_lock));
	spin_lock(&p->family_lock);
}

void child_unlink(struct proc *c)
{
	if (!c->sibling_pprev)
		return;
	*c->sibling_pprev = c->sibling_next;
	if (c->sibling_next)
		c->sibling_next->sibling_pprev = c->sibling_pprev;
	c->sibling_next = NULL;
	c->sibling_pprev = NULL;
}

/* c's parent becomes parent (NULL: none), on its children list; the old
 * parent's family lock and the new one's held. */
void proc_set_parent_locked(struct proc *c, struct proc *parent)
{
	child_unlink(c);
	__atomic_store_n(&c->parent, parent, __ATOMIC_RELEASE);
	c->forked_by = parent ? parent->pid : 0;
	if (!parent)
		return;
	c->sibling_next = parent->children;
	if (parent->children)
		parent->children->sibling_pprev = &c->sibling_next;
	parent->children = c;
	c->sibling_pprev = &parent->children;
}

/* The new kernel stack, from the top: the user trap frame, then a
 * return address into trapret, then a context whose eip is
 * proc_first_return: swtch() "returns" into it, and it returns into
 * trapret, which irets to user mode. */
static void first_stack_frame(struct proc *p)
{
	char *sp = (char *)p->kstack + KSTACK_SIZE;
	sp -= sizeof(struct trapframe);
	p->tf = (struct trapframe *)sp;
	memset(p->tf, 0, sizeof(*p->tf));
	sp -= 4;
	*(uint32_t *)sp = (uint32_t)trapret;
	sp -= sizeof(struct context);
	p->context = (struct context *)sp;
	memset(p->context, 0, sizeof(*p->context));
	p->context->eip = (uint32_t)proc_first_return;
}

/* Would a new task of uid be refused? Asked before allocating, so that
 * a fork at the limit is EAGAIN however short memory is (a hint: the
 * answer is given again when the task is published). */
static bool task_limits_hit(int uid, uint32_t nproc_limit)
{
	if (__atomic_load_n(&nr_tasks, __ATOMIC_RELAXED) >= threads_for(uid))
		return true;
	if (uid == 0)
		return false;
	spin_lock(&nproc_lock);
	bool hit = !nproc_ok(uid, nproc_limit);
	spin_unlock(&nproc_lock);
	return hit;
}

/* A zeroed task with a kernel stack, or NULL. Reaped tasks wait a grace
 * period to give theirs back: when the stacks run out, wait for it once. */
/* A zeroed struct proc but for its FPU image (a quarter of it), which
 * its maker fills: fork and clone save the creator's registers there,
 * init's exec the clean state. */
static struct proc *task_new(void)
{
	const uint32_t fpu_at = offsetof(struct proc, fpu), fpu_end = fpu_at + sizeof(struct fpu_state);
	for (int tries = 0; tries < 2; tries++) {
		struct proc *p = kmalloc(sizeof(*p));
		if (p) {
			memset(p, 0, fpu_at);
			memset((char *)p + fpu_end, 0, sizeof(*p) - fpu_end);
			p->kstack = kstack_alloc(&p->kstack_slot);
		}
		if (p && p->kstack)
			return p;
		kfree(p);
		rcu_barrier();
	}
	return NULL;
}

struct proc *proc_alloc(int uid, uint32_t nproc_limit, struct thread_group *group,
			bool share_sighand, int *err)
{
	free_dead_tasks();
	rcu_reclaim();
	if (task_limits_hit(uid, nproc_limit)) {
		*err = -EAGAIN;
		return NULL;
	}
	struct proc *p = task_new();
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	/* Everything a walker of the tasks may read, before it can. */
	p->pstate = P_EMBRYO;
	p->uid = uid;
	p->refs = 1;
	p->group_leader = p;		/* clone(CLONE_THREAD) changes it */
	p->group = group ? group_get(group) : group_new(p, share_sighand);
	if (!p->group) {
		task_free(p);
		*err = -ENOMEM;
		return NULL;
	}
	p->sleep_cpu = -1;
	p->syscall_nr = -1;
	p->timer_slack_ns = p->default_timer_slack_ns = TIMER_SLACK_NS;
	spin_init(&p->alloc_lock, "task");
	spin_init(&p->family_lock, "family");
	waitq_init(&p->child_exit, "child_exit");
	*err = task_publish(p, uid, nproc_limit);
	if (*err < 0) {
		task_free(p);		/* never published: nobody saw it */
		return NULL;
	}
	p->start_ns = clock_ns();
	first_stack_frame(p);
	return p;
}

void release_memory(struct proc *p)
{
	if (p->mm)
		mm_put(p->mm);
	p->mm = NULL;
}

void release_mm_files(struct proc *p, bool process_ends)
{
	task_lock(p);		/* a /proc reader finds each, or none, under it */
	struct mm *mm = p->mm;
	struct files_struct *files = p->files;
	struct fs_struct *fs = p->fs;
	p->mm = NULL;
	p->files = NULL;
	p->fs = NULL;
	task_unlock(p);
	if (files)
		files_put(files, p->group_leader->pid, process_ends);
	if (fs)
		fs_put(fs);
	if (mm) {
		group_note_maxrss(p->group, mm);	/* for getrusage and wait4 */
		mm_put(mm);
	}
	node_drop_exe(p->exe);	/* the program's hold (exec's set_exe) */
	p->exe = NULL;
}

/* Give back everything: the caller holds no lock, and no CPU runs on
 * p's stack. A proc_get() holder keeps the struct until proc_put(). */
void proc_release(struct proc *p)
{
	KASSERT(!p->sibling_pprev);	/* never a child: fork_start not reached */
	release_memory(p);
	pid_free(p);
	__atomic_sub_fetch(&nr_tasks, 1, __ATOMIC_RELAXED);
	p->pstate = P_UNUSED;
	proc_put(p);			/* its own reference */
}

/* A joined thread may still be on its way out (pthread_join returns at
 * the tid word's wake-up, before the thread's last switch): wait for
 * such threads to be freed, LEAVING_WAIT_MS at most. */
#define LEAVING_WAIT_MS	100

int sys_free_frames(void)
{
	free_dead_tasks();
	for (int ms = 0; ms < LEAVING_WAIT_MS &&
	     __atomic_load_n(&threads_leaving, __ATOMIC_RELAXED); ms++) {
		sleep_until(clock_ns() + 1000000, TASK_UNINTERRUPTIBLE);
		free_dead_tasks();
	}
	procfs_pid_trim();
	rcu_barrier();
	kstack_drain_caches();
	mm_drain_caches();
	fs_drain_caches();
	filemap_drop_cache();
	kmalloc_shrink();
	return (int)pmm_free_count();
}

int proc_last_pid(void)
{
	return pid_last();
}

uint32_t proc_total_forks(void)
{
	return __atomic_load_n(&total_forks, __ATOMIC_RELAXED);
}


/* pid's task in one of the states asked for, with a reference; NULL if
 * none. */
static struct proc *get_in_state(int pid, bool zombie_too)
{
	struct proc *found = pid_find(pid);	/* readable until we sleep */
	bool state_ok = found && (found->pstate == P_LIVE ||
				  (zombie_too && found->pstate == P_ZOMBIE));
	if (found && (!state_ok || !proc_ref(found)))
		found = NULL;
	if (found)
		selftest_lookup_delay();	/* test=slowfind (kernel/debug/selftest.c) */
	return found;
}

struct proc *proc_get(int pid)
{
	return get_in_state(pid, false);
}

struct proc *proc_get_or_zombie(int pid)
{
	return get_in_state(pid, true);
}

void proc_put(struct proc *p)
{
	int left = __atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL);
	KASSERT(left >= 0);
	if (left > 0)
		return;
	/* Unreachable already (its own reference went last) and off its
	 * CPU. The stack goes now, to be this CPU's next fork's (kstack.c's
	 * cache): only a holder of a reference reads a stack. The struct
	 * waits for whoever found it by its pid a moment ago. */
	kstack_free(p->kstack);
	p->kstack = NULL;
	rcu_call(&p->rcu, task_free_rcu);
}

/*
 * The lookups below serve /proc, which a monitor reads all day: they take
 * no lock, as Linux's find_task_by_vpid under RCU. A task found by its
 * pid stays readable until we sleep (kernel/sync/rcu.h), and each field is
 * read once: the answer is what was true at some moment of the call. A
 * pid's bit may be set a moment before its slot is (pid_alloc), so a
 * used pid may find no task yet. /proc shows a zombie until it is reaped,
 * as Linux's (state Z; ps says <defunct>).
 */
static struct proc *visible_task(int pid)
{
	struct proc *p = pid_find(pid);
	int state = p ? __atomic_load_n(&p->pstate, __ATOMIC_ACQUIRE) : P_UNUSED;
	return state == P_LIVE || state == P_ZOMBIE ? p : NULL;
}

static struct proc *leader_of(struct proc *p)
{
	struct proc *g = __atomic_load_n(&p->group_leader, __ATOMIC_ACQUIRE);
	return g ? g : p;
}

/* The lowest pid >= from of a task /proc shows, a group leader unless threads. */
/* threads: every task, not only leaders; tgid: only that group's (0: any). */
static int next_live(int from, bool threads, int tgid)
{
	int pid = pid_next_used(from);
	for (; pid; pid = pid_next_used(pid + 1)) {
		struct proc *p = visible_task(pid);
		if (p && (threads || p == leader_of(p)) && (!tgid || leader_of(p)->pid == tgid))
			break;
	}
	return pid;
}

int proc_next_process(int from)          { return next_live(from, false, 0); }
int proc_next_task(int from)             { return next_live(from, true, 0); }
int proc_next_thread(int tgid, int from) { return next_live(from, true, tgid); }

int proc_tgid(int pid)
{
	struct proc *p = visible_task(pid);
	return p ? leader_of(p)->pid : 0;
}

int proc_nr_threads(int pid)
{
	struct proc *p = pid_find(pid);
	int n = p ? __atomic_load_n(&leader_of(p)->group->nr_threads, __ATOMIC_RELAXED) : 1;
	return n > 1 ? n : 1;
}

int proc_kstack_slot(int pid)
{
	struct proc *p = visible_task(pid);
	return p ? p->kstack_slot : -1;
}

/* ---- init -------------------------------------------------------------- */

int proc_start_init(const char *path, char *const argv[], char *const envp[])
{
	int err;
	struct proc *p = proc_alloc(0, RLIM_INFINITY, NULL, false, &err);
	if (!p)
		panic("no task for init (error %d)", err);
	sched_task_init(&p->sched, false);
	proc_default_limits(p);
	caps_init(&p->caps);
	pid_set_groups(p, p->pid, p->pid);	/* init leads the console's session */
	struct file *console = file_alloc(FT_CONSOLE);
	p->files = files_alloc(NR_OPEN_DEFAULT);
	if (!console || !p->files || fs_init(p) < 0)
		panic("no memory for init");
	for (int fd = 0; fd < 3; fd++)		/* stdin, stdout, stderr */
		p->files->fdt->fd[fd] = fd ? file_dup(console) : console;
	err = exec_into(p, path, argv, envp);	/* and its address space */
	if (err < 0) {
		release_mm_files(p, true);
		proc_release(p);
		return err;
	}
	initproc = p;
	spin_lock(&signal_lock);
	p->pstate = P_LIVE;
	spin_unlock(&signal_lock);
	sched_wake_new(&p->sched);
	return 0;
}
