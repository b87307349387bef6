/*
 * main.c - staircase-sim: the scheduler of sched/, unchanged, on simulated
 * CPUs (LinSched-style; docs/simulator.md).
 *
 * The machine is the unit tests' fake one (tests/unit/fake_machine.c: a
 * clock we advance, CPUs that are numbers, a trace hook) and the workload
 * driver is theirs too (tests/unit/sim.c: each task runs, sleeps, runs...
 * one tick at a time). This file reads a workload file (workload.c),
 * creates its tasks as the kernel would (policy, nice, affinity, then
 * queue), runs the clock, and prints what each task got. With --trace it
 * prints the scheduler's events in the kernel's dump format (docs/trace.md)
 * so that tools/traceview.py draws a simulated run like a real one, with
 * the same fields (task names, prio/burst/slice, the CPU's current task
 * and, for a switch, the state the task switched out was left in).
 */
#include "workload.h"
#include "picknext.h"
#include "replay.h"
#include "../../tests/unit/sim.h"
#include "../../sched/runqueue.h"
#include "../../sched/tunables.h"
#include "../../sched/policy.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_KEEP	1000000		/* --trace keeps the first million events */
#define MAX_CLI_TUNABLES 16


/* What the report needs per task beyond sched_task_stats. */
struct task_report {
	const struct wl_task *w;
	struct sim_task *sim;		/* NULL until it starts */
	uint64_t start_tick;
	bool woken;			/* woken, not yet switched in */
	uint64_t max_wait_ns;		/* longest time runnable but not running */
	uint64_t wakeups, wake_latency_ns, max_wake_latency_ns;
};

static struct task_report reports[WL_MAX_TASKS];
static int nreports;
static struct task_report *by_pid[FAKE_MAX_PROCS + 1];

/* A trace record as kernel/debug/trace.c keeps it: the event, then the state of
 * its task and of the task running on the CPU (for a switch: the one that
 * was switched out) at that moment. Names are looked up when printing. */
struct sim_trace_rec {
	struct fake_trace_rec r;
	int prio, burst, slice;
	int cur, cur_prio, cur_policy;
	const char *cur_state;
};

static bool tracing;
static struct sim_trace_rec *trace_buf;
static size_t trace_len, trace_lost;
static struct sched_task *last_in[SCHED_MAX_CPUS];	/* switched in last, per CPU */
static uint64_t migrations;		/* TRACE_MIGRATE events: tasks moved between CPUs */
static bool yielded[SCHED_MAX_CPUS];

/* ---- the trace hook: latencies, and the events for --trace ---- */

static int policy_code(const struct sched_task *t)
{
	return !t ? FAKE_POLICY_NONE : t->is_idle ? FAKE_POLICY_IDLE : t->policy;
}

/* Why prev leaves the CPU, in Linux's prev_state letters (as kernel/debug/trace.c). */
static const char *switch_state(const struct sched_task *prev, int cpu)
{
	if (!prev || prev->is_idle)
		return "R";
	switch (prev->state) {
	case TASK_INTERRUPTIBLE:	return "S";
	case TASK_UNINTERRUPTIBLE:	return "D";
	case TASK_DEAD:			return "X";
	default:			return yielded[cpu] ? "R" : "R+";
	}
}

