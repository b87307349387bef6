/*
 * format.h - printf-style formatting into a buffer (no I/O).
 * Pure C, so the host unit tests check it directly.
 */
#ifndef KERNEL_FORMAT_H
#define KERNEL_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* Supports %d %i %u %x %X %o %c %s %p %% with flags "-0", a width, a
 * precision for %s, and the length modifiers l and ll. Returns the length
 * the whole output would have had (like C99), writes at most n-1 chars. */
int kvsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Up to max numbers of text (len bytes, not ended), each an optional
 * '-' and decimal digits between blanks, into out (a sysctl file's
 * write): how many, or -EINVAL for anything else, a number past 2^33
 * included. */
#include <stdint.h>
int parse_decimals(const char *s, uint32_t len, int64_t *out, int max);

#endif
