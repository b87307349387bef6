/*
 * suite.h - the boot test suite that init runs when tests=quick or all.
 *
 * Each entry is a command line (program name, then arguments), looked up
 * in init's own directory (/bin on our kernel).  A program passes if it
 * exits with status 0.  Keep "quick" under ~15 s on QEMU; put anything
 * longer in "all" only.  Adding a test: see docs/userland.md.
 */
#ifndef USER_TESTS_SUITE_H
#define USER_TESTS_SUITE_H

static const char *const suite_quick[] = {
	"abicheck",
	"posix_sched",
	"faults",
	"forktree",
	"pipetest",
	"sleeptest",
	"sched_batch",
	"sched_fifo",
	"sched_yield",
	NULL,
};

/* Run after the quick list when tests=all. */
static const char *const suite_slow[] = {
	"forkloop 2000",
	"sched_nice",
	"sched_rr",
	"sched_interactive",
	"sched_iso",
	"sched_pi",
	"sched_hostile",
	NULL,
};

#endif