static void record(const struct fake_trace_rec *r, struct task_report *t)
{
	struct sim_trace_rec *e;
	const struct sched_task *se = t && t->sim ? &t->sim->proc->sched :
		r->policy == FAKE_POLICY_IDLE ? &fake_idle[r->cpu].sched : NULL;

	/* Set up (policy, nice) before the simulator knows it: find it by pid. */
	for (int i = 0; !se && r->pid > 0 && i < FAKE_MAX_PROCS; i++)
		if (fake_procs[i].used && fake_procs[i].pid == r->pid)
			se = &fake_procs[i].sched;
	const struct sched_task *cur;

	if (trace_len == TRACE_KEEP) {
		trace_lost++;
		return;
	}
	if (trace_len % 65536 == 0) {
		trace_buf = realloc(trace_buf, (trace_len + 65536) * sizeof(*trace_buf));
		if (!trace_buf) {
			fprintf(stderr, "staircase-sim: out of memory for the trace\n");
			exit(1);
		}
	}
	e = &trace_buf[trace_len++];
	e->r = *r;
	e->prio = se ? se->prio : 0;
	e->burst = se ? se->burst : 0;
	e->slice = se ? se->slice : 0;
	/* sched/ has made the switch when it reports it: the task switched
	 * out is the one we saw switched in last (the kernel reads it from
	 * its own idea of the current process, which has not changed yet). */
	cur = r->event == TRACE_SWITCH ? last_in[r->cpu] : fake_curr(r->cpu);
	if (!cur)
		cur = &fake_idle[r->cpu].sched;
	e->cur = fake_pid((struct sched_task *)cur);
	e->cur_prio = cur->prio;
	e->cur_policy = policy_code(cur);
	e->cur_state = r->event == TRACE_SWITCH ? switch_state(cur, r->cpu) : NULL;
}

static void on_event(const struct fake_trace_rec *r)
{
	struct task_report *t = r->pid > 0 && r->pid <= FAKE_MAX_PROCS ? by_pid[r->pid] : NULL;

	if (t && r->event == TRACE_WAKEUP)
		t->woken = true;
	if (t && r->event == TRACE_SWITCH) {
		/* queued_ns: when it last became runnable-waiting (core.c) */
		uint64_t wait = r->ns - t->sim->proc->sched.stats.queued_ns;
		if (wait > t->max_wait_ns)
			t->max_wait_ns = wait;
		if (t->woken) {
			t->woken = false;
			t->wakeups++;
			t->wake_latency_ns += wait;
			if (wait > t->max_wake_latency_ns)
				t->max_wake_latency_ns = wait;
		}
	}
	if (tracing)
		record(r, t);
	if (r->event == TRACE_MIGRATE)
		migrations++;
	if (r->event == TRACE_SWITCH) {
		last_in[r->cpu] = fake_curr(r->cpu);
		yielded[r->cpu] = false;
	} else if (r->event == TRACE_YIELD) {
		yielded[r->cpu] = true;
	}
}

/* A task's name as the kernel prints it: one word of at most 15 characters. */
static const char *comm_of(int pid, int policy, char *buf)
{
	const char *name = pid > 0 && pid <= FAKE_MAX_PROCS && by_pid[pid] ? by_pid[pid]->w->name :
		pid == 0 && policy == FAKE_POLICY_IDLE ? "idle" : "-";
	int i;

	for (i = 0; i < 15 && name[i]; i++)
		buf[i] = name[i] <= ' ' || name[i] == '=' || name[i] > '~' ? '_' : name[i];
	buf[i] = 0;
	return i ? buf : "-";
}


/* The kernel's dump (kernel/debug/trace.c trace_dump), line for line. */
static void print_trace(void)
{
	printf("trace: begin %zu events, %zu lost, %d cpus\n", trace_len, trace_lost, fake_ncpus);
	for (size_t i = 0; i < trace_len; i++) {
		const struct sim_trace_rec *x = &trace_buf[i];
		const struct fake_trace_rec *e = &x->r;
		char comm[16], cur_comm[16];
		printf("trace: %llu cpu%d %s pid %d %s %s %d comm=%s prio=%d burst=%d slice=%d "
		       "on=%d cur=%d cur_comm=%s cur_prio=%d cur_policy=%s", (unsigned long long)e->ns,
		       e->cpu, sched_trace_names[e->event][0], e->pid, sched_trace_policy_name(e->policy),
		       sched_trace_names[e->event][1], e->arg, comm_of(e->pid, e->policy, comm),
		       x->prio, x->burst, x->slice, e->cpu, x->cur,
		       comm_of(x->cur, x->cur_policy, cur_comm), x->cur_prio,
		       sched_trace_policy_name(x->cur_policy));
		if (x->cur_state)
			printf(" cur_state=%s", x->cur_state);
		printf("\n");
	}
	printf("trace: end\n");
}

