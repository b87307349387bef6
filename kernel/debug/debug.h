/*
 * kernel/debug/ - what the kernel says and how it is watched: printk
 * and the console (serial mirrored to VGA, one lock so lines stay whole),
 * panic and KASSERT's kassert_fail, symbols for backtraces (ksyms), the
 * scheduler trace recorder (trace), the soft-lockup watchdog and every
 * test-only hook of the boot tests (selftest).
 *
 * Locks: the console's output and input locks (innermost: printk may be
 * called with any other lock held); the trace's per-CPU buffers are
 * written with the run queue's lock held.
 *
 * Face of this folder. May call: lib, sched, drivers, kernel/arch, kernel/fs, kernel/init, kernel/mm, kernel/sync, kernel/task, kernel/time.
 */
#ifndef KERNEL_DEBUG_DEBUG_H
#define KERNEL_DEBUG_DEBUG_H

#include "console.h"
#include "panic.h"
#include "printk.h"
#include "selftest.h"
#include "trace.h"
#include "watchdog.h"

#endif
