/*
 * procfs_pid_text.c - the texts of /proc/PID's files (and of
 * /proc/PID/task/TID's), in Linux 6.1's formats (man 5 proc;
 * fs/proc/array.c, base.c): stat, status, statm, comm, sched, limits,
 * schedstat, maps, cmdline, environ, wchan. The nodes that name them are
 * kernel/fs/proc/procfs_pid.c's.
 *
 * Times are in Linux's USER_HZ (100 per second), converted from ticks of
 * the scheduler's hz.
 */
#include "procfs.h"
#include "kernel/ipc/ipc.h"	/* shm_region_name */
#include "kernel/fs/file.h"	/* fd_table_size_of */
#include "kernel/fs/fs.h"		/* struct fs_struct */
#include "kernel/fs/mount.h"
#include "kernel/fs/tmpfs.h"
#include <stdbool.h>
#include "sched/syscalls.h"	/* struct sched_task_view */
#include "lib/errno.h"
#include "lib/format.h"
#include "kernel/fs/initrd.h"
#include "kernel/mm/mm.h"
#include "kernel/debug/panic.h"	/* ksym_lookup */
#include "kernel/task/proc.h"
#include "lib/string.h"
#include "kernel/time/systime.h"	/* USER_HZ */
#include "kernel/mm/uaccess.h"

#define TTY_CONSOLE	(4 << 8 | 64)	/* ttyS0, Linux's tty_nr of the console */

/* What the texts show of one process, read while proc_get_or_zombie() holds its
 * slot, and its scheduler state under its run queue's lock. */
struct pid_snap {
	int pid, tgid, threads, ppid, pgid, sid, uid, euid, suid, gid, egid, sgid;
	struct caps caps;
	bool thp_disable;
	char name[PROC_NAME_MAX];
	char state;
	uint32_t utime, stime;		/* the thread's, or the group's (whole) */
	uint32_t cutime, cstime, minflt, vm_pages, brk_pages, lck_pages, fd_size;
	uint32_t rss[VM_RSS_KINDS], rss_pages, hiwater;	/* resident, by kind; the most */
	uint32_t peak_pages;
	int umask;			/* -1: no fs information (gone) */
	uint64_t start_ns;
	struct rlimit rlim[RLIM_NLIMITS];	/* the group's (the leader's) */
	sigset64_t pending, shared, blocked, ignored, caught;
	struct sched_task_view sv;
};

char procfs_state_char(const struct proc *p)
{
	if (p->stopped)
		return 'T';
	switch (p->sched.state) {
	case TASK_RUNNING:
	case TASK_WAKING:		return 'R';
	case TASK_UNINTERRUPTIBLE:	return p->killable ? 'S' : 'D';
	case TASK_STOPPED:		return 'T';
	case TASK_DEAD:			return 'Z';
	default:			return 'S';
	}
}

static void snap_signals(const struct proc *p, struct pid_snap *s)
{
	s->pending = p->sig_pending;
	const struct proc *g = p->group_leader ? p->group_leader : p;
	s->shared = g->group->sig_shared;
	s->blocked = p->sig_blocked;
	for (int sig = 1; sig <= NSIG; sig++) {
		uint32_t h = sa_addr(&p->group->sighand->action[sig - 1]);
		if (h == SIG_IGN)
			s->ignored |= (sigset64_t)1 << (sig - 1);
		else if (h != 0)
			s->caught |= (sigset64_t)1 << (sig - 1);
	}
}

/* g's address space, locked, or NULL (a zombie's, a leader whose
 * group moved to an exec'ing thread, the idle task's). g's task lock,
 * under which exec, exit and de_thread swap or drop it, is held until
 * unlock_mm_of: the mm cannot go meanwhile. g is readable until we
 * sleep (kernel/sync/rcu.h), though only the task asked for is held. */
struct mm *lock_mm_of(struct proc *g)
{
	task_lock(g);
	struct mm *mm = g->mm;
	if (mm)
		mm_lock(mm);
	else
		task_unlock(g);
	return mm;
}

