/*
 * trace.h - a recorder of scheduler events, so students can see the
 * scheduler work (docs/trace.md).
 *
 * sched/ reports every event through sched_trace() (sched/machine.h),
 * which tests the event's bit in sched_trace_mask and, when tracing is on,
 * calls sched_trace_record(), which appends a fixed-size record to that CPU's ring
 * buffer. System call 504 starts, stops, clears and dumps the buffers; a
 * dump prints them merged in time order on the console, for
 * tools/traceview.py to draw. A stream sends them to the second serial
 * port (COM2) instead, while the recording goes on: `trace run` drains the
 * buffers every 100 ms, so a run of any length fits and the console stays
 * free. A recording to memory (RECORD) keeps every event in large rings
 * and sends them after the workload, when the recorder drains.
 */
#ifndef KERNEL_TRACE_H
#define KERNEL_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include "sched/machine.h"

#define TRACE_BUF_EVENTS 4096		/* per CPU; the oldest are overwritten */
#define TRACE_MEM_MAX_EVENTS (1u << 20)	/* per CPU, at most, recording to memory */
#define TRACE_ALL_EVENTS ((1u << TRACE_NR_EVENTS) - 1)

/* Boot: the parameter trace=1 starts recording every event at once. */
void trace_init(void);
/* sched_trace_record() (declared in sched/machine.h, as is the event mask
 * sched_trace_mask) appends one event to cpu's buffer; the caller holds
 * cpu's run-queue lock. */
/*
 * Why a task was woken, for a replay (docs/trace.md): the waker's CPU
 * says it around its wake-up call, TRACE_WAKE(WAKE_PIPE, wake(...)), and
 * the wakeup records made meanwhile carry it. Per CPU, saved and restored,
 * so an interrupt's wake-up inside another's gets its own; a site that
 * says nothing records WAKE_OTHER.
 */
enum trace_wake_reason {
	WAKE_OTHER, WAKE_PIPE, WAKE_FUTEX, WAKE_TIMER, WAKE_SIGNAL, WAKE_EXIT, WAKE_IO,
	WAKE_LOCK, WAKE_NR_REASONS
};
/* Set this CPU's reason; returns the one it replaces. */
int trace_wake_reason(int reason);
#define TRACE_WAKE(reason, call) do {				\
		int old_reason_ = trace_wake_reason(reason);	\
		call;						\
		trace_wake_reason(old_reason_);			\
	} while (0)

/* 504: sys_trace(op, arg); START's, STREAM's and RECORD's arg is an event
 * mask, 0 = all; DRAIN's the most lines to send, 0 = all. */
int sys_trace(int op, int arg);

#endif
