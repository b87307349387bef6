/* fault_div - divides by zero.  Expected: killed by SIGFPE (8). */
#include <stdio.h>

int main(int argc, char **argv)
{
	volatile int zero = argc - 1;	/* 0 when run without arguments */

	(void)argv;
	printf("fault_div: dividing by zero\n");
	fflush(stdout);
	return 100 / zero;
}
