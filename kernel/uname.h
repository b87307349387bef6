/*
 * uname.h - what the kernel says it is (kernel/uname.c).
 */
#ifndef KERNEL_UNAME_H
#define KERNEL_UNAME_H

/* What it says, once: uname(2) and /proc/sys/kernel, /proc/version. */
#define UTS_SYSNAME	"Staircase"
#define UTS_NODENAME	"staircase"
#define UTS_RELEASE	"0.1"
#define UTS_VERSION	"staircase scheduler v7.F + batch + iso"
#define UTS_MACHINE	"i686"

int sys_uname(void *ubuf);

#endif
