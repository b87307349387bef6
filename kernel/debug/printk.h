/*
 * printk.h - kernel messages with a level.
 *
 * printk() is informational; pr_err/pr_warn/pr_debug set the level. The
 * boot parameter loglevel=N (default 6) hides messages above N, as Linux.
 * Each call is written to the console as one unit.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

enum { LOG_ERR = 3, LOG_WARN = 4, LOG_INFO = 6, LOG_DEBUG = 7 };

extern int printk_loglevel;

/* The kernel log's size (syslog's SIZE_BUFFER): Linux's default is
 * 128 KiB (CONFIG_LOG_BUF_SHIFT 17); a boot here writes under 8 KiB. */
#define LOG_BUF_LEN	(32 * 1024)
#define MINIMUM_CONSOLE_LOGLEVEL 1	/* Linux's: what CONSOLE_OFF leaves */

/* 103 syslog: read and clear the kernel log, set the console's level
 * (Linux's do_syslog, actions in include/uapi/syslog.h); root only. */
int sys_syslog(int type, char *ubuf, int len);

__attribute__((format(printf, 2, 3)))
void printk_level(int level, const char *fmt, ...);

#define printk(...)   printk_level(LOG_INFO, __VA_ARGS__)
#define pr_err(...)   printk_level(LOG_ERR, __VA_ARGS__)
#define pr_warn(...)  printk_level(LOG_WARN, __VA_ARGS__)
#define pr_debug(...) printk_level(LOG_DEBUG, __VA_ARGS__)

#endif
