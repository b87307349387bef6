/*
 * prctl.h - prctl (172): a process's name and dumpable flag (kernel/task/prctl.c).
 */
#ifndef KERNEL_PRCTL_H
#define KERNEL_PRCTL_H

#include <stdint.h>

int sys_prctl(uint32_t option, uint32_t arg2, uint32_t arg3, uint32_t arg4, uint32_t arg5);

#endif
