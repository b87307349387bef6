/* fault_null - reads address 0.  Expected: killed by SIGSEGV (11). */
#include <stdio.h>

int main(void)
{
	volatile int *p = (volatile int *)0;

	printf("fault_null: reading address 0\n");
	fflush(stdout);
	return *p;
}
