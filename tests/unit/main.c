/*
 * main.c - run every registered test; print "ok N - name" or
 * "not ok N - name # why", then "P passed, F failed". Exit 1 on failure.
 * An optional argument runs only the tests whose name contains it.
 */
#include "test.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static struct test_case {
	const char *name, *file;
	int line;
	void (*fn)(void);
} *tests;			/* grows as tests register: no cap, none dropped */
static int ntests, room;
static char why[512];
bool test_failed;

void test_register(const char *name, void (*fn)(void), const char *file, int line)
{
	if (ntests == room) {
		room = room ? 2 * room : 256;
		tests = realloc(tests, (size_t)room * sizeof(*tests));
		if (!tests) {
			fprintf(stderr, "unit tests: out of memory registering %s\n", name);
			exit(2);
		}
	}
	tests[ntests++] = (struct test_case){ name, file, line, fn };
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (test_failed)
		return;
	test_failed = true;
	n = snprintf(why, sizeof(why), "%s:%d: ", file, line);
	va_start(ap, fmt);
	vsnprintf(why + n, sizeof(why) - n, fmt, ap);
	va_end(ap);
}

static int by_file_and_line(const void *a, const void *b)
{
	const struct test_case *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : x->line - y->line;
}

/* Run one test on a freshly booted machine; a failed KASSERT fails it. */
static void run_test(const struct test_case *t)
{
	static jmp_buf jb;

	test_failed = false;
	why[0] = 0;
	fake_class = "staircase";
	fake_boot(1, NULL);
	sim_reset();
	fake_assert_jmp = &jb;
	if (setjmp(jb) == 0) {
		t->fn();
		if (fake_task_refs != 0)
			test_fail(t->file, t->line, "%d task references never dropped "
				  "(a syscall without sched_put_task)", fake_task_refs);
	} else {
		test_fail(t->file, t->line, "%s", fake_assert_msg);
	}
	fake_assert_jmp = NULL;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, n = 0;

	qsort(tests, ntests, sizeof(tests[0]), by_file_and_line);
	for (int i = 0; i < ntests; i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		n++;
		run_test(&tests[i]);
		if (test_failed) {
			printf("not ok %d - %s # %s\n", n, tests[i].name, why);
			failed++;
		} else {
			printf("ok %d - %s\n", n, tests[i].name);
			passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