void unlock_mm_of(struct proc *g, struct mm *mm)
{
	mm_unlock(mm);
	task_unlock(g);
}

/* The group's sizes, under its address space's lock. */
static void snap_memory(struct proc *g, struct pid_snap *s)
{
	struct mm *mm = lock_mm_of(g);
	if (mm) {
		s->minflt = g->group->minflt;
		s->vm_pages = mm_total_pages(mm);
		s->peak_pages = mm->hiwater_vm > s->vm_pages ? mm->hiwater_vm : s->vm_pages;
		s->brk_pages = (mm->brk - mm->brk_start) / PAGE_SIZE;
		s->lck_pages = mm_locked_pages(mm);
		vm_rss(mm->pgdir, s->rss, &s->rss_pages, &s->hiwater);
		unlock_mm_of(g, mm);
	}
}

/* whole: the group's CPU times (/proc/PID), or the thread's own
 * (/proc/PID/task/TID), as do_task_stat's 'whole'. */
static int snap(int pid, bool whole, struct pid_snap *s)
{
	struct proc *p = proc_get_or_zombie(pid);
	if (!p)
		return -ESRCH;
	/* What the threads share is the leader's (kernel/task/proc.h). */
	struct proc *g = p->group_leader ? p->group_leader : p;
	*s = (struct pid_snap){
		.pid = p->pid, .tgid = g->pid, .threads = proc_nr_threads(p->pid), .ppid = g->parent ? g->parent->pid : 0, .pgid = g->pgid,
		.sid = g->sid, .uid = p->uid, .euid = p->euid, .suid = p->suid,
		.gid = p->gid, .egid = p->egid, .sgid = p->sgid, .state = procfs_state_char(p),
		.caps = p->caps, .thp_disable = g->group->thp_disable,
		.cutime = g->group->cutime, .cstime = g->group->cstime, .start_ns = p->start_ns,
		/* a zombie's table is gone: Linux says 0 too */
		.fd_size = fd_table_size_of(g),
	};
	snap_memory(g, s);
	task_lock(p);			/* its fs information may be let go meanwhile */
	s->umask = p->fs ? (int)p->fs->umask : -1;
	task_unlock(p);
	memcpy(s->name, p->name, sizeof(s->name));
	memcpy(s->rlim, g->group->rlim, sizeof(s->rlim));
	s->name[PROC_NAME_MAX - 1] = 0;
	snap_signals(p, s);
	sched_task_view(&p->sched, &s->sv);
	s->utime = s->sv.info.utime;
	s->stime = s->sv.info.stime;
	if (whole && g->group_leader)
		proc_group_times(g, &s->utime, &s->stime);
	proc_put(p);
	return 0;
}

static uint32_t user_hz(uint64_t ticks)
{
	return (uint32_t)(ticks * USER_HZ / (uint32_t)sched_hz());
}

/* /proc/PID/stat: 52 fields (do_task_stat). Linux's "priority" is
 * prio - 100 and "nice" static_prio - 120; here priority is the stair. */
static void text_stat(const struct pid_snap *s, struct pbuf *b)
{
	const struct sched_task_info *t = &s->sv.info;
	pb_printf(b, "%d (%s) %c %d %d %d %d %d %u ", s->pid, s->name, s->state, s->ppid,
		  s->pgid, s->sid, s->sid == 1 ? TTY_CONSOLE : 0, -1, 0x400000u);
	pb_printf(b, "%u 0 0 0 %u %u %u %u ", s->minflt, user_hz(s->utime), user_hz(s->stime),
		  user_hz(s->cutime), user_hz(s->cstime));
	pb_printf(b, "%d %d %d 0 %llu %u %u %u ", t->prio - 100, t->nice, s->threads,
		  (unsigned long long)(s->start_ns / (1000000000ull / USER_HZ)),
		  s->vm_pages * PAGE_SIZE, s->rss_pages, 0xffffffffu);
	pb_printf(b, "0 0 0 0 0 %u %u %u %u 0 0 0 %d %d %d ",
		  (uint32_t)s->pending, (uint32_t)s->blocked, (uint32_t)s->ignored,
		  (uint32_t)s->caught, 17, t->cpu, t->rt_priority);	/* 17: SIGCHLD */
	pb_printf(b, "%d 0 0 0 0 0 0 0 0 0 0 0\n", t->policy);
}

