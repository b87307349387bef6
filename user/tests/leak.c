/*
 * leak - process memory comes back: the kernel's free-frame count after
 * 1,000 fork+exit+wait cycles (and after 100 fork+exec+wait cycles) is
 * what it was before (issue 4). Free frames come from kernel-only call 505.
 *
 * The third test grows a stack 64 pages past its first four and a heap by
 * 64 pages, forks, and checks that the child sees every page and that all
 * of them come back: fork and exit walk only where the kernel's map of an
 * address space says pages are (kernel/mm/vm.c), and that map must follow a
 * stack growing down as well as a heap growing up.
 *
 * The sixth maps one program file of the initrd in 8 processes: its
 * pages are read into the kernel's page cache once and every mapping
 * maps those frames (kernel/mm/filemap.c), a write copies the page, and
 * free_frames drops the cache no one maps. The seventh fills a pipe: a
 * frame per page of it.
 *
 * A few warm-up cycles run first: the kernel heap keeps the pages it has
 * cut into small blocks for later use, which is not a leak; after warm-up
 * a steady state must hold exactly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

static int grow_and_fork(void);

/* n times: fork, the child exits with status i & 0x7F (after growing its
 * stack and heap and forking once more, if grow), the parent reaps it and
 * checks the status. */
static int fork_cycles(int n, int grow)
{
	for (int i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();
		if (pid < 0)
			return 0;
		if (pid == 0)
			_exit(grow && !grow_and_fork() ? 0xFF : i & 0x7F);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != (i & 0x7F))
			return 0;
	}
	return 1;
}

