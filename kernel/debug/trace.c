/*
 * trace.c - per-CPU ring buffers of scheduler events, and system call 504.
 *
 * Each CPU has a ring of TRACE_BUF_EVENTS fixed-size records. The ring of
 * CPU n is written only under run-queue n's lock (sched/ calls the hook
 * with it held), so writers never race each other and need no lock of
 * their own. A full ring overwrites its oldest records, as Linux's ftrace
 * does by default: the end of a run is usually what you want to see.
 *
 * The reader of a dump or a clear must not read a record while a writer
 * is half-way through it. It does not take the rq locks (only sched/ may);
 * instead it switches tracing off and waits until no writer is inside
 * sched_trace_record(), see trace_quiesce(). With tracing off the whole cost
 * is one load and a bit test of sched_trace_mask, inline in sched/'s
 * sched_trace() (sched/machine.h).
 *
 * A stream (op STREAM, then DRAIN now and then, then STOP) reads while the
 * writers go on: each ring is then a single-producer single-consumer queue
 * (the writer publishes head with release, the drain publishes tail with
 * release), and a writer that finds its ring full drops the new record
 * and counts it, rather than overwrite one the drain may be reading. The
 * lines go to COM2 (drivers/serial.c), which only this file writes.
 * A recording to memory (op RECORD) is a stream whose rings take what
 * memory can spare and whose first DRAIN ends the recording: the lines
 * are sent after the workload, so the recorder's COM2 writes are not in
 * the trace. Its rings are freed at STOP.
 * A DRAIN sends at most the lines its caller asks for: each system call
 * is short, and the kernel can preempt the recorder between them.
 *
 * Each record says what standard tools want (docs/trace.md): besides the
 * event and its task (pid, name, policy, prio, burst, slice), the CPU that
 * executed the code and the task running there. For a switch that task is
 * the one switched out: schedule() calls sched/ before it changes the
 * CPU's current process (kernel/task/proc.c), so mycpu()->current is prev, as
 * Linux's prev is current; its state says why it left (R+ preempted, R
 * yielded, S/D asleep, X dead).
 * For a wakeup that task is the waker: the record adds its generation
 * (start time; pids are reused) and the reason its code gave with
 * TRACE_WAKE, what a replay needs to wake the sleeper when the waker acts.
 * A fork's record adds the child's allowed CPUs (each later change is an
 * affinity event), so a replay knows every forked task's mask.
 *
 * The dump format, one line per event (docs/trace.md):
 *   trace: begin <n> events, <lost> lost, <cpus> cpus
 *   trace: <ns> cpu<N> <event> pid <P> <policy> <argname> <value> [key=value ...]
 *   trace: end
 * and a stream's: "trace: begin stream, <cpus> cpus", the same event lines,
 * "trace: lost cpu<N> <k> events" where a full ring dropped some, and
 * "trace: end, <n> events, <lost> lost".
 */
#include "trace.h"
#include <uapi/ourcalls.h>	/* TRACE_STOP ... TRACE_DRAIN, call 504's ops */
#include "sched/sched.h"
#include "drivers/serial.h"
#include "kernel/init/bootparam.h"
#include "kernel/arch/cpu.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sync/mutex.h"
#include "printk.h"
#include "kernel/task/proc.h"
#include "lib/string.h"
#include "kernel/time/time.h"
#include "kernel/arch/x86.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vm.h"

#define COMM_LEN PROC_NAME_MAX		/* 15 characters and a NUL, as Linux's */

/* How the task running on the executing CPU stands: for a switch record,
 * why prev left the CPU (Linux's prev_state letters). */
enum { ST_RUNNING, ST_PREEMPTED, ST_SLEEPING, ST_BLOCKED, ST_DEAD, ST_STOPPED };
static const char *const state_names[] = { "R", "R+", "S", "D", "X", "T" };
/* enum trace_wake_reason's words, as a wakeup line's reason= says them. */
static const char *const reason_names[WAKE_NR_REASONS] = {
	"other", "pipe", "futex", "timer", "signal", "exit", "io", "lock"
};