static void pb_kb(struct pbuf *b, const char *name, uint32_t pages)
{
	pb_printf(b, "%s:\t%8u kB\n", name, pages * (PAGE_SIZE / 1024));
}

static void text_status_ids(const struct pid_snap *s, struct pbuf *b)
{
	static const char *const states[] = { "R (running)", "S (sleeping)",
		"D (disk sleep)", "T (stopped)", "Z (zombie)" };
	const char *st = states[s->state == 'R' ? 0 : s->state == 'S' ? 1 :
				s->state == 'D' ? 2 : s->state == 'T' ? 3 : 4];
	pb_printf(b, "Name:\t%s\n", s->name);
	if (s->umask >= 0)		/* Linux leaves the line out when there is none */
		pb_printf(b, "Umask:\t%04o\n", (unsigned)s->umask);
	pb_printf(b, "State:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n",
		  st, s->tgid, s->pid, s->ppid);
	pb_printf(b, "Uid:\t%d\t%d\t%d\t%d\nGid:\t%d\t%d\t%d\t%d\nFDSize:\t%d\nGroups:\t\n",
		  s->uid, s->euid, s->suid, s->euid, s->gid, s->egid, s->sgid, s->egid, s->fd_size);
	pb_printf(b, "NStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n",
		  s->tgid, s->pid, s->pgid, s->sid);
}

/* Sizes: mapped (VmSize), and resident, the pages present in the page
 * tables (kernel/mm/vm.c counts them as they come and go), by kind. */
static void text_status_vm(const struct pid_snap *s, struct pbuf *b)
{
	if (!s->vm_pages)
		return;				/* a kernel thread: none, as Linux */
	pb_kb(b, "VmPeak", s->peak_pages);
	pb_kb(b, "VmSize", s->vm_pages);
	pb_kb(b, "VmLck", s->lck_pages);
	pb_kb(b, "VmPin", 0);
	pb_kb(b, "VmHWM", s->hiwater);
	pb_kb(b, "VmRSS", s->rss_pages);
	pb_kb(b, "RssAnon", s->rss[VM_RSS_ANON]);
	pb_kb(b, "RssFile", s->rss[VM_RSS_FILE]);
	pb_kb(b, "RssShmem", s->rss[VM_RSS_SHMEM]);
	pb_kb(b, "VmData", s->brk_pages);
	pb_kb(b, "VmStk", USER_STACK_START / PAGE_SIZE);
	pb_kb(b, "VmExe", 0);
	pb_kb(b, "VmLib", 0);
	pb_kb(b, "VmPTE", 0);
	pb_kb(b, "VmSwap", 0);
}

/* Linux's cpulist: "0-1,3" (bitmap_print_to_pagebuf's list form). */
static void pb_cpu_list(struct pbuf *b, uint32_t mask)
{
	const char *sep = "";
	for (int cpu = 0; cpu < 32; cpu++) {
		if (!(mask & (1u << cpu)))
			continue;
		int last = cpu;
		while (last + 1 < 32 && (mask & (1u << (last + 1))))
			last++;
		pb_printf(b, last > cpu ? "%s%d-%d" : "%s%d", sep, cpu, last);
		sep = ",";
		cpu = last;
	}
}