/* ---- building the machine and the tasks ---- */

static uint64_t ns_to_whole_ticks(uint64_t ns, int hz)
{
	uint64_t ticks = (ns * (uint64_t)hz + 500000000ull) / 1000000000ull;
	return ticks ? ticks : 1;
}

/* CPUs numbered thread-fastest, as the kernel's topology code numbers them. */
static void boot(const struct workload *wl)
{
	static struct sched_topology topo;

	for (int n = 0; n < wl->ncpus; n++) {
		topo.cpu[n].thread = n % wl->threads;
		topo.cpu[n].core = (n / wl->threads) % wl->cores;
		topo.cpu[n].package = n / (wl->threads * wl->cores);
	}
	fake_boot_hz(wl->ncpus, &topo, wl->hz);
}

/* One tunable, by its boot-parameter name; where says who asked. */
static bool set_tunable(const char *name, const char *value, const char *where)
{
	int r;

	if (strcmp(name, "hz") == 0) {
		fprintf(stderr, "%s: hz is not a tunable here: write 'hz %s' as a line of its own\n",
			where, value);
		return false;
	}
	r = sched_setup_param(name, value);
	if (r == -ENOENT) {
		fprintf(stderr, "%s: no tunable '%s' (there are:", where, name);
		for (int id = SCHED_TUNABLE_HZ + 1; id < SCHED_TUNABLE_NR; id++)
			fprintf(stderr, " %s", sched_tunable_name(id));
		fprintf(stderr, ")\n");
		return false;
	}
	if (r < 0) {
		fprintf(stderr, "%s: bad value '%s' for %s\n", where, value, name);
		return false;
	}
	return true;
}

/* The file's tunable lines, then the command line's: the number of errors. */
static int apply_tunables(const char *file, const struct workload *wl,
			  const char *const *cli, int ncli)
{
	int errors = 0;

	for (int i = 0; i < wl->ntunables; i++) {
		char where[300], value[16];
		snprintf(where, sizeof(where), "%s:%d", file, wl->tunables[i].line);
		snprintf(value, sizeof(value), "%d", wl->tunables[i].value);
		errors += !set_tunable(wl->tunables[i].name, value, where);
	}
	for (int i = 0; i < ncli; i++) {
		char name[64];
		const char *eq = strchr(cli[i], '=');
		snprintf(name, sizeof(name), "%.*s", (int)(eq - cli[i]), cli[i]);
		errors += !set_tunable(name, eq + 1, "--tunable");
	}
	return errors;
}

/*
 * As the kernel does for a new process that sets its policy, nice and
 * affinity before it first runs: build the task, then queue it
 * (sched_wake_new) on the first CPU it may use.
 */
static void start_task(struct task_report *t, int hz)
{
	const struct wl_task *w = t->w;
	int cpu = __builtin_ctz(w->cpus);
	struct fake_proc *p = fake_new_task(cpu, 1000, 1000);
	int run = 0, run_max = 0, sleep = 0, sleep_max = 0;

	sched_set_cpus_allowed(&p->sched, w->cpus);
	sched_set_user_nice(&p->sched, w->nice);
	sched_set_policy(&p->sched, w->policy, w->rt_priority);
	if (!w->hog) {
		run = (int)ns_to_whole_ticks(w->run_ns, hz);
		run_max = (int)ns_to_whole_ticks(w->run_max_ns, hz);
		sleep = (int)ns_to_whole_ticks(w->sleep_ns, hz);
		sleep_max = (int)ns_to_whole_ticks(w->sleep_max_ns, hz);
	}
	by_pid[p->pid] = t;
	t->sim = sim_add_task(p, run, sleep);
	t->sim->uninterruptible = w->uninterruptible;
	sim_set_ranges(t->sim, run_max, sleep_max);
	fake_cpu = cpu;
	sched_wake_new(&p->sched);
	fake_cpu = 0;
}