struct trace_event {
	uint64_t ns;			/* clock_ns(): one clock for every CPU */
	int32_t pid;			/* the subject; 0: the idle task, or no task */
	int32_t arg;			/* prio, or what the event says */
	int32_t cur;			/* pid running on the executing CPU (switch: prev) */
	int16_t burst, slice;		/* the subject's, after the event */
	uint8_t cpu, on, event;		/* the run queue's CPU, the executing CPU, TRACE_* */
	int8_t policy, cur_policy;	/* SCHED_*, POLICY_IDLE or POLICY_NONE */
	uint8_t prio, cur_prio;		/* 0..141 */
	uint8_t cur_state;		/* ST_* */
	char comm[COMM_LEN], cur_comm[COMM_LEN];
	union {
		uint32_t cur_gen;	/* wakeup: the waker's start_ns / 1000 (pid + gen: one process) */
		uint32_t cpus;		/* fork: the child's allowed CPUs */
	};
	uint8_t reason;			/* wakeup: why, WAKE_* */
	uint8_t pad[3];
};
_Static_assert(sizeof(struct trace_event) == 72, "a trace record is 72 bytes");

#define POLICY_IDLE SCHED_NR_POLICIES
#define POLICY_NONE (-1)

struct trace_buf {
	struct trace_event *ev;		/* size of them, a ring; NULL until the first start */
	uint32_t size;			/* a power of two */
	uint32_t head;			/* events ever written; next slot head % size */
	uint32_t tail;			/* streaming: the first not yet drained */
	uint32_t dropped;		/* streaming: records a full ring refused */
	uint32_t dropped_told;		/* ... of which the stream has said so */
	int writing;			/* a writer is inside sched_trace_record() */
	bool yielded;			/* the running task yielded since it was switched in */
};

uint32_t sched_trace_mask;		/* sched/machine.h */
static struct trace_buf bufs[MAX_CPUS];
static uint8_t wake_reasons[MAX_CPUS];	/* per executing CPU: TRACE_WAKE's */
static struct mutex ctl_lock;		/* one control op at a time */
static bool streaming;			/* changed only while quiesced */
static bool to_memory;			/* the stream is a recording to memory (RECORD) */
static uint32_t stream_events;		/* lines a stream has sent */

static void copy_comm(char *dst, const struct proc *p)
{
	for (int i = 0; i < COMM_LEN; i++)
		dst[i] = p ? p->name[i] : 0;
	dst[COMM_LEN - 1] = 0;		/* a name changing under us stays bounded */
}

static int8_t policy_of_task(const struct sched_task *t)
{
	return !t ? POLICY_NONE : t->is_idle ? POLICY_IDLE : (int8_t)t->policy;
}

static uint8_t state_of(const struct trace_buf *b, const struct sched_task *t)
{
	switch (t->is_idle ? TASK_RUNNING : t->state) {
	case TASK_INTERRUPTIBLE:	return ST_SLEEPING;
	case TASK_UNINTERRUPTIBLE:	return ST_BLOCKED;
	case TASK_STOPPED:		return ST_STOPPED;
	case TASK_DEAD:			return ST_DEAD;
	default:			return t->is_idle || b->yielded ? ST_RUNNING : ST_PREEMPTED;
	}
}

static void fill(struct trace_buf *b, struct trace_event *e, int cpu, int event,
		 struct sched_task *t, int arg)
{
	struct proc *cur = mycpu()->current;

	e->ns = clock_ns();
	e->cpu = (uint8_t)cpu;
	e->on = (uint8_t)cpu_id();
	e->event = (uint8_t)event;
	e->arg = arg;
	e->pid = t && !t->is_idle ? proc_of(t)->pid : 0;
	e->policy = policy_of_task(t);
	e->prio = t ? (uint8_t)t->prio : 0;
	e->burst = t ? (int16_t)t->burst : 0;
	e->slice = t ? (int16_t)t->slice : 0;
	copy_comm(e->comm, t ? proc_of(t) : NULL);
	e->cur = cur ? cur->pid : 0;
	e->cur_policy = policy_of_task(cur ? &cur->sched : NULL);
	e->cur_prio = cur ? (uint8_t)cur->sched.prio : 0;
	copy_comm(e->cur_comm, cur);
	e->cur_state = ST_RUNNING;
	e->cur_gen = cur ? (uint32_t)(cur->start_ns / 1000) : 0;
	e->reason = wake_reasons[cpu_id()];
	if (event == TRACE_FORK)
		e->cpus = t ? t->cpus_allowed : 0;
	if (event == TRACE_SWITCH) {
		if (cur)
			e->cur_state = state_of(b, &cur->sched);
		b->yielded = false;
	} else if (event == TRACE_YIELD) {
		b->yielded = true;
	}
}

