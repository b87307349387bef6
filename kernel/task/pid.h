/*
 * pid.h - process ids: which are in use, which task has one, which comes
 * next (kernel/task/pid.c).
 *
 * A table with a slot per pid holds the task that has it, and a bitmap
 * (Linux 2.6's pidmap) says which slots are taken, so that a walk of the
 * tasks skips the empty ones. Both change by atomic operations, without a
 * lock: fork and wait4 on different CPUs never wait for each other here.
 * A task found through them stays readable until its finder
 * sleeps (kernel/sync/rcu.c); to keep one longer, take a reference (proc_get).
 */
#ifndef KERNEL_PID_H
#define KERNEL_PID_H

#include <stdbool.h>

/* Linux's include/linux/threads.h on 32-bit: pid_max is 32,768 by
 * default and at most; after a wrap the search starts above the pids
 * that daemons started at boot usually hold (RESERVED_PIDS). */
#define PID_MAX_DEFAULT	32768
#define PID_MAX_LIMIT	32768
#define RESERVED_PIDS	300
#define PID_MAX_MIN	(RESERVED_PIDS + 1)

struct proc;

/* kernel.pid_max: the boot parameter pid_max= (Linux's), else 32,768;
 * /proc/sys/kernel/pid_max reads it. Pids are 1 .. pid_max - 1. */
extern int pid_max;
/* Root's write of /proc/sys/kernel/pid_max: 0, or -EINVAL outside
 * PID_MAX_MIN .. PID_MAX_LIMIT. */
int pid_set_max(int n);
void pid_init(void);

/* Give p a pid: the next free one after the last handed out, wrapping
 * to RESERVED_PIDS past pid_max - 1 (Linux's alloc_pid). A pid is
 * free when no task has it as its pid, process group or session.
 * Returns the pid, or -EAGAIN when every one is taken. */
int pid_alloc(struct proc *p);
/* p's pid is free again (once no group or session is named by it);
 * pid_find() no longer finds p. p's own group and session references go
 * too: p is leaving for good. */
void pid_free(struct proc *p);
/* p joins process group pgid and session sid (fork, setpgid, setsid):
 * a pid that names a group or a session is not handed out again until
 * the last member has gone, as Linux keeps its struct pid. */
void pid_set_groups(struct proc *p, int pgid, int sid);
/* exec in a thread (Linux's de_thread): to takes from's pid, its own is
 * forgotten, and from has none (0) any more. */
void pid_transfer(struct proc *from, struct proc *to);
/* The task with that pid in any state, or NULL. */
struct proc *pid_find(int pid);
/* The task with the lowest pid >= *pid, its pid in *pid; NULL past the
 * last (a walk of every task in pid order: for_each_task). */
struct proc *pid_task_from(int *pid);
/* The lowest pid >= from that a task has, or 0 if none (a listing of
 * /proc walks the pids in order, as Linux's next_tgid). */
int pid_next_used(int from);
/* The pid handed out last (/proc/loadavg, /proc/stat's "processes"). */
int pid_last(void);

#endif
