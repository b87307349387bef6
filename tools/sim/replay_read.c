/*
 * replay_read.c - a kernel trace (docs/trace.md) into each process's list
 * of atoms (replay.h).
 *
 * The first trace block is read whole, its records checked in each CPU's
 * order (a ring is written in time order), then walked in time order
 * (stable: a stream is slightly out of order across CPUs). The walk keeps
 * every process's state (running, queued, asleep, dead) and closes a RUN
 * atom at each point where the process did something another depends on:
 * it slept, woke someone, forked, exited. A record that contradicts the
 * state (a switch-out of a task not running there, a switch-in of a task
 * asleep, a lost-events mark, no end line) is the first bad record: one
 * line names it, by line and byte offset, and what it means.
 */
#include "replay.h"
#include "../../sched/machine.h"
#include "../../sched/policy.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { RS_QUEUED, RS_RUNNING, RS_ASLEEP, RS_DEAD };

#define MAX_LINE 512

struct rec {
	uint64_t ns;
	long line, offset;
	int cpu, on, event, pid, policy, arg;
	int cur, prio;
	uint32_t gen, cpus;
	char state[4], reason[8], comm[16];
	bool has_reason;
};

struct reader {
	struct rtrace *tr;
	FILE *err;
	bool lenient, failed;
	int last_in[64];		/* per CPU: switched in last; -1 unknown */
};

static void *grow(void *p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	p = realloc(p, (size_t)*cap * size);
	if (!p) {
		fprintf(stderr, "staircase-sim: out of memory reading the trace\n");
		exit(2);
	}
	return p;
}

/* The one line about a bad record; false when reading must stop. */
__attribute__((format(printf, 3, 4)))
static bool bad(struct reader *r, const struct rec *e, const char *fmt, ...)
{
	va_list ap;

	fprintf(r->err, "%s:%ld: byte %ld: ", r->tr->file, e->line, e->offset);
	va_start(ap, fmt);
	vfprintf(r->err, fmt, ap);
	va_end(ap);
	fprintf(r->err, "%s\n", r->lenient ? " (--lenient: going on)" : "");
	r->tr->warnings++;
	if (!r->lenient)
		r->failed = true;
	return r->lenient;
}

/* ---- the lines ---- */

static int event_of(const char *name)
{
	for (int i = 0; i < TRACE_NR_EVENTS; i++)
		if (!strcmp(sched_trace_names[i][0], name))
			return i;
	return -1;
}

static int policy_named(const char *name)
{
	for (int p = 0; p < SCHED_NR_POLICIES; p++)
		if (!strcmp(sched_trace_policy_name(p), name))
			return p;
	return -1;		/* idle, or no task */
}

/* key=value pieces after the eight words. */
static void fields(char *s, struct rec *e)
{
	for (char *tok = strtok(s, " \n"); tok; tok = strtok(NULL, " \n")) {
		char *eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq++ = 0;
		if (!strcmp(tok, "cur"))
			e->cur = atoi(eq);
		else if (!strcmp(tok, "prio"))
			e->prio = atoi(eq);
		else if (!strcmp(tok, "on"))
			e->on = atoi(eq);
		else if (!strcmp(tok, "cpus"))
			e->cpus = (uint32_t)strtol(eq, NULL, 10);
		else if (!strcmp(tok, "cur_gen"))
			e->gen = (uint32_t)strtoul(eq, NULL, 10);
		else if (!strcmp(tok, "cur_state"))
			snprintf(e->state, sizeof(e->state), "%s", eq);
		else if (!strcmp(tok, "comm"))
			snprintf(e->comm, sizeof(e->comm), "%s", eq);
		else if (!strcmp(tok, "reason")) {
			snprintf(e->reason, sizeof(e->reason), "%s", eq);
			e->has_reason = true;
		}
	}
}

