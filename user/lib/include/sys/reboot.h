/* sys/reboot.h - power off / restart; the Linux magic numbers (call 88). */
#ifndef _SYS_REBOOT_H
#define _SYS_REBOOT_H

#define LINUX_REBOOT_MAGIC1         0xfee1dead
#define LINUX_REBOOT_MAGIC2         672274793
#define LINUX_REBOOT_CMD_RESTART    0x01234567
#define LINUX_REBOOT_CMD_HALT       0xcdef0123
#define LINUX_REBOOT_CMD_POWER_OFF  0x4321fedc

/* Like glibc: reboot(cmd) supplies both magic numbers. */
int reboot(int cmd);

#endif
