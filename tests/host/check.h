/*
 * check.h - how a host test of the kernel's C is written: TEST, CHECK,
 * CHECK_EQ and CHECK_RANGE of the host tests' runner (tests/lib/ctest.h);
 * every test starts from fresh fakes (main.c's ctest_around).
 */
#ifndef TESTS_HOST_CHECK_H
#define TESTS_HOST_CHECK_H

#include "../lib/ctest.h"

/* 16 MiB of free frames (the first MiB reserved), an empty heap. */
void fresh_memory(void);

#endif
