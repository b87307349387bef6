/*
 * uapi/syslog.h - syslog (103)'s actions, Linux's numbers
 * (include/linux/syslog.h; glibc's klogctl takes them): once for the
 * kernel (kernel/debug/printk.c) and user programs.
 */
#ifndef UAPI_SYSLOG_H
#define UAPI_SYSLOG_H

#define SYSLOG_ACTION_CLOSE		0
#define SYSLOG_ACTION_OPEN		1
#define SYSLOG_ACTION_READ		2	/* wait for new bytes, take them */
#define SYSLOG_ACTION_READ_ALL		3	/* the last len bytes, kept */
#define SYSLOG_ACTION_READ_CLEAR	4
#define SYSLOG_ACTION_CLEAR		5
#define SYSLOG_ACTION_CONSOLE_OFF	6
#define SYSLOG_ACTION_CONSOLE_ON	7
#define SYSLOG_ACTION_CONSOLE_LEVEL	8	/* len is the level, 1..8 */
#define SYSLOG_ACTION_SIZE_UNREAD	9
#define SYSLOG_ACTION_SIZE_BUFFER	10

#endif
