/*
 * uapi/times.h - what times (43) fills: Linux i386's struct tms
 * (linux/times.h), CPU times in clock ticks of USER_HZ (100), once for the
 * kernel (kernel/time/systime.c) and the small libc (user/lib/include/sys/times.h).
 */
#ifndef UAPI_TIMES_H
#define UAPI_TIMES_H

struct tms {
	long tms_utime;		/* the process's threads, in user mode */
	long tms_stime;		/* ... and in the kernel */
	long tms_cutime;	/* its waited-for children's, in user mode */
	long tms_cstime;	/* ... and in the kernel */
};

#endif
