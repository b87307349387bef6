/*
 * args.c - parse_int_arg (args.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "args.h"

int parse_int_arg(const char *s, long lo, long hi, int *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v < lo || v > hi)
		return 0;
	*out = (int)v;
	return 1;
}