/* One event line into e; false if it is not one. */
static bool parse_event(char *text, struct rec *e)
{
	char ev[24], policy[16], argname[24];
	unsigned long long ns;
	int n = 0;

	if (sscanf(text, "trace: %llu cpu%d %23s pid %d %15s %23s %d%n", &ns, &e->cpu, ev,
		   &e->pid, policy, argname, &e->arg, &n) != 7 || (text[n] && text[n] != ' '))
		return false;
	e->ns = ns;
	e->event = event_of(ev);
	e->policy = policy_named(policy);
	e->on = e->cpu;
	e->cur = -1;
	e->prio = -1;
	fields(text + n, e);
	return e->event >= 0 && e->cpu >= 0;
}

/* The first block's events into *out; false after a bad line (not lenient). */
static bool read_block(struct reader *r, FILE *f, struct rec **out, long *n)
{
	char line[MAX_LINE];
	long no = 0, offset = 0, lost = 0;
	int cap = 0, count = 0;
	bool begun = false, ended = false;
	struct rec *v = NULL, last = { 0 };

	*out = NULL;
	while (!ended && fgets(line, sizeof(line), f)) {
		struct rec e = { .line = ++no, .offset = offset };
		size_t len = strlen(line);
		unsigned long long a, b;
		int cpu;
		offset += (long)len;
		line[strcspn(line, "\r\n")] = 0;
		if (!begun) {
			begun = sscanf(line, "trace: begin stream, %d cpus", &r->tr->ncpus) == 1 ||
				sscanf(line, "trace: begin %llu events, %llu lost, %d cpus", &a, &b,
				       &r->tr->ncpus) == 3;
			if (begun && r->tr->ncpus > 0 && sscanf(line, "trace: begin %llu events, %llu lost", &a, &b) == 2)
				lost = (long)b;
			continue;
		}
		if (strncmp(line, "trace:", 6))
			continue;		/* other console output */
		if (!strncmp(line, "trace: end", 10)) {
			ended = true;
			if (sscanf(line, "trace: end, %llu events, %llu lost", &a, &b) == 2 && b &&
			    !bad(r, &e, "the stream lost %llu events: a replay of it would be wrong", b))
				return false;
			continue;
		}
		if (sscanf(line, "trace: lost cpu%d %llu events", &cpu, &a) == 2) {
			if (!bad(r, &e, "cpu%d lost %llu events here: a replay of it would be wrong", cpu, a))
				return false;
			lost = 0;
			continue;
		}
		if (!parse_event(line, &e) || e.cpu >= r->tr->ncpus || e.cpu >= 64) {
			if (!bad(r, &e, "not a trace record (of %d cpus): '%.60s'", r->tr->ncpus, line))
				return false;
			continue;
		}
		if (lost && !bad(r, &e, "the dump lost %ld events before this record", lost))
			return false;
		lost = 0;
		v = grow(v, &cap, count + 1, sizeof(*v));
		*out = v;		/* the caller frees it, whatever we return */
		v[count++] = e;
		last = e;
	}
	if (!begun || r->tr->ncpus <= 0 || r->tr->ncpus > 32) {
		fprintf(r->err, "%s:%ld: byte %ld: no 'trace: begin' line of 1 to 32 cpus: not a trace\n",
			r->tr->file, no, offset);
		r->failed = true;
		return false;
	}
	if (!ended) {
		struct rec at = { .line = last.line ? last.line : no, .offset = last.offset };
		if (!bad(&*r, &at, "the trace ends after this record, without its 'trace: end': truncated"))
			return false;
	}
	*n = count;
	return true;
}

/* ---- the walk ---- */

void stair_note(struct stair_log *l, uint64_t ns, int prio, bool runnable)
{
	struct stair_pt *last = l->n ? &l->v[l->n - 1] : NULL;

	if (last && last->prio == prio && last->runnable == runnable)
		return;
	if (last && last->ns == ns) {
		*last = (struct stair_pt){ ns, (int16_t)prio, runnable };
		return;
	}
	l->v = grow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct stair_pt){ ns, (int16_t)prio, runnable };
}

bool stair_runnable_after(const struct stair_log *l, int event)
{
	if (event == TRACE_FORK || event == TRACE_WAKEUP)
		return true;
	if (event == TRACE_SLEEP)
		return false;
	return l->n ? l->v[l->n - 1].runnable : true;
}

