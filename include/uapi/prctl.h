/*
 * uapi/prctl.h - prctl (172): the options this kernel has, Linux's values
 * (linux/prctl.h), defined here once for the kernel (kernel/thread.c).
 */
#ifndef UAPI_PRCTL_H
#define UAPI_PRCTL_H

#define PR_SET_NAME	15	/* the calling thread's name: 16 bytes with the NUL */
#define PR_GET_NAME	16

#endif
