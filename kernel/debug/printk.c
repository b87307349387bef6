/*
 * printk.c - format a message, then hand it to the console in one piece.
 */
#include <stdarg.h>
#include "printk.h"
#include "console.h"
#include "lib/format.h"

int printk_loglevel = LOG_INFO;

void printk_level(int level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (level > printk_loglevel)
		return;
	va_start(ap, fmt);
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	console_write(buf, n);
}
