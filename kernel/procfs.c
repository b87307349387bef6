/*
 * procfs.c - the first piece of /proc: /proc/self/exe, the running
 * program, as a magic link (Linux's proc_exe_link). Busybox runs its
 * applets by executing /proc/self/exe again (CONFIG_BUSYBOX_EXEC_PATH),
 * and programs find their own file through it (readlink).
 *
 * The nodes live in the initrd's tree (kernel/initrd.c): /proc and
 * /proc/self are directories there (on Linux /proc/self is a link to the
 * caller's /proc/PID, which this kernel does not have yet), and the path
 * walk replaces exe by the caller's program: open, execve and stat follow
 * it, lstat and readlink see the link.
 */
#include "procfs.h"
#include <stddef.h>
#include "initrd.h"
#include "proc.h"

#define MAGIC_SELF_EXE	1

void procfs_init(void)
{
	initrd_add_dir("/proc");
	initrd_add_dir("/proc/self");
	initrd_add_magic("/proc/self/exe", MAGIC_SELF_EXE);
}

const struct initrd_file *initrd_magic_target(const struct initrd_file *link)
{
	struct proc *p = current();
	if (link->magic != MAGIC_SELF_EXE || !p)
		return NULL;
	return p->group_leader ? p->group_leader->exe : NULL;	/* a kernel thread: ENOENT */
}
