/*
 * uapi/ioctls.h - the ioctls this kernel answers (Linux's i386 numbers,
 * asm-generic/ioctls.h), once for kernel/fs/ioctl.c, kernel/fs/tty.c and
 * the small libc (user/lib/include/sys/ioctl.h): the terminal's, and
 * those of every descriptor.
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
#define FIONREAD	0x541B	/* bytes ready to read (SIOCINQ for a socket) */
#define FIONBIO		0x5421	/* *(int *)arg: O_NONBLOCK on or off */
#define FIONCLEX	0x5450	/* close-on-exec off */
#define FIOCLEX		0x5451	/* close-on-exec on */

/* TIOCGWINSZ's answer (asm-generic/termios.h): 8 bytes */
struct winsize {
	unsigned short ws_row;
	unsigned short ws_col;
	unsigned short ws_xpixel;
	unsigned short ws_ypixel;
};

#endif
