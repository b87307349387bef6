/*
 * uapi/mman.h - the numbers of mmap, mprotect, mremap and madvise (Linux
 * i386's, as in Linux's include/uapi/asm-generic/mman-common.h).
 *
 * The one definition of them: the C library's <sys/mman.h> includes this
 * file and so does the kernel (kernel/mm/mm.h), as Linux's uapi headers are
 * shared by the kernel and libc. Numbers only, no declarations, so that
 * either side can include it.
 */
#ifndef UAPI_MMAN_H
#define UAPI_MMAN_H

#define PROT_NONE	0x0
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4
#define PROT_SEM	0x8	/* accepted, means nothing (as Linux on x86) */
#define PROT_GROWSDOWN	0x01000000
#define PROT_GROWSUP	0x02000000

#define MAP_SHARED		0x01
#define MAP_PRIVATE		0x02
#define MAP_SHARED_VALIDATE	0x03
#define MAP_TYPE		0x0f
#define MAP_FIXED		0x10
#define MAP_ANONYMOUS		0x20
#define MAP_GROWSDOWN		0x0100
#define MAP_DENYWRITE		0x0800
#define MAP_EXECUTABLE		0x1000
#define MAP_LOCKED		0x2000
#define MAP_NORESERVE		0x4000
#define MAP_POPULATE		0x8000
#define MAP_NONBLOCK		0x10000
#define MAP_STACK		0x20000
#define MAP_HUGETLB		0x40000
#define MAP_FIXED_NOREPLACE	0x100000
#define MAP_UNINITIALIZED	0x4000000	/* known to MAP_SHARED_VALIDATE; means nothing */
#define MAP_FAILED		((void *)-1)

#define MREMAP_MAYMOVE		1
#define MREMAP_FIXED		2
#define MREMAP_DONTUNMAP	4

#define MADV_NORMAL		0
#define MADV_RANDOM		1
#define MADV_SEQUENTIAL		2
#define MADV_WILLNEED		3
#define MADV_DONTNEED		4
#define MADV_FREE		8
#define MADV_REMOVE		9
#define MADV_POPULATE_WRITE	23	/* the highest Linux 6.1 knows */

/* msync */
#define MS_ASYNC	1
#define MS_INVALIDATE	2
#define MS_SYNC		4

/* mlockall */
#define MCL_CURRENT	1
#define MCL_FUTURE	2
#define MCL_ONFAULT	4

#endif
