/*
 * init - the first user process.
 *
 * Parameters arrive as environment variables (unknown key=value words on
 * the kernel command line, as Linux passes them to init):
 *
 *   tests=quick|all|none  boot test suite to run first (default quick)
 *   run=prog1,prog2:arg   programs to run next, one after another; ':'
 *                         separates arguments (the kernel command line
 *                         itself splits on spaces)
 *   then=sh|poweroff|exit afterwards (default sh): exec /bin/sh; power
 *                         off; or exit with status 0 if every test and
 *                         program succeeded, else 1
 *
 * Programs are looked up in init's own directory (/bin on our kernel).
 * As process 1, init also reaps orphans while it waits. As process 1 on
 * Linux (tests/linux-diff.sh boots Linux 6.1 with this init), it first
 * mounts /proc and /dev as every Linux init does, so that programs find
 * the same files on both kernels (/proc/self/exe, /dev/null).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel_calls.h"
#include "syscall.h"
#include "../tests/suite.h"

#define MAX_ARGS 16

static char bindir[128] = "/bin";
static int any_failed;

/* Split `line` in place at spaces and ':'; returns the word count. */
static int split(char *line, char **argv, int max)
{
	int n = 0;

	for (char *p = line; *p && n < max;) {
		while (*p == ' ' || *p == ':')
			*p++ = '\0';
		if (*p)
			argv[n++] = p;
		while (*p && *p != ' ' && *p != ':')
			p++;
	}
	argv[n] = NULL;
	return n;
}

/* Run one command line and wait for it; returns 1 if it succeeded. */
static int run(const char *cmdline)
{
	char line[256], path[256], *argv[MAX_ARGS + 1];
	int status;
	pid_t pid, got;

	snprintf(line, sizeof(line), "%s", cmdline);
	if (split(line, argv, MAX_ARGS) == 0)
		return 1;
	if (strchr(argv[0], '/'))
		snprintf(path, sizeof(path), "%s", argv[0]);
	else
		snprintf(path, sizeof(path), "%s/%s", bindir, argv[0]);
	argv[0] = path;

	printf("init: running %s\n", path);
	pid = fork();
	if (pid < 0) {
		printf("init: fork: %s\n", strerror(errno));
		return 0;
	}
	if (pid == 0) {
		execve(path, argv, environ);
		printf("init: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	/* wait for this child; orphans reaped meanwhile are just dropped */
	while ((got = wait(&status)) != pid)
		if (got < 0)
			return 0;
	if (WIFSIGNALED(status))
		printf("init: %s killed by signal %d\n", path, WTERMSIG(status));
	else
		printf("init: %s exited with status %d\n", path,
		       WEXITSTATUS(status));
	return status == 0;
}

/* The boot suite: one result per program, pass = exit status 0. */
static void run_tests(const char *which)
{
	int passed = 0, failed = 0;
	const char *const *lists[] = { suite_quick, suite_slow };
	int nlists = strcmp(which, "all") == 0 ? 2 : 1;

	if (strcmp(which, "none") == 0)
		return;
	if (strcmp(which, "quick") != 0 && strcmp(which, "all") != 0) {
		printf("init: tests=%s unknown, using quick\n", which);
	}
	for (int l = 0; l < nlists; l++)
		for (const char *const *t = lists[l]; *t; t++)
			run(*t) ? passed++ : failed++;
	printf("tests: %d passed, %d failed\n", passed, failed);
	if (failed)
		any_failed = 1;
}

/* run=a,b,c: each in turn, whatever the previous one did. */
static void run_list(const char *list)
{
	char copy[512];
	char *item = copy;

	snprintf(copy, sizeof(copy), "%s", list);
	while (item) {
		char *comma = strchr(item, ',');

		if (comma)
			*comma = '\0';
		if (*item && !run(item))
			any_failed = 1;
		item = comma ? comma + 1 : NULL;
	}
}

/* Linux's initramfs has none of them: make them, as an init there would
 * (/tmp and /dev/shm as systemd does, as this kernel mounts them). */
static void linux_mounts(void)
{
	static const struct { const char *dir, *type; int mode; } fs[] = {
		{ "/proc", "proc", 0555 }, { "/dev", "devtmpfs", 0755 }, { "/tmp", "tmpfs", 01777 },
		{ "/dev/shm", "tmpfs", 01777 },
	};
	for (unsigned i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		syscall2(__NR_mkdir, (long)fs[i].dir, fs[i].mode);
		long r = syscall5(__NR_mount, (long)fs[i].type, (long)fs[i].dir,
				  (long)fs[i].type, 0, 0);
		if (r < 0)
			printf("init: mount %s on %s: %s\n", fs[i].type, fs[i].dir,
			       strerror((int)-r));
	}
}

static void power_off(void)
{
	if (!kernel_is_ours()) {	/* never power off a host we test on */
		printf("init: then=poweroff: not our kernel, exiting instead\n");
		return;
	}
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	printf("init: reboot: %s\n", strerror(errno));
}

int main(int argc, char **argv)
{
	const char *tests = getenv("tests");
	const char *then = getenv("then");
	const char *runs = getenv("run");
	char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
	char sh[160];

	if (slash && slash != argv[0])
		snprintf(bindir, sizeof(bindir), "%.*s",
			 (int)(slash - argv[0]), argv[0]);
	printf("init: pid %d, tests=%s run=%s then=%s\n", getpid(),
	       tests ? tests : "quick", runs ? runs : "",
	       then ? then : "sh");

	if (getpid() == 1 && !kernel_is_ours())
		linux_mounts();
	run_tests(tests ? tests : "quick");
	if (runs)
		run_list(runs);

	if (then && strcmp(then, "poweroff") == 0)
		power_off();
	if (!then || strcmp(then, "sh") == 0) {
		char *sh_argv[] = { sh, NULL };

		snprintf(sh, sizeof(sh), "%s/sh", bindir);
		execve(sh, sh_argv, environ);
		printf("init: cannot run %s: %s\n", sh, strerror(errno));
	} else if (strcmp(then, "exit") != 0 && strcmp(then, "poweroff")) {
		printf("init: then=%s unknown, exiting\n", then);
	}
	printf("init: exiting with status %d\n", any_failed);
	return any_failed;
}
