/*
 * replay.c - run a trace's atoms (replay.h) on the simulated CPUs and say
 * how the replay compares with the recording.
 *
 * The driver plays the kernel's part one tick at a time, as tests/unit/sim.c
 * does for a workload, but each task follows its own list of atoms:
 * a RUN is CPU work, consumed only while the task runs, to the ns: a RUN
 * that ends inside a tick lets the task do its next atoms there, and the
 * CPU's next task runs the rest of that tick; the timer tick (sched_tick)
 * is charged to whoever runs when it comes, as on the kernel. A SLEEP
 * ends at the tick nearest its recorded end (one tick at least: timers
 * fire on ticks); a WAIT ends when its waker has done the WAKE it names,
 * perf sched replay's rule, so a reader wakes when the writer writes,
 * whatever the time. Only a running task does atoms.
 *
 * A YIELD is the kernel's sched_yield: the task's CPU reschedules before
 * it does another atom. A CPUS sets its allowed CPUs, as sched_setaffinity.
 * From a HOLD to its RET (the rest of a system call that woke a task that
 * preempts) the CPU's reschedule waits, as the kernel's need_resched waits
 * for the way back to user mode; leaving the CPU ends a hold too.
 *
 * Invariant between steps of the clock: every CPU's current task stands
 * on a RUN with work left (or the CPU idles), and no CPU has a
 * reschedule pending unless it is held.
 */
#include "replay.h"
#include "../../tests/unit/fake_machine.h"
#include "../../sched/runqueue.h"
#include "../../sched/policy.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct rstate {
	struct fake_proc *p;		/* NULL until started */
	int next;			/* the atom it stands on */
	bool entered;			/* its RUN's work is set up */
	int64_t left;			/* ns of work left of that RUN */
	bool asleep, blocked, finished;
	uint64_t wake_at;		/* asleep: the tick */
	uint64_t ran_ns;		/* time run */
	uint64_t woken_ns;		/* woken, not yet switched in; 0 none */
	uint64_t *lat;
	int nlat, lat_cap;
	uint64_t end_ns;		/* when it exited or stopped */
	struct stair_log stairs;	/* its stair and state, from its events */
};

static struct rtrace *tr;
static const struct replay_opts *opts;
/* cpu's task yielded: its CPU reschedules before it does another atom. */
static bool yielded[64];
/* cpu's task is in a system call whose wake-up preempts it: not yet. */
static bool held[64];
/* cpu's task stands on a STALL: the CPU stands still (no tick, no switch). */
static bool stalled[64];
static struct rstate *rs;
static struct rstate *by_sim_pid[FAKE_MAX_PROCS + 1];

/* --trace: the replay's events, printed as the kernel's dump with the
 * recorded pids and names, so that traceview draws the replay beside the
 * recording (docs/simulator.md). */
#define REPLAY_TRACE_KEEP 1000000
struct out_rec {
	struct fake_trace_rec r;
	int prio, burst, slice;
};
static struct out_rec *out;
static size_t nout, out_cap, out_lost;
static uint64_t now_tick;

static struct rstate *of(struct sched_task *se)
{
	int pid = se ? fake_pid(se) : 0;
	return pid > 0 && pid <= FAKE_MAX_PROCS ? by_sim_pid[pid] : NULL;
}

static void push_lat(struct rstate *s, uint64_t ns)
{
	if (s->nlat == s->lat_cap) {
		s->lat_cap = s->lat_cap ? 2 * s->lat_cap : 64;
		s->lat = realloc(s->lat, (size_t)s->lat_cap * sizeof(*s->lat));
		if (!s->lat)
			exit(2);
	}
	s->lat[s->nlat++] = ns;
}

