/*
 * ktap.h - what the glibc programs (user/glibc/) share: the KTAP line of
 * a check, and a raw call's result with its errno folded in. Each program
 * has its own copy of these (they are static), so each file still builds
 * alone with the command in its first comment.
 */
#ifndef USER_GLIBC_KTAP_H
#define USER_GLIBC_KTAP_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int n;			/* checks so far: the next one's number - 1 */
static int failures;

static inline void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

/* ... with what was seen, after '#': the line Linux's must match too. */
static inline void check_why(int ok, const char *name, const char *what)
{
	printf("%sok %d - %s # %s\n", ok ? "" : "not ", ++n, name, what);
	failures += !ok;
}

/* A check of what only this kernel has: Linux SKIPs it. */
static inline void check_ours(int here, int ok, const char *name)
{
	if (!here) {
		printf("ok %d - %s # SKIP kernel-specific\n", ++n, name);
		return;
	}
	printf("%sok %d - %s # kernel-specific\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

#ifdef _GNU_SOURCE		/* strerrorname_np is glibc's own */
/* A result as text: its number, or the name of the errno it folds in
 * (-ENOENT: "ENOENT"). Four buffers in turn, so that one printf may
 * show four. */
static inline const char *result_name(long r)
{
	static char bufs[4][16];
	static int next;
	if (r >= 0) {
		char *buf = bufs[next++ % 4];
		snprintf(buf, sizeof(bufs[0]), "%ld", r);
		return buf;
	}
	const char *name = strerrorname_np((int)-r);
	return name ? name : "?";
}
#endif

/* A raw call's result, errno folded in: -errno on failure. */
static inline long raw(long r)
{
	return r < 0 ? -errno : r;
}

#endif
