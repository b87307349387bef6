/*
 * string.c - memory and string helpers for a kernel without libc.
 * GCC may also emit calls to memset/memcpy/memmove/memcmp on its own
 * (struct copies), so these four must exist under exactly these names.
 */
#include "string.h"
#include <stdint.h>

/*
 * memset and memcpy move four bytes per step with the string instructions
 * (rep stosl / rep movsl), then the last 0..3 bytes: a byte loop cost fork
 * three quarters of its instructions copying and clearing pages (make
 * profile, docs/bench.md). They rely on the direction flag being clear,
 * which the C ABI promises and alltraps (trapentry.asm) makes sure of.
 */
void *memset(void *dst, int c, size_t n)
{
	void *d = dst;
	uint32_t word = (uint8_t)c * 0x01010101u;
	size_t words = n / 4, rest = n % 4;

	__asm__ volatile("rep stosl" : "+D"(d), "+c"(words) : "a"(word) : "memory");
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(rest) : "a"(word) : "memory");
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;
	const void *s = src;
	size_t words = n / 4, rest = n % 4;

	__asm__ volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(words) : : "memory");
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(rest) : : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (d < s)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return (char *)s;
	return c ? NULL : (char *)s;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;
	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

/* Copy with truncation; always NUL-terminates when size > 0 (BSD strlcpy). */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);
	if (size) {
		size_t n = len < size - 1 ? len : size - 1;
		memcpy(dst, src, n);
		dst[n] = 0;
	}
	return len;
}
