/*
 * uapi/mount.h - mount(2)'s and umount2(2)'s flags, statfs's structures
 * and the file systems' magic numbers: Linux i386's (linux/mount.h,
 * linux/magic.h, asm-generic/statfs.h), for kernel/fs/mount.c.
 */
#ifndef UAPI_MOUNT_H
#define UAPI_MOUNT_H

#include <stdint.h>

/* mount(2)'s flags that stay with a mount, and the ones that act */
#define MS_RDONLY	1
#define MS_NOSUID	2
#define MS_NODEV	4
#define MS_NOEXEC	8
#define MS_REMOUNT	32
#define MS_NOATIME	1024
#define MS_BIND		4096
#define MS_MOVE		8192
#define MS_REC		16384
#define MS_RELATIME	(1 << 21)
#define MS_STRICTATIME	(1 << 24)
#define MS_MGC_MSK	0xffff0000u	/* old callers' magic in the high half */
#define MS_MGC_VAL	0xC0ED0000u
/* umount2(2)'s */
#define MNT_FORCE	1
#define MNT_DETACH	2
#define MNT_EXPIRE	4
#define UMOUNT_NOFOLLOW	8

/* statfs's f_type */
#define TMPFS_MAGIC		0x01021994
#define PROC_SUPER_MAGIC	0x9fa0
/* statfs's f_flags (ST_*): ST_VALID says the field is filled */
#define ST_RDONLY	1
#define ST_NOSUID	2
#define ST_NODEV	4
#define ST_NOEXEC	8
#define ST_NOATIME	1024
#define ST_RELATIME	4096
#define ST_VALID	0x20

/* statfs (99) and fstatfs (100): 64 bytes, every count in 32 bits */
struct statfs32 {
	uint32_t f_type, f_bsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
};

/* statfs64 (268) and fstatfs64 (269): 84 bytes on i386 (packed, 4-aligned) */
struct statfs64 {
	uint32_t f_type, f_bsize;
	uint64_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
} __attribute__((packed, aligned(4)));

#endif
