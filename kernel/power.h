/*
 * power.h - turning the machine off.
 */
#ifndef KERNEL_POWER_H
#define KERNEL_POWER_H

/* Under QEMU with isa-debug-exit, QEMU exits with (status << 1) | 1;
 * otherwise ACPI soft-off. Never returns. */
__attribute__((noreturn)) void power_off(int status);

#endif