static void text_status(const struct pid_snap *s, struct pbuf *b)
{
	uint32_t mask = s->sv.info.cpus_allowed;
	text_status_ids(s, b);
	text_status_vm(s, b);
	pb_printf(b, "HugetlbPages:\t%8u kB\nCoreDumping:\t0\nTHP_enabled:\t%d\nThreads:\t%d\n"
		  "SigQ:\t0/%d\n", 0, !s->thp_disable, s->threads, max_threads);
	pb_printf(b, "SigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\nSigIgn:\t%016llx\n"
		  "SigCgt:\t%016llx\n", (unsigned long long)s->pending, (unsigned long long)s->shared,
		  (unsigned long long)s->blocked, (unsigned long long)s->ignored,
		  (unsigned long long)s->caught);
	pb_printf(b, "CapInh:\t%016llx\nCapPrm:\t%016llx\nCapEff:\t%016llx\nCapBnd:\t%016llx\n"
		  "CapAmb:\t%016llx\n", (unsigned long long)s->caps.inheritable,
		  (unsigned long long)s->caps.permitted, (unsigned long long)s->caps.effective,
		  (unsigned long long)s->caps.bounding, (unsigned long long)s->caps.ambient);
	pb_printf(b, "NoNewPrivs:\t%d\nSeccomp:\t0\nSeccomp_filters:\t0\n", s->caps.no_new_privs);
	pb_printf(b, "Speculation_Store_Bypass:\tthread vulnerable\n"
		  "SpeculationIndirectBranch:\tconditional enabled\n");
	pb_printf(b, "Cpus_allowed:\t%x\nCpus_allowed_list:\t", mask);
	pb_cpu_list(b, mask);
	pb_printf(b, "\nMems_allowed:\t1\nMems_allowed_list:\t0\n"
		  "voluntary_ctxt_switches:\t%u\nnonvoluntary_ctxt_switches:\t%u\n",
		  s->sv.nvcsw, s->sv.nivcsw);
}

/* statm: size resident shared text lib data dt, in pages. */
static void text_statm(const struct pid_snap *s, struct pbuf *b)
{
	pb_printf(b, "%u %u %u 0 0 %u 0\n", s->vm_pages, s->rss_pages,
		  s->rss[VM_RSS_FILE] + s->rss[VM_RSS_SHMEM], s->brk_pages);
}

static void sched_line(struct pbuf *b, const char *name, long long v)
{
	pb_printf(b, "%-45s:%21lld\n", name, v);
}

/*
 * /proc/PID/sched: Linux's layout (proc_sched_show_task: a header, then
 * "name : value"), with the staircase's fields under the rule book's
 * names (docs/staircase.md §3, §4, "/proc/PID/sched"). Ticks are the
 * scheduler's (hz of them a second), not USER_HZ.
 */
static void text_sched(const struct pid_snap *s, struct pbuf *b)
{
	const struct sched_task_info *t = &s->sv.info;
	pb_printf(b, "%s (%d, #threads: %d)\n", s->name, s->pid, s->threads);
	pb_printf(b, "-------------------------------------------------------------------\n");
	sched_line(b, "policy", t->policy);
	sched_line(b, "prio", t->prio);
	sched_line(b, "static_prio", t->static_prio);
	sched_line(b, "rt_priority", t->rt_priority);
	sched_line(b, "burst", t->burst);
	sched_line(b, "max_burst", t->max_burst);
	sched_line(b, "slice", t->slice);
	sched_line(b, "full_slice", t->full_slice);
	sched_line(b, "time_slice", t->time_slice);
	sched_line(b, "quantum", s->sv.quantum);
	sched_line(b, "iso_throttled", s->sv.iso_throttled);
	sched_line(b, "flags", t->flags);
	sched_line(b, "cpu", t->cpu);
	sched_line(b, "nr_switches", t->nr_runs);
	sched_line(b, "nr_voluntary_switches", s->sv.nvcsw);
	sched_line(b, "nr_involuntary_switches", s->sv.nivcsw);
	sched_line(b, "utime", t->utime);
	sched_line(b, "stime", t->stime);
	sched_line(b, "wait_ns", (long long)t->wait_ns);
	if (s->sv.fair) {	/* sched=cfs or eevdf: their own state (docs/lineage.md) */
		sched_line(b, "se.vruntime", (long long)s->sv.vruntime);
		sched_line(b, "se.sum_exec_runtime", (long long)s->sv.sum_exec_ns);
	}
	if (s->sv.eevdf) {
		sched_line(b, "se.deadline", (long long)s->sv.deadline);
		sched_line(b, "se.vlag", s->sv.lag);
	}
	if (s->sv.o1) {		/* sched=o1: the interactivity estimate (docs/o1.md §2) */
		sched_line(b, "o1.sleep_avg", (long long)s->sv.sleep_avg);
		sched_line(b, "o1.bonus", s->sv.bonus);
		sched_line(b, "o1.interactive_credit", s->sv.credit);
		sched_line(b, "o1.interactive", s->sv.interactive);
	}
	if (s->sv.sd) {		/* sched=sd: its level and quota there (docs/sd.md §1) */
		sched_line(b, "sd.level", s->sv.level);
		sched_line(b, "sd.quota", s->sv.quota);
		sched_line(b, "sd.rotation", s->sv.rotation);
	}
	if (s->sv.o1 || s->sv.sd)
		sched_line(b, "expired", s->sv.expired);
	sched_line(b, "hz", sched_hz());
}