void sched_trace_record(int cpu, int event, struct sched_task *t, int arg)
{
	struct trace_buf *b = &bufs[cpu];

	/* Say we are writing, then look at the mask again: trace_quiesce()
	 * clears the mask, then waits for writing == 0. Both sides use
	 * sequentially consistent accesses, so either it sees us writing or
	 * we see tracing off; never neither. */
	__atomic_store_n(&b->writing, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sched_trace_mask, __ATOMIC_SEQ_CST) & (1u << event)) {
		uint32_t head = b->head;
		if (streaming && head - __atomic_load_n(&b->tail, __ATOMIC_ACQUIRE) >= b->size) {
			__atomic_store_n(&b->dropped, b->dropped + 1, __ATOMIC_RELAXED);
		} else {
			fill(b, &b->ev[head % b->size], cpu, event, t, arg);
			__atomic_store_n(&b->head, head + 1, __ATOMIC_RELEASE);
		}
	}
	__atomic_store_n(&b->writing, 0, __ATOMIC_RELEASE);
}

int trace_wake_reason(int reason)
{
	int cpu = cpu_id(), old = wake_reasons[cpu];

	/* The kernel is not preemptible: this CPU is ours until we restore. */
	wake_reasons[cpu] = reason >= 0 && reason < WAKE_NR_REASONS ? (uint8_t)reason : WAKE_OTHER;
	return old;
}

/* Switch tracing off and wait until no CPU is still writing a record.
 * Returns the mask that was on, to restore it. */
static uint32_t trace_quiesce(void)
{
	uint32_t old = __atomic_exchange_n(&sched_trace_mask, 0, __ATOMIC_SEQ_CST);

	for (int cpu = 0; cpu < ncpus; cpu++)
		while (__atomic_load_n(&bufs[cpu].writing, __ATOMIC_SEQ_CST))
			pause();
	return old;
}

static void reset_bufs(void)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		bufs[cpu].head = bufs[cpu].tail = 0;
		bufs[cpu].dropped = bufs[cpu].dropped_told = 0;
	}
}

/* Give every CPU a ring of events records (tracing must be off: quiesced
 * or never started). Rings are allocated at the first start, so a kernel
 * that never traces spends no memory on them (4096 x 72 bytes = 288 KiB
 * per CPU); a recording to memory's larger ones are freed at its stop. */
static int alloc_rings(uint32_t events)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct trace_buf *b = &bufs[cpu];
		if (b->ev && b->size == events)
			continue;
		kfree(b->ev);
		b->ev = kmalloc(events * sizeof(struct trace_event));
		b->size = b->ev ? events : 0;
		if (!b->ev)
			return -ENOMEM;
	}
	return 0;
}

static void free_rings(void)
{
	reset_bufs();
	for (int cpu = 0; cpu < ncpus; cpu++) {
		kfree(bufs[cpu].ev);
		bufs[cpu].ev = NULL;
		bufs[cpu].size = 0;
	}
}

/* A recording to memory's ring, per CPU: half the free memory shared
 * among the CPUs, a power of two of records from TRACE_BUF_EVENTS to
 * TRACE_MEM_MAX_EVENTS. */
static uint32_t memory_ring_events(void)
{
	uint64_t bytes = (uint64_t)pmm_free_count() * PAGE_SIZE / 2 / (uint32_t)ncpus;
	uint32_t events = TRACE_BUF_EVENTS;

	while (events < TRACE_MEM_MAX_EVENTS && 2 * (uint64_t)events * sizeof(struct trace_event) <= bytes)
		events *= 2;
	return events;
}

static int trace_start(uint32_t mask, uint32_t events)
{
	int ret;

	if (mask == 0)
		mask = TRACE_ALL_EVENTS;
	if (mask & ~TRACE_ALL_EVENTS)
		return -EINVAL;
	if (!bufs[0].ev || bufs[0].size != events) {
		trace_quiesce();	/* a ring about to be replaced is not written */
		reset_bufs();
		if ((ret = alloc_rings(events)) < 0)
			return ret;
	}
	__atomic_store_n(&sched_trace_mask, mask, __ATOMIC_SEQ_CST);
	return 0;
}

static void trace_clear(void)
{
	uint32_t old = trace_quiesce();

	reset_bufs();
	__atomic_store_n(&sched_trace_mask, old, __ATOMIC_SEQ_CST);
}

/* The oldest record still in cpu's ring. */
static uint32_t ring_start(int cpu)
{
	uint32_t head = bufs[cpu].head;
	return head > bufs[cpu].size ? head - bufs[cpu].size : 0;
}

