/*
 * elfrun - exec the ELF loader's test programs as an ordinary user and
 * compare each outcome with Linux 6.1's (docs/userland.md, "Exec").
 *
 *	elfrun [DIR]		DIR: /elf/cases (default) or /elf/fuzz
 *
 * DIR/index (made by tests/elf/mkelf.py) names one program a line:
 * "NAME EXPECT [ALT REASON]". Each runs in a child that takes uid 1000,
 * sends its stdout and stderr to /dev/null (a mutated program may print)
 * and execs DIR/NAME with an alarm of a second (an alarm survives execve:
 * a program that loops ends by SIGALRM, "timeout"). The outcome:
 *	errno:NAME	execve failed (told through a close-on-exec pipe)
 *	exit:N		the program exited
 *	signal:NAME	the program was killed (SEGV, BUS, ILL, ...)
 * One KTAP line per program: ok when the outcome is EXPECT, Linux's, or
 * starts with ALT, a deliberate difference (those lines say
 * "kernel-specific" on both kernels: tests/linux-diff.sh leaves them out);
 * EXPECT "?" (not recorded yet) prints the outcome, for recording. The
 * last line sums up. Exit status 1 if any outcome differs.
 *
 * Built by make with Debian's glibc (user/user.mk).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define USER_UID 1000

static const char *errno_name(int e)
{
	static const struct { int e; const char *n; } names[] = {
		{ ENOEXEC, "ENOEXEC" }, { ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },
		{ ELIBBAD, "ELIBBAD" }, { E2BIG, "E2BIG" }, { ENOENT, "ENOENT" },
		{ EINVAL, "EINVAL" }, { EIO, "EIO" }, { EFAULT, "EFAULT" },
		{ ENAMETOOLONG, "ENAMETOOLONG" }, { ELOOP, "ELOOP" },
		{ ENOTDIR, "ENOTDIR" }, { EPERM, "EPERM" }, { ETXTBSY, "ETXTBSY" },
	};
	static char buf[16];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].n;
	snprintf(buf, sizeof(buf), "%d", e);
	return buf;
}

/* Signal names without "SIG", as the index writes them. */
static const char *signal_name(int s)
{
	static char buf[16];
	const char *n = sigabbrev_np(s);
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "%d", s);
	return buf;
}

/* Run path as uid 1000: its outcome in out. */
static void run(const char *path, char *out, size_t len)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(out, len, "pipe:%s", strerror(errno));
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0), dup2(null, 1), dup2(null, 2);
			close(null);
		}
		if (setgid(USER_UID) < 0 || setuid(USER_UID) < 0)
			_exit(127);
		char *argv[] = { (char *)path, NULL }, *envp[] = { NULL };
		alarm(1);
		execve(path, argv, envp);
		int e = errno;
		(void)!write(fds[1], &e, sizeof(e));
		_exit(127);
	}
	close(fds[1]);
	int e = 0, st = 0;
	ssize_t got = read(fds[0], &e, sizeof(e));
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		snprintf(out, len, "fork:%s", strerror(errno));
	else if (got == sizeof(e))
		snprintf(out, len, "errno:%s", errno_name(e));
	else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
		snprintf(out, len, "timeout");
	else if (WIFSIGNALED(st))
		snprintf(out, len, "signal:%s", signal_name(WTERMSIG(st)));
	else
		snprintf(out, len, "exit:%d", WEXITSTATUS(st));
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/elf/cases";
	char path[4200], line[512];
	snprintf(path, sizeof(path), "%s/index", dir);
	FILE *idx = fopen(path, "r");
	if (!idx) {
		printf("KTAP version 1\n1..0 # SKIP no %s: %s\n", path, strerror(errno));
		return 0;
	}
	int total = 0;
	while (fgets(line, sizeof(line), idx))
		total++;
	rewind(idx);
	printf("KTAP version 1\n1..%d\n", total + 1);
	fflush(stdout);
	int n = 0, same = 0, deliberate = 0, differ = 0, unrecorded = 0;
	while (fgets(line, sizeof(line), idx)) {
		char name[256], expect[64], alt[64] = "", why[256] = "", got[64];
		if (sscanf(line, "%255s %63s %63s %255s", name, expect, alt, why) < 2)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		run(path, got, sizeof(got));
		n++;
		if (!strcmp(expect, "?")) {
			printf("ok %d - %s # %s\n", n, name, got);
			unrecorded++;
		} else if (*alt) {
			bool ok = !strcmp(got, expect) || !strncmp(got, alt, strlen(alt));
			deliberate += ok && strcmp(got, expect);
			same += ok && !strcmp(got, expect);
			differ += !ok;
			printf("%sok %d - %s # kernel-specific: %s (Linux %s; may be %s...: %s)\n",
			       ok ? "" : "not ", n, name, got, expect, alt, why);
		} else if (!strcmp(got, expect)) {
			printf("ok %d - %s # %s\n", n, name, got);
			same++;
		} else {
			printf("not ok %d - %s # %s, Linux %s\n", n, name, got, expect);
			differ++;
		}
		fflush(stdout);
	}
	printf("%sok %d - elf_outcomes_match_linux # run-dependent: %d programs: %d as Linux, "
	       "%d deliberately different, %d different, %d not recorded\n",
	       differ ? "not " : "", n + 1, n, same, deliberate, differ, unrecorded);
	return differ ? 1 : 0;
}
