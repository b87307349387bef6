/*
 * uapi/dirent.h - what getdents64 (220) writes: Linux's struct
 * linux_dirent64 (include/linux/dirent.h: the kernel's, not in its uapi
 * headers) and the d_type values (glibc's dirent.h, from the kernel's
 * fs_types), once for the kernel (kernel/fs/fs.c) and the small libc
 * (user/lib/include/dirent.h, where it is POSIX's struct dirent).
 */
#ifndef UAPI_DIRENT_H
#define UAPI_DIRENT_H

#define DT_UNKNOWN	0
#define DT_FIFO		1
#define DT_CHR		2
#define DT_DIR		4
#define DT_REG		8
#define DT_LNK		10

/* 19 bytes of header, the name and its NUL, padded to 8 */
struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;		/* the offset of the next entry */
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
} __attribute__((packed));

#endif
