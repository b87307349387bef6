/*
 * kernel/fs/proc/ - /proc in Linux's formats: the tree's hooks (procfs),
 * /proc/PID's nodes (procfs_pid) and their texts (procfs_pid_text), the
 * system's files and /proc/sys/kernel (procfs_sys), the scheduler's views
 * (procfs_sched). Locks: nodes_lock guards the table of node sets; a pid
 * is looked up without a lock (RCU), a task's sizes under its mm lock.
 *
 * Face of this folder. May call: lib, sched, kernel/arch, kernel/debug, kernel/fs, kernel/ipc, kernel/mm, kernel/sync, kernel/sys, kernel/task, kernel/time.
 *
 * procfs.h - /proc: what the kernel knows, as text Linux's tools read
 * (docs/abi.md §10). Six files:
 *
 *   kernel/fs/proc/procfs.c      the tree's hooks for the path walk and listings,
 *                        /proc/self, and open/read/write of a /proc file
 *   kernel/fs/proc/procfs_pid.c  /proc/PID/'s nodes: the directory, its files,
 *                        exe, cwd, root and task/TID/ (the same files, one
 *                        thread's own); which hold them, and their freeing
 *   kernel/fs/proc/procfs_pid_text.c  their texts: stat, status, statm, cmdline,
 *                        comm, environ, maps, sched (the staircase's
 *                        view), limits, wchan, schedstat
 *   kernel/fs/proc/procfs_fd.c  /proc/PID/fd/ and fdinfo/: a process's
 *                        open descriptors, who may look at them (and at
 *                        pagemap)
 *   kernel/fs/proc/procfs_pagemap.c  /proc/PID/pagemap: a word per page,
 *                        binary, read straight from the page tables
 *   kernel/fs/proc/procfs_sys.c  /proc/{stat,uptime,loadavg,meminfo,version,
 *                        cpuinfo,filesystems} and /proc/sys/kernel/
 *   kernel/fs/proc/procfs_sched.c  /proc/sched_debug and /proc/schedstat: the
 *                        run queues
 *
 * A /proc node is a struct initrd_file with a kind (its procfs field).
 * The fixed ones (/proc, /proc/uptime, /proc/sys/kernel/...) are nodes of
 * the initrd's table, made at boot; the per-process ones are made when a
 * walk or a listing reaches them, two sets per kernel-stack slot (its
 * task's /proc/TID and /proc/TGID/task/TID). A file's
 * text is made when a read starts at offset 0 (as Linux's seq_file), into
 * a buffer the open file holds until close.
 */
#ifndef KERNEL_PROCFS_H
#define KERNEL_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct initrd_file;
struct file;

/* Magic links (struct initrd_file's magic): initrd_magic_target() asks
 * kernel/fs/proc/procfs.c what they stand for. */
#define MAGIC_EXE	1	/* /proc/PID/exe (arg: the pid) */
#define MAGIC_SELF	2	/* /proc/self */
#define MAGIC_CWD	3	/* /proc/PID/cwd */
#define MAGIC_ROOT	4	/* /proc/PID/root */
#define MAGIC_FD	5	/* /proc/PID/fd/N (arg: the pid, index: N) */

