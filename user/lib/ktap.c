/* ktap.c - see ktap.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

static int planned, count, failed;

void ktap_plan(int n)
{
	planned = n;
	printf("KTAP version 1\n1..%d\n", n);
}

int ktap_ok(int cond, const char *name, const char *fmt, ...)
{
	va_list ap;

	count++;
	if (!cond)
		failed++;
	printf("%sok %d - %s", cond ? "" : "not ", count, name);
	if (fmt) {
		printf(" # ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	return cond;
}

int ktap_errno(const char *name, int got, int want)
{
	return ktap_ok(got == want, name, "errno=%d want %d", got, want);
}

void ktap_skip(const char *name, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++count, name, why);
}

void ktap_note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void ktap_skip_all(const char *why)
{
	printf("KTAP version 1\n1..0 # SKIP %s\n", why);
	exit(0);
}

void ktap_in_child(const char *name, void (*fn)(void *), void *arg)
{
	int fds[2], status = 0, got[2];
	pid_t pid;

	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		ktap_ok(0, name, "cannot fork a child for it");
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		fn(arg);
		fflush(stdout);
		got[0] = count;
		got[1] = failed;
		write(fds[1], got, sizeof(got));
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], got, sizeof(got)) == sizeof(got)) {
		count = got[0];
		failed = got[1];
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (status != 0)
		ktap_ok(0, name, "child died: status 0x%x", status);
}

int ktap_done(void)
{
	if (count != planned) {
		printf("# plan was %d tests but %d ran\n", planned, count);
		failed++;
	}
	return failed ? 1 : 0;
}
