/*
 * elf_leak - exec every program of an ELF loader test set and check that
 * the kernel's free frames come back (issue 46 item 6, docs/userland.md
 * "How exec loads an ELF file").
 *
 *	elf_leak [DIR]		DIR: /elf/cases (default), /elf/fuzz-SEED
 *
 * DIR/index (tests/elf/mkelf.py) names the programs, one a line, first
 * word. Each is exec'd in a child, as uid 1000, whatever becomes of it:
 * execve's refusals (after the segments were checked, or after some of
 * the new regions and pages were made), programs killed by SIGSEGV or
 * SIGBUS, programs that exit. A child still running after CHILD_MS is
 * killed. Warm-up rounds run until one costs no frame (the kernel's
 * caches fill), then one round must leave the free frames (call 505) as
 * they were. Our kernel only: on Linux it skips.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define INDEX_MAX	(256 * 1024)
#define CHILD_MS	2000
#define WARM_ROUNDS	4
#define USER_UID	1000

static char index_buf[INDEX_MAX];

/* Exec path in a child and wait for it to end: 1 if it ended by itself. */
static int run_one(const char *path)
{
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)path, NULL }, *envp[] = { NULL };
		int null = open("/dev/null", O_RDWR);
		if (null >= 0)
			dup2(null, 1), dup2(null, 2);
		if (setuid(USER_UID) == 0)
			execve(path, argv, envp);
		_exit(127);
	}
	if (pid < 0)
		return 0;
	int st;
	for (int ms = 0; ms < CHILD_MS; ms++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return 1;
		test_sleep_ms(1);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return 0;
}

/* One round over every program of the set: how many ended by themselves. */
static int round_run(const char *dir, int *programs)
{
	char path[512];
	int ended = 0;
	*programs = 0;
	for (char *line = index_buf; *line;) {
		char *end = strchr(line, '\n');
		size_t len = strcspn(line, " \n");
		if (len > 0 && len < sizeof(path) - strlen(dir) - 2) {
			snprintf(path, sizeof(path), "%s/%.*s", dir, (int)len, line);
			ended += run_one(path);
			(*programs)++;
		}
		if (!end)
			break;
		line = end + 1;
	}
	return ended;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/elf/cases";
	char path[512];
	test_require_our_kernel(argc, argv, 0);
	snprintf(path, sizeof(path), "%s/index", dir);
	int fd = open(path, O_RDONLY), n = 0, got;
	while (fd >= 0 && n < INDEX_MAX - 1 &&
	       (got = read(fd, index_buf + n, INDEX_MAX - 1 - n)) > 0)
		n += got;
	if (fd < 0) {
		printf("KTAP version 1\n1..0 # SKIP no %s\n", path);
		return 0;
	}
	close(fd);
	index_buf[n] = '\0';
	ktap_plan(1);
	int programs, ended, before = free_frames(), prev;
	for (int w = 0; w < WARM_ROUNDS; w++) {
		prev = before;
		round_run(dir, &programs);
		before = free_frames();
		if (w > 0 && before == prev)
			break;
	}
	ended = round_run(dir, &programs);
	int after = free_frames();
	ktap_ok(before == after && programs > 0, "elf_exec_frees_every_frame",
		"%d programs of %s exec'd (%d ended by themselves), free frames before %d, after %d",
		programs, dir, ended, before, after);
	return ktap_done();
}
