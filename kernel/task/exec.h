/*
 * exec.h - loading programs, and the heap they grow (kernel/task/exec.c).
 */
#ifndef KERNEL_EXEC_H
#define KERNEL_EXEC_H

#include <stdint.h>

struct proc;

/* Load path into p (whose trap frame then starts it). 0 or -errno;
 * on error p is unchanged. */
int exec_into(struct proc *p, const char *path, char *const argv[], char *const envp[]);
int sys_execve(const char *upath, char *const *uargv, char *const *uenvp);

#endif