/* ---- the report ---- */

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void format_cpus(uint32_t mask, int ncpus, char *buf, size_t size)
{
	size_t n = 0;

	if (mask == (ncpus >= 32 ? ~0u : (1u << ncpus) - 1)) {
		snprintf(buf, size, "all");
		return;
	}
	buf[0] = 0;
	for (int lo = 0; lo < ncpus; lo++) {
		int hi = lo;
		if (!(mask & (1u << lo)))
			continue;
		while (hi + 1 < ncpus && (mask & (1u << (hi + 1))))
			hi++;
		n += (size_t)snprintf(buf + n, n < size ? size - n : 0, n ? ",%d" : "%d", lo);
		if (hi > lo)
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "-%d", hi);
		lo = hi;
	}
}

/*
 * Jain's fairness index of the tasks' shares, (sum x)^2 / (n * sum x^2):
 * 1.0 when all are equal, 1/n when one task has it all; and the largest
 * share over the smallest. Over every task that started, so it means most
 * when they are alike (H hogs on M CPUs: docs/staircase.md §8.2).
 */
static void print_fairness(uint64_t ticks, double seconds)
{
	double sum = 0, sumsq = 0, lo = 0, hi = 0;
	int n = 0;

	for (int i = 0; i < nreports; i++) {
		if (!reports[i].sim)
			continue;
		double x = sim_share(reports[i].sim, ticks);
		sum += x;
		sumsq += x * x;
		lo = n == 0 || x < lo ? x : lo;
		hi = n == 0 || x > hi ? x : hi;
		n++;
	}
	if (n && sumsq > 0 && lo > 0)
		printf("fairness: Jain's index %.3f, max/min share %.2f\n", sum * sum / (n * sumsq), hi / lo);
	else if (n && sumsq > 0)
		printf("fairness: Jain's index %.3f, max/min share - (a task got nothing)\n",
		       sum * sum / (n * sumsq));
	printf("migrations: %llu, %.1f per second\n\n", (unsigned long long)migrations,
	       seconds > 0 ? (double)migrations / seconds : 0.0);
}

