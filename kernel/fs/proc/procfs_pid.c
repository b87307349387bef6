/*
 * procfs_pid.c - /proc/PID: one directory per live process, with Linux
 * 6.1's files and formats (man 5 proc; fs/proc/array.c) and the
 * staircase's own view in /proc/PID/sched (docs/staircase.md §3); and
 * /proc/PID/task/TID, the same files for one thread of the group.
 *
 * Two views of a task, as Linux's tgid_base_stuff and tid_base_stuff:
 * /proc/TID/stat is the whole group's (its CPU times summed over every
 * thread, the exited ones too), /proc/TGID/task/TID/stat the thread's
 * own (do_task_stat's 'whole'). /proc/TID is found for a thread too, but
 * /proc lists only the groups; /proc/TGID/task lists the group's threads.
 *
 * Teaching size: Linux makes a dentry per lookup and frees it with the
 * dcache; here each kernel-stack slot (kernel/mm/kstack.c) has two sets of
 * nodes, its task's /proc/TID and its /proc/TGID/task/TID, made when a
 * walk or a listing first reaches the task. A slot a new task takes gets
 * its nodes filled again (under nodes_lock). Open files and working
 * directories hold their set (procfs_node_hold); a set no one holds is
 * freed when the frames are counted (procfs_pid_trim, as Linux's
 * drop_caches frees unused dentries): a walk that found a node uses it
 * only until it sleeps (kernel/sync/rcu.h), or holds it. An open file
 * remembers the pid it was opened for (struct file's proc_pid), and
 * procfs.c checks at every read that its node still stands for that
 * live pid: a pid that exited, or whose slot another task took, gives
 * ESRCH, never the newcomer's data.
 * The one shortcut: a working directory inside /proc/PID whose process
 * exited moves to the next process that takes the slot, where Linux's
 * would be a dead directory.
 *
 * A zombie keeps its directory until it is reaped, as Linux's: state Z,
 * no memory, no descriptors, no cwd or exe (proc_get_or_zombie finds
 * it). The files' texts are kernel/fs/proc/procfs_pid_text.c's.
 */
#include "procfs.h"
#include <stdbool.h>
#include "lib/errno.h"
#include "lib/format.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/initrd.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/debug/panic.h"	/* KASSERT */
#include "kernel/task/pid.h"
#include "kernel/task/proc.h"
#include "kernel/sync/rcu.h"
#include "lib/spinlock.h"
#include "lib/string.h"

#define PROC_PID_INO	0x10000000u	/* /proc/PID's inode numbers start here */
#define PROC_FD_INO	0x40000000u	/* fd/N's and fdinfo/N's (procfs_pid_ino) */

static const struct pid_entry {
	const char *name;
	uint8_t kind;
	uint16_t perm;
} entries[] = {			/* Linux's order of /proc/PID (tgid_base_stuff) */
	{ "task",	PROCFS_PID_TASK,	0555 },	/* TASK_ENTRY */
	{ "fd",		PROCFS_PID_FD_DIR,	0500 },	/* procfs_fd.c */
	{ "fdinfo",	PROCFS_PID_FDINFO_DIR,	0555 },
	{ "environ",	PROCFS_PID_ENVIRON,	0400 },
	{ "status",	PROCFS_PID_STATUS,	0444 },
	{ "limits",	PROCFS_PID_LIMITS,	0444 },
	{ "sched",	PROCFS_PID_SCHED,	0444 },
	{ "cmdline",	PROCFS_PID_CMDLINE,	0444 },
	{ "comm",	PROCFS_PID_COMM,	0444 },
	{ "cwd",	PROCFS_PID_CWD,		0777 },
	{ "root",	PROCFS_PID_ROOT,	0777 },
	{ "exe",	PROCFS_PID_EXE,		0777 },
	{ "mounts",	PROCFS_PID_MOUNTS,	0444 },
	{ "mountinfo",	PROCFS_PID_MOUNTINFO,	0444 },
	{ "stat",	PROCFS_PID_STAT,	0444 },
	{ "statm",	PROCFS_PID_STATM,	0444 },
	{ "maps",	PROCFS_PID_MAPS,	0444 },
	{ "pagemap",	PROCFS_PID_PAGEMAP,	0400 },
	{ "wchan",	PROCFS_PID_WCHAN,	0444 },
	{ "schedstat",	PROCFS_PID_SCHEDSTAT,	0444 },
};
#define NENTRIES	(sizeof(entries) / sizeof(entries[0]))
#define TASK_ENTRY	0	/* /proc/PID's only: task/TID has no task (tid_base_stuff) */
#define FD_ENTRY	1
#define FDINFO_ENTRY	2