/* A name as one word: no spaces, no '=' (the tools split on both). */
static const char *word(char *dst, const char *name)
{
	int i;

	for (i = 0; i < COMM_LEN - 1 && name[i]; i++)
		dst[i] = name[i] <= ' ' || name[i] == '=' || name[i] > '~' ? '_' : name[i];
	if (i == 0)
		dst[i++] = '-';
	dst[i] = 0;
	return dst;
}

/* One event as its line, without the newline; returns its length. */
static int format_event(char *buf, int size, const struct trace_event *e)
{
	char comm[COMM_LEN], cur_comm[COMM_LEN];
	int n = ksnprintf(buf, (size_t)size,
		"trace: %llu cpu%u %s pid %d %s %s %d comm=%s prio=%u burst=%d slice=%d "
		"on=%u cur=%d cur_comm=%s cur_prio=%u cur_policy=%s",
		(unsigned long long)e->ns, e->cpu, sched_trace_names[e->event][0],
		e->pid, sched_trace_policy_name(e->policy), sched_trace_names[e->event][1],
		e->arg, word(comm, e->comm), e->prio, e->burst, e->slice, e->on, e->cur,
		word(cur_comm, e->cur_comm), e->cur_prio, sched_trace_policy_name(e->cur_policy));

	if (e->event == TRACE_SWITCH && n < size)
		n += ksnprintf(buf + n, (size_t)(size - n), " cur_state=%s",
			       state_names[e->cur_state]);
	if (e->event == TRACE_WAKEUP && n < size)
		n += ksnprintf(buf + n, (size_t)(size - n), " reason=%s cur_gen=%u",
			       reason_names[e->reason], e->cur_gen);
	if (e->event == TRACE_FORK && n < size)
		n += ksnprintf(buf + n, (size_t)(size - n), " cpus=%d", (int)e->cpus);
	return n < size ? n : size - 1;
}

/*
 * Print every CPU's ring merged in time order: at each step the CPU whose
 * next record is oldest. Tracing stays off afterwards (and is off during
 * the dump: the rings must not move while we read them). The kernel is
 * not preemptible, so this CPU runs nothing else until the last line is
 * out; a full dump is a few seconds of console output. Returns the number
 * of events printed.
 */
static int trace_dump(void)
{
	uint32_t next[MAX_CPUS], total = 0, lost = 0;
	char line[320];

	trace_quiesce();
	for (int cpu = 0; cpu < ncpus; cpu++) {
		next[cpu] = ring_start(cpu);
		total += bufs[cpu].head - next[cpu];
		lost += next[cpu];
	}
	printk("trace: begin %u events, %u lost, %d cpus\n", total, lost, ncpus);
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (next[cpu])		/* a replay must know where: docs/trace.md */
			printk("trace: lost cpu%d %u events\n", cpu, next[cpu]);
	for (uint32_t i = 0; i < total; i++) {
		const struct trace_event *e = NULL;
		int from = -1;
		for (int cpu = 0; cpu < ncpus; cpu++) {
			const struct trace_event *c;
			if (next[cpu] == bufs[cpu].head)
				continue;
			c = &bufs[cpu].ev[next[cpu] % bufs[cpu].size];
			if (!e || c->ns < e->ns)
				e = c, from = cpu;
		}
		next[from]++;
		format_event(line, sizeof(line), e);
		printk("%s\n", line);
	}
	printk("trace: end\n");
	return (int)total;
}

/* ---- the stream, on COM2 ---------------------------------------------- */

static void com2_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void com2_line(const char *fmt, ...)
{
	char line[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	serial2_write(line, n);
}

/* Tell the stream about records a full ring dropped since it last said. */
static void tell_dropped(void)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		uint32_t dropped = __atomic_load_n(&bufs[cpu].dropped, __ATOMIC_RELAXED);
		if (dropped != bufs[cpu].dropped_told) {
			com2_line("trace: lost cpu%d %u events", cpu, dropped - bufs[cpu].dropped_told);
			bufs[cpu].dropped_told = dropped;
		}
	}
}

/*
 * Send up to max lines (0: no limit) of what the writers have published
 * since the last drain, merged in time order. A live stream says first
 * where a full ring dropped records; tracing goes on meanwhile: a record
 * a CPU publishes after we looked at its head goes out with the next
 * drain (so two drains may overlap a little in time; the viewer sorts).
 * A recording to memory ends at its first drain, and says what it
 * dropped at its stop, after every line: a full ring drops the newest.
 * Returns the number of lines sent.
 */
