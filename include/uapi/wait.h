/*
 * uapi/wait.h - wait4's and waitid's options and waitid's id types
 * (Linux's numbers), once for the kernel (kernel/task/wait.c) and the
 * small libc (user/lib/include/sys/wait.h).
 */
#ifndef UAPI_WAIT_H
#define UAPI_WAIT_H

#define WNOHANG		1
#define WUNTRACED	2
#define WSTOPPED	WUNTRACED	/* waitid's name */
#define WEXITED		4		/* waitid: exited children */
#define WCONTINUED	8
#define WNOWAIT		0x01000000	/* waitid: tell, and leave the child waitable */
#define __WNOTHREAD	0x20000000	/* only the calling thread's own children */
#define __WCLONE	0x80000000	/* only children whose exit signal is not SIGCHLD */
#define __WALL		0x40000000	/* children of either kind */

/* waitid's idtype */
#define P_ALL		0
#define P_PID		1
#define P_PGID		2

#endif
