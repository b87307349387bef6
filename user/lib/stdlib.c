/*
 * stdlib.c - malloc on brk, number parsing, getenv, exit.
 *
 * The allocator is the simplest that works: the heap is one list of blocks
 * in address order, each with a header; malloc takes the first free block
 * that fits (splitting it) or grows the heap with sbrk; free marks a block
 * free and merges it with a free successor.  Fine for small programs.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct block {
	size_t size;		/* bytes after the header */
	int free;
	struct block *next;	/* next block in address order */
};

#define ALIGN 16
#define HDR ((sizeof(struct block) + ALIGN - 1) & ~(size_t)(ALIGN - 1))

static struct block *heap, *last;

void *malloc(size_t n)
{
	struct block *b;

	if (n == 0 || n > 0x40000000)
		return n ? (errno = ENOMEM, NULL) : NULL;
	n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	for (b = heap; b; b = b->next) {
		if (!b->free || b->size < n)
			continue;
		if (b->size >= n + HDR + ALIGN) {	/* split off the rest */
			struct block *rest = (void *)((char *)b + HDR + n);

			rest->size = b->size - n - HDR;
			rest->free = 1;
			rest->next = b->next;
			b->next = rest;
			b->size = n;
			if (last == b)
				last = rest;
		}
		b->free = 0;
		return (char *)b + HDR;
	}
	b = sbrk(HDR + n);
	if (b == (void *)-1)
		return NULL;	/* sbrk set ENOMEM */
	b->size = n;
	b->free = 0;
	b->next = NULL;
	if (last)
		last->next = b;
	else
		heap = b;
	last = b;
	return (char *)b + HDR;
}

void free(void *p)
{
	struct block *b;

	if (!p)
		return;
	b = (void *)((char *)p - HDR);
	b->free = 1;
	while (b->next && b->next->free) {
		if (last == b->next)
			last = b;
		b->size += HDR + b->next->size;
		b->next = b->next->next;
	}
}

void *calloc(size_t count, size_t size)
{
	void *p;

	if (size && count > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(count * size);
	return p ? memset(p, 0, count * size) : NULL;
}

void *realloc(void *p, size_t n)
{
	struct block *b;
	void *q;

	if (!p)
		return malloc(n);
	b = (void *)((char *)p - HDR);
	if (b->size >= n)
		return p;
	q = malloc(n);
	if (q) {
		memcpy(q, p, b->size);
		free(p);
	}
	return q;
}

static int digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* Shared by strtol/strtoul: sign, base prefix, digits; *neg says '-'. */
static unsigned long parse(const char *s, char **end, int base, int *neg,
			   int *overflow)
{
	const char *start = s;
	unsigned long v = 0;
	int any = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	*neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	if ((base == 0 || base == 16) && s[0] == '0' &&
	    (s[1] == 'x' || s[1] == 'X') && digit(s[2]) < 16) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = s[0] == '0' ? 8 : 10;
	}
	*overflow = 0;
	for (; digit(*s) < base; s++, any = 1) {
		if (v > (ULONG_MAX - digit(*s)) / base)
			*overflow = 1;
		v = v * base + digit(*s);
	}
	if (end)
		*end = (char *)(any ? s : start);
	return v;
}

long strtol(const char *s, char **end, int base)
{
	int neg, overflow;
	unsigned long v = parse(s, end, base, &neg, &overflow);
	unsigned long limit = neg ? (unsigned long)LONG_MAX + 1 : LONG_MAX;

	if (overflow || v > limit) {
		errno = ERANGE;
		return neg ? LONG_MIN : LONG_MAX;
	}
	return neg ? -(long)(v - 1) - 1 : (long)v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	int neg, overflow;
	unsigned long v = parse(s, end, base, &neg, &overflow);

	if (overflow) {
		errno = ERANGE;
		return ULONG_MAX;
	}
	return neg ? -v : v;
}

int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
int abs(int x) { return x < 0 ? -x : x; }

char *getenv(const char *name)
{
	size_t n = strlen(name);

	for (char **e = environ; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

void exit(int status)
{
	fflush(stdout);
	_exit(status);
}

void abort(void)
{
	fflush(stdout);
	kill(getpid(), SIGABRT);
	kill(getpid(), SIGKILL);	/* if SIGABRT is not delivered */
	_exit(127);
}

static void swap_bytes(char *a, char *b, size_t size)
{
	while (size--) {
		char t = *a;
		*a++ = *b;
		*b++ = t;
	}
}

/* Move element i down the heap of n elements until both children are smaller. */
static void sift_down(char *base, size_t i, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	for (size_t child; (child = 2 * i + 1) < n; i = child) {
		if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0)
			child++;
		if (cmp(base + i * size, base + child * size) >= 0)
			return;
		swap_bytes(base + i * size, base + child * size, size);
	}
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *b = base;

	for (size_t i = n / 2; i-- > 0;)
		sift_down(b, i, n, size, cmp);
	for (size_t end = n; end-- > 1;) {
		swap_bytes(b, b + end * size, size);
		sift_down(b, 0, end, size, cmp);
	}
}
