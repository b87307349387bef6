/*
 * proclist.h - the processes as ps, top, pgrep and pkill see them: read
 * from /proc, as procps reads it (docs/abi.md §10), so the same tools work
 * on Linux too.
 *
 * One process is three files: /proc/PID/stat (man 5 proc: state, ids,
 * times, sizes, policy), /proc/PID/status (its uids and Cpus_allowed) and
 * /proc/PID/cmdline; /proc/PID/sched adds the staircase's own fields
 * (docs/staircase.md, "/proc/PID/sched"), which Linux's file lacks (they
 * read -1 there). A walk lists /proc's numeric entries (processes, not
 * threads, as Linux) and visits them in pid order.
 */
#ifndef USER_LIB_PROCLIST_H
#define USER_LIB_PROCLIST_H

#include <stdint.h>

#define PROC_USER_HZ	100	/* the clock ticks /proc/PID/stat counts in */
#define PROC_ARGS_MAX	128

struct proc_info {
	int pid, ppid, pgid, sid, tty_nr;	/* stat fields 1, 4-7 */
	int ruid, euid;				/* status: Uid */
	char state;				/* R S D T Z */
	char name[16];				/* comm: 15 characters at most */
	char args[PROC_ARGS_MAX];		/* cmdline, spaces between; or the name */
	int prio, nice, cpu, rt_priority, policy; /* stat 18 (+ 100), 19, 39, 40, 41 */
	unsigned long utime, stime;		/* USER_HZ ticks (stat 14, 15) */
	unsigned long long start;		/* USER_HZ ticks since boot (stat 22) */
	unsigned long vsize;			/* bytes (stat 23) */
	long rss;				/* pages (stat 24) */
	uint32_t cpus_allowed;			/* status: Cpus_allowed */
	/* /proc/PID/sched, the staircase's fields (-1: not there, Linux) */
	long long burst, max_burst, slice, full_slice, flags, nr_switches, wait_ns;
};

struct proc_walk {
	int *pids;	/* what /proc listed at the start, sorted */
	int n, next;
	int stat_only;	/* 1: only /proc/PID/stat is read (top, every frame) */
};

/* List /proc's processes: 0, or -1 with errno (no /proc). */
int proc_walk_start(struct proc_walk *w);

/* The next one that still lives into *p: 1, or 0 at the end. */
int proc_walk_next(struct proc_walk *w, struct proc_info *p);

void proc_walk_end(struct proc_walk *w);

/* One process by pid: 0, or -1 with errno (ENOENT: none). */
int proc_get(int pid, struct proc_info *p);
/* Only what /proc/PID/stat says (the rest zero, the sched fields -1). */
int proc_get_stat(int pid, struct proc_info *p);

/* A /proc file's text into buf (NUL-ended, cut at size - 1): its length,
 * or -1 with errno. */
int proc_read_text(const char *path, char *buf, int size);

/* The number after "name :" in a /proc/PID/sched text, or dflt. */
long long proc_sched_field(const char *text, const char *name, long long dflt);

/* pgrep and pkill: one program, two modes (procps builds both from one
 * source too).  Returns the exit status: 0 matched (pkill: signalled),
 * 1 none, 2 bad command line, 3 fatal. */
int pgrep_main(int argc, char **argv, int pkill);

#endif