/* One directory and its files: a task's /proc/TID, or its
 * /proc/TGID/task/TID (thread: the thread's own view; no task entry). */
/* The longest path of a node: "/proc/PID/task/TID/schedstat", ten digits each. */
#define PID_PATH_MAX	48

struct fd_nodes;

struct pid_nodes {
	struct initrd_file dir;
	struct initrd_file ent[NENTRIES];
	char path[NENTRIES + 1][PID_PATH_MAX];	/* ent[k]'s, then dir's */
	int slot;
	bool thread;
	int tgid;			/* thread: the group named in its path */
	struct fd_nodes *fds;		/* fd/N and fdinfo/N, made as reached (nodes_lock) */
};

/* The nodes of fd/N and fdinfo/N for FD_CHUNK descriptors from base: a
 * list per set, a chunk made when a walk or a listing first reaches one
 * of its descriptors, freed with its set. A node is filled again for
 * the descriptor and the task it is handed out for. */
#define FD_CHUNK	32
struct fd_nodes {
	struct fd_nodes *next;
	struct pid_nodes *set;
	int base;
	struct initrd_file link[FD_CHUNK], info[FD_CHUNK];
	char path[2][FD_CHUNK][PID_PATH_MAX];
};

static struct slot_nodes {
	struct pid_nodes pid, tid;
	int refs;			/* open files and working directories, under nodes_lock */
	struct rcu_head rcu;
} *pool[KSTACK_SLOTS_MAX];		/* kmalloc'd at a slot's first use */
static struct spinlock nodes_lock = SPINLOCK_INIT("procfs nodes");

/* The chunk of an fd/N or fdinfo/N node. */
static struct fd_nodes *chunk_of(const struct initrd_file *n)
{
	size_t k = (size_t)n->index % FD_CHUNK;
	if (n->procfs == PROCFS_PID_FD)
		return (struct fd_nodes *)((const char *)(n - k) - offsetof(struct fd_nodes, link));
	return (struct fd_nodes *)((const char *)(n - k) - offsetof(struct fd_nodes, info));
}

