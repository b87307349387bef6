/*
 * closerange.c - close_range (436), as Linux 5.9 added it: every open
 * descriptor from first to last closed, or with CLOSE_RANGE_CLOEXEC only
 * marked close-on-exec. Python's subprocess (and systemd, and glibc's
 * closefrom) call it in a child before exec instead of closing
 * descriptors one by one.
 *
 * CLOSE_RANGE_UNSHARE asks for a table of the caller's own first: a
 * task that shares its table (other threads, or a process clone's
 * CLONE_FILES made) gets a copy (files_unshare), as Linux's.
 */
#include "file.h"
#include "lib/errno.h"
#include "kernel/task/proc.h"
#include <uapi/fcntl.h>

int sys_close_range(uint32_t first, uint32_t last, uint32_t flags)
{
	if ((flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC)) || first > last)
		return -EINVAL;
	if (flags & CLOSE_RANGE_UNSHARE) {
		int err = files_unshare(current());
		if (err < 0)
			return err;
	}
	uint32_t end = fd_table_size();
	for (uint32_t fd = first; fd <= last && fd < end; fd++) {
		if (flags & CLOSE_RANGE_CLOEXEC)
			sys_fcntl64((int)fd, F_SETFD, FD_CLOEXEC);	/* EBADF: not open */
		else
			sys_close((int)fd);
	}
	return 0;
}