static void keep(const struct fake_trace_rec *r, const struct rstate *s)
{
	const struct sched_task *se = s && s->p ? &s->p->sched :
		r->policy == FAKE_POLICY_IDLE ? &fake_idle[r->cpu].sched : NULL;

	if (nout == REPLAY_TRACE_KEEP) {
		out_lost++;
		return;
	}
	if (nout == out_cap) {
		out_cap = out_cap ? 2 * out_cap : 65536;
		out = realloc(out, out_cap * sizeof(*out));
		if (!out)
			exit(2);
	}
	out[nout++] = (struct out_rec){ *r, se ? se->prio : 0, se ? se->burst : 0, se ? se->slice : 0 };
}

static void print_trace(FILE *f)
{
	fprintf(f, "trace: begin %zu events, %zu lost, %d cpus\n", nout, out_lost, fake_ncpus);
	for (size_t i = 0; i < nout; i++) {
		const struct fake_trace_rec *e = &out[i].r;
		const struct rstate *s = e->pid > 0 && e->pid <= FAKE_MAX_PROCS ? by_sim_pid[e->pid] : NULL;
		const struct rtask *t = s ? &tr->tasks[s - rs] : NULL;
		fprintf(f, "trace: %llu cpu%d %s pid %d %s %s %d comm=%s prio=%d burst=%d slice=%d\n",
		       (unsigned long long)e->ns, e->cpu, sched_trace_names[e->event][0],
		       t ? t->pid : 0, sched_trace_policy_name(e->policy), sched_trace_names[e->event][1],
		       e->arg, t && t->comm[0] ? t->comm : e->policy == FAKE_POLICY_IDLE ? "idle" : "-",
		       out[i].prio, out[i].burst, out[i].slice);
	}
	fprintf(f, "trace: end\n");
	free(out);
}

/* The replay's wake latencies and stairs, from the scheduler's own events. */
static void on_event(const struct fake_trace_rec *r)
{
	struct rstate *s = r->pid > 0 && r->pid <= FAKE_MAX_PROCS ? by_sim_pid[r->pid] : NULL;

	if (opts->trace)
		keep(r, s);
	if (!s)
		return;
	if (s->p)
		stair_note(&s->stairs, r->ns, s->p->sched.prio, stair_runnable_after(&s->stairs, r->event));
	if (r->event == TRACE_WAKEUP)
		s->woken_ns = r->ns ? r->ns : 1;
	else if (r->event == TRACE_SWITCH && s->woken_ns) {
		push_lat(s, r->ns - (s->woken_ns == 1 ? 0 : s->woken_ns));
		s->woken_ns = 0;
	}
}

/* The policy a task replays under: its own, or --policy's. */
static int policy_for(const struct rtask *t, const struct replay_opts *o)
{
	int policy = t->policy >= 0 ? t->policy : SCHED_NORMAL;

	for (int k = 0; k < o->nover; k++)
		if (o->over[k].pid == t->pid && o->over[k].is_policy)
			policy = o->over[k].value;
	return policy;
}

static uint32_t all_cpus(void)
{
	return fake_ncpus >= 32 ? ~0u : (1u << fake_ncpus) - 1;
}

/* A recorded mask on the replay's CPUs: all of them where it names none
 * of them (--cpus took them away). */
static uint32_t on_replay_cpus(uint32_t mask)
{
	return mask & all_cpus() ? mask & all_cpus() : all_cpus();
}

/* The CPUs a task may use when it starts; 0: any. Known for a task forked
 * in a trace whose forks say cpus= (and its affinity events change it
 * later, as CPUS atoms). Otherwise, a task seen on one CPU only of
 * several, before any affinity event of its own, is taken as pinned
 * there (a trace of an older kernel, or a task there from the start).
 * Not pinned where the recording had one CPU, or --cpus took its CPU
 * away. */
static uint32_t pinned_to(const struct rtask *t)
{
	uint32_t all = all_cpus();

	if (t->fork_cpus)
		return on_replay_cpus(t->fork_cpus);
	if (tr->ncpus == 1 || fake_ncpus == 1 || !t->ran_on || (t->ran_on & ~all) ||
	    (t->ran_on & (t->ran_on - 1)))
		return 0;
	return t->ran_on;
}