/* The set a /proc/PID node belongs to, or NULL: only sets have those kinds. */
static struct pid_nodes *nodes_of(const struct initrd_file *n)
{
	if (n->owner != NODE_PROC_PID)		/* every set's node is (fill_node) */
		return NULL;
	if (n->procfs == PROCFS_PID_DIR)
		return (struct pid_nodes *)((const char *)n - offsetof(struct pid_nodes, dir));
	if (n->procfs == PROCFS_PID_FD || n->procfs == PROCFS_PID_FDINFO)
		return chunk_of(n)->set;
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

static struct slot_nodes *slot_nodes_of(const struct initrd_file *n)
{
	struct pid_nodes *s = nodes_of(n);
	size_t off = s->thread ? offsetof(struct slot_nodes, tid) : offsetof(struct slot_nodes, pid);
	return (struct slot_nodes *)((char *)s - off);
}

/* A node kept past the walk that found it (an open file, a working
 * directory): 0, or -ENOENT when its set was trimmed meanwhile (then its
 * task is gone). Other nodes need no hold. */
int procfs_node_hold(const struct initrd_file *n)
{
	if (!n || !in_pool(n))
		return 0;
	struct slot_nodes *set = slot_nodes_of(n);
	spin_lock(&nodes_lock);
	bool kept = pool[nodes_of(n)->slot] == set;
	if (kept)
		set->refs++;
	spin_unlock(&nodes_lock);
	return kept ? 0 : -ENOENT;
}

void procfs_node_drop(const struct initrd_file *n)
{
	if (!n || !in_pool(n))
		return;
	spin_lock(&nodes_lock);
	KASSERT(slot_nodes_of(n)->refs > 0);
	slot_nodes_of(n)->refs--;
	spin_unlock(&nodes_lock);
}

static void free_chunks(struct fd_nodes *c)
{
	while (c) {
		struct fd_nodes *next = c->next;
		kfree(c);
		c = next;
	}
}

static void set_free_rcu(struct rcu_head *h)
{
	struct slot_nodes *set = (struct slot_nodes *)((char *)h - offsetof(struct slot_nodes, rcu));
	free_chunks(set->pid.fds);
	free_chunks(set->tid.fds);
	kfree(set);
}

/* Free the sets no one holds, once no walk can be looking at them; a
 * later walk makes them again. */
void procfs_pid_trim(void)
{
	spin_lock(&nodes_lock);
	for (unsigned slot = 0; slot < KSTACK_SLOTS_MAX; slot++) {
		struct slot_nodes *set = pool[slot];
		if (set && set->refs == 0) {
			pool[slot] = NULL;
			rcu_call(&set->rcu, set_free_rcu);
		}
	}
	spin_unlock(&nodes_lock);
}

static int slot_of(const struct initrd_file *n)
{
	return nodes_of(n)->slot;
}

/* The stack slot of live task pid, with its sets of nodes made, or -1. */
static int find_slot(int pid)
{
	int slot = proc_kstack_slot(pid);
	if (slot < 0 || pool[slot])
		return slot;
	struct slot_nodes *s = kzalloc(sizeof(*s));
	if (!s)
		return -1;
	s->pid.slot = s->tid.slot = slot;
	s->tid.thread = true;
	spin_lock(&nodes_lock);
	if (!pool[slot]) {
		pool[slot] = s;
		s = NULL;
	}
	spin_unlock(&nodes_lock);
	kfree(s);		/* another CPU made it first */
	return slot;
}

/* A node's kind never changes once set (its place in the set says it),
 * so a reader on another CPU that asks whether a node is /proc/PID's
 * (in_pool: procfs_node_hold, procfs_node_drop) while the set is filled
 * again for a new task always gets the same answer: the node is never
 * zeroed here (the set was kzalloc'd). */
static void fill_node(struct initrd_file *n, char *path, const char *dir, const char *name,
		      uint8_t kind, uint16_t perm, int pid)
{
	if (name)
		ksnprintf(path, PID_PATH_MAX, "%s/%s", dir, name);
	else
		strlcpy(path, dir, PID_PATH_MAX);
	n->path = path;
	n->owner = NODE_PROC_PID;
	n->is_dir = !name || kind == PROCFS_PID_TASK;
	n->perm = perm;
	n->procfs = kind;
	n->arg = pid;
	n->magic = kind == PROCFS_PID_EXE ? MAGIC_EXE : kind == PROCFS_PID_CWD ? MAGIC_CWD :
		   kind == PROCFS_PID_ROOT ? MAGIC_ROOT : kind == PROCFS_PID_FD ? MAGIC_FD : 0;
	n->is_dir |= kind == PROCFS_PID_FD_DIR || kind == PROCFS_PID_FDINFO_DIR;
}

/* The set s made to stand for task pid (of group tgid), if it stands for
 * another: "/proc/PID/..." or "/proc/TGID/task/PID/...". */
static bool set_is(const struct pid_nodes *s, int pid, int tgid)
{
	return s->dir.procfs == PROCFS_PID_DIR && s->dir.arg == pid && s->tgid == tgid;
}

static void fill_set(struct pid_nodes *s, int pid, int tgid)
{
	char dir[PID_PATH_MAX];
	if (set_is(s, pid, tgid))
		return;			/* the common case: filled for it already */
	spin_lock(&nodes_lock);
	if (!set_is(s, pid, tgid)) {
		if (s->thread)
			ksnprintf(dir, sizeof(dir), "/proc/%d/task/%d", tgid, pid);
		else
			ksnprintf(dir, sizeof(dir), "/proc/%d", pid);
		/* The files first, the directory last: set_is, unlocked,
		 * looks at the directory, and must see a whole set (x86
		 * keeps stores in order; the barrier keeps the compiler so). */
		for (unsigned k = s->thread ? TASK_ENTRY + 1 : 0; k < NENTRIES; k++)
			fill_node(&s->ent[k], s->path[k], dir, entries[k].name,
				  entries[k].kind, entries[k].perm, pid);
		s->tgid = tgid;
		__sync_synchronize();
		fill_node(&s->dir, s->path[NENTRIES], dir, NULL, PROCFS_PID_DIR, 0555, pid);
	}
	spin_unlock(&nodes_lock);
}

/* Under nodes_lock: set s's chunk for descriptor fd, made if need be. */
static struct fd_nodes *chunk_for(struct pid_nodes *s, int fd, struct fd_nodes *spare)
{
	struct fd_nodes **at = &s->fds;
	while (*at && (*at)->base < fd - fd % FD_CHUNK)
		at = &(*at)->next;
	if (*at && (*at)->base == fd - fd % FD_CHUNK)
		return *at;
	if (!spare)
		return NULL;
	spare->set = s;
	spare->base = fd - fd % FD_CHUNK;
	spare->next = *at;
	*at = spare;
	return spare;
}

/* Under nodes_lock: chunk c's node of descriptor fd in dir (fd/ or
 * fdinfo/), filled for it. */
static const struct initrd_file *fill_fd_node(struct fd_nodes *c, const struct initrd_file *dir,
					       int fd, uint16_t perm)
{
	bool info = dir->procfs == PROCFS_PID_FDINFO_DIR;
	struct initrd_file *n = info ? &c->info[fd % FD_CHUNK] : &c->link[fd % FD_CHUNK];
	char name[12];
	ksnprintf(name, sizeof(name), "%d", fd);
	fill_node(n, c->path[info][fd % FD_CHUNK], dir->path, name,
		  info ? PROCFS_PID_FDINFO : PROCFS_PID_FD, perm, dir->arg);
	n->index = fd;
	return n;
}

/* The chunk is made outside the lock (kzalloc), then the lock taken again. */
const struct initrd_file *procfs_fd_node(const struct initrd_file *dir, int fd, uint16_t perm)
{
	struct pid_nodes *s = nodes_of(dir);
	struct fd_nodes *spare = NULL;
	for (;;) {
		spin_lock(&nodes_lock);
		struct fd_nodes *c = chunk_for(s, fd, spare);
		const struct initrd_file *n = c ? fill_fd_node(c, dir, fd, perm) : NULL;
		spin_unlock(&nodes_lock);
		if (n) {
			if (c != spare)
				kfree(spare);	/* another CPU made it first */
			return n;
		}
		if (!(spare = kzalloc(sizeof(*spare))))
			return NULL;
	}
}

const struct initrd_file *procfs_pid_dir(int pid)
{
	int slot = pid > 0 ? find_slot(pid) : -1;
	if (slot < 0)
		return NULL;
	fill_set(&pool[slot]->pid, pid, 0);
	return &pool[slot]->pid.dir;
}

const struct initrd_file *procfs_tid_dir(int tgid, int tid)
{
	int slot = tgid > 0 && tid > 0 && proc_tgid(tid) == tgid ? find_slot(tid) : -1;
	if (slot < 0)
		return NULL;				/* no such thread in that group */
	fill_set(&pool[slot]->tid, tid, tgid);
	return &pool[slot]->tid.dir;
}

bool procfs_pid_is_thread(const struct initrd_file *n)
{
	return nodes_of(n)->thread;
}

/* Does the set still stand for a live task (the thread view: of its group)? */
static bool set_lives(const struct pid_nodes *s)
{
	return s->thread ? procfs_tid_dir(s->tgid, s->dir.arg) != NULL
			 : procfs_pid_dir(s->dir.arg) != NULL;
}

bool procfs_pid_node_lives(const struct initrd_file *n, int pid)
{
	return n->arg == pid && proc_kstack_slot(pid) == slot_of(n) && set_lives(nodes_of(n));
}

int procfs_pid_lookup(const struct initrd_file **at, const char *name, size_t len)
{
	if ((*at)->procfs == PROCFS_PID_FD_DIR || (*at)->procfs == PROCFS_PID_FDINFO_DIR)
		return procfs_fd_lookup(at, name, len);
	struct pid_nodes *s = nodes_of(*at);
	if (!set_lives(s))
		return -ENOENT;				/* it exited */
	for (unsigned k = s->thread ? TASK_ENTRY + 1 : 0; k < NENTRIES; k++) {
		if (strlen(entries[k].name) == len && memcmp(entries[k].name, name, len) == 0) {
			*at = &s->ent[k];
			return 0;
		}
	}
	return -ENOENT;
}

/* /proc/PID/task: the group's threads in tid order (Linux's follow the
 * thread list, the same order until the pids wrap); positions tid + 1. */
static const struct initrd_file *next_thread(const struct initrd_file *task, uint32_t *pos)
{
	int tgid = proc_tgid(task->arg);	/* /proc/TID/task of a thread: its group's */
	for (int tid = tgid ? proc_next_thread(tgid, (int)*pos) : 0; tid;
	     tid = proc_next_thread(tgid, tid + 1)) {
		const struct initrd_file *d = procfs_tid_dir(tgid, tid);
		if (d) {
			*pos = (uint32_t)tid + 1;
			return d;
		}
	}
	*pos = PID_MAX_LIMIT;
	return NULL;
}

/* /proc's PIDs (positions base + pid), /proc/PID's files (0..), or
 * /proc/PID/task's TIDs. */
const struct initrd_file *procfs_pid_next(const struct initrd_file *dir, uint32_t *pos,
					  uint32_t base)
{
	if (dir->procfs == PROCFS_PID_TASK)
		return next_thread(dir, pos);
	if (dir->procfs == PROCFS_PID_FD_DIR || dir->procfs == PROCFS_PID_FDINFO_DIR)
		return procfs_fd_next(dir, pos);
	if (dir->procfs == PROCFS_PID_DIR) {
		struct pid_nodes *s = nodes_of(dir);
		uint32_t k = *pos;
		if (s->thread && k == TASK_ENTRY)
			k++;
		if (k >= NENTRIES || !set_lives(s)) {
			*pos = NENTRIES;
			return NULL;
		}
		*pos = k + 1;
		return &s->ent[k];
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

/* A file's parent is its directory (fd/N's fd/); task/TID's is the
 * group's task directory; /proc/PID's is /proc. */
const struct initrd_file *procfs_pid_parent(const struct initrd_file *n)
{
	if (n->procfs == PROCFS_PID_FD || n->procfs == PROCFS_PID_FDINFO) {
		struct pid_nodes *fs = nodes_of(n);
		return &fs->ent[n->procfs == PROCFS_PID_FD ? FD_ENTRY : FDINFO_ENTRY];
	}
	struct pid_nodes *s = in_pool(n) ? nodes_of(n) : NULL;
	if (s && n != &s->dir)
		return &s->dir;
	const struct initrd_file *group = s && s->thread ? procfs_pid_dir(s->tgid) : NULL;
	if (group)
		return &nodes_of(group)->ent[TASK_ENTRY];
	return initrd_lookup("/proc");
}

/* 64 numbers a slot: its /proc/TID's nodes, then its task/TID's; fd/N
 * and fdinfo/N from PROC_FD_INO, 2^18 a slot (the low 16 bits of N: not
 * unique past 65,536 descriptors). */
uint32_t procfs_pid_ino(const struct initrd_file *n)
{
	const struct pid_nodes *s = nodes_of(n);
	if (n->procfs == PROCFS_PID_FD || n->procfs == PROCFS_PID_FDINFO)
		return PROC_FD_INO + ((uint32_t)s->slot << 18) + (s->thread ? 1u << 17 : 0) +
		       (n->procfs == PROCFS_PID_FDINFO ? 1u << 16 : 0) + ((uint32_t)n->index & 0xFFFF);
	uint32_t k = n == &s->dir ? 0 : (uint32_t)(n - s->ent) + 1;
	return PROC_PID_INO + (uint32_t)s->slot * 64 + (s->thread ? 32 : 0) + k;
}

int procfs_pid_uid(const struct initrd_file *n)
{
	struct proc *p = proc_get_or_zombie(n->arg);
	int uid = p ? p->euid : 0;
	if (p)
		proc_put(p);
	return uid;
}

/* The group's working directory (chdir: the leader's; none yet is "/"). */
const struct initrd_file *procfs_pid_cwd(int pid)
{
	struct proc *p = proc_get_or_zombie(pid);
	const struct initrd_file *cwd = NULL;
	if (p) {
		cwd = fs_cwd_of(p);
		proc_put(p);
	}
	return cwd;
}

const struct initrd_file *procfs_pid_exe(int pid)
{
	struct proc *p = proc_get_or_zombie(pid);
	const struct initrd_file *exe = p && p->group_leader ? p->group_leader->exe : NULL;
	if (p)
		proc_put(p);
	return exe;
}
