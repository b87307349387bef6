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

__attribute__((format(printf, 2, 3)))
void printk_level(int level, const char *fmt, ...);

#define printk(...)   printk_level(LOG_INFO, __VA_ARGS__)
#define pr_err(...)   printk_level(LOG_ERR, __VA_ARGS__)
#define pr_warn(...)  printk_level(LOG_WARN, __VA_ARGS__)
#define pr_debug(...) printk_level(LOG_DEBUG, __VA_ARGS__)

#endif
