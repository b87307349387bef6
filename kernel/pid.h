/*
 * pid.h - process ids: which are in use, which task has one, which comes
 * next (kernel/pid.c).
 *
 * Linux 2.6's design at teaching size: a bitmap of the pids in use (its
 * pidmap) hands out the next one, and a hash table of chains (its
 * pid_hash) finds a task by its pid. Everything here runs under
 * ptable_lock.
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
/* p's pid is free again; pid_find() no longer finds p. */
void pid_free(struct proc *p);
/* exec in a thread (Linux's de_thread): to takes from's pid, its own is
 * forgotten, and from has none (0) any more. */
void pid_transfer(struct proc *from, struct proc *to);
/* The task with that pid in any state, or NULL. */
struct proc *pid_find(int pid);
/* The lowest pid >= from that a task has, or 0 if none (a listing of
 * /proc walks the pids in order, as Linux's next_tgid). */
int pid_next_used(int from);
/* The pid handed out last (/proc/loadavg, /proc/stat's "processes"). */
int pid_last(void);

#endif
