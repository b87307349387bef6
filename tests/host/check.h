/*
 * check.h - the host tests' CHECK (main.c runs each test and says ok or
 * not ok), shared by the test files.
 */
#ifndef TESTS_HOST_CHECK_H
#define TESTS_HOST_CHECK_H

extern int current_failed;		/* the running test failed a CHECK */
extern const char *current_why;		/* the first CHECK that failed */

#define CHECK(cond) do { if (!(cond) && !current_failed) { \
	current_failed = 1; current_why = #cond; } } while (0)

/* 16 MiB of free frames (the first MiB reserved), an empty heap. */
void fresh_memory(void);

/* elf_tests.c: kernel/elf.c's rules; ELF_TESTS of them, each through run. */
#define ELF_TESTS 5
void elf_tests(void (*run)(const char *name, void (*fn)(void)));

#endif
