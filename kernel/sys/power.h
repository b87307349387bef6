/*
 * power.h - turning the machine off.
 */
#ifndef KERNEL_POWER_H
#define KERNEL_POWER_H

#include <stdint.h>

/* Under QEMU with isa-debug-exit, QEMU exits with (status << 1) | 1;
 * otherwise ACPI soft-off. Never returns. */
__attribute__((noreturn)) void power_off(int status);
/* reboot(2): POWER_OFF and HALT both power off; -EPERM unless root,
 * -EINVAL for bad magic numbers or any other command. */
int sys_reboot(uint32_t magic1, uint32_t magic2, uint32_t cmd);

#endif
