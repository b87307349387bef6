/*
 * uapi/reboot.h - reboot(2)'s magic numbers and commands (call 88): Linux's
 * (linux/reboot.h), once for the kernel (kernel/sys/power.c) and the small libc
 * (user/lib/include/sys/reboot.h).
 */
#ifndef UAPI_REBOOT_H
#define UAPI_REBOOT_H

#define LINUX_REBOOT_MAGIC1		0xfee1dead
#define LINUX_REBOOT_MAGIC2		672274793
#define LINUX_REBOOT_CMD_RESTART	0x01234567
#define LINUX_REBOOT_CMD_HALT		0xcdef0123
#define LINUX_REBOOT_CMD_POWER_OFF	0x4321fedc

#endif
