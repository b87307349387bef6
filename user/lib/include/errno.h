/* errno.h - Linux errno values (asm-generic/errno-base.h + the few we use). */
#ifndef _ERRNO_H
#define _ERRNO_H

#include <uapi/errno.h>

extern int errno;	/* starts at 0; only a failing call writes it */

#endif
