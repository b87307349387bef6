/*
 * kernel/task/ - tasks: struct proc (one thread; a group's shared state
 * in its leader), the switch and the idle loop, fork and clone (proc,
 * thread), exit (exit), wait4 and waitid (wait), exec with its ELF and "#!" loaders
 * (exec, elf, script), pids (pid), process groups and sessions (pgrp),
 * credentials and capabilities (cred, capability), I/O priorities
 * (ioprio), limits (rlimit), signals and their frames (signal,
 * sigframe), futexes, prctl, and the kernel's side of sched/machine.h
 * (sched_glue).
 *
 * Locks (order: a leader's family_lock, then init's, then signal_lock,
 * then the leaves): a leader's family_lock guards its children list and
 * each child's parent link; signal_lock guards the signal state, the
 * thread counts and group exits, job control's groups and sessions
 * (proc.h says which fields); nproc_lock RLIMIT_NPROC's count;
 * dead_tasks_lock the exited threads waiting to be freed; name_lock a
 * task's name (prctl); futex_lock each futex bucket; vfork_lock a vfork
 * parent's wait; the pid table is read without a lock (RCU) and claimed
 * by compare-and-swap.
 *
 * Face of this folder. May call: lib, sched, kernel/arch, kernel/debug, kernel/fs, kernel/fs/proc, kernel/init, kernel/ipc, kernel/mm, kernel/sync, kernel/sys, kernel/time.
 */
#ifndef KERNEL_TASK_TASK_H
#define KERNEL_TASK_TASK_H

#include "cred.h"
#include "elf.h"
#include "exec.h"
#include "futex.h"
#include "ioprio.h"
#include "pgrp.h"
#include "pid.h"
#include "prctl.h"
#include "proc.h"
#include "sched_glue.h"
#include "script.h"
#include "sigframe.h"
#include "signal.h"
#include "thread.h"

#endif
