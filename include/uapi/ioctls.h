/*
 * uapi/ioctls.h - the terminal ioctls this kernel answers (Linux's i386
 * numbers, asm-generic/ioctls.h), once for kernel/fs/tty.c and the small
 * libc (user/lib/include/sys/ioctl.h).
 */
#ifndef UAPI_IOCTLS_H
#define UAPI_IOCTLS_H

#define TCGETS		0x5401
#define TCSETS		0x5402
#define TCSETSW		0x5403
#define TCSETSF		0x5404
#define TIOCGPGRP	0x540F
#define TIOCSPGRP	0x5410
#define TIOCGWINSZ	0x5413

/* TIOCGWINSZ's answer (asm-generic/termios.h): 8 bytes */
struct winsize {
	unsigned short ws_row;
	unsigned short ws_col;
	unsigned short ws_xpixel;
	unsigned short ws_ypixel;
};

#endif
