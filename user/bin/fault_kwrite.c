/*
 * fault_kwrite - writes to 0xC0100000, where our kernel lives.  Expected:
 * killed by SIGSEGV (11) (on Linux the address is simply unmapped).
 */
#include <stdio.h>

int main(void)
{
	volatile int *p = (volatile int *)0xC0100000;

	printf("fault_kwrite: writing to %p\n", (void *)p);
	fflush(stdout);
	*p = 42;
	return 0;
}
