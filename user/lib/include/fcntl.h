/* fcntl.h - open(); the kernel only opens initrd files for reading. */
#ifndef _FCNTL_H
#define _FCNTL_H

#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR   2

int open(const char *path, int flags, ...);

#endif