static int trace_drain(uint32_t max)
{
	uint32_t next[MAX_CPUS], head[MAX_CPUS], sent = 0;
	char line[320];

	if (!streaming)
		return -EINVAL;
	if (to_memory)
		trace_quiesce();
	else
		tell_dropped();
	for (int cpu = 0; cpu < ncpus; cpu++) {
		next[cpu] = bufs[cpu].tail;
		head[cpu] = __atomic_load_n(&bufs[cpu].head, __ATOMIC_ACQUIRE);
	}
	while (max == 0 || sent < max) {
		const struct trace_event *e = NULL;
		int from = -1, n;
		for (int cpu = 0; cpu < ncpus; cpu++) {
			const struct trace_event *c;
			if (next[cpu] == head[cpu])
				continue;
			c = &bufs[cpu].ev[next[cpu] % bufs[cpu].size];
			if (!e || c->ns < e->ns)
				e = c, from = cpu;
		}
		if (!e)
			break;
		n = format_event(line, sizeof(line) - 1, e);
		line[n++] = '\n';
		/* Done with the slot before it goes on the (slow) wire. */
		next[from]++;
		__atomic_store_n(&bufs[from].tail, next[from], __ATOMIC_RELEASE);
		serial2_write(line, n);
		sent++;
	}
	stream_events += sent;
	return (int)sent;
}

/* STREAM (memory false): rings of TRACE_BUF_EVENTS, drained as the
 * workload runs; RECORD (memory true): rings as large as memory allows,
 * drained after it. Returns 0, or RECORD's records per CPU. */
static int trace_stream(uint32_t mask, bool memory)
{
	uint32_t events = memory ? memory_ring_events() : TRACE_BUF_EVENTS;
	int ret;

	if (!serial2_present())
		return -ENODEV;
	if ((mask == 0 ? TRACE_ALL_EVENTS : mask) & ~TRACE_ALL_EVENTS)
		return -EINVAL;
	trace_quiesce();
	reset_bufs();
	streaming = true;
	to_memory = memory;
	stream_events = 0;
	com2_line("trace: begin stream, %d cpus", ncpus);
	ret = trace_start(mask, events);
	if (ret < 0) {
		streaming = to_memory = false;
		free_rings();		/* what a failed large allocation left */
		com2_line("trace: end, 0 events, 0 lost");
	}
	return ret < 0 ? ret : memory ? (int)events : 0;
}

/* Stop recording; a stream sends the rest and its end line, and returns
 * the number of events it sent. */
static int trace_stop(void)
{
	uint32_t lost = 0;

	trace_quiesce();
	if (!streaming)
		return 0;
	trace_drain(0);
	tell_dropped();
	for (int cpu = 0; cpu < ncpus; cpu++)
		lost += bufs[cpu].dropped;
	com2_line("trace: end, %u events, %u lost", stream_events, lost);
	streaming = false;
	if (to_memory)
		free_rings();
	to_memory = false;
	return (int)stream_events;
}

/* Root only, as setting a tunable is: reading events would be harmless,
 * but every op changes what all users share (the recording, its memory,
 * the console a dump floods). docs/trace.md. */
int sys_trace(int op, int arg)
{
	int ret = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(&ctl_lock);
	switch (op) {
	case TRACE_STOP:	ret = trace_stop(); break;
	case TRACE_START:	ret = streaming ? -EBUSY : trace_start((uint32_t)arg, TRACE_BUF_EVENTS); break;
	case TRACE_CLEAR:	trace_clear(); break;
	case TRACE_DUMP:	ret = streaming ? -EBUSY : trace_dump(); break;
	case TRACE_STREAM:	ret = streaming ? -EBUSY : trace_stream((uint32_t)arg, false); break;
	case TRACE_RECORD:	ret = streaming ? -EBUSY : trace_stream((uint32_t)arg, true); break;
	case TRACE_DRAIN:	ret = trace_drain((uint32_t)arg); break;
	default:		ret = -EINVAL;
	}
	mutex_unlock(&ctl_lock);
	return ret;
}

void trace_init(void)
{
	mutex_init(&ctl_lock, "trace");
	if (serial2_init())
		printk("trace: COM2 found: trace run streams there\n");
	if (bootparam_int("trace", 0, 0, 1) == 0)
		return;
	if (trace_start(TRACE_ALL_EVENTS, TRACE_BUF_EVENTS) < 0)
		pr_warn("trace: no memory for the buffers; not tracing\n");
	else
		printk("trace: recording every event from boot, %u per CPU\n", TRACE_BUF_EVENTS);
}
