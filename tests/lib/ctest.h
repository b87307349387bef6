/*
 * ctest.h - the one runner of the host C tests (tests/unit, tests/host).
 *
 *   TEST(rule_name) { ... CHECK_EQ(got, want); ... }
 *
 * TEST registers the test from a constructor: no list to keep, no cap.
 * The runner (ctest.c, which has main) runs them in the order of their
 * files and lines and prints KTAP ("ok N - name", "not ok N - name #
 * file:line: what failed"), then "N passed, N failed"; an argument (make's
 * T=pattern) runs only the tests whose names contain it, or match it as a
 * shell pattern when it has * ? or [. The first failed check ends its test:
 * each CHECK returns from the test function, saying file:line, and for
 * CHECK_EQ and CHECK_RANGE what it got and what it wanted.
 *
 * A suite sets its stage around every test by defining ctest_around(t)
 * (fresh fakes, a fake machine booted, an assertion caught); without one
 * the runner just calls the test.
 */
#ifndef TESTS_LIB_CTEST_H
#define TESTS_LIB_CTEST_H

#include <stdbool.h>
#include <stdio.h>

struct ctest {
	const char *name, *file;
	int line;
	void (*fn)(void);
};

void ctest_register(const char *name, void (*fn)(void), const char *file, int line);
/* Fail the running test (the first failure is the one reported). */
void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern bool test_failed;		/* the running test has failed */
/* The suite's stage around each test; must call t->fn() (weak default). */
void ctest_around(const struct ctest *t);

#define TEST(name) \
	static void test_##name(void); \
	__attribute__((constructor)) static void register_##name(void) \
	{ ctest_register(#name, test_##name, __FILE__, __LINE__); } \
	static void test_##name(void)

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
