/*
 * tune - read and change the scheduler's tunables (docs/staircase.md §9),
 * in this project's own words; `sysctl` does the same in procps's forms.
 *
 *   tune               list every tunable: value, range and meaning
 *   tune NAME          show one
 *   tune NAME VALUE    set it (root only)
 *
 * Names are the boot parameters' (docs/scheduler.md); names, ranges, units
 * and meanings are the kernel's table (sched/tunables.c), asked for with
 * call 502 (user/lib/tunables.c, shared with sysctl).  hz is read-only
 * (boot parameter only).  Call 502: the kernel checks the range
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
	struct tunable t;

	fprintf(stderr, "usage: tune [NAME [VALUE]]\n  NAME:");
	for (int id = 0; tunable_describe(id, &t) == 0; id++)
		fprintf(stderr, " %s", t.desc.name);
	fprintf(stderr, "\n");
	return 2;
}

/* "1..1000", or "read-only" for one set at boot only. */
static const char *range(const struct tunable *t, char *buf, size_t size)
{
	return t->desc.read_only ? "read-only" : tunable_range(t, buf, size);
}

static void show(const struct tunable *t, int value)
{
	char r[32];

	printf("%-17s %5d %-2s  %-9s  %s\n", t->desc.name, value, t->desc.unit,
	       range(t, r, sizeof(r)), t->desc.meaning);
}

/* Why a tunable could not be read: one line. */
static int failed(const char *name)
{
	if (errno == ENOSYS)
		fprintf(stderr, "tune: %s\n", tunable_nosys_why());
	else
		fprintf(stderr, "tune: reading %s: %s\n", name, strerror(errno));
	return -1;
}

/* Read one; on failure print why and return -1. */
static int get(const struct tunable *t)
{
	int v = tunable_get(t);

	return v < 0 ? failed(t->desc.name) : v;
}

static int list(void)
{
	struct tunable t;
	int value;

	if (tunable_describe(0, &t) < 0) {
		failed("the tunables");
		return 1;
	}
	printf("%-17s %5s %-2s  %-9s  %s\n", "NAME", "VALUE", "", "RANGE",
	       "MEANING");
	for (int id = 0; tunable_describe(id, &t) == 0; id++) {
		if ((value = get(&t)) < 0)
			return 1;
		show(&t, value);
	}
	return 0;
}

static int set(const struct tunable *t, int old, const char *text)
{
	int v;

	const char *name = t->desc.name, *unit = t->desc.unit;
	char r[32];

	tunable_range(t, r, sizeof(r));
	if (!parse_int_arg(text, -2147483647L - 1, 2147483647L, &v)) {
		fprintf(stderr, "tune: %s: '%s' is not a number (%s %s)\n", name,
			text, r, unit);
		return 1;
	}
	if (tunable_set(t, v) == 0) {
		printf("%s: %d -> %d %s\n", name, old, get(t), unit);
		return 0;
	}
	if (errno == EROFS)
		fprintf(stderr, "tune: %s is read-only: set it at boot (%s=%s)\n",
			name, name, r);
	else if (errno == EINVAL)
		fprintf(stderr, "tune: %s %d: EINVAL, the kernel refused it: %s takes "
			"%s %s (still %d)\n", name, v, name, r, unit, old);
	else if (errno == EPERM)
		fprintf(stderr, "tune: %s %d: EPERM, only root may change tunables "
			"(still %d)\n", name, v, old);
	else
		fprintf(stderr, "tune: %s %d: %s\n", name, v, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct tunable t;
	int old;

	if (argc > 3)
		return usage();
	if (argc == 1)
		return list();
	if (tunable_find(argv[1], &t) < 0) {
		if (errno != ENOENT) {
			failed(argv[1]);
			return 1;
		}
		fprintf(stderr, "tune: unknown tunable '%s'\n", argv[1]);
		return usage();
	}
	if ((old = get(&t)) < 0)
		return 1;
	if (argc == 2) {
		show(&t, old);
		return 0;
	}
	return set(&t, old, argv[2]);
}
