/*
 * replay.h - staircase-sim --replay: a kernel trace (docs/trace.md) turned
 * into a workload of atoms and run again on the simulated CPUs, under the
 * same scheduler and tunables or others (docs/simulator.md, "Replaying a
 * kernel trace").
 *
 * Each process of the trace becomes a list of atoms, in the order it did
 * them (replay_read.c):
 *
 *   RUN   n ns of CPU work (consumed only while it runs in the replay)
 *   SLEEP n ns, then wake (a timer's, or an interrupt's, wake-up; or
 *         asleep at the trace's end, until that end)
 *   WAIT  until task dep has done its atom dep_atom (a WAKE of this task):
 *         a pipe's reader wakes when its writer writes, not at the time
 *         recorded, as perf sched replay does
 *   WAKE  wake task dep (whose WAIT names this atom)
 *   FORK  fork task dep (as the kernel forks: sched_fork)
 *   YIELD sched_yield: the CPU is rescheduled before its next atom
 *   CPUS  its allowed CPUs become the mask in ns (sched_setaffinity)
 *   HOLD  a wake-up it just did preempts its own CPU, but the kernel is not
 *         preemptible: the switch waits until it returns to user mode (RET),
 *         or sleeps, yields or exits first
 *   RET   it returns to user mode: a held preemption acts here
 *   STALL n ns its CPU stood still (the host did not run the vCPU; the
 *         kernel's lost_ticks): time passes, it keeps the CPU, but it does
 *         no work, and the CPU neither ticks nor reschedules
 *   EXIT  the end: a switch-out as X (dead)
 *   END   the trace ended while it lived: it stops here
 *
 * Invariants of a list that replay_read() returns: a WAIT names a WAKE
 * atom of another task whose dep is this task, and each WAKE is named by
 * exactly one WAIT; every list ends with EXIT or END; a RET follows a HOLD
 * before the task's next HOLD.
 */
#ifndef SIM_REPLAY_H
#define SIM_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum atom_kind { A_RUN, A_SLEEP, A_WAIT, A_WAKE, A_FORK, A_YIELD, A_CPUS, A_HOLD, A_RET, A_STALL, A_EXIT, A_END };

struct atom {
	uint8_t kind;			/* enum atom_kind */
	int dep;			/* WAIT, WAKE, FORK: a task's index */
	int dep_atom;			/* WAIT: the index of dep's WAKE atom */
	uint64_t ns;			/* RUN: work; SLEEP, WAIT: as recorded; CPUS: the mask; STALL: its length */
};

/* A change of a task's stair (prio), or of whether it is runnable
 * (woken or forked: yes; a sleep event: no), at ns from the run's start. */
struct stair_pt {
	uint64_t ns;
	int16_t prio;
	bool runnable;
};

struct stair_log {
	struct stair_pt *v;
	int n, cap;
};

/* Note a task's stair and state at ns (a point only where one changes). */
void stair_note(struct stair_log *l, uint64_t ns, int prio, bool runnable);

/* Runnable after an event (TRACE_*): woken or forked, yes; a sleep, no;
 * any other, as it was (runnable if nothing was noted yet). */
bool stair_runnable_after(const struct stair_log *l, int event);

/* One process of the trace (a pid used again is a new task). */
struct rtask {
	int pid;			/* as recorded (the last it had) */
	int tid;			/* the pid it had before a pid_change; 0 none */
	uint32_t gen;			/* the cur_gen of its wake-ups, once seen; 0 unknown */
	char comm[16];
	int policy;			/* SCHED_*: the first it was seen with */
	int prio_min;			/* best stair seen (NORMAL...: 120 + nice) */
	bool reniced;			/* set its nice or policy in the trace */
	int rt_prio;			/* FIFO, RR: 99 - prio */
	bool forked;			/* its fork is in the trace; else there at the start */
	uint32_t fork_cpus;		/* its allowed CPUs at its fork (cpus=); 0: unknown */
	struct atom *atoms;
	int natoms, cap;
	/* what was recorded */
	uint64_t cpu_ns;		/* time it ran */
	uint64_t end_ns;		/* its exit, or the trace's end, from the first event */
	uint64_t *lat;			/* wake-up latencies, ns */
	int nlat, lat_cap;
	struct stair_log stairs;	/* from its events' prio= and state */
	/* the reader's state */
	int state;			/* RS_* (replay_read.c) */
	int cpu;			/* running: on which CPU */
	int home_cpu;			/* where it was first seen: the replay starts it there */
	uint32_t ran_on;		/* bit n: it ran on CPU n before any affinity event of
					 * its own (one bit: taken as pinned there) */
	bool set_cpus;			/* an affinity event of its own was seen */
	uint64_t since;			/* running since; sleeping since */
	uint64_t pending;		/* run not yet closed into a RUN atom */
	uint64_t woken_at;		/* woken, not yet switched in; 0 none */
	int hold;			/* the index of its HOLD atom not yet ended; -1 none */
	uint64_t hold_since;		/* ... recorded then */
};

struct rtrace {
	const char *file;
	int ncpus;
	uint64_t t0, t1;		/* first and last event */
	long events;
	struct rtask *tasks;
	int ntasks, cap;
	int warnings;			/* bad records passed over (--lenient) */
};

/* Read a trace; false after printing one line naming the first bad
 * record (file:line, byte offset, what) when not lenient. Lenient: each
 * bad record's line is printed, the state repaired, and reading goes on. */
bool replay_read(FILE *f, const char *file, bool lenient, struct rtrace *tr, FILE *err);

#define REPLAY_MAX_OVERRIDES 16

/* --nice PID=N (a delta) or --policy PID=NAME: for the recorded pid. */
struct replay_override {
	int pid;
	bool is_policy;
	int value;			/* the nice delta, or SCHED_* */
};

/* Options of a replay beyond the simulator's own (--sched, --set). */
struct replay_opts {
	bool check;			/* --check: the round trip must hold */
	int cpus;			/* --cpus N: replay on N CPUs; 0: the trace's */
	bool trace;			/* --trace: print the replay's events first */
	const char *trace_out;		/* --trace-out FILE: print them there instead */
	struct replay_override over[REPLAY_MAX_OVERRIDES];
	int nover;
};

/* "5=+3" or "5=batch" into o; false if it is neither. */
bool replay_parse_override(const char *arg, bool is_policy, struct replay_opts *o);

/* 0 if the scheduler booted has the policy of every task (--policy's
 * where given); else 2, after one line saying which. */
int replay_policies_ok(const struct rtrace *tr, const struct replay_opts *o);

/* Run the replay on the booted fake machine and print the comparison.
 * Returns the exit status: 0, or 1 when --check finds it does not hold. */
int replay_run(struct rtrace *tr, const struct replay_opts *o);

#endif
