/*
 * memory - what a program built with the distribution's C library asks of
 * the memory manager (issue 25), in KTAP, so that tests/linux-diff.sh can
 * compare this kernel's transcript with Linux 6.1's.
 *
 * Built with Debian's glibc, not the project's libc:
 *	i686-linux-gnu-gcc -static -O2 -o memory user/glibc/memory.c
 * (apt-get install gcc-i686-linux-gnu libc6-dev-i386-cross). glibc's
 * malloc takes small blocks from brk and asks mmap2 for every block of
 * 128 KiB or more and for its arenas; free gives those back with munmap,
 * realloc of a large block uses mremap. glibc's start-up needs
 * set_thread_area (its thread-local storage) before main: on a kernel
 * without it the program ends with "set_thread_area failed when setting
 * up thread-local storage" and status 127 (as on this kernel before issue
 * 26's kernel/arch/tls.c); its fork() is clone (kernel/task/thread.c). memory.linux.ktap beside this file is its transcript on Debian's
 * Linux 6.1 (6.1.0-57-686) in QEMU, booted with the project's init:
 *	qemu-system-i386 ... -kernel build/linux/vmlinuz -initrd CPIO \
 *	  -append "console=ttyS0 quiet panic=-1 rdinit=/bin/init tests=none run=/bin/memory then=exit"
 * where CPIO holds bin/init (build/user/bin/init) and bin/memory.
 * make builds it (user/user.mk) when that glibc is installed, and
 * tests/linux-diff.sh compares it with Linux; the rest of the build
 * needs no glibc.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static int n;
static int failures;

static void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

static sigjmp_buf back;
static volatile int segv_code;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	segv_code = si->si_code;
	siglongjmp(back, 1);
}

/* Deterministic sizes: 1 byte up to 300 KiB, a few of them over glibc's
 * 128 KiB mmap threshold. */
static size_t size_of(int i)
{
	unsigned x = (unsigned)i * 2654435761u;
	return (x % 7 == 0) ? 130000 + x % 180000 : 1 + x % 5000;
}

static void malloc_blocks(void)
{
	static char *blocks[2000];
	char *big = malloc(8 << 20);
	int ok = big != NULL;

	if (big) {
		memset(big, 0x5a, 8 << 20);
		ok = big[0] == 0x5a && big[(8 << 20) - 1] == 0x5a;
	}
	check(ok, "malloc_8_mib_and_fill_it");
	for (int i = 0; i < 2000; i++) {
		blocks[i] = malloc(size_of(i));
		if (blocks[i])
			memset(blocks[i], i & 0xff, size_of(i));
	}
	ok = 1;
	for (int i = 0; i < 2000; i++)
		ok &= blocks[i] && (unsigned char)blocks[i][size_of(i) - 1] == (i & 0xff);
	check(ok, "malloc_2000_blocks_of_assorted_sizes_keep_their_bytes");
	for (int i = 0; i < 2000; i += 2)
		free(blocks[i]);
	big = realloc(big, 16 << 20);
	ok = big && big[(8 << 20) - 1] == 0x5a;
	check(ok, "realloc_of_a_big_block_keeps_its_bytes");
	free(big);
	for (int i = 1; i < 2000; i += 2)
		free(blocks[i]);
}

static void protect(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct sigaction sa;
	volatile int *p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	check(p != MAP_FAILED, "mmap_three_pages");
	p[0] = 42;
	check(mprotect((void *)p, page, PROT_READ) == 0, "mprotect_the_first_read_only");
	int faulted = 0;
	if (sigsetjmp(back, 1) == 0)
		p[0] = 7;
	else
		faulted = 1;
	check(faulted && segv_code == SEGV_ACCERR && p[0] == 42,
	      "write_to_the_read_only_page_is_caught_and_the_value_kept");
	check(munmap((void *)(p + page / 4), page) == 0, "munmap_the_middle_page");
	faulted = 0;
	if (sigsetjmp(back, 1) == 0)
		(void)p[page / 4];
	else
		faulted = 1;
	check(faulted && segv_code == SEGV_MAPERR, "read_of_the_unmapped_page_is_caught");
	munmap((void *)p, 3 * page);
}

static void fork_checks(void)
{
	int *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int *private = malloc(4096);
	int status = -1;

	*shared = 1;
	*private = 1;
	pid_t pid = fork();
	if (pid == 0) {
		*shared = 2;
		*private = 2;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && *shared == 2, "shared_anonymous_mapping_sees_the_child_write");
	check(*private == 1, "copy_on_write_keeps_the_parent_private_page");
	munmap(shared, 4096);
	free(private);
}

/* VmLck of /proc/self/status, in kB; -1 if not found. */
static long vmlck_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* mlock, munlock and MAP_LOCKED as VmLck counts them; a child does not
 * inherit its parent's locks. */
static void lock_checks(void)
{
	long v0 = vmlck_kb();
	char *a = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	long v1 = vmlck_kb();
	char *b = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int locked = mlock(b + 4096, 2 * 4096);
	long v2 = vmlck_kb();
	int fds[2];
	long child = -2;
	if (pipe(fds) == 0) {
		pid_t pid = fork();
		if (pid == 0) {
			long v = vmlck_kb();
			write(fds[1], &v, sizeof(v));
			_exit(0);
		}
		if (read(fds[0], &child, sizeof(child)) != sizeof(child))
			child = -2;
		waitpid(pid, NULL, 0);
		close(fds[0]);
		close(fds[1]);
	}
	int unlocked = munlock(b, 4 * 4096);
	long v3 = vmlck_kb();
	munmap(a, 4 * 4096);
	munmap(b, 4 * 4096);
	long v4 = vmlck_kb();
	check(v0 >= 0 && v1 == v0 + 16 && !locked && v2 == v1 + 8 && !unlocked && v3 == v1 &&
	      v4 == v0, "vmlck_counts_map_locked_and_mlock");
	check(child == 0, "vmlck_locks_are_not_inherited_by_fork");
}

int main(void)
{
	printf("KTAP version 1\n1..12\n");
	malloc_blocks();
	protect();
	fork_checks();
	lock_checks();
	return failures != 0;
}
