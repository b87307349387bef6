/*
 * uapi/capability.h - capabilities: Linux's numbers (linux/capability.h),
 * once for the kernel (kernel/task/capability.c) and user programs, and
 * the capget/capset (184/185) structures.
 */
#ifndef UAPI_CAPABILITY_H
#define UAPI_CAPABILITY_H

#define CAP_CHOWN		0
#define CAP_DAC_OVERRIDE	1	/* file permission bits ignored */
#define CAP_DAC_READ_SEARCH	2	/* read any file, search any directory */
#define CAP_FOWNER		3
#define CAP_FSETID		4
#define CAP_KILL		5	/* signal anyone */
#define CAP_SETGID		6
#define CAP_SETUID		7
#define CAP_SETPCAP		8	/* bounding set, securebits, others' inheritable */
#define CAP_IPC_LOCK		14	/* mlock, SHM_LOCK past RLIMIT_MEMLOCK */
#define CAP_IPC_OWNER		15	/* System V IPC permission bits ignored */
#define CAP_SYS_PTRACE		19	/* read other users' tasks (robust lists, fds) */
#define CAP_SYS_ADMIN		21
#define CAP_SYS_BOOT		22	/* reboot */
#define CAP_SYS_NICE		23	/* raise priorities, real-time policies, others' tasks */
#define CAP_SYS_RESOURCE	24	/* raise hard limits; pipe and queue limits */
#define CAP_SYSLOG		34	/* the kernel log (syslog, dmesg) */
#define CAP_LAST_CAP		40	/* Linux 6.1's last capability (CAP_CHECKPOINT_RESTORE) */

/* capget and capset: the header's versions (how many 32-bit words each
 * set takes: 1, then 2), and one word of each set. */
#define _LINUX_CAPABILITY_VERSION_1	0x19980330
#define _LINUX_CAPABILITY_VERSION_2	0x20071026
#define _LINUX_CAPABILITY_VERSION_3	0x20080522
struct __user_cap_header_struct {
	unsigned int version;
	int pid;
};
struct __user_cap_data_struct {
	unsigned int effective, permitted, inheritable;
};

/* securebits (prctl PR_SET_SECUREBITS; Linux's linux/securebits.h): each
 * rule's bit, and above it the bit that locks it. */
#define SECURE_NOROOT			0	/* root gets no capabilities at exec */
#define SECURE_NO_SETUID_FIXUP		2	/* setuid leaves the capabilities alone */
#define SECURE_KEEP_CAPS		4	/* PR_SET_KEEPCAPS: kept when root's ids go */
#define SECURE_NO_CAP_AMBIENT_RAISE	6

#endif
