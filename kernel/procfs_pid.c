/*
 * procfs_pid.c - /proc/PID: one directory per live process, with Linux
 * 6.1's files and formats (man 5 proc; fs/proc/array.c) and the
 * staircase's own view in /proc/PID/sched (docs/staircase.md §3).
 *
 * Teaching size: Linux makes a dentry per lookup and frees it with the
 * dcache; here each kernel-stack slot (kernel/kstack.c) has one set of
 * nodes, made when a walk or a listing first reaches a task in it and
 * kept. A slot a new task takes gets its nodes filled again (under
 * nodes_lock); an open file keeps
 * its pid (node->arg was copied into the file's node pointer's arg at
 * fill time) and procfs.c checks at every read that the pid still lives.
 * The one shortcut: a working directory inside /proc/PID whose process
 * exited moves to the next process that takes the slot, where Linux's
 * would be a dead directory.
 *
 * Times are in Linux's USER_HZ (100 per second), converted from ticks of
 * the scheduler's hz. Zombies have no directory (Linux shows them, state
 * Z): proc_get() finds only live processes.
 */
#include "procfs.h"
#include <stdbool.h>
#include "../sched/syscalls.h"	/* struct sched_task_view */
#include "errno.h"
#include "format.h"
#include "initrd.h"
#include "kmalloc.h"
#include "mm.h"
#include "pid.h"
#include "proc.h"
#include "spinlock.h"
#include "string.h"
#include "systime.h"	/* USER_HZ */

#define PROC_PID_INO	0x10000000u	/* /proc/PID's inode numbers start here */
#define TTY_CONSOLE	(4 << 8 | 64)	/* ttyS0, Linux's tty_nr of the console */

static const struct pid_entry {
	const char *name;
	uint8_t kind;
	uint16_t perm;
} entries[] = {			/* Linux's order of /proc/PID (tgid_base_stuff) */
	{ "environ",	PROCFS_PID_ENVIRON,	0400 },
	{ "status",	PROCFS_PID_STATUS,	0444 },
	{ "sched",	PROCFS_PID_SCHED,	0444 },
	{ "cmdline",	PROCFS_PID_CMDLINE,	0444 },
	{ "comm",	PROCFS_PID_COMM,	0444 },
	{ "exe",	PROCFS_PID_EXE,		0777 },
	{ "stat",	PROCFS_PID_STAT,	0444 },
	{ "statm",	PROCFS_PID_STATM,	0444 },
	{ "maps",	PROCFS_PID_MAPS,	0444 },
};
#define NENTRIES	(sizeof(entries) / sizeof(entries[0]))

static struct pid_nodes {
	struct initrd_file dir;
	struct initrd_file ent[NENTRIES];
	int slot;
} *pool[KSTACK_SLOTS_MAX];		/* kmalloc'd at a slot's first use */
static struct spinlock nodes_lock = SPINLOCK_INIT("procfs nodes");

/* The set a /proc/PID node belongs to, or NULL: only sets have those kinds. */
static struct pid_nodes *nodes_of(const struct initrd_file *n)
{
	if (n->procfs == PROCFS_PID_DIR)
		return (struct pid_nodes *)((const char *)n - offsetof(struct pid_nodes, dir));
	for (unsigned k = 0; k < NENTRIES; k++)
		if (n->procfs == entries[k].kind)
			return (struct pid_nodes *)((const char *)(n - k) -
						    offsetof(struct pid_nodes, ent));
	return NULL;
}

static bool in_pool(const struct initrd_file *n)
{
	return nodes_of(n) != NULL;
}

static int slot_of(const struct initrd_file *n)
{
	return nodes_of(n)->slot;
}

/* The stack slot of live task pid, with its set of nodes made, or -1. */
static int find_slot(int pid)
{
	int slot = proc_kstack_slot(pid);
	if (slot < 0 || pool[slot])
		return slot;
	struct pid_nodes *s = kzalloc(sizeof(*s));
	if (!s)
		return -1;
	s->slot = slot;
	spin_lock(&nodes_lock);
	if (!pool[slot]) {
		pool[slot] = s;
		s = NULL;
	}
	spin_unlock(&nodes_lock);
	kfree(s);		/* another CPU made it first */
	return slot;
}

static void fill_node(struct initrd_file *n, int pid, const char *name, uint8_t kind,
		      uint16_t perm)
{
	memset(n, 0, sizeof(*n));
	if (name)
		ksnprintf(n->path, sizeof(n->path), "/proc/%d/%s", pid, name);
	else
		ksnprintf(n->path, sizeof(n->path), "/proc/%d", pid);
	n->is_dir = !name;
	n->perm = perm;
	n->procfs = kind;
	n->arg = pid;
	n->magic = kind == PROCFS_PID_EXE;	/* kernel/procfs.c's MAGIC_EXE */
}

