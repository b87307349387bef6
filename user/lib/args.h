/*
 * args.h - reading numbers from the command line, for the tools in user/bin.
 *
 * Not a standard C function: strtol and atoi accept "12abc" or an empty
 * string, and a tool must say "bad number" instead.
 */
#ifndef USER_LIB_ARGS_H
#define USER_LIB_ARGS_H

/* A whole decimal number in [lo, hi], nothing else around it: 1 and *out
 * set, or 0 (NULL, empty, junk, out of range) with *out untouched. */
int parse_int_arg(const char *s, long lo, long hi, int *out);

#endif
