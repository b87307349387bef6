/*
 * test.h - a tiny test framework: one TEST per rule, named after it.
 *
 * Each test starts from a freshly booted fake machine with one CPU and the
 * default tunables (HZ 1000, RR 10 ticks); it may boot another one. CHECK
 * macros stop the test at the first failure and record why.
 */
#ifndef TEST_H
#define TEST_H

#include <stdio.h>
#include "fake_machine.h"
#include "sim.h"

void test_register(const char *name, void (*fn)(void), const char *file, int line);
void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern bool test_failed;

/* Shared steps (helpers.c). */
struct sched_param;
void tick0(void);			/* one tick on CPU 0, and the schedule() it asks for */
struct sched_param *user_param(int prio);	/* a sched_param in "user memory" */
void boot_topology(int packages, int cores, int threads);	/* CPUs thread-fastest */
/* A task of uid 1000 pinned to cpu with policy and nice, queued there. */
struct sched_task *pinned(int cpu, int policy, int nice);

#define TEST(name) \
	static void name(void); \
	__attribute__((constructor)) static void register_##name(void) \
	{ test_register(#name, name, __FILE__, __LINE__); } \
	static void name(void)

#define CHECK(cond) do { \
	if (!(cond)) { test_fail(__FILE__, __LINE__, "%s", #cond); return; } \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long a_ = (long long)(a), b_ = (long long)(b); \
	if (a_ != b_) { \
		test_fail(__FILE__, __LINE__, "%s is %lld, want %lld", #a, a_, b_); \
		return; \
	} \
} while (0)

#define CHECK_RANGE(x, lo, hi) do { \
	double x_ = (double)(x); \
	if (x_ < (lo) || x_ > (hi)) { \
		test_fail(__FILE__, __LINE__, "%s is %g, want %g..%g", #x, x_, \
			  (double)(lo), (double)(hi)); \
		return; \
	} \
} while (0)

#endif
