/*
 * tune - read and change the scheduler's tunables (docs/staircase.md §9),
 * in this project's own words; `sysctl` does the same in procps's forms.
 *
 *   tune               list every tunable: value, range and meaning
 *   tune NAME          show one
 *   tune NAME VALUE    set it (root only)
 *
 * Names are the boot parameters' (docs/scheduler.md); the table, with the
 * ranges and meanings, is user/lib/tunables.c, shared with sysctl.  hz is
 * read-only (boot parameter only).  Call 502: the kernel checks the range
 * and refuses a bad value with EINVAL (keeping the old one), a non-root
 * caller with EPERM.  A change takes effect at the next tick.  Linux has
 * no call 502: tune says so and exits 1.  Errors go to stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "tunables.h"

static int usage(void)
{
	fprintf(stderr, "usage: tune [NAME [VALUE]]\n  NAME:");
	for (int i = 0; i < ntunables; i++)
		fprintf(stderr, " %s", tunables[i].name);
	fprintf(stderr, "\n");
	return 2;
}

static void show(const struct tunable *t, int value)
{
	printf("%-17s %5d %-2s  %-9s  %s\n", t->name, value, t->unit, t->range,
	       t->meaning);
}

/* Read one; on failure print why and return -1. */
static int get(const struct tunable *t)
{
	int v = tunable_get(t);

	if (v < 0 && errno == ENOSYS)
		fprintf(stderr, "tune: %s\n", tunable_nosys_why());
	else if (v < 0)
		fprintf(stderr, "tune: reading %s: %s\n", t->name, strerror(errno));
	return v;
}

static int list(void)
{
	int value;

	if (get(&tunables[0]) < 0)
		return 1;
	printf("%-17s %5s %-2s  %-9s  %s\n", "NAME", "VALUE", "", "RANGE",
	       "MEANING");
	for (int i = 0; i < ntunables; i++) {
		if ((value = get(&tunables[i])) < 0)
			return 1;
		show(&tunables[i], value);
	}
	return 0;
}

static int set(const struct tunable *t, int old, const char *text)
{
	int v;

	if (!parse_int_arg(text, -2147483647L - 1, 2147483647L, &v)) {
		fprintf(stderr, "tune: %s: '%s' is not a number (%s %s)\n", t->name,
			text, t->range, t->unit);
		return 1;
	}
	if (tunable_set(t, v) == 0) {
		printf("%s: %d -> %d %s\n", t->name, old, get(t), t->unit);
		return 0;
	}
	if (errno == EROFS)
		fprintf(stderr, "tune: hz is read-only: set it at boot (hz=100..1000)\n");
	else if (errno == EINVAL)
		fprintf(stderr, "tune: %s %d: EINVAL, the kernel refused it: %s takes "
			"%s %s (still %d)\n", t->name, v, t->name, t->range,
			t->unit, old);
	else if (errno == EPERM)
		fprintf(stderr, "tune: %s %d: EPERM, only root may change tunables "
			"(still %d)\n", t->name, v, old);
	else
		fprintf(stderr, "tune: %s %d: %s\n", t->name, v, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	const struct tunable *t;
	int old;

	if (argc > 3)
		return usage();
	if (argc == 1)
		return list();
	t = tunable_find(argv[1]);
	if (!t) {
		fprintf(stderr, "tune: unknown tunable '%s'\n", argv[1]);
		return usage();
	}
	if ((old = get(t)) < 0)
		return 1;
	if (argc == 2) {
		show(t, old);
		return 0;
	}
	return set(t, old, argv[2]);
}
