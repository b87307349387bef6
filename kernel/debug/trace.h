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
 * free.
 */
#ifndef KERNEL_TRACE_H
#define KERNEL_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include "sched/machine.h"

#define TRACE_BUF_EVENTS 4096		/* per CPU; the oldest are overwritten */
#define TRACE_ALL_EVENTS ((1u << TRACE_NR_EVENTS) - 1)

/* Boot: the parameter trace=1 starts recording every event at once. */
void trace_init(void);
/* sched_trace_record() (declared in sched/machine.h, as is the event mask
 * sched_trace_mask) appends one event to cpu's buffer; the caller holds
 * cpu's run-queue lock. */
/* 504: sys_trace(op, arg); START's and STREAM's arg is an event mask, 0 = all. */
int sys_trace(int op, int arg);

#endif
