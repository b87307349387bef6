/* stdlib.h - memory on brk, number parsing, exiting. */
#ifndef _STDLIB_H
#define _STDLIB_H

#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

void *malloc(size_t n);
void free(void *p);
void *calloc(size_t count, size_t size);
void *realloc(void *p, size_t n);

int atoi(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
int abs(int x);
/* Sort n elements of size bytes (a heap sort: no recursion, no malloc). */
void qsort(void *base, size_t n, size_t size,
	   int (*cmp)(const void *, const void *));
char *getenv(const char *name);

void exit(int status) __attribute__((noreturn));	/* flushes stdout */
void abort(void) __attribute__((noreturn));

#endif
