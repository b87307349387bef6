/* termios.h - the terminal's modes (Linux's struct termios, TCGETS/TCSETS). */
#ifndef _TERMIOS_H
#define _TERMIOS_H

#include <sys/types.h>

typedef unsigned char cc_t;
typedef unsigned int tcflag_t;
typedef unsigned int speed_t;

/* struct termios, NCCS, the c_cc indices and flags, TCSA*: Linux's. */
#include <uapi/termios.h>

int tcgetattr(int fd, struct termios *t);
int tcsetattr(int fd, int when, const struct termios *t);
pid_t tcgetpgrp(int fd);
int tcsetpgrp(int fd, pid_t pgrp);

#endif
