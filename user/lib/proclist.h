/*
 * proclist.h - walking the tasks of our kernel, for ps, pgrep and pkill.
 *
 * There is no /proc here: a task is found by asking call 500 (sched_stat)
 * about each pid and its name by call 507 (proc_name).  Pids are handed out
 * in increasing order and never reused (kernel/proc.c), so every task alive
 * when the walk starts has a pid below the walker's own, and the higher
 * pid is always the newer task (what pgrep -n/-o go by: there is no start
 * time in call 500's struct).  A walk asks about pids up to its own plus
 * PROC_WALK_SLACK, for the stages of a pipeline forked after it.  On Linux
 * both calls fail with ENOSYS.
 */
#ifndef USER_LIB_PROCLIST_H
#define USER_LIB_PROCLIST_H

#include "kernel_calls.h"

#define PROC_WALK_SLACK 64

struct proc_info {
	struct sched_task_info t;	/* call 500's view of it */
	char name[16];			/* call 507: the program's file name */
};

struct proc_walk {
	int pid;	/* the last pid asked about */
	int last;	/* the highest pid worth asking about */
};

/* Start a walk over every task that exists now. */
void proc_walk_start(struct proc_walk *w);

/* The next task into *p: 1, or 0 at the end, or -1 with errno when call
 * 500 fails other than ESRCH (ENOSYS: not this kernel). */
int proc_walk_next(struct proc_walk *w, struct proc_info *p);

/* One task by pid: 0, or -1 with errno (ESRCH: none). */
int proc_get(int pid, struct proc_info *p);

/* pgrep and pkill: one program, two modes (procps builds both from one
 * source too).  Returns the exit status: 0 matched (pkill: signalled),
 * 1 none, 2 bad command line, 3 fatal. */
int pgrep_main(int argc, char **argv, int pkill);

#endif
