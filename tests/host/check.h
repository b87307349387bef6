/*
 * check.h - how a host test is written (main.c runs them): TEST(name)
 * { ... } registers a test, CHECK(cond) ends it as failed, saying where.
 */
#ifndef TESTS_HOST_CHECK_H
#define TESTS_HOST_CHECK_H

#include <stdio.h>

extern int current_failed;		/* the running test failed a CHECK */
extern char current_why[256];		/* file:line: the check that failed */
void test_register(const char *name, void (*fn)(void), const char *file, int line);

#define TEST(name) \
	static void test_##name(void); \
	__attribute__((constructor)) static void register_##name(void) \
	{ test_register(#name, test_##name, __FILE__, __LINE__); } \
	static void test_##name(void)

#define CHECK(cond) do { if (!(cond)) { \
	current_failed = 1; \
	snprintf(current_why, sizeof(current_why), "%s:%d: %s", __FILE__, __LINE__, #cond); \
	return; } } while (0)

/* 16 MiB of free frames (the first MiB reserved), an empty heap. */
void fresh_memory(void);

#endif
