/*
 * uname.h - what the kernel says it is (kernel/sys/uname.c).
 */
#ifndef KERNEL_UNAME_H
#define KERNEL_UNAME_H

/* What it says, once: uname(2) and /proc/sys/kernel, /proc/version. */
#define UTS_SYSNAME	"Staircase"
#define UTS_NODENAME	"staircase"
/* The release says which Linux ABI it speaks: programs read their
 * features off it (procps's top picks its %Cpu(s) columns by version:
 * with "0.1" it printed a 2.5-era line), and the ABI here is Linux 6.1's,
 * checked against it (tests/linux-diff.sh). gVisor and WSL do the same. */
#define UTS_RELEASE	"6.1.0-staircase"
#define UTS_VERSION	"staircase scheduler v7.F + batch + iso"
#define UTS_MACHINE	"i686"

int sys_uname(void *ubuf);

#endif