enum procfs_kind {
	PROCFS_NONE,
	PROCFS_ROOT,			/* /proc: its files, then the PIDs */
	PROCFS_PID_DIR,			/* /proc/PID, /proc/PID/task/TID */
	PROCFS_PID_TASK,		/* /proc/PID/task: the group's threads */
	PROCFS_PID_STAT,		/* the first per-process file */
	PROCFS_PID_STATUS,
	PROCFS_PID_STATM,
	PROCFS_PID_CMDLINE,
	PROCFS_PID_COMM,
	PROCFS_PID_ENVIRON,
	PROCFS_PID_SCHED,
	PROCFS_PID_MAPS,
	PROCFS_PID_PAGEMAP,		/* binary: a word per page (procfs_pagemap.c) */
	PROCFS_PID_WCHAN,		/* where it sleeps (Linux's get_wchan) */
	PROCFS_PID_LIMITS,		/* its resource limits, as prlimit reads them */
	PROCFS_PID_SCHEDSTAT,		/* run time, wait time, times run (ns, ns, count) */
	PROCFS_PID_MOUNTS,		/* the mount table (one for all: kernel/fs/mount.c) */
	PROCFS_PID_MOUNTINFO,		/* the same, mountinfo's format */
	PROCFS_PID_FDINFO,		/* fdinfo/N (index: N): its offset, flags, mount, inode */
	PROCFS_PID_FD_DIR,		/* fd/: a magic link per open descriptor (procfs_fd.c) */
	PROCFS_PID_FDINFO_DIR,		/* fdinfo/: a file per open descriptor */
	PROCFS_PID_FD,			/* fd/N (index: N): a magic link to what N has open */
	PROCFS_PID_CWD,			/* magic links, not read as text: the working directory, */
	PROCFS_PID_ROOT,		/* the root directory, */
	PROCFS_PID_EXE,			/* the program (the last per-process kind) */
	PROCFS_STAT,			/* the first of /proc's own files */
	PROCFS_UPTIME,
	PROCFS_LOADAVG,
	PROCFS_MEMINFO,
	PROCFS_VERSION,
	PROCFS_CPUINFO,
	PROCFS_FILESYSTEMS,
	PROCFS_SCHED_DEBUG,		/* procfs_sched.c */
	PROCFS_SCHEDSTAT,
	PROCFS_SCHEDULER,		/* the scheduler sched= chose (docs/lineage.md) */
	PROCFS_SYSVIPC,			/* /proc/sysvipc/{msg,sem,shm} (arg: SYSVIPC_*, kernel/ipc) */
	PROCFS_SYS_OSTYPE,		/* /proc/sys/kernel/ */
	PROCFS_SYS_OSRELEASE,
	PROCFS_SYS_VERSION,
	PROCFS_SYS_HOSTNAME,
	PROCFS_SYS_TAINTED,
	PROCFS_SYS_PID_MAX,
	PROCFS_SYS_THREADS_MAX,
	PROCFS_SYS_TUNABLE,		/* arg: the sched tunable's id; root may write */
	PROCFS_SYS_PIPE,		/* /proc/sys/fs/pipe-*: arg the file's (kernel/fs/pipe_limits.c) */
	PROCFS_SYS_MQUEUE,		/* /proc/sys/fs/mqueue/: arg the file's (kernel/fs/mqueue.c) */
	PROCFS_SYS_IPC,			/* msgmax, sem, shmmax...: arg the file's (kernel/ipc/sysctl.c) */
};

/* Boot, after initrd_init: the fixed nodes. */
void procfs_init(void);

/* ---- for the path walk and listings (kernel/fs/initrd.c) -------------------- */
/* name (len bytes) inside the procfs directory *at (/proc or /proc/PID):
 * 0 and *at moved, or -ENOENT. */
int procfs_lookup(const struct initrd_file **at, const char *name, size_t len);
/* The next child of a procfs directory from *pos; positions of /proc from
 * base up are its PIDs. NULL at the end. */
const struct initrd_file *procfs_next_child(const struct initrd_file *dir, uint32_t *pos,
					    uint32_t base);
const struct initrd_file *procfs_parent(const struct initrd_file *n);
uint32_t procfs_ino(const struct initrd_file *n);
/* The owner of a /proc/PID node (its process's euid); 0 for the others. */
int procfs_uid(const struct initrd_file *n);

/* ---- for the open files (kernel/fs/file.c) ---------------------------------- */
/* May the caller open this /proc file so (O_ACCMODE of flags)? 0, or
 * -EACCES as Linux's permission check. */
int procfs_may_open(const struct initrd_file *n, int flags);
int procfs_read(struct file *f, void *ubuf, uint32_t n);
int procfs_write(struct file *f, const void *ubuf, uint32_t n);
void procfs_release(struct file *f);

