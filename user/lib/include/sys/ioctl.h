/* sys/ioctl.h - the terminal ioctls this kernel answers (Linux's numbers). */
#ifndef _SYS_IOCTL_H
#define _SYS_IOCTL_H

#include <uapi/ioctls.h>

struct winsize { unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel; };

int ioctl(int fd, unsigned long req, ...);

#endif
