/*
 * uname.h - what the kernel says it is (kernel/uname.c).
 */
#ifndef KERNEL_UNAME_H
#define KERNEL_UNAME_H

int sys_uname(void *ubuf);

#endif
