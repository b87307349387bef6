/* sys/times.h - process times in clock ticks (USER_HZ = 100 on Linux). */
#ifndef _SYS_TIMES_H
#define _SYS_TIMES_H

#include <sys/types.h>

#include <uapi/times.h>	/* struct tms */

clock_t times(struct tms *buf);

#endif
