/* dirent.h - opendir/readdir over getdents64 (220), as glibc does it. */
#ifndef _DIRENT_H
#define _DIRENT_H

#include <sys/types.h>

/* struct dirent is the kernel's struct linux_dirent64 (sys/types.h); DT_* */
#include <uapi/dirent.h>

typedef struct DIR DIR;

DIR *opendir(const char *path);
struct dirent *readdir(DIR *d);		/* NULL at the end (errno unchanged) or on error */
int closedir(DIR *d);
int getdents64(int fd, void *buf, size_t count);

#endif