/* limits: Linux's proc_pid_limits, a header and a row per limit (soft,
 * hard, unit; RLIM_INFINITY as "unlimited"), the group's values as
 * getrlimit and prlimit give them. */
static void text_limits(const struct pid_snap *s, struct pbuf *b)
{
	static const char *const names[RLIM_NLIMITS][2] = {
		{ "Max cpu time", "seconds" },		{ "Max file size", "bytes" },
		{ "Max data size", "bytes" },		{ "Max stack size", "bytes" },
		{ "Max core file size", "bytes" },	{ "Max resident set", "bytes" },
		{ "Max processes", "processes" },	{ "Max open files", "files" },
		{ "Max locked memory", "bytes" },	{ "Max address space", "bytes" },
		{ "Max file locks", "locks" },		{ "Max pending signals", "signals" },
		{ "Max msgqueue size", "bytes" },	{ "Max nice priority", NULL },
		{ "Max realtime priority", NULL },	{ "Max realtime timeout", "us" },
	};
	pb_printf(b, "%-25s %-20s %-20s %-10s\n", "Limit", "Soft Limit", "Hard Limit", "Units");
	for (int i = 0; i < RLIM_NLIMITS; i++) {
		const struct rlimit *l = &s->rlim[i];
		pb_printf(b, "%-25s ", names[i][0]);
		if (l->rlim_cur == RLIM_INFINITY)
			pb_printf(b, "%-20s ", "unlimited");
		else
			pb_printf(b, "%-20lu ", l->rlim_cur);
		if (l->rlim_max == RLIM_INFINITY)
			pb_printf(b, "%-20s ", "unlimited");
		else
			pb_printf(b, "%-20lu ", l->rlim_max);
		if (names[i][1])
			pb_printf(b, "%-10s\n", names[i][1]);
		else
			pb_printf(b, "\n");
	}
}

/* schedstat: Linux's three numbers (proc_pid_schedstat): the task's time
 * on a CPU (ns), its time runnable but waiting (ns) and how many times it
 * was switched in. The task's own, the thread's, as on Linux. Run time
 * is counted in ticks here (docs/staircase.md §6.1: the tick charges the
 * task it finds running), so it moves a tick at a time. */
static void text_schedstat(const struct pid_snap *s, struct pbuf *b)
{
	const struct sched_task_info *t = &s->sv.info;
	uint64_t tick_ns = 1000000000ull / (uint32_t)sched_hz();
	pb_printf(b, "%llu %llu %u\n", (unsigned long long)((t->utime + t->stime) * tick_ns),
		  (unsigned long long)t->wait_ns, t->nr_runs);
}

/* One region as Linux's show_map_vma prints it on i386: start-end, rwx
 * and p/s, the file offset, dev and inode, then (padded to 48 columns and
 * a space, seq_pad) the file or [heap] / [stack]. The initrd is device
 * 00:01 (kernel/fs/stat.c). The program's segments are mappings of its
 * file (kernel/task/elf.c), named as on Linux; their bss is anonymous.
 * An attached System V segment is its shm file, as Linux names it: the
 * offset in the segment, the id as inode, "/SYSV<key> (deleted)". */
