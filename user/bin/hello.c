/* hello - the smallest user program: proves crt0, write and getpid work. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("hello from pid %d\n", getpid());
	return 0;
}