/* Its nice, plus --nice's delta: inherited where it was forked in the
 * trace and set none of its own there (no nice event); else, for NORMAL
 * and BATCH, from its best stair since it last set one (120 + nice). */
static int nice_for(const struct rtask *t, int policy, const struct sched_task *forked)
{
	bool staired = policy == SCHED_NORMAL || policy == SCHED_BATCH;
	int nice = forked && !t->reniced ? sched_task_nice(forked) :
		   staired && t->prio_min >= 100 && t->prio_min < 140 ? t->prio_min - 120 : 0;

	for (int k = 0; k < opts->nover; k++)
		if (opts->over[k].pid == t->pid && !opts->over[k].is_policy)
			nice += opts->over[k].value;
	return nice < -20 ? -20 : nice > 19 ? 19 : nice;
}

/* A task of the trace starts: forked by parent (its fork in the trace),
 * as the kernel forks (sched_fork: the parent's stair and slice), or,
 * there from the start, as a process that sets its policy and nice before
 * it runs (main.c); on cpu (its parent's) unless it is pinned elsewhere.
 * Its policy and nice are then set where they differ from what it has:
 * FIFO and RR get their recorded priority, 99 - prio (1 for a task
 * --policy made one). */
static void start(int i, int cpu, const struct rstate *parent)
{
	const struct rtask *t = &tr->tasks[i];
	uint32_t pin = pinned_to(t);
	int policy = policy_for(t, opts);
	bool rt = policy == SCHED_FIFO || policy == SCHED_RR;
	struct fake_proc *p;
	int nice;

	if (pin && !(pin & (1u << cpu)))
		cpu = __builtin_ctz(pin);
	p = fake_new_task(cpu, 1000, 1000);
	fake_cpu = cpu;
	if (parent)
		sched_fork(&parent->p->sched, &p->sched);
	nice = rt ? 0 : nice_for(t, policy, parent ? &p->sched : NULL);
	if (pin && pin != p->sched.cpus_allowed)
		sched_set_cpus_allowed(&p->sched, pin);
	if (!parent || sched_task_nice(&p->sched) != nice)
		sched_set_user_nice(&p->sched, nice);
	if (!parent || p->sched.policy != policy || rt)
		sched_set_policy(&p->sched, policy, !rt ? 0 : t->prio_min < 99 ? 99 - t->prio_min : 1);
	rs[i].p = p;
	by_sim_pid[p->pid] = &rs[i];
	sched_wake_new(&p->sched);
	fake_cpu = 0;
}

static void complete(struct rstate *s)
{
	s->next++;
	s->entered = false;
}

static int index_of(const struct rstate *s)
{
	return (int)(s - rs);
}

/* The waker s has done its WAKE (atom at) of task dep. */
static void wake(struct rstate *s, int at, int dep, int cpu)
{
	struct rstate *w = &rs[dep];
	const struct atom *a = &tr->tasks[dep].atoms[w->next];

	if (!w->p || !w->blocked || a->kind != A_WAIT || a->dep != index_of(s) || a->dep_atom != at)
		return;			/* it has not reached its WAIT yet: it will not stop there */
	w->blocked = false;
	complete(w);
	fake_cpu = cpu;			/* the waker's CPU does the wake-up */
	sched_wake_up(&w->p->sched);
	fake_cpu = 0;
}


/* Do s's atoms until it stands on a RUN with work left, or leaves the CPU.
 * s is cpu's current task. */
