/*
 * sleep - delay for a specified amount of time (GNU coreutils' sleep).
 *
 *   sleep NUMBER[SUFFIX]...
 *
 * NUMBER may have a fraction (0.5); SUFFIX is s (seconds, the default),
 * m, h or d. Several arguments add up. --help for this text. The time is
 * CLOCK_MONOTONIC's, slept with nanosleep (resumed after a signal that
 * does not end the program, as GNU's does).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tool.h"

/* "1.5m" -> nanoseconds in *ns; 0 if it is not a time interval. */
static int parse_interval(const char *s, long long *ns)
{
	long long whole = 0, frac = 0, scale = 1000000000LL;
	const char *p = s;
	int digits = 0;

	for (; *p >= '0' && *p <= '9'; p++, digits++)
		if ((whole = whole * 10 + (*p - '0')) > 100000000LL)
			return 0;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			if (scale > 1) {
				scale /= 10;
				frac += (*p - '0') * scale;
			}
	if (!digits)
		return 0;
	long long mult = 1;
	switch (*p) {
	case 0: case 's': break;
	case 'm': mult = 60; break;
	case 'h': mult = 3600; break;
	case 'd': mult = 86400; break;
	default: return 0;
	}
	if (*p && p[1])
		return 0;
	*ns = (whole * 1000000000LL + frac) * mult;
	return 1;
}

int main(int argc, char **argv)
{
	static const struct tool_opt opts[] = { { "help", 256, 0 }, { 0 } };
	struct tool_opts o = { .prog = "sleep", .opts = opts, .argc = argc, .argv = argv, .ind = 1 };
	long long total = 0, ns = 0;
	int key, bad = 0;

	while ((key = tool_next_opt(&o)) != TOOL_OPTS_END) {
		if (key != 256)
			return tool_try_help("sleep");
		printf("Usage: sleep NUMBER[SUFFIX]...\n"
		       "Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),\n"
		       "'m' for minutes, 'h' for hours or 'd' for days.  NUMBER may have a\n"
		       "fraction.  Given two or more arguments, pause for their sum.\n");
		return 0;
	}
	if (o.ind == argc) {
		fprintf(stderr, "sleep: missing operand\n");
		return tool_try_help("sleep");
	}
	for (int i = o.ind; i < argc; i++) {
		if (!parse_interval(argv[i], &ns)) {
			fprintf(stderr, "sleep: invalid time interval '%s'\n", argv[i]);
			bad = 1;
		}
		total += ns;
	}
	if (bad)
		return tool_try_help("sleep");
	struct timespec req = { (time_t)(total / 1000000000LL), (long)(total % 1000000000LL) }, rem;
	while (nanosleep(&req, &rem) < 0 && errno == EINTR)
		req = rem;
	return 0;
}
