/*
 * uapi/wait.h - wait4's options (Linux's numbers), once for the kernel
 * (kernel/task/proc.c) and the small libc (user/lib/include/sys/wait.h).
 */
#ifndef UAPI_WAIT_H
#define UAPI_WAIT_H

#define WNOHANG		1
#define WUNTRACED	2
#define WCONTINUED	8
#define __WNOTHREAD	0x20000000	/* only the calling thread's own children */
#define __WCLONE	0x80000000	/* only children whose exit signal is not SIGCHLD */
#define __WALL		0x40000000	/* children of either kind */

#endif
