/*
 * start.c - from _start to main and back out.
 *
 * errno lives here too: one global, since user programs are single threaded.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "syscall.h"

int errno;
char **environ;

int main(int argc, char **argv, char **envp);

void __libc_start(int argc, char **argv, char **envp)
	__attribute__((noreturn, used));

void __libc_start(int argc, char **argv, char **envp)
{
	environ = envp;
	exit(main(argc, argv, envp));
}

long __syscall_ret(long r)
{
	if (r < 0 && r >= -4095) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