static void maps_line(struct pbuf *b, const struct vm_area *a)
{
	char path[INITRD_PATH_MAX + 156];
	const char *name = a->flags & VMA_HEAP ? "[heap]" : a->flags & VMA_GROWSDOWN ? "[stack]" : NULL;
	uint32_t len = b->len, off = a->file ? a->file_off : 0;
	uint32_t minor = !a->file ? 0 : tmpfs_of(a->file) ? tmpfs_of(a->file)->sb->dev_minor : 1;
	uint32_t ino = a->file ? initrd_ino(a->file) : 0;
	int shmid;
	int32_t key;

	if (a->file)		/* a tmpfs file's path is spelled from its names up */
		name = mount_path(a->file, path, sizeof(path)) < 0 ? "" : path;
	if (shm_region_name(a, &shmid, &key)) {
		ksnprintf(path, sizeof(path), "/SYSV%08x (deleted)", (uint32_t)key);
		name = path;
		off = a->file_off;
		minor = 1;
		ino = (uint32_t)shmid;
	}
	pb_printf(b, "%08x-%08x %c%c%c%c %08x %02x:%02x %u ", a->start, a->end,
		  a->prot & PROT_READ ? 'r' : '-', a->prot & PROT_WRITE ? 'w' : '-',
		  a->prot & PROT_EXEC ? 'x' : '-', a->flags & VMA_SHARED ? 's' : 'p',
		  off, 0, minor, ino);
	if (name) {
		for (uint32_t col = b->len - len; col < 48 && !b->err; col++)
			pb_putc(b, ' ');
		pb_printf(b, " %s", name);
	}
	pb_printf(b, "\n");
}

/* maps: the group's regions (kernel/mm/mm.c), read under its mm lock. A
 * kernel thread has none: an empty file, as Linux's. */
static int text_maps(int pid, struct pbuf *b)
{
	struct proc *p = proc_get_or_zombie(pid);
	if (!p)
		return -ESRCH;
	struct proc *g = p->group_leader ? p->group_leader : p;
	struct mm *mm = lock_mm_of(g);
	if (mm) {
		for (int i = 0; i < mm->n; i++)
			maps_line(b, &mm->area[i]);
		unlock_mm_of(g, mm);
	}
	proc_put(p);
	return 0;
}

/*
 * cmdline and environ: the strings exec put on the stack, read from the
 * process's memory as they are now (Linux's proc_pid_cmdline_read and
 * environ_read, through mm->arg_start..arg_end, env_start..env_end), so
 * a program that rewrites its argv shows the change. Another address
 * space's tables are walked under its lock (lock_mm_of); a page that is
 * not there ends the text (Linux's access_remote_vm does not fault pages
 * in for a reader either). The caller's own (its process's, or one that
 * shares the caller's memory) is read as any user memory, which takes
 * the lock itself. A kernel thread's is empty, as Linux's.
 */
static void user_strings(struct mm *mm, bool own, bool env, struct pbuf *b)
{
	uint32_t at = env ? mm->env_start : mm->arg_start;
	uint32_t end = env ? mm->env_end : mm->arg_end;
	char chunk[256];
	while (at < end && !b->err) {
		uint32_t n = end - at < sizeof(chunk) ? end - at : sizeof(chunk);
		int err = own ? copy_from_user(chunk, (const void *)at, n)
			      : copy_from_pgdir(chunk, mm->pgdir, at, n);
		if (err)
			break;
		for (uint32_t i = 0; i < n; i++)
			pb_putc(b, chunk[i]);
		at += n;
	}
}

