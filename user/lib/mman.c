/* mman.c - mmap and friends: thin wrappers over the kernel's calls. */
#include <errno.h>
#include <stdarg.h>
#include <sys/mman.h>
#include "syscall.h"

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	long args[6] = { (long)addr, (long)len, prot, flags, fd, offset };
	long r = __syscall_ret(syscall1(__NR_mmap, (long)args));
	return r == -1 ? MAP_FAILED : (void *)r;
}

int munmap(void *addr, size_t len)
{
	return (int)__syscall_ret(syscall2(__NR_munmap, (long)addr, (long)len));
}

int mprotect(void *addr, size_t len, int prot)
{
	return (int)__syscall_ret(syscall3(__NR_mprotect, (long)addr, (long)len, prot));
}

void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	long new_addr = (flags & MREMAP_FIXED) ? va_arg(ap, long) : 0;
	va_end(ap);
	long r = __syscall_ret(syscall5(__NR_mremap, (long)old, (long)old_len,
					(long)new_len, flags, new_addr));
	return r == -1 ? MAP_FAILED : (void *)r;
}

int madvise(void *addr, size_t len, int advice)
{
	return (int)__syscall_ret(syscall3(__NR_madvise, (long)addr, (long)len, advice));
}