static int fork_exec(int n)
{
	char *argv[] = { "/bin/true_exit", NULL };
	for (int i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();
		if (pid < 0)
			return 0;
		if (pid == 0) {
			/* A program that is not there: exec fails, nothing leaks. */
			execve("/bin/no_such_program", argv, NULL);
			/* One that is: hello prints a line; keep it quiet. */
			close(1);
			argv[0] = "/bin/hello";
			execve(argv[0], argv, NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			return 0;
	}
	return 1;
}

#define GROWN_PAGES 64

/* Page i of the grown stack and heap: what the child must read. */
static int grown_pages_hold(volatile char *deep, const char *heap)
{
	for (int i = 0; i < GROWN_PAGES; i++)
		if (deep[i * 4096] != (char)i || heap[i * 4096] != (char)(i ^ 0x5a))
			return 0;
	return 1;
}

/* Runs in a child of main: 1 if its own child saw the grown pages. */
static int grow_and_fork(void)
{
	volatile char deep[GROWN_PAGES * 4096];	/* below the first 4 stack pages */
	char *heap = sbrk(GROWN_PAGES * 4096);
	int status;

	if (heap == (char *)-1)
		return 0;
	for (int i = GROWN_PAGES - 1; i >= 0; i--) {	/* the lowest page first */
		deep[i * 4096] = (char)i;
		heap[i * 4096] = (char)(i ^ 0x5a);
	}
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0)
		_exit(grown_pages_hold(deep, heap) ? 0 : 1);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Exec path in a child with argv { path, arg }; its exit status, or the
 * errno of a refused exec as -errno. */
static int exec_status(const char *path, const char *arg)
{
	char *argv[] = { (char *)path, (char *)arg, NULL };
	int fds[2], err = 0, status;
	if (pipe(fds) < 0)
		return -1000;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		execve(path, argv, NULL);
		err = errno;
		write(fds[1], &err, sizeof(err));
		_exit(127);
	}
	close(fds[1]);
	if (read(fds[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1000;
	return err ? -err : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Exec builds bss on demand and refuses what can never fit (issue 46). */
static void exec_memory_checks(void)
{
	exec_status("/bin/bss_huge", NULL);	/* warm-up: kmalloc's blocks, pipes */
	int before = free_frames();
	int r = exec_status("/bin/bss_huge", NULL);
	int after = free_frames();
	ktap_ok(r == -ENOMEM && after == before, "exec_of_a_bss_larger_than_memory_is_enomem",
		"exec returned %d (want -%d), free frames before %d, after %d", r, ENOMEM,
		before, after);
	char arg[16];
	snprintf(arg, sizeof(arg), "%d", free_frames());
	r = exec_status("/bin/bss_lazy", arg);
	ktap_ok(r == 0, "exec_maps_bss_on_demand",
		"a 96 MiB bss touched once: %s (free frames before it: %s)",
		r == 0 ? "a few frames" : r == 1 ? "it cost more than 256 frames" : "did not run", arg);
}

/* /proc/meminfo's Cached, in kB; -1 if unreadable. */
static long cached_kb(void)
{
	char buf[2048];
	int fd = open("/proc/meminfo", O_RDONLY);
	long n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *p = strstr(buf, "Cached:");
	return p ? atoi(p + 7) : -1;
}

#define MAPPERS 8
#define MAPPED_FILE "/bin/signals"	/* a program this boot does not run */

/* A child: the whole file mapped private and read, page 0's first byte
 * written (its own copy); then it says so on fd and waits to be killed. */
static void map_and_wait(int fd, long size)
{
	int file = open(MAPPED_FILE, O_RDONLY);
	volatile char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, file, 0);
	char sum = 0;
	if (p == MAP_FAILED)
		_exit(1);
	for (long off = 0; off < size; off += 4096)
		sum += p[off];
	p[0] = 'X';
	char ok = p[0] == 'X' ? 'y' : 'n';
	write(fd, &ok, 1);
	(void)sum;
	for (;;)
		pause();
}

static void page_cache_checks(void)
{
	struct stat st;
	int fds[2], ready = 0;
	pid_t kids[MAPPERS];
	char first = 0;

	if (stat(MAPPED_FILE, &st) < 0 || pipe(fds) < 0) {
		ktap_ok(0, "initrd_pages_read_once_and_shared_by_every_mapping", "no %s", MAPPED_FILE);
		return;
	}
	long pages = (st.st_size + 4095) / 4096, c0 = cached_kb();
	int before = free_frames();
	for (int i = 0; i < MAPPERS; i++) {
		kids[i] = fork();
		if (kids[i] == 0)
			map_and_wait(fds[1], st.st_size);
	}
	for (int i = 0; i < MAPPERS; i++) {
		char c = 0;
		ready += read(fds[0], &c, 1) == 1 && c == 'y';
	}
	long c1 = cached_kb(), each = (before - free_frames() - (c1 - c0) / 4) / MAPPERS;
	int file = open(MAPPED_FILE, O_RDONLY);
	read(file, &first, 1);
	close(file);
	for (int i = 0; i < MAPPERS; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	close(fds[0]);
	close(fds[1]);
	free_frames();
	long c2 = cached_kb();
	ktap_ok(ready == MAPPERS && c1 - c0 > 0 && c1 - c0 <= pages * 4 && each < pages / 2 &&
		first == 0x7f && c2 <= c0, "initrd_pages_read_once_and_shared_by_every_mapping",
		"%d processes mapped %s (%ld pages) and wrote their own page 0: %d; Cached "
		"%ld kB before, %ld while mapped, %ld after; frames each besides the cache %ld "
		"(want under %ld); the file's first byte still 0x%02x", MAPPERS, MAPPED_FILE, pages,
		ready, c0, c1, c2, each, pages / 2, (unsigned char)first);
}

/* A full pipe (64 KiB, Linux's default size) holds 16 pages: a frame
 * each, besides the few heap blocks of the pipe and its two files. */
static void pipe_pages_check(void)
{
	static char buf[65536];
	int fds[2];

	memset(buf, 'p', sizeof(buf));		/* its pages are ours before we count */
	int before = free_frames();
	if (pipe(fds) < 0) {
		ktap_ok(0, "a_full_pipe_takes_a_frame_a_page", "pipe: %d", errno);
		return;
	}
	long n = write(fds[1], buf, sizeof(buf));
	int used = before - free_frames();
	close(fds[0]);
	close(fds[1]);
	int after = free_frames();
	ktap_ok(n == (long)sizeof(buf) && used >= 16 && used <= 19 && after == before,
		"a_full_pipe_takes_a_frame_a_page",
		"wrote %ld bytes; frames taken %d (want 16 pages and at most 3 for the heap), "
		"given back %s", n, used, after == before ? "all" : "NOT all");
}

int main(int argc, char **argv)
{
	test_require_our_kernel(argc, argv, 0);
	ktap_plan(7);

	fork_cycles(10, 0);
	int before = free_frames();
	int ok = fork_cycles(1000, 0);
	int after = free_frames();
	ktap_ok(ok && after == before, "fork_exit_1000_cycles_free_no_frames",
		"free frames before %d, after %d, cycles %s", before, after,
		ok ? "ok" : "FAILED");

	fork_exec(5);
	before = free_frames();
	ok = fork_exec(100);
	after = free_frames();
	ktap_ok(ok && after == before, "fork_exec_100_cycles_free_no_frames",
		"free frames before %d, after %d, cycles %s", before, after,
		ok ? "ok" : "FAILED");

	fork_cycles(1, 1);
	before = free_frames();
	ok = fork_cycles(20, 1);
	after = free_frames();
	ktap_ok(ok && after == before, "grown_stack_and_heap_fork_copies_and_frees_all",
		"free frames before %d, after %d, %d-page stack and heap seen by the child: %s",
		before, after, GROWN_PAGES, ok ? "yes" : "NO");
	exec_memory_checks();
	page_cache_checks();
	pipe_pages_check();
	return ktap_done();
}
