/*
 * workload.h - the simulator's workload files (docs/simulator.md).
 *
 * A workload is plain text, one item a line, '#' starts a comment:
 *
 *   cpus 4 cores 2 threads 2      topology (packages = cpus / cores / threads)
 *   duration 10s                  how long to simulate
 *   hz 1000                       timer frequency, 100..1000
 *   tunable iso_cpu 70            any tunable of docs/staircase.md §9
 *
 *   # name  policy  nice/prio  pattern             cpus
 *   hog     normal  0          run                 all
 *   ingo1   normal  0          run 4ms sleep 1ms   all
 *   audio   iso     0          run 3ms sleep 47ms  0
 *
 * The third column is the nice value (-20..19) for normal, batch and iso,
 * and the real-time priority (1..99) for fifo and rr. The pattern is
 * `run` alone (a hog), or `run D sleep D` (`block D` sleeps uninterruptibly),
 * optionally followed by `start D` (appear after D). A length D is a number
 * with s, ms or us, or a range such as 2-6ms drawn afresh every time from
 * the seeded generator. The last word is the CPUs the task may use: `all`,
 * or a list such as 0,2-3.
 *
 * The parser only reads; it knows nothing of the scheduler. Every error
 * names the file and line, and nothing here can crash on bad input.
 */
#ifndef SIM_WORKLOAD_H
#define SIM_WORKLOAD_H

#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#define WL_MAX_TASKS	64	/* tests/unit/sim.h SIM_MAX */
#define WL_MAX_CPUS	32	/* sched/sched.h SCHED_MAX_CPUS */
#define WL_MAX_TUNABLES	16
#define WL_NAME_MAX	16

struct wl_task {
	char name[WL_NAME_MAX];
	int policy;			/* SCHED_* */
	int nice;			/* normal, batch, iso */
	int rt_priority;		/* fifo, rr */
	bool hog;			/* `run` with no length: never sleeps */
	uint64_t run_ns, run_max_ns;	/* max > min: a range */
	uint64_t sleep_ns, sleep_max_ns;
	bool uninterruptible;		/* `block` instead of `sleep` */
	uint64_t start_ns;
	uint32_t cpus;			/* bit i: may run on CPU i; 0 = all */
	int line;
};

struct wl_tunable {
	char name[32];
	int value;
	int line;
};

struct workload {
	int ncpus, cores, threads;	/* cores per package, threads per core */
	int hz;
	uint64_t duration_ns;
	struct wl_tunable tunables[WL_MAX_TUNABLES];
	int ntunables;
	struct wl_task tasks[WL_MAX_TASKS];
	int ntasks;
};

/*
 * Read a workload from f (name for messages). Returns the number of errors,
 * each printed to err as "name:line: what"; 0 means *wl is complete.
 */
int wl_parse(FILE *f, const char *name, struct workload *wl, FILE *err);

/* "4ms", "1.5s", "250us" -> ns; false if it is not a length. */
bool wl_parse_length(const char *s, uint64_t *ns);

/* The policy's name as the kernel prints it (normal, fifo, ...). */
const char *wl_policy_name(int policy);

#endif
