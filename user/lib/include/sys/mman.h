/* sys/mman.h - mapping memory (Linux i386; the numbers are uapi/mman.h's,
 * which the kernel includes too). */
#ifndef _SYS_MMAN_H
#define _SYS_MMAN_H

#include <sys/types.h>
#include <uapi/mman.h>

/* Through the old mmap (90): one pointer, offset in bytes (a multiple of
 * the page size), so no call needs a sixth register. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t len);
int mprotect(void *addr, size_t len, int prot);
/* new_addr is read only with MREMAP_FIXED. */
void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...);
int madvise(void *addr, size_t len, int advice);

#endif
