/* fcntl.h - open(); the kernel only opens initrd files and directories for reading. */
#ifndef _FCNTL_H
#define _FCNTL_H

#include <uapi/fcntl.h>	/* O_RDONLY, O_WRONLY, O_RDWR, O_DIRECTORY */

int open(const char *path, int flags, ...);

#endif
