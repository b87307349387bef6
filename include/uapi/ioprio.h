/*
 * uapi/ioprio.h - ioprio_get (290) and ioprio_set (289): Linux's numbers
 * (linux/ioprio.h), once for the kernel (kernel/task/ioprio.c) and user
 * programs. A priority is a class and, below IOPRIO_CLASS_SHIFT, its data:
 * a level 0 (highest) to 7 for RT and BE.
 */
#ifndef UAPI_IOPRIO_H
#define UAPI_IOPRIO_H

#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_CLASS_MASK	0x07
#define IOPRIO_PRIO_MASK	((1u << IOPRIO_CLASS_SHIFT) - 1)

#define IOPRIO_CLASS_NONE	0	/* not set: the default */
#define IOPRIO_CLASS_RT		1	/* CAP_SYS_NICE or CAP_SYS_ADMIN */
#define IOPRIO_CLASS_BE		2
#define IOPRIO_CLASS_IDLE	3

#define IOPRIO_NR_LEVELS	8

#define IOPRIO_WHO_PROCESS	1	/* a thread (0: the caller) */
#define IOPRIO_WHO_PGRP		2	/* every thread of a process group */
#define IOPRIO_WHO_USER		3	/* every thread of a real uid */

#endif