static void advance(struct rstate *s, int cpu)
{
	const struct rtask *t = &tr->tasks[index_of(s)];

	for (;;) {
		const struct atom *a = &t->atoms[s->next];
		switch (a->kind) {
		case A_RUN:
		case A_STALL:
			if (!s->entered) {
				s->left = (int64_t)a->ns;
				s->entered = true;
			}
			stalled[cpu] = a->kind == A_STALL && s->left > 0;
			if (s->left > 0)
				return;
			complete(s);
			break;
		case A_WAKE:
			complete(s);
			wake(s, s->next - 1, a->dep, cpu);
			break;
		case A_FORK:
			complete(s);
			start(a->dep, cpu, s);
			break;
		case A_YIELD:
			complete(s);
			held[cpu] = false;
			fake_cpu = cpu;
			sched_do_yield();
			fake_cpu = 0;
			yielded[cpu] = true;
			return;
		case A_HOLD:
		case A_RET:
			complete(s);
			held[cpu] = a->kind == A_HOLD;
			break;
		case A_CPUS:
			complete(s);
			fake_cpu = cpu;
			sched_set_cpus_allowed(&s->p->sched, on_replay_cpus((uint32_t)a->ns));
			fake_cpu = 0;
			break;
		case A_SLEEP: {
			uint64_t at = (fake_now_ns + a->ns + fake_tick_ns() / 2) / fake_tick_ns();
			s->asleep = true;
			s->wake_at = at > now_tick ? at : now_tick + 1;
			held[cpu] = false;
			fake_sleep(cpu, TASK_INTERRUPTIBLE);
			return;
		}
		case A_WAIT:
			if (rs[a->dep].p && rs[a->dep].next > a->dep_atom) {
				complete(s);	/* woken before it slept */
				break;
			}
			s->blocked = true;
			held[cpu] = false;
			fake_sleep(cpu, TASK_INTERRUPTIBLE);
			return;
		default:		/* A_EXIT, A_END */
			s->finished = true;
			s->end_ns = fake_now_ns;
			held[cpu] = false;
			fake_sleep(cpu, a->kind == A_EXIT ? TASK_DEAD : TASK_INTERRUPTIBLE);
			return;
		}
	}
}

/* Until cpu's current task has work, or the CPU idles, or its task
 * yielded (the reschedule comes before its next atom). */
static void settle(int cpu)
{
	struct rstate *s;

	while (!yielded[cpu] && (s = of(fake_curr(cpu))) && !(s->entered && s->left > 0 &&
		(tr->tasks[index_of(s)].atoms[s->next].kind == A_RUN ||
		 tr->tasks[index_of(s)].atoms[s->next].kind == A_STALL)))
		advance(s, cpu);
}

/* Reschedule where asked and not held (a wake-up's preemption acts at
 * once, as the kernel's IPI does, unless the CPU's task is in the system
 * call that woke), and let each CPU's task do its atoms, until every
 * CPU's task has work and no request is left but held ones. */
static void settle_all(void)
{
	bool again = true;

	while (again) {
		for (int cpu = 0; cpu < fake_ncpus; cpu++)
			if (fake_need_resched[cpu] && !held[cpu] && !stalled[cpu])
				fake_schedule(cpu);
		memset(yielded, 0, sizeof(yielded));
		for (int cpu = 0; cpu < fake_ncpus; cpu++)
			settle(cpu);
		again = false;
		for (int cpu = 0; cpu < fake_ncpus; cpu++)
			again |= fake_need_resched[cpu] && !held[cpu] && !stalled[cpu];
	}
}

/* The CPUs run to the next tick: all at once, each task's work going
 * down, stopping inside the tick where a RUN ends so that its task does
 * what comes next (sleeps, wakes another, exits) at that ns. */
static void run_to_tick(void)
{
	uint64_t end = (now_tick + 1) * fake_tick_ns();

	for (;;) {
		uint64_t dt;
		settle_all();
		dt = end - fake_now_ns;
		for (int cpu = 0; cpu < fake_ncpus; cpu++) {
			struct rstate *s = of(fake_curr(cpu));
			if (s && (uint64_t)s->left < dt)
				dt = (uint64_t)s->left;
		}
		for (int cpu = 0; cpu < fake_ncpus; cpu++) {
			struct rstate *s = of(fake_curr(cpu));
			if (s) {
				s->left -= (int64_t)dt;
				s->ran_ns += dt;
			}
		}
		fake_now_ns += dt;
		if (fake_now_ns == end)
			return;
	}
}

