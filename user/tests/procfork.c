/*
 * procfork - forks beside /proc readers (issue 46, item 7): what `top`
 * and `ps` do all day must not stall the other users of the machine.
 *
 *   procfork [SECONDS [READERS]]     (defaults 10, 2; -h: this usage)
 *
 * One process forks children that exit at once and reaps each, for
 * SECONDS; meanwhile READERS threads of another process read every file
 * of /proc/PID of the newest child (stat, status, statm, maps, cmdline,
 * environ, comm, sched, limits, wchan, schedstat, and task/) over and
 * over, as a monitor does. Prints make bench's figure lines:
 *
 *   procfork_forks N forks (in S s, READERS readers)
 *   procfork_reads N reads
 *
 * The forks beside the readers are what is compared with Linux 6.1 in
 * the same QEMU (docs/bench.md, "Forks beside /proc readers"); a fork
 * that fails is a fault of the run (exit status 1). Runs unchanged on
 * Linux.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "syscall.h"
#include "thread.h"

#define MAX_READERS	8
#define STACK_SIZE	16384

static const char *const files[] = {
	"stat", "status", "statm", "maps", "cmdline", "environ", "comm",
	"sched", "limits", "wchan", "schedstat", "task",
};

struct shared {
	volatile int child;		/* the newest child's pid */
	volatile int stop;
	volatile long reads;
};

static struct shared *sh;
static char stacks[MAX_READERS][STACK_SIZE] __attribute__((aligned(16)));

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Read one file (or list one directory) to its end; 1 if it opened. */
static int read_one(int pid, const char *name)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (strcmp(name, "task") == 0)
		while (syscall3(__NR_getdents64, fd, (long)buf, sizeof(buf)) > 0)
			;
	else
		while (read(fd, buf, sizeof(buf)) > 0)
			;
	close(fd);
	return 1;
}

static int reader(void *arg)
{
	(void)arg;
	while (!sh->stop) {
		int pid = sh->child;
		long n = 0;
		for (unsigned i = 0; pid && i < sizeof(files) / sizeof(files[0]); i++)
			n += read_one(pid, files[i]);
		__atomic_add_fetch(&sh->reads, n, __ATOMIC_RELAXED);
		if (!pid)
			usleep(1000);
	}
	return 0;
}

/* The readers' process: READERS threads until told to stop. */
static void readers_process(int readers)
{
	struct thread t[MAX_READERS];
	for (int i = 0; i < readers; i++)
		if (thread_create(&t[i], reader, NULL, stacks[i], STACK_SIZE) != 0)
			_exit(3);
	for (int i = 0; i < readers; i++)
		thread_join(&t[i], -1);
	_exit(0);
}

static void usage(FILE *to)
{
	fprintf(to, "usage: procfork [SECONDS [READERS(0-%d)]]\n", MAX_READERS);
}

int main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	int readers = argc > 2 ? atoi(argv[2]) : 2;
	if (argc > 3 || seconds < 1 || readers < 0 || readers > MAX_READERS) {
		usage(stderr);
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("procfork: mmap");
		return 1;
	}
	printf("# procfork: forks for %d s beside %d /proc readers\n", seconds, readers);
	pid_t rp = fork();
	if (rp == 0)
		readers_process(readers);
	long forks = 0, failed = 0;
	long long end = now_ns() + seconds * 1000000000LL;
	while (now_ns() < end) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		if (p < 0) {
			failed++;
			continue;
		}
		sh->child = p;
		waitpid(p, NULL, 0);
		forks++;
	}
	sh->stop = 1;
	int status = 0;
	waitpid(rp, &status, 0);
	printf("procfork_forks %ld forks (in %d s, %d readers)\n", forks, seconds, readers);
	printf("procfork_reads %ld reads\n", sh->reads);
	if (failed || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("# procfork: %ld forks failed, readers' status %#x\n", failed, status);
		return 1;
	}
	return 0;
}
