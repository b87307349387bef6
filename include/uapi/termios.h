/*
 * uapi/termios.h - the terminal's modes as TCGETS/TCSETS exchange them:
 * Linux i386's struct termios and numbers (asm/termbits.h), once for the
 * kernel (kernel/fs/tty.c) and the small libc (user/lib/include/termios.h).
 * The ioctl numbers themselves are in uapi/ioctls.h.
 */
#ifndef UAPI_TERMIOS_H
#define UAPI_TERMIOS_H

#include <stdint.h>

#define NCCS 19
struct termios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[NCCS];
};

/* c_cc indices */
#define VINTR		0
#define VQUIT		1
#define VERASE		2
#define VKILL		3
#define VEOF		4
#define VTIME		5
#define VMIN		6
#define VSTART		8
#define VSTOP		9
#define VSUSP		10
#define VREPRINT	12
#define VDISCARD	13
#define VWERASE		14
#define VLNEXT		15

/* c_iflag */
#define ICRNL		0000400
#define IXON		0002000
/* c_oflag */
#define OPOST		0000001
#define ONLCR		0000004
/* c_cflag */
#define B38400		0000017
#define CS8		0000060
#define CREAD		0000200
#define HUPCL		0002000
/* c_lflag */
#define ISIG		0000001
#define ICANON		0000002
#define ECHO		0000010
#define ECHOE		0000020
#define ECHOK		0000040
#define TOSTOP		0000400
#define ECHOCTL		0001000
#define ECHOKE		0004000
#define IEXTEN		0100000

/* tcsetattr's when */
#define TCSANOW		0
#define TCSADRAIN	1
#define TCSAFLUSH	2

#endif