static struct rtask *task_of(struct rtrace *tr, int pid)
{
	for (int i = tr->ntasks - 1; i >= 0; i--)
		if (tr->tasks[i].pid == pid)
			return &tr->tasks[i];
	return NULL;
}

static struct rtask *new_task(struct rtrace *tr, int pid, int state, int cpu, uint64_t since)
{
	struct rtask *t;

	tr->tasks = grow(tr->tasks, &tr->cap, tr->ntasks + 1, sizeof(*t));
	t = &tr->tasks[tr->ntasks++];
	*t = (struct rtask){ .pid = pid, .state = state, .cpu = cpu, .home_cpu = cpu,
			     .since = since, .policy = -1, .prio_min = 140, .hold = -1 };
	return t;
}

/* The live task of pid, or one there since the start in state. */
static struct rtask *task(struct rtrace *tr, int pid, int state, int cpu)
{
	struct rtask *t = task_of(tr, pid);
	return t ? t : new_task(tr, pid, state, cpu, tr->t0);
}

static int add_atom(struct rtask *t, int kind, int dep, int dep_atom, uint64_t ns)
{
	t->atoms = grow(t->atoms, &t->cap, t->natoms + 1, sizeof(*t->atoms));
	t->atoms[t->natoms] = (struct atom){ .kind = (uint8_t)kind, .dep = dep,
					     .dep_atom = dep_atom, .ns = ns };
	return t->natoms++;
}

/* Charge a running task up to now, and close its run into a RUN atom. */
static void account(struct rtask *t, uint64_t now)
{
	if (t->state == RS_RUNNING && now > t->since) {
		t->cpu_ns += now - t->since;
		t->pending += now - t->since;
	}
	t->since = now;
}

static void flush(struct rtask *t)
{
	if (t->pending)
		add_atom(t, A_RUN, -1, -1, t->pending);
	t->pending = 0;
}

