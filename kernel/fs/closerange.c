/*
 * closerange.c - close_range (436), as Linux 5.9 added it: every open
 * descriptor from first to last closed, or with CLOSE_RANGE_CLOEXEC only
 * marked close-on-exec. Python's subprocess (and systemd, and glibc's
 * closefrom) call it in a child before exec instead of closing
 * descriptors one by one.
 *
 * CLOSE_RANGE_UNSHARE asks for a table of the caller's own first. A
 * process's table is already its own (fork copies it); a thread's is its
 * group's, which this kernel never splits, so there UNSHARE is EINVAL
 * rather than closing the other threads' descriptors.
 */
#include "file.h"
#include "lib/errno.h"
#include "kernel/task/proc.h"
#include <uapi/fcntl.h>

int sys_close_range(uint32_t first, uint32_t last, uint32_t flags)
{
	if ((flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC)) || first > last)
		return -EINVAL;
	if ((flags & CLOSE_RANGE_UNSHARE) &&
	    __atomic_load_n(&current()->group->nr_threads, __ATOMIC_RELAXED) > 1)
		return -EINVAL;
	uint32_t end = fd_table_size();
	for (uint32_t fd = first; fd <= last && fd < end; fd++) {
		if (flags & CLOSE_RANGE_CLOEXEC)
			sys_fcntl64((int)fd, F_SETFD, FD_CLOEXEC);	/* EBADF: not open */
		else
			sys_close((int)fd);
	}
	return 0;
}
