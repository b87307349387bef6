/* sys/time.h - struct timeval (used by struct rusage). */
#ifndef _SYS_TIME_H
#define _SYS_TIME_H

#include <sys/types.h>

#include <uapi/time.h>	/* struct timeval (uapi's timeval32) */

#endif
