/* sys/ioctl.h - the terminal ioctls this kernel answers (Linux's numbers). */
#ifndef _SYS_IOCTL_H
#define _SYS_IOCTL_H

#include <uapi/ioctls.h>	/* TIOC*, TC*, struct winsize */


int ioctl(int fd, unsigned long req, ...);

#endif
