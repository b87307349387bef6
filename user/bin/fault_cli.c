/*
 * fault_cli - executes `cli` in user mode.  With IOPL 0 that is a general
 * protection fault, which Linux reports as SIGSEGV (11), not SIGILL.
 */
#include <stdio.h>

int main(void)
{
	printf("fault_cli: executing cli\n");
	fflush(stdout);
	__asm__ volatile("cli");
	return 0;
}