static void print_report(const char *file, const struct workload *wl, uint64_t ticks,
			 uint64_t seed)
{
	uint64_t now = fake_now_ns;

	printf("staircase-sim: %s: %d CPU%s (%d package%s x %d core%s x %d thread%s), "
	       "hz %d, %.3f s, seed %llu, sched %s\n", file,
	       wl->ncpus, wl->ncpus > 1 ? "s" : "", wl->ncpus / (wl->cores * wl->threads),
	       wl->ncpus / (wl->cores * wl->threads) > 1 ? "s" : "", wl->cores,
	       wl->cores > 1 ? "s" : "", wl->threads, wl->threads > 1 ? "s" : "",
	       wl->hz, (double)now / 1e9, (unsigned long long)seed, sched_class_name());
	printf("tunables:");
	for (int id = SCHED_TUNABLE_HZ + 1; id < SCHED_TUNABLE_NR; id++)
		printf(" %s=%d", sched_tunable_name(id), sched_tunable_get(id));
	printf("\n\n");
	printf("%-12s %4s %-6s %4s %-5s %7s %7s %9s %9s %9s %9s %5s %5s\n",
	       "task", "pid", "policy", "nice", "cpus", "cpu%", "runs", "avg wait",
	       "max wait", "wake avg", "wake max", "stair", "burst");
	for (int i = 0; i < nreports; i++) {
		struct task_report *t = &reports[i];
		const struct wl_task *w = t->w;
		char cpus[64];
		format_cpus(w->cpus, wl->ncpus, cpus, sizeof(cpus));
		if (!t->sim) {
			printf("%-12s %4s %-6s %4d %-5s (not started)\n", w->name, "-",
			       wl_policy_name(w->policy),
			       w->policy == SCHED_FIFO || w->policy == SCHED_RR ? w->rt_priority : w->nice,
			       cpus);
			continue;
		}
		struct sched_task *se = &t->sim->proc->sched;
		uint64_t max_wait = t->max_wait_ns;
		/* still waiting at the end: that wait counts too */
		if (se->on_rq && fake_curr(se->cpu) != se && now - se->stats.queued_ns > max_wait)
			max_wait = now - se->stats.queued_ns;
		printf("%-12s %4d %-6s %4d %-5s %6.1f%% %7u %9.3f %9.3f %9.3f %9.3f %5d %5d\n",
		       w->name, t->sim->proc->pid, wl_policy_name(w->policy),
		       w->policy == SCHED_FIFO || w->policy == SCHED_RR ? w->rt_priority : w->nice,
		       cpus, 100.0 * sim_share(t->sim, ticks), se->stats.nr_runs,
		       se->stats.nr_runs ? ms(se->stats.wait_ns) / se->stats.nr_runs : 0.0,
		       ms(max_wait), t->wakeups ? ms(t->wake_latency_ns) / (double)t->wakeups : 0.0,
		       ms(t->max_wake_latency_ns), se->prio, se->burst);
	}
	printf("(nice: or the real-time priority for fifo and rr; cpu%%: of one CPU over the whole run; times in ms; wake: from wake-up to "
	       "running; stair, burst: at the end)\n\n");
	print_fairness(ticks, (double)now / 1e9);
	printf("%-5s %-9s %7s %7s %7s\n", "cpu", "pkg/core/thr", "busy%", "user%", "nice%");
	for (int cpu = 0; cpu < wl->ncpus; cpu++) {
		const struct runqueue *rq = cpu_rq(cpu);
		double total = rq->ticks ? (double)rq->ticks : 1.0;
		char where[32];
		snprintf(where, sizeof(where), "%d/%d/%d", cpu / (wl->threads * wl->cores),
			 (cpu / wl->threads) % wl->cores, cpu % wl->threads);
		printf("cpu%-2d %-12s %6.1f%% %6.1f%% %6.1f%%\n", cpu, where,
		       100.0 * (double)(rq->ticks - rq->idle_ticks) / total,
		       100.0 * (double)rq->user_ticks / total, 100.0 * (double)rq->nice_ticks / total);
	}
}

/* ---- a replay (replay.h) ---- */

/* Read the trace, boot its CPUs (one package of as many cores, at the
 * kernel's default 1000 Hz), set the tunables, replay. */
static int replay_main(const char *trace, bool lenient, struct replay_opts *o,
		       const char *const *cli, int ncli)
{
	static struct workload wl;
	static struct rtrace tr;
	FILE *f = fopen(trace, "r");
	bool ok;

	if (!f) {
		fprintf(stderr, "staircase-sim: %s: %s\n", trace, strerror(errno));
		return 2;
	}
	ok = replay_read(f, trace, lenient, &tr, stderr);
	fclose(f);
	if (!ok)
		return 2;
	int ncpus = o->cpus ? o->cpus : tr.ncpus;
	wl = (struct workload){ .ncpus = ncpus, .cores = ncpus, .threads = 1, .hz = 1000 };
	if (apply_tunables(trace, &wl, cli, ncli))
		return 2;
	boot(&wl);
	apply_tunables(trace, &wl, cli, ncli);
	if (replay_policies_ok(&tr, o))
		return 2;
	printf("staircase-sim: replay of %s: %d CPU%s (recorded on %d), %ld events, %d tasks, "
	       "%.3f s recorded%s, hz %d, sched %s\n", trace, ncpus, ncpus > 1 ? "s" : "", tr.ncpus,
	       tr.events, tr.ntasks,
	       (double)(tr.t1 - tr.t0) / 1e9, tr.warnings ? " (bad records passed over)" : "",
	       wl.hz, sched_class_name());
	printf("tunables:");
	for (int id = SCHED_TUNABLE_HZ + 1; id < SCHED_TUNABLE_NR; id++)
		printf(" %s=%d", sched_tunable_name(id), sched_tunable_get(id));
	printf("\n\n");
	return replay_run(&tr, o);
}

