/*
 * trace.c - per-CPU ring buffers of scheduler events, and system call 504.
 *
 * Each CPU has a ring of TRACE_BUF_EVENTS fixed-size records. The ring of
 * CPU n is written only under run-queue n's lock (sched/ calls the hook
 * with it held), so writers never race each other and need no lock of
 * their own. A full ring overwrites its oldest records, as Linux's ftrace
 * does by default: the end of a run is usually what you want to see.
 *
 * The reader (a dump or a clear) must not read a record while a writer is
 * half-way through it. It does not take the rq locks (only sched/ may);
 * instead it switches tracing off and waits until no writer is inside
 * trace_record(), see trace_quiesce(). With tracing off the whole cost is
 * trace_wanted(), one load and a bit test, in sched_trace().
 *
 * The dump format, one line per event (docs/trace.md):
 *   trace: begin <n> events, <lost> lost, <cpus> cpus
 *   trace: <ns> cpu<N> <event> pid <P> <policy> <argname> <value>
 *   trace: end
 */
#include "trace.h"
#include "../sched/sched.h"
#include "bootparam.h"
#include "cpu.h"
#include "errno.h"
#include "kmalloc.h"
#include "mutex.h"
#include "printk.h"
#include "proc.h"
#include "time.h"
#include "x86.h"

struct trace_event {
	uint64_t ns;			/* clock_ns() */
	int32_t pid;			/* 0: the idle task, or no task */
	int32_t arg;			/* prio, or what the event says */
	uint8_t cpu, event;		/* TRACE_* */
	int8_t policy;			/* SCHED_*, POLICY_IDLE or POLICY_NONE */
};

#define POLICY_IDLE SCHED_NR_POLICIES
#define POLICY_NONE (-1)

struct trace_buf {
	struct trace_event *ev;		/* TRACE_BUF_EVENTS of them, a ring */
	uint32_t head;			/* events ever written; next slot head % N */
	int writing;			/* a writer is inside trace_record() */
};

uint32_t trace_mask;
static struct trace_buf bufs[MAX_CPUS];
static struct mutex ctl_lock;		/* one control op at a time */



void trace_record(int cpu, int event, struct sched_task *t, int arg)
{
	struct trace_buf *b = &bufs[cpu];

	/* Say we are writing, then look at the mask again: trace_quiesce()
	 * clears the mask, then waits for writing == 0. Both sides use
	 * sequentially consistent accesses, so either it sees us writing or
	 * we see tracing off; never neither. */
	__atomic_store_n(&b->writing, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&trace_mask, __ATOMIC_SEQ_CST) & (1u << event)) {
		struct trace_event *e = &b->ev[b->head % TRACE_BUF_EVENTS];
		e->ns = clock_ns();
		e->cpu = (uint8_t)cpu;
		e->event = (uint8_t)event;
		e->arg = arg;
		e->pid = t && !t->is_idle ? proc_of(t)->pid : 0;
		e->policy = !t ? POLICY_NONE : t->is_idle ? POLICY_IDLE : t->policy;
		b->head++;
	}
	__atomic_store_n(&b->writing, 0, __ATOMIC_RELEASE);
}

/* Switch tracing off and wait until no CPU is still writing a record.
 * Returns the mask that was on, to restore it. */
static uint32_t trace_quiesce(void)
{
	uint32_t old = __atomic_exchange_n(&trace_mask, 0, __ATOMIC_SEQ_CST);

	for (int cpu = 0; cpu < ncpus; cpu++)
		while (__atomic_load_n(&bufs[cpu].writing, __ATOMIC_SEQ_CST))
			pause();
	return old;
}

/* The buffers are allocated at the first start, so a kernel that never
 * traces spends no memory on them (4096 x 24 bytes = 96 KiB per CPU). */
static int trace_start(uint32_t mask)
{
	if (mask == 0)
		mask = TRACE_ALL_EVENTS;
	if (mask & ~TRACE_ALL_EVENTS)
		return -EINVAL;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (bufs[cpu].ev)
			continue;
		bufs[cpu].ev = kmalloc(TRACE_BUF_EVENTS * sizeof(struct trace_event));
		if (!bufs[cpu].ev)
			return -ENOMEM;
	}
	__atomic_store_n(&trace_mask, mask, __ATOMIC_SEQ_CST);
	return 0;
}

static void trace_clear(void)
{
	uint32_t old = trace_quiesce();

	for (int cpu = 0; cpu < ncpus; cpu++)
		bufs[cpu].head = 0;
	__atomic_store_n(&trace_mask, old, __ATOMIC_SEQ_CST);
}

/* The oldest record still in cpu's ring. */
static uint32_t ring_start(int cpu)
{
	uint32_t head = bufs[cpu].head;
	return head > TRACE_BUF_EVENTS ? head - TRACE_BUF_EVENTS : 0;
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

	trace_quiesce();
	for (int cpu = 0; cpu < ncpus; cpu++) {
		next[cpu] = ring_start(cpu);
		total += bufs[cpu].head - next[cpu];
		lost += next[cpu];
	}
	printk("trace: begin %u events, %u lost, %d cpus\n", total, lost, ncpus);
	for (uint32_t i = 0; i < total; i++) {
		const struct trace_event *e = NULL;
		int from = -1;
		for (int cpu = 0; cpu < ncpus; cpu++) {
			const struct trace_event *c;
			if (next[cpu] == bufs[cpu].head)
				continue;
			c = &bufs[cpu].ev[next[cpu] % TRACE_BUF_EVENTS];
			if (!e || c->ns < e->ns)
				e = c, from = cpu;
		}
		next[from]++;
		printk("trace: %llu cpu%u %s pid %d %s %s %d\n",
		       (unsigned long long)e->ns, e->cpu, sched_trace_names[e->event][0],
		       e->pid, sched_trace_policy_name(e->policy), sched_trace_names[e->event][1], e->arg);
	}
	printk("trace: end\n");
	return (int)total;
}

/* Root only, as setting a tunable is: reading events would be harmless,
 * but every op changes what all users share (the recording, its memory,
 * the console a dump floods). docs/trace.md. */
int sys_trace(int op, int arg)
{
	int ret = 0;

	if (current()->euid != 0)
		return -EPERM;
	mutex_lock(&ctl_lock);
	switch (op) {
	case TRACE_OP_STOP:	trace_quiesce(); break;
	case TRACE_OP_START:	ret = trace_start((uint32_t)arg); break;
	case TRACE_OP_CLEAR:	trace_clear(); break;
	case TRACE_OP_DUMP:	ret = trace_dump(); break;
	default:		ret = -EINVAL;
	}
	mutex_unlock(&ctl_lock);
	return ret;
}

void trace_init(void)
{
	mutex_init(&ctl_lock, "trace");
	if (bootparam_int("trace", 0, 0, 1) == 0)
		return;
	if (trace_start(TRACE_ALL_EVENTS) < 0)
		pr_warn("trace: no memory for the buffers; not tracing\n");
	else
		printk("trace: recording every event from boot, %u per CPU\n", TRACE_BUF_EVENTS);
}
