/*
 * around.c - the stage of every unit test (ctest_around, tests/lib/ctest.h):
 * a freshly booted one-CPU fake machine under the staircase class, the
 * simulator reset; a failed KASSERT ends the test as failed, and so does a
 * task reference the test's syscalls never dropped.
 */
#include "test.h"

void ctest_around(const struct ctest *t)
{
	static jmp_buf jb;

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
