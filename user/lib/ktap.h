/*
 * ktap.h - printing test results in the KTAP line format.
 *
 *   KTAP version 1
 *   1..3
 *   ok 1 - name # measured numbers
 *   not ok 2 - name # got 12.5%, want < 1%
 *   ok 3 - name # SKIP why
 *
 * A harness counts the ok / not ok lines; a program exits non-zero if any
 * check failed (ktap_done() gives the status).  See docs/userland.md.
 */
#ifndef USER_KTAP_H
#define USER_KTAP_H

void ktap_plan(int n);
/* One result line; fmt (may be NULL) becomes the "# ..." part.  Returns cond. */
int ktap_ok(int cond, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ktap_skip(const char *name, const char *why);
void ktap_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The errno a call left if it failed (returned -1), else 0. */
#define ERRNO_OF(call) ((call) == -1 ? errno : 0)
/* "ok N - name # errno=G want W" */
int ktap_errno(const char *name, int got, int want);
/* The whole program does not apply here: "1..0 # SKIP why", exit 0. */
void ktap_skip_all(const char *why) __attribute__((noreturn));
/* Run fn(arg) in a forked child whose results continue our numbering (for
 * checks that change the caller's own scheduling state, uid or nice).  A
 * child that dies counts as one failure named `name`. */
void ktap_in_child(const char *name, void (*fn)(void *), void *arg);
/* Check the plan was followed; returns the exit status (0 = all passed). */
int ktap_done(void);

#endif