static void step(void)
{
	run_to_tick();
	now_tick++;
	for (int cpu = 0; cpu < fake_ncpus; cpu++)
		if (!stalled[cpu])
			fake_tick(cpu, true);
	for (int i = 0; i < tr->ntasks; i++) {
		struct rstate *s = &rs[i];
		if (s->p && s->asleep && s->wake_at <= now_tick) {
			s->asleep = false;
			complete(s);
			fake_cpu = s->p->sched.cpu;
			sched_wake_up(&s->p->sched);
			fake_cpu = 0;
		}
	}
	settle_all();
}

static bool all_done(void)
{
	for (int i = 0; i < tr->ntasks; i++)
		if (!rs[i].finished && (rs[i].p || !tr->tasks[i].forked))
			return false;
	return true;
}

bool replay_parse_override(const char *arg, bool is_policy, struct replay_opts *o)
{
	char *end;
	long pid = strtol(arg, &end, 10), v;

	if (o->nover == REPLAY_MAX_OVERRIDES || pid <= 0 || *end != '=')
		return false;
	if (is_policy) {
		for (v = 0; v < SCHED_NR_POLICIES; v++)
			if (!strcmp(sched_trace_policy_name((int)v), end + 1))
				break;
		if (v == SCHED_NR_POLICIES)
			return false;
	} else {
		char *e2;
		v = strtol(end + 1, &e2, 10);
		if (e2 == end + 1 || *e2 || v < -39 || v > 39)
			return false;
	}
	o->over[o->nover++] = (struct replay_override){ (int)pid, is_policy, (int)v };
	return true;
}

/* ---- the comparison ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The p-th percentile (nearest rank) of n latencies, in ms; sorts them. */
static double pct(uint64_t *v, int n, int p)
{
	if (!n)
		return 0.0;
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	int rank = (p * n + 99) / 100;
	return (double)v[rank > 0 ? rank - 1 : 0] / 1e6;
}

/* The round trip's tolerances (docs/simulator.md says why these). */
#define CPU_TOL		0.05	/* CPU time: 5 % ... */
#define CPU_TOL_TICKS	2	/* ... or 2 ticks, whichever is more */
#define LAT_TOL_TICKS	2	/* p50, p99: 2 ticks ... */
#define LAT_TOL		0.25	/* ... or 25 %, whichever is more */
#define END_TOL		0.05	/* exit: within 5 % of the recording's length ... */
#define END_TOL_TICKS	20	/* ... or 20 ticks, whichever is more */
#define P50_MIN_WAKES	10	/* fewer wake-ups: no p50 to compare */
#define P99_MIN_WAKES	100	/* fewer: the p99 is the max of a few, noise */

static bool lat_ok(double rec, double rep, double tick_ms)
{
	double d = rec > rep ? rec - rep : rep - rec;
	return d <= LAT_TOL_TICKS * tick_ms || d <= LAT_TOL * rec;
}

#define TENTHS 10

/* The stair a task stood on while runnable, over each tenth of a run of
 * span ns: the mean of its prio weighted by time; -1 where it was not
 * runnable in that tenth. */
static void stair_tenths(const struct stair_log *l, uint64_t span, int out[TENTHS])
{
	double sum[TENTHS] = { 0 }, time[TENTHS] = { 0 };

	for (int k = 0; k < l->n; k++) {
		const struct stair_pt *p = &l->v[k];
		double a = (double)p->ns, b = (double)(k + 1 < l->n ? l->v[k + 1].ns : span);
		for (int i = 0; p->runnable && i < TENTHS; i++) {
			double o = fmin(b, (double)span * (i + 1) / TENTHS) - fmax(a, (double)span * i / TENTHS);
			if (o > 0) {
				sum[i] += o * p->prio;
				time[i] += o;
			}
		}
	}
	for (int i = 0; i < TENTHS; i++)
		out[i] = time[i] > 0 ? (int)lround(sum[i] / time[i]) : -1;
}

