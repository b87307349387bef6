/* ioprio.h - ioprio_set (289) and ioprio_get (290): a thread's I/O
 * priority, kept and reported (kernel/task/ioprio.c). */
#ifndef KERNEL_IOPRIO_H
#define KERNEL_IOPRIO_H

struct proc;

int sys_ioprio_set(int which, int who, int prio);
int sys_ioprio_get(int which, int who);
/* fork and clone: the child takes a priority that was set. */
void ioprio_fork(struct proc *child, const struct proc *parent);

#endif