static int text_user_strings(int pid, bool env, struct pbuf *b)
{
	struct proc *p = proc_get_or_zombie(pid);
	if (!p)
		return -ESRCH;
	struct proc *g = p->group_leader ? p->group_leader : p;
	struct mm *mine = current()->mm;
	if (__atomic_load_n(&g->mm, __ATOMIC_RELAXED) == mine) {
		user_strings(mine, true, env, b);	/* ours: it cannot go */
	} else {
		struct mm *mm = lock_mm_of(g);
		if (mm) {
			user_strings(mm, false, env, b);
			unlock_mm_of(g, mm);
		}
	}
	proc_put(p);
	return 0;
}

/* The sleep helpers a wchan walk steps over (Linux's .sched.text):
 * the answer is who called them. */
static bool sleep_helper(const char *name)
{
	static const char *const helpers[] = {
		"schedule", "swtch", "pipe_sleep",	/* the only frames a sleeper's stack holds above its caller */
	};
	for (unsigned i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++)
		if (strcmp(name, helpers[i]) == 0)
			return true;
	return false;
}

/* In the stack [lo, hi): a frame's two words can be read there. */
static bool in_stack(uint32_t a, uint32_t lo, uint32_t hi)
{
	return a >= lo && a + 8 <= hi && !(a & 3);
}

/*
 * wchan: the kernel function a sleeping task waits in (Linux's
 * get_wchan): its saved frames (swtch's context, then the ebp chain)
 * walked past the sleep helpers; "0" for a task that is running or
 * runnable. As Linux's, a walk races with the task waking: each frame is
 * read only inside the task's own kernel stack, so a woken task gives a
 * stale name or 0, never a fault.
 */
static int text_wchan(int pid, struct pbuf *b)
{
	struct proc *p = proc_get_or_zombie(pid);
	if (!p)
		return -ESRCH;
	const char *name = NULL;
	uint32_t lo = (uint32_t)p->kstack, hi = lo + KSTACK_SIZE;
	const struct context *c = p->context;
	if (procfs_state_char(p) != 'R' && !p->sched.on_cpu && in_stack((uint32_t)c, lo, hi)) {
		uint32_t eip = c->eip, ebp = c->ebp, off;
		for (int depth = 0; depth < 16; depth++) {
			name = ksym_lookup(eip, &off);
			if (!name || !sleep_helper(name) || !in_stack(ebp, lo, hi))
				break;
			eip = ((const uint32_t *)ebp)[1];
			ebp = ((const uint32_t *)ebp)[0];
		}
		if (name && sleep_helper(name))
			name = NULL;
	}
	pb_printf(b, "%s", name ? name : "0");
	proc_put(p);
	return 0;
}

int procfs_pid_text(const struct initrd_file *n, struct pbuf *b)
{
	struct pid_snap s;
	if (n->procfs == PROCFS_PID_MAPS)
		return text_maps(n->arg, b);
	if (n->procfs == PROCFS_PID_WCHAN)
		return text_wchan(n->arg, b);
	if (n->procfs == PROCFS_PID_FDINFO)
		return procfs_fd_info_text(n, b);
	if (n->procfs == PROCFS_PID_CMDLINE || n->procfs == PROCFS_PID_ENVIRON)
		return text_user_strings(n->arg, n->procfs == PROCFS_PID_ENVIRON, b);
	int err = snap(n->arg, !procfs_pid_is_thread(n), &s);
	if (err)
		return err;
	switch (n->procfs) {
	case PROCFS_PID_STAT:		text_stat(&s, b); break;
	case PROCFS_PID_STATUS:		text_status(&s, b); break;
	case PROCFS_PID_STATM:		text_statm(&s, b); break;
	case PROCFS_PID_COMM:		pb_printf(b, "%s\n", s.name); break;
	case PROCFS_PID_SCHED:		text_sched(&s, b); break;
	case PROCFS_PID_LIMITS:		text_limits(&s, b); break;
	case PROCFS_PID_SCHEDSTAT:	text_schedstat(&s, b); break;
	case PROCFS_PID_MOUNTS:		mount_show(b); break;
	case PROCFS_PID_MOUNTINFO:	mount_show_info(b); break;
	default:			break;
	}
	return 0;
}