/* Its pid, or "tid>pid" for a thread that took its leader's pid. */
static void pid_label(char *buf, size_t n, const struct rtask *t)
{
	if (t->tid)
		snprintf(buf, n, "%d>%d", t->tid, t->pid);
	else
		snprintf(buf, n, "%d", t->pid);
}

static void print_tenths_row(const struct stair_log *l, uint64_t span)
{
	int v[TENTHS];

	stair_tenths(l, span, v);
	for (int i = 0; i < TENTHS; i++)
		if (v[i] < 0)
			printf(" %4s", "-");
		else
			printf(" %4d", v[i]);
	printf("\n");
}

/* Per task, its stair over each tenth of the run, recorded above replayed. */
static void report_stairs(uint64_t end_ns)
{
	printf("\n%-15s %5s %-3s", "stairs", "pid", "run");
	for (int i = 1; i <= TENTHS; i++)
		printf(" %3d%%", 100 * i / TENTHS);
	printf("\n");
	for (int i = 0; i < tr->ntasks; i++) {
		const struct rtask *t = &tr->tasks[i];
		char pid[16];
		pid_label(pid, sizeof(pid), t);
		printf("%-15s %5s rec", t->comm[0] ? t->comm : "-", pid);
		print_tenths_row(&t->stairs, tr->t1 - tr->t0);
		printf("%-15s %5s rep", "", "");
		print_tenths_row(&rs[i].stairs, end_ns);
	}
	printf("(stairs: the prio each task stood on while runnable, averaged over each tenth of the run, "
	       "recorded and replayed; -: not runnable in that tenth)\n");
}

static int report(bool check, uint64_t end_ns, bool timed_out)
{
	double tick_ms = (double)fake_tick_ns() / 1e6;
	double span_rec = (double)(tr->t1 - tr->t0) / 1e6, span_rep = (double)end_ns / 1e6;
	int failures = 0;

	printf("%-15s %5s %-12s %10s %10s %7s %6s %6s %8s %8s %6s %6s %8s %8s %8s %8s %s\n", "task",
	       "pid", "policy", "cpu ms rec", "rep", "diff", "share", "rep", "end rec", "rep", "wakes",
	       "rep", "p50 rec", "rep", "p99 rec", "rep", check ? "check" : "");
	for (int i = 0; i < tr->ntasks; i++) {
		struct rtask *t = &tr->tasks[i];
		struct rstate *s = &rs[i];
		double rec = (double)t->cpu_ns / 1e6, rep = (double)s->ran_ns / 1e6;
		double diff = rec > 0 ? 100.0 * (rep - rec) / rec : 0.0;
		double p50r = pct(t->lat, t->nlat, 50), p99r = pct(t->lat, t->nlat, 99);
		double p50s = pct(s->lat, s->nlat, 50), p99s = pct(s->lat, s->nlat, 99);
		double end_rec = (double)t->end_ns / 1e9, end_rep = (double)s->end_ns / 1e9;
		double end_d = end_rec > end_rep ? end_rec - end_rep : end_rep - end_rec;
		const char *why = "";
		if (!s->finished && (s->p || !t->forked))
			why = "stuck";
		else if (!s->p && t->forked)
			why = "never started";
		else if ((rep > rec ? rep - rec : rec - rep) > CPU_TOL * rec &&
			 (rep > rec ? rep - rec : rec - rep) > CPU_TOL_TICKS * tick_ms)
			why = "cpu";
		else if (end_d > END_TOL * span_rec / 1e3 && end_d > END_TOL_TICKS * tick_ms / 1e3)
			why = "end";
		else if ((t->nlat >= P50_MIN_WAKES && !lat_ok(p50r, p50s, tick_ms)) ||
			 (t->nlat >= P99_MIN_WAKES && !lat_ok(p99r, p99s, tick_ms)))
			why = "latency";
		failures += check && *why;
		char pol[32], pid[24];
		pid_label(pid, sizeof(pid), t);
		int rp = s->p ? s->p->sched.policy : t->policy;
		snprintf(pol, sizeof(pol), "%s%s%s", t->policy >= 0 ? sched_trace_policy_name(t->policy) : "-",
			 rp != t->policy ? ">" : "", rp != t->policy ? sched_trace_policy_name(rp) : "");
		printf("%-15s %5s %-12s %10.3f %10.3f %+6.1f%% %5.1f%% %5.1f%% %8.3f %8.3f %6d %6d %8.3f %8.3f %8.3f %8.3f %s\n",
		       t->comm[0] ? t->comm : "-", pid, pol,
		       rec, rep, diff, span_rec > 0 ? 100.0 * rec / span_rec : 0.0,
		       span_rep > 0 ? 100.0 * rep / span_rep : 0.0, end_rec, end_rep, t->nlat, s->nlat, p50r, p50s, p99r, p99s,
		       check ? (*why ? why : "ok") : "");
	}
	printf("(cpu ms: time run, recorded and replayed; share: of one CPU over the run, %.3f s recorded, "
	       "%.3f s replayed; end: its exit, or the trace's end, in s from the start; wakes and wake-up latency "
	       "p50/p99 in ms, wake-up to running)\n",
	       span_rec / 1e3, span_rep / 1e3);
	report_stairs(end_ns);
	if (timed_out)
		printf("replay: stopped after %.3f s, 4 times the recording and 10 s more: "
		       "a task waits for a wake-up that never comes\n", span_rep / 1e3);
	if (!check)
		return 0;
	printf("check: %s: %d of %d tasks outside the tolerance (cpu time within %.0f %% or %d ticks; "
	       "end within %.0f %% of the recording or %d ticks; p50 and p99 within %d ticks or %.0f %%, of tasks woken %d and %d times or more)\n",
	       failures ? "the round trip does NOT hold" : "the round trip holds", failures, tr->ntasks,
	       CPU_TOL * 100, CPU_TOL_TICKS, END_TOL * 100, END_TOL_TICKS, LAT_TOL_TICKS, LAT_TOL * 100, P50_MIN_WAKES, P99_MIN_WAKES);
	return failures ? 1 : 0;
}

