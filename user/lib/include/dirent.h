/* dirent.h - opendir/readdir over getdents64 (220), as glibc does it. */
#ifndef _DIRENT_H
#define _DIRENT_H

#include <sys/types.h>

#define DT_UNKNOWN 0
#define DT_DIR     4
#define DT_REG     8

/* linux_dirent64 as the kernel writes it. */
struct dirent {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
} __attribute__((packed));

typedef struct DIR DIR;

DIR *opendir(const char *path);
struct dirent *readdir(DIR *d);		/* NULL at the end (errno unchanged) or on error */
int closedir(DIR *d);
int getdents64(int fd, void *buf, size_t count);

#endif
