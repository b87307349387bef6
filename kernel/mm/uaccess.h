/*
 * uaccess.h - the one checked path between user memory and the kernel.
 *
 * Every system call argument that is a pointer goes through these. They
 * walk the current process's page tables instead of touching the user
 * address directly, so a bad pointer (NULL, unmapped, read-only for a
 * write, or in kernel space) is an -EFAULT return value, never a kernel
 * page fault.
 */
#ifndef KERNEL_UACCESS_H
#define KERNEL_UACCESS_H

#include <stdint.h>
#include <stdbool.h>
#include "vm.h"

int copy_from_user(void *dst, const void *usrc, uint32_t n);
int copy_to_user(void *udst, const void *src, uint32_t n);
/* Copy a NUL-terminated string of at most max-1 chars: its length, or
 * -EFAULT, or -ENAMETOOLONG when it does not fit. */
int strncpy_from_user(char *dst, const char *usrc, uint32_t max);
/* Would every byte of [u, u+n) be accessible (writable if write)? */
bool user_range_ok(const void *u, uint32_t n, bool write);

/* The same against an address space that is not the current one (exec
 * builds the new stack this way). */
int copy_to_pgdir(pde_t *pgdir, uint32_t uva, const void *src, uint32_t n);
/* ... and from one (/proc/PID/cmdline reads another process's arguments;
 * the caller holds that space's mm lock). A page not present is -EFAULT:
 * nothing is faulted in for another process. */
int copy_from_pgdir(void *dst, pde_t *pgdir, uint32_t uva, uint32_t n);

#endif