static void fill_slot(int slot, int pid)
{
	struct pid_nodes *s = pool[slot];
	spin_lock(&nodes_lock);
	if (s->dir.procfs != PROCFS_PID_DIR || s->dir.arg != pid) {
		fill_node(&s->dir, pid, NULL, PROCFS_PID_DIR, 0555);
		for (unsigned k = 0; k < NENTRIES; k++)
			fill_node(&s->ent[k], pid, entries[k].name, entries[k].kind, entries[k].perm);
	}
	spin_unlock(&nodes_lock);
}

const struct initrd_file *procfs_pid_dir(int pid)
{
	int slot = pid > 0 ? find_slot(pid) : -1;
	if (slot < 0)
		return NULL;
	fill_slot(slot, pid);
	return &pool[slot]->dir;
}

int procfs_pid_lookup(const struct initrd_file **at, const char *name, size_t len)
{
	int slot = slot_of(*at);
	if (!procfs_pid_dir((*at)->arg))
		return -ENOENT;				/* it exited */
	for (unsigned k = 0; k < NENTRIES; k++) {
		if (strlen(entries[k].name) == len && memcmp(entries[k].name, name, len) == 0) {
			*at = &pool[slot]->ent[k];
			return 0;
		}
	}
	return -ENOENT;
}

/* /proc's PIDs (positions base + slot), or /proc/PID's files (0..). */
const struct initrd_file *procfs_pid_next(const struct initrd_file *dir, uint32_t *pos,
					  uint32_t base)
{
	if (dir->procfs == PROCFS_PID_DIR) {
		uint32_t k = *pos;
		if (k >= NENTRIES || !procfs_pid_dir(dir->arg)) {
			*pos = NENTRIES;
			return NULL;
		}
		*pos = k + 1;
		return &pool[slot_of(dir)]->ent[k];
	}
	/* In pid order, as Linux's next_tgid; processes only: a thread's
	 * /proc/TID is found, not listed (Linux). */
	for (int pid = proc_next_process((int)(*pos - base)); pid; pid = proc_next_process(pid + 1)) {
		const struct initrd_file *d = procfs_pid_dir(pid);
		if (d) {
			*pos = base + (uint32_t)pid + 1;
			return d;
		}
	}
	*pos = base + PID_MAX_LIMIT;
	return NULL;
}

const struct initrd_file *procfs_pid_parent(const struct initrd_file *n)
{
	if (in_pool(n) && n->procfs != PROCFS_PID_DIR)
		return &pool[slot_of(n)]->dir;
	return initrd_lookup("/proc");
}

uint32_t procfs_pid_ino(const struct initrd_file *n)
{
	const struct pid_nodes *s = nodes_of(n);
	uint32_t k = n == &s->dir ? 0 : (uint32_t)(n - s->ent) + 1;
	return PROC_PID_INO + (uint32_t)slot_of(n) * 16 + k;
}

int procfs_pid_uid(const struct initrd_file *n)
{
	struct proc *p = proc_get(n->arg);
	int uid = p ? p->euid : 0;
	if (p)
		proc_put(p);
	return uid;
}

const struct initrd_file *procfs_pid_exe(int pid)
{
	struct proc *p = proc_get(pid);
	const struct initrd_file *exe = p && p->group_leader ? p->group_leader->exe : NULL;
	if (p)
		proc_put(p);
	return exe;
}

/* ---- the texts ---------------------------------------------------------------- */

/* What the texts show of one process, read while proc_get() holds its
 * slot, and its scheduler state under its run queue's lock. */
struct pid_snap {
	int pid, ppid, pgid, sid, uid, euid, suid, gid, egid, sgid;
	char name[PROC_NAME_MAX];
	char cmdline[PROC_CMDLINE_MAX];
	uint32_t cmdline_len;
	char state;
	uint32_t cutime, cstime, minflt, vm_pages, brk_pages, fd_size;
	uint64_t start_ns;
	sigset64_t pending, blocked, ignored, caught;
	struct sched_task_view sv;
};

