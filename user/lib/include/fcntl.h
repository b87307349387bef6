/* fcntl.h - open(); the kernel only opens initrd files and directories for reading. */
#ifndef _FCNTL_H
#define _FCNTL_H

#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR   2
#define O_DIRECTORY 0200000	/* fail with ENOTDIR unless it is a directory */

int open(const char *path, int flags, ...);

#endif
