/*
 * mmap.h - the memory system calls (kernel/mm/mmap.c), Linux i386 numbers in
 * kernel/syscall.c's table.
 */
#ifndef KERNEL_MMAP_H
#define KERNEL_MMAP_H

#include <stdint.h>

int sys_brk(uint32_t addr);						/* 45 */
int sys_old_mmap(const uint32_t *uargs);				/* 90 */
int sys_munmap(uint32_t addr, uint32_t len);				/* 91 */
int sys_mprotect(uint32_t addr, uint32_t len, uint32_t prot);		/* 125 */
int sys_mremap(uint32_t old, uint32_t old_len, uint32_t new_len,
	       uint32_t flags, uint32_t new_addr);			/* 163 */
int sys_mmap2(uint32_t addr, uint32_t len, uint32_t prot, uint32_t flags,
	      int fd, uint32_t pgoff);					/* 192 */
int sys_msync(uint32_t addr, uint32_t len, int flags);			/* 144 */
int sys_madvise(uint32_t addr, uint32_t len, int advice);		/* 219 */
int sys_mlockall(int flags);						/* 152 */
int sys_munlockall(void);
int sys_mlock(uint32_t addr, uint32_t len);
int sys_munlock(uint32_t addr, uint32_t len);						/* 153 */

#endif
