/* fault_ill - executes ud2, the defined invalid opcode.  Expected: killed by
 * SIGILL (4). */
#include <stdio.h>

int main(void)
{
	printf("fault_ill: executing ud2\n");
	fflush(stdout);
	__asm__ volatile("ud2");
	return 0;
}
