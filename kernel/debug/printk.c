/*
 * printk.c - format a message, keep it in the kernel log, and hand it to
 * the console in one piece; syslog(2), which reads the log (dmesg).
 *
 * The log is a ring of LOG_BUF_LEN bytes holding what syslog returns, line
 * by line as Linux's syslog(2) gives it: "<level>[seconds.micros] text\n".
 * Every message is kept, whatever its level; loglevel= (and syslog's
 * console calls) only decides which reach the console, as on Linux. When
 * the ring is full the oldest lines are dropped, whole.
 */
#include <stdarg.h>
#include <stdbool.h>
#include "printk.h"
#include "console.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/spinlock.h"
#include <uapi/syslog.h>
#include "kernel/mm/uaccess.h"
#include "kernel/task/proc.h"
#include "kernel/time/sleep.h"
#include "kernel/time/time.h"

int printk_loglevel = LOG_INFO;
static int saved_loglevel = -1;		/* syslog's CONSOLE_OFF kept it for ON */

/* The log. Bytes [head, tail) of the ring are kept (tail - head <=
 * LOG_BUF_LEN, both counting up for ever); syslog's READ has consumed up
 * to seen. A line's first byte is at a multiple of nothing: head always
 * sits at a line's start. */
static char log_buf[LOG_BUF_LEN];
static uint32_t log_head, log_tail, log_seen;
static bool log_line_open;		/* the last message ended mid-line */
static struct spinlock log_lock = SPINLOCK_INIT("kmsg");	/* a leaf */

/* Drop the oldest line. log_lock held. */
static void drop_line(void)
{
	while (log_head != log_tail && log_buf[log_head++ % LOG_BUF_LEN] != '\n')
		;
	if (log_seen < log_head)
		log_seen = log_head;
}

static void put_bytes(const char *s, int n)
{
	for (int i = 0; i < n; i++) {
		while (log_tail - log_head >= LOG_BUF_LEN)
			drop_line();
		log_buf[log_tail++ % LOG_BUF_LEN] = s[i];
	}
}

/* Linux's prefix: "<6>[    1.234567] ". */
static void put_prefix(int level, uint64_t ns)
{
	char p[40];
	uint64_t us = ns / 1000;
	int n = ksnprintf(p, sizeof(p), "<%d>[%5u.%06u] ", level,
			  (unsigned)(us / 1000000), (unsigned)(us % 1000000));
	put_bytes(p, n);
}

static void log_store(int level, const char *msg, int n)
{
	uint64_t now = clock_ns();
	if (spin_held(&log_lock))
		return;		/* a fault while storing, and its panic's message */
	spin_lock(&log_lock);
	for (int i = 0; i < n; i++) {
		if (!log_line_open) {
			put_prefix(level, now);
			log_line_open = true;
		}
		put_bytes(&msg[i], 1);
		if (msg[i] == '\n')
			log_line_open = false;
	}
	spin_unlock(&log_lock);
}

void printk_level(int level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	log_store(level, buf, n);
	if (level <= printk_loglevel)
		console_write(buf, n);
}

/* ---- syslog (103) ---------------------------------------------------- */

/* Copy bytes [from, to) of the log to user memory in pieces (no fault
 * is taken with log_lock held). Returns the bytes copied or -EFAULT. */
static int copy_out(char *ubuf, uint32_t from, uint32_t to)
{
	char chunk[256];
	uint32_t done = 0;
	while (from + done < to) {
		uint32_t n = 0;
		spin_lock(&log_lock);
		if (from + done < log_head) {		/* dropped meanwhile */
			spin_unlock(&log_lock);
			break;
		}
		while (n < sizeof(chunk) && from + done + n < to)
			chunk[n] = log_buf[(from + done + n) % LOG_BUF_LEN], n++;
		spin_unlock(&log_lock);
		if (copy_to_user(ubuf + done, chunk, n) < 0)
			return -EFAULT;
		done += n;
	}
	return (int)done;
}

/* SYSLOG_ACTION_READ: wait for unread bytes (interruptible), then take
 * up to len of them. The writers are printk, which may run with any lock
 * held, so it wakes no one: the reader looks again every 50 ms. */
static int read_new(char *ubuf, uint32_t len)
{
	for (;;) {
		spin_lock(&log_lock);
		uint32_t from = log_seen, to = log_tail;
		spin_unlock(&log_lock);
		if (from != to) {
			if (to - from > len)
				to = from + len;
			int n = copy_out(ubuf, from, to);
			if (n > 0) {
				spin_lock(&log_lock);
				if (log_seen == from)
					log_seen = from + (uint32_t)n;
				spin_unlock(&log_lock);
			}
			return n;
		}
		if (signal_pending(current()))
			return -ERESTARTSYS;
		sleep_until(clock_ns() + 50000000ull, TASK_INTERRUPTIBLE);
	}
}

/* SYSLOG_ACTION_READ_ALL: the last len bytes' worth of whole lines. */
static int read_all(char *ubuf, uint32_t len, bool clear)
{
	spin_lock(&log_lock);
	uint32_t from = log_head, to = log_tail;
	while (to - from > len) {		/* skip whole lines from the front */
		while (from != to && log_buf[from++ % LOG_BUF_LEN] != '\n')
			;
	}
	spin_unlock(&log_lock);
	int n = copy_out(ubuf, from, to);
	if (n >= 0 && clear) {
		spin_lock(&log_lock);
		log_head = log_seen = log_tail;
		spin_unlock(&log_lock);
	}
	return n;
}

/*
 * Linux's do_syslog. Every action needs root: Debian's kernels are built
 * with CONFIG_SECURITY_DMESG_RESTRICT (kernel.dmesg_restrict = 1), so a
 * user's dmesg is EPERM there too.
 */
int sys_syslog(int type, char *ubuf, int len)
{
	if (!capable(CAP_SYSLOG))
		return -EPERM;
	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!ubuf || len < 0)
			return -EINVAL;
		if (len == 0)
			return 0;
		if (type == SYSLOG_ACTION_READ)
			return read_new(ubuf, (uint32_t)len);
		return read_all(ubuf, (uint32_t)len, type == SYSLOG_ACTION_READ_CLEAR);
	case SYSLOG_ACTION_CLEAR:
		spin_lock(&log_lock);
		log_head = log_seen = log_tail;
		spin_unlock(&log_lock);
		return 0;
	case SYSLOG_ACTION_CONSOLE_OFF:		/* Linux's: the level is kept for ON */
		if (saved_loglevel < 0)
			saved_loglevel = printk_loglevel;
		printk_loglevel = MINIMUM_CONSOLE_LOGLEVEL;
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		if (saved_loglevel >= 0)
			printk_loglevel = saved_loglevel;
		saved_loglevel = -1;
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		if (len < 1 || len > 8)
			return -EINVAL;
		printk_loglevel = len < MINIMUM_CONSOLE_LOGLEVEL ? MINIMUM_CONSOLE_LOGLEVEL : len;
		saved_loglevel = -1;
		return 0;
	case SYSLOG_ACTION_SIZE_UNREAD: {
		spin_lock(&log_lock);
		int n = (int)(log_tail - log_seen);
		spin_unlock(&log_lock);
		return n;
	}
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_LEN;
	default:
		return -EINVAL;
	}
}