static void note_task(struct rtask *t, const struct rec *e)
{
	if (e->policy < 0)
		return;
	if (t->policy < 0 || e->event == TRACE_NICE) {
		t->policy = e->policy;	/* the policy and nice it set last */
		t->prio_min = 140;	/* its best stair from here on */
	}
	t->reniced |= e->event == TRACE_NICE;
	if (e->prio >= 0 && e->prio < t->prio_min)
		t->prio_min = e->prio;
	if (e->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", e->comm);
}

static bool on_fork(struct reader *r, const struct rec *e)
{
	struct rtrace *tr = r->tr;
	struct rtask *old = task_of(tr, e->pid), *child, *parent = NULL;

	if (old && old->state != RS_DEAD) {
		if (!bad(r, e, "fork of pid %d, which is alive: its exit is missing", e->pid))
			return false;
		flush(old);
		add_atom(old, A_END, -1, -1, 0);
		old->state = RS_DEAD;
	}
	int pi = e->cur > 0 ? (int)(task(tr, e->cur, RS_RUNNING, e->on) - tr->tasks) : -1;
	child = new_task(tr, e->pid, RS_QUEUED, e->cpu, e->ns);	/* may move tr->tasks */
	parent = pi >= 0 ? &tr->tasks[pi] : NULL;
	child->forked = parent != NULL;
	child->fork_cpus = e->cpus;
	if (parent) {			/* child's index is ntasks - 1 */
		account(parent, e->ns);
		flush(parent);
		add_atom(parent, A_FORK, tr->ntasks - 1, -1, 0);
	} else if (e->ns > tr->t0) {
		add_atom(child, A_SLEEP, -1, -1, e->ns - tr->t0);	/* no parent: appears then */
	}
	return true;
}

/*
 * The kernel is not preemptible: a wake-up that preempts the waker's own
 * CPU sets need_resched, and the switch comes on the waker's way back to
 * user mode (kernel/task/proc.c), after the rest of its system call, which
 * may wake others. A preempt record (not delayed) of the waker's CPU just
 * after its WAKE atom opens a HOLD there, right after the WAKE (the time
 * between the two records is already the system call's); its switch-out
 * ends it (a RET where it
 * was preempted; sleeping, yielding or exiting ends it anyway).
 */
#define HOLD_MAX_NS 1000000

static void on_preempt(struct reader *r, const struct rec *e)
{
	struct rtask *k = e->cur > 0 ? task_of(r->tr, e->cur) : NULL;
	const struct atom *last = k && k->natoms ? &k->atoms[k->natoms - 1] : NULL;

	if (e->arg || e->cpu != e->on || !k || k->state != RS_RUNNING || k->cpu != e->cpu ||
	    k->hold >= 0 || !last || last->kind != A_WAKE || r->tr->tasks[last->dep].pid != e->pid)
		return;
	k->hold = add_atom(k, A_HOLD, -1, -1, 0);	/* its run since the WAKE comes after */
	k->hold_since = e->ns;
}

/* p leaves its CPU: a hold ends. A preemption still pending after a tick
 * was not this hold's (the woken task went to another CPU, and the system
 * call returned without a switch): the HOLD is undone. */
static void end_hold(struct rtask *p, const struct rec *e)
{
	if (p->hold < 0)
		return;
	if (e->ns - p->hold_since > HOLD_MAX_NS) {
		p->atoms[p->hold] = (struct atom){ .kind = A_RUN, .dep = -1, .dep_atom = -1, .ns = 0 };
	} else if (e->state[0] == 'R') {
		flush(p);
		add_atom(p, A_RET, -1, -1, 0);
	}
	p->hold = -1;
}

static bool switch_out(struct reader *r, const struct rec *e)
{
	int *last = &r->last_in[e->cpu];
	struct rtask *p;

	if (*last >= 0 && *last != e->cur &&
	    !bad(r, e, "switch on cpu%d: pid %d is switched out, but pid %d was switched in last: "
		 "a record is missing before this one", e->cpu, e->cur, *last))
		return false;
	if (e->cur <= 0)
		return true;
	p = task(r->tr, e->cur, RS_RUNNING, e->cpu);
	if (p->state != RS_RUNNING)
		return true;		/* told above, or the first switch of a CPU */
	account(p, e->ns);
	end_hold(p, e);
	if (!strcmp(e->state, "X")) {
		flush(p);
		add_atom(p, A_EXIT, -1, -1, 0);
		p->state = RS_DEAD;
		p->end_ns = e->ns - r->tr->t0;
	} else if (e->state[0] == 'S' || e->state[0] == 'D' || e->state[0] == 'T') {
		flush(p);
		p->state = RS_ASLEEP;
	} else {
		p->state = RS_QUEUED;
	}
	return true;
}

static bool on_switch(struct reader *r, const struct rec *e)
{
	struct rtask *n;

	if (!switch_out(r, e))
		return false;
	r->last_in[e->cpu] = e->pid;
	if (e->pid <= 0)
		return true;
	n = task(r->tr, e->pid, RS_QUEUED, e->cpu);
	if (n->state == RS_ASLEEP) {
		if (!bad(r, e, "pid %d is switched in on cpu%d while asleep: its wakeup is missing",
			 e->pid, e->cpu))
			return false;
		add_atom(n, A_SLEEP, -1, -1, e->ns - n->since);
	} else if (n->state == RS_RUNNING && n->cpu != e->cpu) {
		if (!bad(r, e, "pid %d is switched in on cpu%d while it runs on cpu%d: two switch-ins",
			 e->pid, e->cpu, n->cpu))
			return false;
		account(n, e->ns);
	} else if (n->state == RS_DEAD) {
		return bad(r, e, "pid %d is switched in on cpu%d after its exit", e->pid, e->cpu);
	}
	if (n->woken_at) {
		n->lat = grow(n->lat, &n->lat_cap, n->nlat + 1, sizeof(*n->lat));
		n->lat[n->nlat++] = e->ns - n->woken_at;
		n->woken_at = 0;
	}
	n->state = RS_RUNNING;
	if (!n->set_cpus)
		n->ran_on |= 1u << e->cpu;
	n->cpu = e->cpu;
	n->since = e->ns;
	return true;
}

/* A wake-up another task caused (not a timer's, not an interrupt's). */
static bool is_dependency(const struct rec *e)
{
	static const char *const deps[] = { "pipe", "futex", "signal", "exit", "lock" };

	for (size_t i = 0; i < sizeof(deps) / sizeof(deps[0]); i++)
		if (!strcmp(e->reason, deps[i]))
			return e->cur > 0 && e->cur != e->pid;
	return false;
}

static bool on_wakeup(struct reader *r, const struct rec *e)
{
	struct rtrace *tr = r->tr;
	int wi = (int)(task(tr, e->pid, RS_ASLEEP, e->cpu) - tr->tasks);
	struct rtask *w = &tr->tasks[wi], *k = NULL;

	if (!e->has_reason &&
	    !bad(r, e, "a wakeup without reason= and cur_gen=: a trace of an older kernel (record it again)"))
		return false;
	if (w->state != RS_ASLEEP)
		return bad(r, e, "pid %d is woken but was not asleep: a record is missing before this one",
			   e->pid);
	if (is_dependency(e)) {
		k = task(tr, e->cur, RS_RUNNING, e->on);	/* may move tr->tasks */
		w = &tr->tasks[wi];
		if (k->gen && e->gen && k->gen != e->gen &&
		    !bad(r, e, "the waker pid %d is generation %u, the trace's pid %d was %u: "
			 "its exit and a fork are missing", e->cur, e->gen, e->cur, k->gen))
			return false;
		k->gen = e->gen ? e->gen : k->gen;
		if (k->state != RS_RUNNING)
			k = NULL;	/* not known to run: replayed as a timed sleep */
	}
	if (k) {
		account(k, e->ns);
		flush(k);
		int at = add_atom(k, A_WAKE, (int)(w - tr->tasks), -1, 0);
		add_atom(w, A_WAIT, (int)(k - tr->tasks), at, e->ns - w->since);
	} else {
		add_atom(w, A_SLEEP, -1, -1, e->ns - w->since);
	}
	w->state = RS_QUEUED;
	w->woken_at = e->ns;
	return true;
}

/* A yield, or an affinity change (the kernel records the mask only when
 * it changes): an atom in the task's list at this point, its run so far
 * closed before it. A task that is not running (another task changed
 * its mask) does it when it next runs. */
static void on_act(struct reader *r, const struct rec *e)
{
	struct rtask *t = task(r->tr, e->pid, RS_RUNNING, e->cpu);

	if (t->state == RS_DEAD)
		return;
	if (t->state == RS_RUNNING)
		account(t, e->ns);	/* (an asleep task's since is its sleep's start) */
	flush(t);
	if (e->event == TRACE_YIELD) {
		add_atom(t, A_YIELD, -1, -1, 0);
	} else {
		add_atom(t, A_CPUS, -1, -1, (uint32_t)e->arg);
		t->set_cpus = true;
	}
}

/* An exec in a thread gave it its group leader's pid (pid_change: e->pid
 * the new, e->arg the old). The task goes on under the new pid; the
 * leader's task, which holds it, has exited. Its generation is the
 * leader's from here on (the kernel gives it the leader's start time). */
static bool on_pid_change(struct reader *r, const struct rec *e)
{
	struct rtask *t = task_of(r->tr, e->arg), *holder = task_of(r->tr, e->pid);

	if (!t || t->state == RS_DEAD)
		return bad(r, e, "pid %d takes pid %d, but pid %d is not alive", e->arg, e->pid, e->arg);
	if (holder && holder != t && holder->state != RS_DEAD) {
		if (!bad(r, e, "pid %d takes pid %d, which is alive: its exit is missing", e->arg, e->pid))
			return false;
		flush(holder);
		add_atom(holder, A_END, -1, -1, 0);
		holder->state = RS_DEAD;
		holder->end_ns = e->ns - r->tr->t0;
	}
	if (!t->tid)
		t->tid = t->pid;
	t->pid = e->pid;
	t->gen = 0;
	for (int cpu = 0; cpu < r->tr->ncpus; cpu++)	/* switched out as the new pid */
		if (r->last_in[cpu] == e->arg)
			r->last_in[cpu] = e->pid;
	return true;
}

/* The kernel's timer found e->arg ticks missed on e->cpu (QEMU did not
 * run the vCPU, but the TSC went on): the task running there did no work
 * in that time, though the trace has it running. Its run so far loses
 * that much (as much as is left of it), which becomes a STALL. */
#define TRACE_TICK_NS 1000000		/* the kernel's default hz, 1000 */

static void on_lost_ticks(struct reader *r, const struct rec *e)
{
	struct rtask *t = e->pid > 0 ? task_of(r->tr, e->pid) : NULL;
	uint64_t stall = (uint64_t)e->arg * TRACE_TICK_NS;

	if (!t || t->state != RS_RUNNING || t->cpu != e->cpu || e->arg <= 0)
		return;
	account(t, e->ns);
	if (stall > t->pending)
		stall = t->pending;
	t->pending -= stall;
	flush(t);
	if (stall)
		add_atom(t, A_STALL, -1, -1, stall);
}

static bool walk(struct reader *r, const struct rec *e)
{
	struct rtask *t;

	switch (e->event) {
	case TRACE_FORK:	if (!on_fork(r, e)) return false; break;
	case TRACE_SWITCH:	if (!on_switch(r, e)) return false; break;
	case TRACE_WAKEUP:	if (!on_wakeup(r, e)) return false; break;
	case TRACE_YIELD:
	case TRACE_AFFINITY:	if (e->pid > 0) on_act(r, e); break;
	case TRACE_PID_CHANGE:	if (!on_pid_change(r, e)) return false; break;
	case TRACE_PREEMPT:	on_preempt(r, e); break;
	case TRACE_LOST_TICKS:	on_lost_ticks(r, e); break;
	default:		break;
	}
	t = e->pid > 0 ? task_of(r->tr, e->pid) : NULL;
	if (t)
		note_task(t, e);
	if (t && e->prio >= 0)
		stair_note(&t->stairs, e->ns - r->tr->t0, e->prio, stair_runnable_after(&t->stairs, e->event));
	return true;
}

static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Each CPU's records are in time order (its ring is): else reordered. */
static bool check_order(struct reader *r, const struct rec *v, long n)
{
	uint64_t last[64] = { 0 };

	for (long i = 0; i < n; i++) {
		if (v[i].ns < last[v[i].cpu] &&
		    !bad(r, &v[i], "cpu%d's record is older than the one before it on cpu%d: reordered",
			 v[i].cpu, v[i].cpu))
			return false;
		if (v[i].ns > last[v[i].cpu])
			last[v[i].cpu] = v[i].ns;
	}
	return true;
}

bool replay_read(FILE *f, const char *file, bool lenient, struct rtrace *tr, FILE *err)
{
	struct reader r = { .tr = tr, .err = err, .lenient = lenient };
	struct rec *v = NULL;
	long n = 0;

	*tr = (struct rtrace){ .file = file };
	memset(r.last_in, -1, sizeof(r.last_in));
	if (!read_block(&r, f, &v, &n) || !check_order(&r, v, n)) {
		free(v);
		return false;
	}
	qsort(v, (size_t)n, sizeof(*v), by_time);
	tr->events = n;
	tr->t0 = n ? v[0].ns : 0;
	tr->t1 = n ? v[n - 1].ns : 0;
	for (long i = 0; i < n && !r.failed; i++)
		walk(&r, &v[i]);
	free(v);
	if (r.failed)
		return false;
	for (int i = 0; i < tr->ntasks; i++) {
		struct rtask *t = &tr->tasks[i];
		if (t->state == RS_DEAD)
			continue;
		uint64_t since = t->since;
		account(t, tr->t1);
		flush(t);
		if (t->state == RS_ASLEEP && tr->t1 > since)
			add_atom(t, A_SLEEP, -1, -1, tr->t1 - since);	/* to the trace's end */
		add_atom(t, A_END, -1, -1, 0);
		t->end_ns = tr->t1 - tr->t0;
	}
	return true;
}
