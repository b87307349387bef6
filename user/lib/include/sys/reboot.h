/* sys/reboot.h - power off / restart; the Linux magic numbers (call 88). */
#ifndef _SYS_REBOOT_H
#define _SYS_REBOOT_H

#include <uapi/reboot.h>	/* LINUX_REBOOT_MAGIC1, ..._CMD_POWER_OFF */

/* Like glibc: reboot(cmd) supplies both magic numbers. */
int reboot(int cmd);

#endif
