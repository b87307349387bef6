/*
 * proc_internal.h - what kernel/task/proc.c (tasks, switching) shares with
 * kernel/task/fork.c, exit.c (exit and wait) and thread.c (exec's
 * de_thread), and no one else: the process subsystem's face is proc.h.
 */
#ifndef KERNEL_PROC_INTERNAL_H
#define KERNEL_PROC_INTERNAL_H

#include "proc.h"

/* Process 1: orphans go to it, and its end powers the machine off. */
extern struct proc *initproc;

/* A family lock (proc.h): never taken under signal_lock, which comes
 * after it in the order; init's comes after any other's. */
void family_lock(struct proc *p);
/* c off its parent's children list (the parent's family lock held). */
void child_unlink(struct proc *c);
/* c onto parent's children list (parent's family lock held). */
void proc_set_parent_locked(struct proc *c, struct proc *parent);
/* Everything of p goes (memory, pid, its count), its struct with the
 * last proc_put(): the caller holds no lock, no CPU runs on p's stack,
 * and p is no one's child (fork_start not reached, or reaped). */
void proc_release(struct proc *p);
/* p lets go of its address space (the last user frees it). */
void release_memory(struct proc *p);
/* p lets go of what it uses: its address space, descriptors and fs
 * information, and a leader the process's program (group_end, a
 * thread's exit, a fork that failed); the last user of each frees it.
 * process_ends: the process's record locks go too (files_put). */
void release_mm_files(struct proc *p, bool process_ends);
/* A thread begins its exit; freed, it is counted out (free_dead_tasks). */
void task_leaving(void);
/* A thread's usage joins its group's exited threads'; signal_lock held
 * (kernel/task/exit.c). */
void group_add_dead(struct thread_group *g, const struct proc *t);
/* A reaped task no longer counts against threads-max. */
void task_uncount(void);

#endif
