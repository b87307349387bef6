/*
 * kstack_overflow - overflow this process's kernel stack on purpose (test
 * call 503 STACK_OVERFLOW, root only). The unmapped guard page below every
 * kernel stack stops it: the kernel panics with "kernel stack overflow"
 * and a backtrace, instead of writing over whatever lies below the stack.
 * The machine stops: this is a crash test, for tests/cases/boot.py.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "testlib.h"

int main(int argc, char **argv)
{
	test_require_our_kernel(argc, argv, 0);
	printf("kstack_overflow: recursing in the kernel until the guard page\n");
	int r = test_mutex(TEST_STACK_OVERFLOW, 0);
	printf("kstack_overflow: returned %d (%s): the guard page did not stop it\n",
	       r, r < 0 ? strerror(errno) : "no error");
	return 1;
}