int replay_policies_ok(const struct rtrace *t, const struct replay_opts *o)
{
	for (int i = 0; i < t->ntasks; i++) {
		int policy = policy_for(&t->tasks[i], o);
		if (!valid_policy(policy)) {
			fprintf(stderr, "staircase-sim: %s: pid %d would be %s, which %s has not "
				"(--policy PID=normal)\n", t->file, t->tasks[i].pid,
				sched_trace_policy_name(policy), sched_class_name());
			return 2;
		}
	}
	return 0;
}

int replay_run(struct rtrace *trace, const struct replay_opts *o)
{
	uint64_t limit;
	bool timed_out = false;
	FILE *out_file = NULL;

	if (o->trace_out && !(out_file = fopen(o->trace_out, "w"))) {
		fprintf(stderr, "staircase-sim: %s: %s\n", o->trace_out, strerror(errno));
		return 2;
	}
	tr = trace;
	opts = o;
	rs = calloc((size_t)tr->ntasks + 1, sizeof(*rs));
	if (!rs)
		return 2;
	fake_trace_hook = on_event;
	for (int i = 0; i < tr->ntasks; i++)
		if (!tr->tasks[i].forked)
			start(i, tr->tasks[i].home_cpu % fake_ncpus, NULL);
	for (int cpu = 0; cpu < fake_ncpus; cpu++)
		fake_schedule(cpu);
	settle_all();
	limit = (4 * (tr->t1 - tr->t0) + 10000000000ull) / fake_tick_ns();
	while (!all_done()) {
		if (now_tick >= limit) {
			timed_out = true;
			break;
		}
		step();
	}
	if (out_file) {
		print_trace(out_file);
		fclose(out_file);
	} else if (o->trace) {
		print_trace(stdout);
	}
	return report(o->check, fake_now_ns, timed_out);
}
