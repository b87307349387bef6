/* ioprio.h - ioprio_set (289) and ioprio_get (290): a thread's I/O
 * priority, kept and reported (kernel/task/ioprio.c). */
#ifndef KERNEL_IOPRIO_H
#define KERNEL_IOPRIO_H

#include <stdint.h>
#include <uapi/ioprio.h>

int sys_ioprio_set(int which, int who, int prio);
int sys_ioprio_get(int which, int who);
/* fork and clone: the priority a child takes from its creator's, one
 * that was set (Linux's copy_io); else none. */
static inline uint16_t ioprio_fork(uint16_t prio)
{
	return prio >> IOPRIO_CLASS_SHIFT ? prio : 0;
}

#endif