/* ---- between the procfs files -------------------------------------------- */
/* A growing text buffer (kmalloc'd). */
struct pbuf {
	char *p;
	uint32_t len, cap;
	int err;			/* -ENOMEM once a grow failed */
};
void pb_printf(struct pbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pb_putc(struct pbuf *b, char c);
/* /proc/PID/pagemap (procfs_pagemap.c): n bytes of its words from the
 * file's offset, or -EINVAL (not whole words), -EFAULT, -ESRCH. */
int procfs_pagemap_read(struct file *f, void *ubuf, uint32_t n);
/* The text of a /proc/PID file: 0, or -ESRCH when pid is gone. */
int procfs_pid_text(const struct initrd_file *n, struct pbuf *b);
/* The text of one of /proc's own files, or a /proc/sys file. */
int procfs_sys_text(const struct initrd_file *n, struct pbuf *b);
/* A write to /proc/sys/kernel/<tunable>: 0, or -EINVAL (nothing changed). */
int procfs_sys_write(const struct initrd_file *n, const char *text, uint32_t len);
/* /proc/sched_debug or /proc/schedstat (procfs_sched.c). */
void procfs_sched_text(const struct initrd_file *n, struct pbuf *b);
struct proc;
/* A process's state letter as /proc shows it: R S D T Z. */
char procfs_state_char(const struct proc *p);
/* Boot: /proc's own files and /proc/sys/kernel (procfs_sys.c). */
void procfs_sys_init(void);
/* /proc/PID's nodes (procfs_pid.c). */
const struct initrd_file *procfs_pid_dir(int pid);	/* NULL: no such process */
/* /proc/TGID/task/TID: NULL unless tid is a live thread of group tgid. */
const struct initrd_file *procfs_tid_dir(int tgid, int tid);
/* Is a /proc/PID file's node still the one of live task pid (the pid it
 * was opened for)? False once pid exited or another task took its slot. */
bool procfs_pid_node_lives(const struct initrd_file *n, int pid);
/* Is it a /proc/PID/task/TID node (the thread's own view)? */
bool procfs_pid_is_thread(const struct initrd_file *n);
int procfs_pid_lookup(const struct initrd_file **at, const char *name, size_t len);
const struct initrd_file *procfs_pid_next(const struct initrd_file *dir, uint32_t *pos,
					  uint32_t base);
const struct initrd_file *procfs_pid_parent(const struct initrd_file *n);
uint32_t procfs_pid_ino(const struct initrd_file *n);
int procfs_pid_uid(const struct initrd_file *n);
/* The program of process pid (its exe link's target), or NULL. */
const struct initrd_file *procfs_pid_exe(int pid);
const struct initrd_file *procfs_pid_cwd(int pid);	/* NULL when it is gone */
/* Keep a /proc/PID node past its walk (an open file, a working
 * directory): 0, or -ENOENT when its task is gone; drop gives it back.
 * Any node may be passed: only /proc/PID's need holding. */
int procfs_node_hold(const struct initrd_file *n);
void procfs_node_drop(const struct initrd_file *n);
/* The node of descriptor fd in /proc/PID/fd or fdinfo (dir), made or
 * filled again for it with perm (procfs_pid.c); NULL when memory is out. */
const struct initrd_file *procfs_fd_node(const struct initrd_file *dir, int fd, uint16_t perm);

/* ---- /proc/PID/fd and fdinfo (procfs_fd.c) ---- */
/* name in fd/ or fdinfo/: 0 and *at, -ENOENT (no such descriptor),
 * -EACCES (another's, as Linux's ptrace check says). */
int procfs_fd_lookup(const struct initrd_file **at, const char *name, size_t len);
/* The next open descriptor's node of fd/ or fdinfo/ from position *pos. */
const struct initrd_file *procfs_fd_next(const struct initrd_file *dir, uint32_t *pos);
/* May the caller look into dir or read node n of a process's fd/ or
 * fdinfo/, or open its pagemap? 0 or -EACCES; 0 for every other node. */
int procfs_fd_may(const struct initrd_file *n);
/* fd/N's target: the open file's node (a file, a device, a /proc file),
 * or NULL (a pipe, a socket, the console: not reopened here). */
const struct initrd_file *procfs_fd_target(const struct initrd_file *link);
/* fd/N's text as Linux's readlink gives it ("/tmp/x", "pipe:[12]"...). */
int procfs_fd_link_text(const struct initrd_file *link, char *buf, uint32_t size);
/* fdinfo/N's text: 0, or -ENOENT when the descriptor is closed. */
int procfs_fd_info_text(const struct initrd_file *n, struct pbuf *b);

/* Free the /proc/PID nodes no one holds (sys_free_frames). */
void procfs_pid_trim(void);

/* g's address space, locked, or NULL (none, or gone); with g's task
 * lock held until unlock_mm_of (procfs_pid_text.c). */
struct mm;
struct mm *lock_mm_of(struct proc *g);
void unlock_mm_of(struct proc *g, struct mm *mm);

#endif
