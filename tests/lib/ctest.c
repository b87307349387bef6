/*
 * ctest.c - the runner of the host C tests (ctest.h): the registry, the
 * failure record, and main, which prints KTAP and the closing line that
 * tests/run-all.sh adds up.
 */
#include "ctest.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static struct ctest *tests;	/* grows as tests register: no cap, none dropped */
static int ntests, room;
static char why[512];
bool test_failed;

void ctest_register(const char *name, void (*fn)(void), const char *file, int line)
{
	if (ntests == room) {
		room = room ? 2 * room : 256;
		tests = realloc(tests, (size_t)room * sizeof(*tests));
		if (!tests) {
			fprintf(stderr, "ctest: out of memory registering %s\n", name);
			exit(2);
		}
	}
	tests[ntests++] = (struct ctest){ name, file, line, fn };
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

__attribute__((weak)) void ctest_around(const struct ctest *t)
{
	t->fn();
}

static int by_file_and_line(const void *a, const void *b)
{
	const struct ctest *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : x->line - y->line;
}

/* T=pattern: a shell pattern when it has one's characters, else a part. */
static bool selected(const char *name, const char *pattern)
{
	if (!pattern || !*pattern)
		return true;
	if (strpbrk(pattern, "*?["))
		return fnmatch(pattern, name, 0) == 0;
	return strstr(name, pattern) != NULL;
}

int main(int argc, char **argv)
{
	const char *pattern = argc > 1 ? argv[1] : NULL;
	int passed = 0, failed = 0, n = 0;

	qsort(tests, ntests, sizeof(tests[0]), by_file_and_line);
	for (int i = 0; i < ntests; i++)
		n += selected(tests[i].name, pattern);
	printf("KTAP version 1\n1..%d\n", n);
	for (int i = 0; i < ntests; i++) {
		if (!selected(tests[i].name, pattern))
			continue;
		test_failed = false;
		why[0] = 0;
		ctest_around(&tests[i]);
		if (test_failed) {
			printf("not ok %d - %s # %s\n", passed + failed + 1, tests[i].name, why);
			failed++;
		} else {
			printf("ok %d - %s\n", passed + failed + 1, tests[i].name);
			passed++;
		}
		fflush(stdout);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
