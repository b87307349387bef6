/*
 * errno.h - the error numbers the scheduler returns, with Linux i386 values.
 *
 * Errors are values: every syscall-level function in sched/ returns 0 (or a
 * result) on success and -ERRNO on failure, as the raw Linux syscalls do.
 * The kernel reuses this header for its own errors, so the values must stay
 * the Linux ones (a binary built for Linux reads them).
 */
#ifndef SCHED_ERRNO_H
#define SCHED_ERRNO_H

#define EPERM	1	/* operation not permitted */
#define ENOENT	2	/* no such file (here: unknown boot parameter) */
#define ESRCH	3	/* no such process */
#define EFAULT	14	/* bad user address */
#define EACCES	13	/* permission denied (setpriority: lowering nice) */
#define EINVAL	22	/* invalid argument */
#define ENOSYS	38	/* unknown system call */

#endif