/* ---- the command line ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: staircase-sim [options] WORKLOAD   (- reads standard input)\n"
		"  --trace              print the scheduler's events in the kernel's dump\n"
		"                       format first (view: tools/traceview.py)\n"
		"  --seed N             seed for lengths given as ranges (default 1)\n"
		"  --duration LENGTH    override the file's duration (e.g. 2s, 500ms)\n"
		"  --tunable NAME=VALUE override a tunable (e.g. iso_cpu=100); may repeat\n"
		"  --set NAME=VALUE     the same\n"
		"  --replay TRACE       no workload: replay a kernel trace (docs/simulator.md)\n"
		"  --check              with --replay: exit 1 unless the round trip holds\n"
		"  --lenient            with --replay: report bad records and go on\n"
		"  --nice PID=DELTA     with --replay: the recorded pid's nice plus DELTA\n"
		"  --policy PID=POLICY  with --replay: the recorded pid under another policy\n"
		"  --cpus N             with --replay: on N CPUs, not the trace's\n"
		"  --trace-out FILE     with --replay: the replay's events into FILE, not first\n"
		"  --sched NAME         the scheduler of lineage mode (docs/lineage.md): %s\n"
		"  --picknext N,N,...   no workload: host time per yield with N runnable\n"
		"                       hogs on one CPU, for each N (1 to %d; docs/simulator.md)\n"
		"The format of WORKLOAD is in docs/simulator.md.\n", sched_class_names(), PICKNEXT_MAX);
}

int main(int argc, char **argv)
{
	const char *file = NULL, *cli_tunables[MAX_CLI_TUNABLES], *replay = NULL;
	struct replay_opts ropts = { 0 };
	bool lenient = false;
	int ncli = 0, errors = 0;
	uint64_t seed = 1, duration = 0, ticks;
	static struct workload wl;
	FILE *f;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--picknext") && v) {
			return sim_picknext(v);
		} else if (!strcmp(a, "--replay") && v) {
			replay = v;
			i++;
		} else if ((!strcmp(a, "--nice") || !strcmp(a, "--policy")) && v) {
			if (!replay_parse_override(v, a[2] == 'p', &ropts)) {
				fprintf(stderr, "staircase-sim: %s wants PID=%s (at most %d), not '%s'\n", a,
					a[2] == 'p' ? "POLICY (normal, fifo, rr, batch, iso)" : "DELTA (-39..39)",
					REPLAY_MAX_OVERRIDES, v);
				return 1;
			}
			i++;
		} else if (!strcmp(a, "--cpus") && v) {
			char *end;
			long n = strtol(v, &end, 10);
			if (*end || n < 1 || n > WL_MAX_CPUS) {
				fprintf(stderr, "staircase-sim: --cpus wants 1 to %d, not '%s'\n", WL_MAX_CPUS, v);
				return 1;
			}
			ropts.cpus = (int)n;
			i++;
		} else if (!strcmp(a, "--check")) {
			ropts.check = true;
		} else if (!strcmp(a, "--lenient")) {
			lenient = true;
		} else if (!strcmp(a, "--trace")) {
			tracing = true;
		} else if (!strcmp(a, "--trace-out") && v) {
			tracing = true;
			ropts.trace_out = v;
			i++;
		} else if (!strcmp(a, "--seed") && v) {
			char *end;
			errno = 0;
			seed = strtoull(v, &end, 0);
			if (errno || !*v || *end || *v == '-') {
				fprintf(stderr, "staircase-sim: --seed wants a number, not '%s'\n", v);
				return 1;
			}
			i++;
		} else if (!strcmp(a, "--duration") && v) {
			if (!wl_parse_length(v, &duration) || duration > 3600 * 1000000000ull) {
				fprintf(stderr, "staircase-sim: --duration wants a length such as 2s or "
					"500ms (at most 1 hour), not '%s'\n", v);
				return 1;
			}
			i++;
		} else if (!strncmp(a, "--sched=", 8) || (!strcmp(a, "--sched") && v)) {
			const char *name = a[7] == '=' ? a + 8 : v;
			if (sched_select_class(name) < 0) {
				fprintf(stderr, "staircase-sim: no scheduler '%s' (there are: %s)\n",
					name, sched_class_names());
				return 1;
			}
			fake_class = name;
			i += a[7] != '=';
		} else if ((!strcmp(a, "--tunable") || !strcmp(a, "--set")) && v) {
			if (ncli == MAX_CLI_TUNABLES || !strchr(v, '=')) {
				fprintf(stderr, "staircase-sim: --tunable wants NAME=VALUE (at most %d), "
					"not '%s'\n", MAX_CLI_TUNABLES, v);
				return 1;
			}
			cli_tunables[ncli++] = v;
			i++;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "staircase-sim: unknown option or missing value: %s\n", a);
			usage(stderr);
			return 1;
		} else if (file) {
			fprintf(stderr, "staircase-sim: one workload file only\n");
			return 1;
		} else {
			file = a;
		}
	}
	if (replay && (file || duration || seed != 1)) {
		fprintf(stderr, "staircase-sim: --replay takes no workload, --duration or --seed\n");
		return 1;
	}
	ropts.trace = tracing;
	if (replay)
		return replay_main(replay, lenient, &ropts, cli_tunables, ncli);
	if (!file || ropts.check || lenient || ropts.nover || ropts.cpus || ropts.trace_out) {
		if (file)
			fprintf(stderr, "staircase-sim: --check, --lenient, --nice, --policy, --cpus and "
				"--trace-out go with --replay\n");
		usage(stderr);
		return 1;
	}

	f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f) {
		fprintf(stderr, "staircase-sim: %s: %s\n", file, strerror(errno));
		return 2;
	}
	errors = wl_parse(f, file, &wl, stderr);
	if (f != stdin)
		fclose(f);
	if (duration)
		wl.duration_ns = duration;
	/* Check the tunables now, to report them with the other errors; they
	 * are set for real after the boot, which starts from the defaults. */
	errors += apply_tunables(file, &wl, cli_tunables, ncli);
	if (errors)
		return 2;
	boot(&wl);
	apply_tunables(file, &wl, cli_tunables, ncli);
	for (int i = 0; i < wl.ntasks; i++)
		if (!valid_policy(wl.tasks[i].policy)) {
			fprintf(stderr, "staircase-sim: %s: task %s: %s has no policy %s\n", file,
				wl.tasks[i].name, sched_class_name(), wl_policy_name(wl.tasks[i].policy));
			return 2;
		}

	sim_reset();
	sim_seed(seed);
	fake_trace_hook = on_event;
	ticks = ns_to_whole_ticks(wl.duration_ns, wl.hz);
	for (int i = 0; i < wl.ntasks; i++) {
		reports[i].w = &wl.tasks[i];
		reports[i].start_tick = wl.tasks[i].start_ns ?
			ns_to_whole_ticks(wl.tasks[i].start_ns, wl.hz) : 0;
	}
	nreports = wl.ntasks;

	for (uint64_t tick = 0; tick < ticks; tick++) {
		for (int i = 0; i < nreports; i++)
			if (!reports[i].sim && reports[i].start_tick == tick)
				start_task(&reports[i], wl.hz);
		sim_step();
	}

	if (tracing)
		print_trace();
	print_report(file, &wl, ticks, seed);
	free(trace_buf);
	return 0;
}
