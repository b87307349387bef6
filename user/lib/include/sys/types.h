/* sys/types.h - the Linux i386 sizes of the basic system types. */
#ifndef _SYS_TYPES_H
#define _SYS_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef long ssize_t;
typedef long off_t;
typedef long time_t;
typedef long clock_t;
typedef long suseconds_t;
typedef int clockid_t;
typedef unsigned int id_t;
typedef unsigned int mode_t;


/* The ABI's structs are defined once, in include/uapi/, under the kernel's
 * names; this libc gives them POSIX's (the layouts are the same: i386's).
 * Defined here, before any uapi header can be included. */
#define timespec32 timespec	/* uapi/time.h */
#define timeval32 timeval	/* uapi/time.h */
#define stat64 stat		/* uapi/stat.h: what calls 195-197 fill */
#define linux_dirent64 dirent	/* uapi/dirent.h: what getdents64 writes */

#endif
