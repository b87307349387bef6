/*
 * pipetest - a pipe between two processes.
 *
 * The child writes 64 KiB (more than a pipe holds, so it must block and
 * resume) in odd-sized pieces; the parent reads it all, checks every byte,
 * then sees end-of-file (read returns 0) once the child has exited.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

#define TOTAL 65536
#define CHUNK 1000

static unsigned char pattern(int i) { return (unsigned char)(i % 251); }

static void writer(int fd)
{
	unsigned char buf[CHUNK];
	int sent = 0;

	while (sent < TOTAL) {
		int n = TOTAL - sent < CHUNK ? TOTAL - sent : CHUNK;

		for (int i = 0; i < n; i++)
			buf[i] = pattern(sent + i);
		for (int done = 0; done < n;) {
			ssize_t w = write(fd, buf + done, n - done);

			if (w <= 0)
				_exit(2);
			done += w;
		}
		sent += n;
	}
	_exit(0);
}

int main(void)
{
	unsigned char buf[4096];
	int fds[2], status = -1, total = 0, bad = -1;
	ssize_t n;
	pid_t pid;

	ktap_plan(3);
	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		printf("pipetest: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		close(fds[0]);
		writer(fds[1]);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0) {
		for (int i = 0; i < n; i++)
			if (bad < 0 && buf[i] != pattern(total + i))
				bad = total + i;
		total += n;
	}
	ktap_ok(total == TOTAL && bad < 0, "pipe_data",
		"%d of %d bytes, first bad byte %d", total, TOTAL, bad);
	n = read(fds[0], buf, sizeof(buf));
	ktap_ok(n == 0, "pipe_eof_after_writer_closed",
		"read returned %d twice", (int)n);
	waitpid(pid, &status, 0);
	ktap_ok(status == 0, "writer_exit_status", "status 0x%x", status);
	return ktap_done();
}