char procfs_state_char(const struct proc *p)
{
	if (p->stopped)
		return 'T';
	switch (p->se.state) {
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
	s->blocked = p->sig_blocked;
	for (int sig = 1; sig <= NSIG; sig++) {
		uint32_t h = sa_addr(&p->group_leader->sigact[sig - 1]);
		if (h == SIG_IGN)
			s->ignored |= (sigset64_t)1 << (sig - 1);
		else if (h != 0)
			s->caught |= (sigset64_t)1 << (sig - 1);
	}
}

static int snap(int pid, struct pid_snap *s)
{
	struct proc *p = proc_get(pid);
	if (!p)
		return -ESRCH;
	/* What the threads share is the leader's (kernel/proc.h). */
	const struct proc *g = p->group_leader ? p->group_leader : p;
	*s = (struct pid_snap){
		.pid = p->pid, .ppid = g->parent ? g->parent->pid : 0, .pgid = g->pgid,
		.sid = g->sid, .uid = p->uid, .euid = p->euid, .suid = p->suid,
		.gid = p->gid, .egid = p->egid, .sgid = p->sgid, .state = procfs_state_char(p),
		.cutime = g->cutime, .cstime = g->cstime, .minflt = g->mm.minflt,
		.vm_pages = g->pgdir ? mm_total_pages(&g->mm) : 0,
		.brk_pages = (g->mm.brk - g->mm.brk_start) / PAGE_SIZE,
		.start_ns = p->start_ns,
		/* a zombie's table is gone: Linux says 0 too */
		.fd_size = g->fdt ? g->fdt->max_fds : 0,
	};
	memcpy(s->name, p->name, sizeof(s->name));
	s->cmdline_len = g->cmdline_len < sizeof(s->cmdline) ? g->cmdline_len : sizeof(s->cmdline);
	memcpy(s->cmdline, g->cmdline, s->cmdline_len);
	s->name[PROC_NAME_MAX - 1] = 0;
	snap_signals(p, s);
	sched_task_view(&p->se, &s->sv);
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
	pb_printf(b, "%u 0 0 0 %u %u %u %u ", s->minflt, user_hz(t->utime), user_hz(t->stime),
		  user_hz(s->cutime), user_hz(s->cstime));
	pb_printf(b, "%d %d 1 0 %llu %u %u %u ", t->prio - 100, t->nice,
		  (unsigned long long)(s->start_ns / (1000000000ull / USER_HZ)),
		  s->vm_pages * PAGE_SIZE, s->vm_pages, 0xffffffffu);
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
	pb_printf(b, "Name:\t%s\nUmask:\t0022\nState:\t%s\nTgid:\t%d\nNgid:\t0\n"
		  "Pid:\t%d\nPPid:\t%d\nTracerPid:\t0\n", s->name, st, s->pid, s->pid, s->ppid);
	pb_printf(b, "Uid:\t%d\t%d\t%d\t%d\nGid:\t%d\t%d\t%d\t%d\nFDSize:\t%d\nGroups:\t\n",
		  s->uid, s->euid, s->suid, s->euid, s->gid, s->egid, s->sgid, s->egid, s->fd_size);
	pb_printf(b, "NStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n",
		  s->pid, s->pid, s->pgid, s->sid);
}

/* Sizes: every mapped page counts as resident (pages are not counted as
 * they are touched here). */
static void text_status_vm(const struct pid_snap *s, struct pbuf *b)
{
	if (!s->vm_pages)
		return;				/* a kernel thread: none, as Linux */
	pb_kb(b, "VmPeak", s->vm_pages);
	pb_kb(b, "VmSize", s->vm_pages);
	pb_kb(b, "VmLck", 0);
	pb_kb(b, "VmPin", 0);
	pb_kb(b, "VmHWM", s->vm_pages);
	pb_kb(b, "VmRSS", s->vm_pages);
	pb_kb(b, "RssAnon", s->vm_pages);
	pb_kb(b, "RssFile", 0);
	pb_kb(b, "RssShmem", 0);
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
	pb_printf(b, "HugetlbPages:\t%8u kB\nCoreDumping:\t0\nTHP_enabled:\t1\nThreads:\t1\n"
		  "SigQ:\t0/%d\n", 0, max_threads);
	pb_printf(b, "SigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\nSigIgn:\t%016llx\n"
		  "SigCgt:\t%016llx\n", (unsigned long long)s->pending, 0ull,
		  (unsigned long long)s->blocked, (unsigned long long)s->ignored,
		  (unsigned long long)s->caught);
	pb_printf(b, "CapInh:\t%016llx\nCapPrm:\t%016llx\nCapEff:\t%016llx\nCapBnd:\t%016llx\n"
		  "CapAmb:\t%016llx\n", 0ull, s->euid ? 0ull : 0x1ffffffffffull,
		  s->euid ? 0ull : 0x1ffffffffffull, 0x1ffffffffffull, 0ull);
	pb_printf(b, "NoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n"
		  "Speculation_Store_Bypass:\tthread vulnerable\n"
		  "SpeculationIndirectBranch:\tconditional enabled\n");
	pb_printf(b, "Cpus_allowed:\t%x\nCpus_allowed_list:\t", mask);
	pb_cpu_list(b, mask);
	pb_printf(b, "\nMems_allowed:\t1\nMems_allowed_list:\t0\n"
		  "voluntary_ctxt_switches:\t%u\nnonvoluntary_ctxt_switches:\t0\n",
		  s->sv.info.nr_runs);
}

/* statm: size resident shared text lib data dt, in pages. */
static void text_statm(const struct pid_snap *s, struct pbuf *b)
{
	pb_printf(b, "%u %u 0 0 0 %u 0\n", s->vm_pages, s->vm_pages, s->brk_pages);
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
	pb_printf(b, "%s (%d, #threads: 1)\n", s->name, s->pid);
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
	sched_line(b, "utime", t->utime);
	sched_line(b, "stime", t->stime);
	sched_line(b, "wait_ns", (long long)t->wait_ns);
	sched_line(b, "hz", sched_hz());
}

/* One region as Linux's show_map_vma prints it on i386: start-end, rwx
 * and p/s, the file offset, dev and inode, then (padded to 48 columns and
 * a space, seq_pad) the file or [heap] / [stack]. The initrd is device
 * 00:01 (kernel/stat.c). A shortcut: exec copies the program's segments
 * into anonymous regions (kernel/exec.c), so they show no name where
 * Linux names the program. */
static void maps_line(struct pbuf *b, const struct vm_area *a)
{
	const char *name = a->file ? a->file->path : a->flags & VMA_HEAP ? "[heap]" :
			   a->flags & VMA_GROWSDOWN ? "[stack]" : NULL;
	uint32_t len = b->len;

	pb_printf(b, "%08x-%08x %c%c%c%c %08x %02x:%02x %u ", a->start, a->end,
		  a->prot & PROT_READ ? 'r' : '-', a->prot & PROT_WRITE ? 'w' : '-',
		  a->prot & PROT_EXEC ? 'x' : '-', a->flags & VMA_SHARED ? 's' : 'p',
		  a->file ? a->file_off : 0, 0, a->file ? 1 : 0,
		  a->file ? initrd_ino(a->file) : 0);
	if (name) {
		for (uint32_t col = b->len - len; col < 48 && !b->err; col++)
			pb_putc(b, ' ');
		pb_printf(b, " %s", name);
	}
	pb_printf(b, "\n");
}

/* maps: the group's regions (kernel/mm.c), read under its mm lock. A
 * kernel thread has none: an empty file, as Linux's. */
static int text_maps(int pid, struct pbuf *b)
{
	struct proc *p = proc_get(pid);
	if (!p)
		return -ESRCH;
	struct proc *g = p->group_leader ? p->group_leader : p;
	if (g->pgdir) {
		mm_lock(&g->mm);
		for (int i = 0; i < g->mm.n; i++)
			maps_line(b, &g->mm.area[i]);
		mm_unlock(&g->mm);
	}
	proc_put(p);
	return 0;
}

/* cmdline: argv as exec gave it, each argument NUL-ended (what ps's
 * COMMAND and pidof read); a kernel thread's is empty, as Linux's. */
static void text_cmdline(const struct pid_snap *s, struct pbuf *b)
{
	for (uint32_t i = 0; i < s->cmdline_len && s->vm_pages; i++)
		pb_putc(b, s->cmdline[i]);
}

int procfs_pid_text(const struct initrd_file *n, struct pbuf *b)
{
	struct pid_snap s;
	if (n->procfs == PROCFS_PID_MAPS)
		return text_maps(n->arg, b);
	int err = snap(n->arg, &s);
	if (err)
		return err;
	switch (n->procfs) {
	case PROCFS_PID_STAT:		text_stat(&s, b); break;
	case PROCFS_PID_STATUS:		text_status(&s, b); break;
	case PROCFS_PID_STATM:		text_statm(&s, b); break;
	case PROCFS_PID_CMDLINE:	text_cmdline(&s, b); break;
	case PROCFS_PID_COMM:		pb_printf(b, "%s\n", s.name); break;
	case PROCFS_PID_SCHED:		text_sched(&s, b); break;
	default:			break;	/* environ: not kept after exec */
	}
	return 0;
}
