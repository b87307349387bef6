/*
 * filemap - mappings of tmpfs files as programs use them, in KTAP, so
 * that tests/linux-diff.sh compares this kernel's with Linux 6.1's:
 * MAP_SHARED writes seen by read() and by another mapping, across fork;
 * a mapping outliving its close and its unlink; ftruncate under a
 * mapping (SIGBUS wholly past the end, zeros in the last page, growing
 * again); MAP_PRIVATE's copy on write; mprotect and msync; the bad input
 * Linux refuses (EACCES for a write-only descriptor and for a shared
 * writable mapping of a read-only one, ENODEV, EINVAL, ENOMEM); exec of
 * a program, a "#!" script and an unlinked program in /tmp, and ETXTBSY
 * between a running program and its writers; POSIX
 * shared memory and a named semaphore in /dev/shm (mounted here as root
 * if it is not a tmpfs yet, so that any Linux runs the same). Only
 * this kernel counts its free frames (call 505): those checks say
 * "kernel-specific" and Linux prints SKIP there.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o filemap user/glibc/filemap.c
 * filemap.linux.ktap beside it is its transcript on Debian's Linux 6.1
 * in QEMU with the project's init, which mounts a tmpfs on /tmp there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>		/* TMPFS_MAGIC */
#include <semaphore.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"	/* n, failures, check(), check_ours(), raw() */

#define NR_FREE_FRAMES	505		/* this kernel's own (include/uapi/unistd.h) */
#define PAGE		4096
#define PROG		"/tmp/filemap"	/* a copy of this program: the name it answers to */

/* What mmap says: 0 (the mapping is undone), or -errno. */
static int map(size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);
	if (p == MAP_FAILED)
		return -errno;
	munmap(p, len);
	return 0;
}

/* A fresh file in /tmp of len bytes, each byte 'a' + its page number. */
static int make_file(const char *path, size_t len)
{
	char page[PAGE];
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	for (size_t at = 0; fd >= 0 && at < len; at += PAGE) {
		size_t chunk = len - at < PAGE ? len - at : PAGE;
		memset(page, 'a' + (int)(at / PAGE), chunk);
		if (write(fd, page, chunk) != (ssize_t)chunk)
			return -1;
	}
	return fd;
}

/* ---- touching a page: the signal it got ---- */

static __thread sigjmp_buf jump;		/* each thread its own (race_checks) */
static __thread volatile int got_signal, got_code;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_signal = sig;
	got_code = si->si_code;
	siglongjmp(jump, 1);
}

/* Read (or write 'w' to) the byte at p: 0, or the signal it raised; the
 * byte read in *byte. */
static int touch(volatile char *p, int write, char *byte)
{
	got_signal = 0;
	if (sigsetjmp(jump, 1) == 0) {
		if (write)
			*p = 'w';
		else
			*byte = *p;
	}
	return got_signal;
}

static void catch_faults(void)
{
	struct sigaction sa = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO };
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
}

/* ---- MAP_SHARED ---- */

static void shared_checks(void)
{
	int fd = make_file("/tmp/fm-shared", 2 * PAGE);
	char *a = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *b = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, PAGE);
	char buf[8] = { 0 };
	check(a != MAP_FAILED && b != MAP_FAILED && a[0] == 'a' && a[PAGE] == 'b' && b[0] == 'b',
	      "shared_mapping_reads_the_files_bytes_at_its_offset");
	memcpy(a + 10, "hello", 5);
	check(pread(fd, buf, 5, 10) == 5 && memcmp(buf, "hello", 5) == 0,
	      "shared_write_is_seen_by_read");
	check(pwrite(fd, "WORLD", 5, PAGE + 20) == 5 && memcmp(a + PAGE + 20, "WORLD", 5) == 0 &&
	      memcmp(b + 20, "WORLD", 5) == 0, "write_is_seen_by_every_shared_mapping");
	a[PAGE + 100] = 'Z';
	check(b[100] == 'Z', "a_write_through_one_mapping_is_seen_by_another");

	pid_t pid = fork();
	if (pid == 0) {
		memcpy(a + 200, "child", 5);	/* through the inherited mapping */
		char c[5];
		_exit(pread(fd, c, 5, 10) == 5 && memcmp(c, "hello", 5) == 0 ? 0 : 1);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	memset(buf, 0, sizeof(buf));
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && memcmp(a + 200, "child", 5) == 0 &&
	      pread(fd, buf, 5, 200) == 5 && memcmp(buf, "child", 5) == 0,
	      "a_childs_write_through_the_inherited_mapping_is_the_parents_and_the_files");

	pid = fork();
	if (pid == 0) {			/* the child maps the file itself */
		int cfd = open("/tmp/fm-shared", O_RDWR);
		char *c = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		if (c == MAP_FAILED)
			_exit(2);
		memcpy(c + 300, "other", 5);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && memcmp(a + 300, "other", 5) == 0,
	      "another_processs_own_mapping_writes_into_ours");

	munmap(b, PAGE);
	close(fd);
	unlink("/tmp/fm-shared");
	a[400] = 'k';			/* closed and unlinked: the mapping keeps the file */
	check(a[400] == 'k' && a[10] == 'h' && a[PAGE] == 'b',
	      "mapping_outlives_its_close_and_unlink");
	check(raw(msync(a, 2 * PAGE, MS_SYNC)) == 0 && raw(msync(a, PAGE, MS_ASYNC)) == 0 &&
	      raw(msync(a, PAGE, MS_ASYNC | MS_SYNC)) == -EINVAL &&
	      raw(msync(a + 1, PAGE, MS_SYNC)) == -EINVAL && raw(msync(a, PAGE, 8)) == -EINVAL,
	      "msync_takes_its_flags_as_linux");
	munmap(a, 2 * PAGE);
	check(raw(msync(a, PAGE, MS_SYNC)) == -ENOMEM && raw(msync(a, 0, MS_SYNC)) == 0,
	      "msync_of_an_unmapped_range_is_ENOMEM");

	fd = make_file("/tmp/fm-shared", PAGE);
	a = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	memcpy(a, "kept", 4);
	munmap(a, PAGE);
	check(pread(fd, buf, 4, 0) == 4 && memcmp(buf, "kept", 4) == 0,
	      "shared_write_stays_in_the_file_after_munmap");
	close(fd);
	unlink("/tmp/fm-shared");
}

/* ---- the end of the file ---- */

static void eof_checks(void)
{
	char byte = 0;
	int fd = make_file("/tmp/fm-eof", 100);
	char *a = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int zeros = 1;
	for (int i = 100; i < PAGE; i++)
		zeros &= a[i] == 0;
	check(a != MAP_FAILED && a[99] == 'a' && zeros,
	      "last_page_past_the_end_reads_zeros");
	check(touch(a + PAGE, 0, &byte) == SIGBUS && got_code == BUS_ADRERR,
	      "page_wholly_past_the_end_is_SIGBUS_BUS_ADRERR");
	check(touch(a + PAGE + 5, 1, &byte) == SIGBUS, "write_wholly_past_the_end_is_SIGBUS");
	a[200] = 'x';			/* past the end, in the last page: not the file's */
	struct stat st;
	check(fstat(fd, &st) == 0 && st.st_size == 100, "write_in_the_last_page_past_the_end_grows_nothing");

	check(ftruncate(fd, 3 * PAGE) == 0 && touch(a + 2 * PAGE + 7, 0, &byte) == 0 && byte == 0,
	      "ftruncate_up_makes_the_pages_reachable");
	a[2 * PAGE] = 'q';
	char buf[2] = { 0 };
	check(pread(fd, buf, 1, 2 * PAGE) == 1 && buf[0] == 'q', "grown_page_write_is_seen_by_read");
	a[PAGE + 9] = 'b';
	a[PAGE + 10] = 'c';
	check(ftruncate(fd, PAGE + 10) == 0 && touch(a + 2 * PAGE, 0, &byte) == SIGBUS,
	      "ftruncate_down_under_a_mapping_takes_the_page_SIGBUS");
	check(touch(a + PAGE + 9, 0, &byte) == 0 && byte == 'b' &&
	      touch(a + PAGE + 10, 0, &byte) == 0 && byte == 0,
	      "ftruncate_down_zeroes_the_last_pages_tail");
	check(ftruncate(fd, 3 * PAGE) == 0 && touch(a + 2 * PAGE, 0, &byte) == 0 && byte == 0,
	      "ftruncate_up_again_gives_zeros_not_the_old_page");

	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	p[2 * PAGE] = 'p';		/* a private copy of page 2 */
	check(ftruncate(fd, PAGE) == 0 && touch(p + 2 * PAGE, 0, &byte) == SIGBUS,
	      "ftruncate_takes_a_private_copy_past_the_end_too");
	check(touch(p, 0, &byte) == 0 && byte == 'a', "private_mapping_below_the_end_stays");
	munmap(p, 3 * PAGE);
	munmap(a, 3 * PAGE);

	a = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 16 * PAGE);
	check(a != MAP_FAILED && touch(a, 0, &byte) == SIGBUS,
	      "mapping_wholly_past_the_end_maps_but_faults_SIGBUS");
	munmap(a, PAGE);
	close(fd);
	unlink("/tmp/fm-eof");
}

/* ---- MAP_PRIVATE ---- */

static void private_checks(void)
{
	int fd = make_file("/tmp/fm-private", 2 * PAGE);
	char *s = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	char buf[4] = { 0 };
	s[1] = 'S';
	check(p != MAP_FAILED && p[1] == 'S', "private_page_not_yet_written_sees_the_file");
	p[0] = 'P';
	check(pread(fd, buf, 1, 0) == 1 && buf[0] == 'a' && s[0] == 'a',
	      "private_write_is_not_the_files");
	s[2] = 'T';
	check(p[0] == 'P' && p[1] == 'S' && p[2] != 'T', "private_copy_no_longer_sees_the_file");
	pid_t pid = fork();
	if (pid == 0) {
		int ok = p[0] == 'P';
		p[3] = 'C';
		_exit(ok ? 0 : 1);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && p[3] != 'C' && s[3] != 'C',
	      "childs_private_copy_is_its_own");
	check(madvise(p, PAGE, MADV_DONTNEED) == 0 && p[0] == 'a' && p[2] == 'T',
	      "madv_dontneed_drops_the_copy_for_the_files_page");

	check(raw(mprotect(s, PAGE, PROT_READ)) == 0 && raw(mprotect(s, PAGE, PROT_READ | PROT_WRITE)) == 0,
	      "mprotect_of_a_shared_mapping_of_a_writable_fd");
	s[5] = 'M';
	check(pread(fd, buf, 1, 5) == 1 && buf[0] == 'M', "shared_write_after_mprotect_is_the_files");
	munmap(s, 2 * PAGE);
	munmap(p, 2 * PAGE);
	close(fd);
	unlink("/tmp/fm-private");
}

/* ---- what Linux refuses ---- */

static void refusal_checks(void)
{
	int fd = make_file("/tmp/fm-bad", PAGE);
	close(fd);
	int wr = open("/tmp/fm-bad", O_WRONLY), rd = open("/tmp/fm-bad", O_RDONLY);
	check(map(PAGE, PROT_READ, MAP_SHARED, wr, 0) == -EACCES &&
	      map(PAGE, PROT_READ, MAP_PRIVATE, wr, 0) == -EACCES,
	      "mmap_of_a_write_only_fd_is_EACCES");
	check(map(PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, rd, 0) == -EACCES,
	      "shared_writable_mmap_of_a_read_only_fd_is_EACCES");
	char *a = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, rd, 0);
	check(a != MAP_FAILED && raw(mprotect(a, PAGE, PROT_READ | PROT_WRITE)) == -EACCES,
	      "mprotect_write_of_a_shared_read_only_fd_mapping_is_EACCES");
	char *b = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, rd, 0);
	char first[2] = { 0 };
	check(b != MAP_FAILED && (b[0] = 'x') == 'x' && pread(rd, first, 1, 0) == 1 && first[0] == 'a',
	      "private_writable_mmap_of_a_read_only_fd_writes_a_copy");
	check(map(PAGE, PROT_READ, MAP_SHARED, 99, 0) == -EBADF &&
	      map(0, PROT_READ, MAP_SHARED, rd, 0) == -EINVAL &&
	      map(PAGE, PROT_READ, MAP_SHARED, rd, 1) == -EINVAL &&
	      map(PAGE, PROT_READ, 0, rd, 0) == -EINVAL,
	      "mmap_bad_fd_length_offset_type_as_linux");
	int dir = open("/tmp", O_RDONLY | O_DIRECTORY), fds[2];
	pipe(fds);
	check(map(PAGE, PROT_READ, MAP_SHARED, dir, 0) == -ENODEV &&
	      map(PAGE, PROT_READ, MAP_PRIVATE, fds[0], 0) == -ENODEV,
	      "mmap_of_a_directory_or_a_pipe_is_ENODEV");
	check(map(PAGE, PROT_READ, MAP_PRIVATE | MAP_GROWSDOWN, rd, 0) == -EINVAL,
	      "mmap_growsdown_of_a_file_is_EINVAL");
	munmap(a, PAGE);
	munmap(b, PAGE);
	close(dir), close(fds[0]), close(fds[1]), close(wr), close(rd);
	unlink("/tmp/fm-bad");
}

/* /proc/self/maps names the file, shared. */
static void maps_checks(void)
{
	int fd = make_file("/tmp/fm-maps", PAGE);
	char *a = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0), want[64], line[256];
	snprintf(want, sizeof(want), "%08lx-%08lx r--s 00000000", (unsigned long)a,
		 (unsigned long)a + PAGE);
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;
	while (f && fgets(line, sizeof(line), f))
		found |= strncmp(line, want, strlen(want)) == 0 && strstr(line, " /tmp/fm-maps\n");
	if (f)
		fclose(f);
	check(found, "proc_self_maps_shows_the_shared_file");
	munmap(a, PAGE);
	close(fd);
	unlink("/tmp/fm-maps");
}

/* ---- exec from /tmp ---- */

/* This program, copied to path with mode. */
static int copy_self(const char *path, mode_t mode)
{
	char buf[PAGE];
	int in = open("/proc/self/exe", O_RDONLY);
	int out = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
	ssize_t got;
	while (in >= 0 && out >= 0 && (got = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, got) != got)
			return -1;
	close(in);
	close(out);
	return in >= 0 && out >= 0 ? 0 : -1;
}

/* Run argv in a child: its exit status, or -errno of a failed execve,
 * or -1000 - the signal that ended it. */
static int run(char *const argv[])
{
	int fds[2];
	pipe2(fds, O_CLOEXEC);
	pid_t pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		int err = errno;
		write(fds[1], &err, sizeof(err));
		_exit(127);
	}
	close(fds[1]);
	int err = 0, status = 0;
	ssize_t got = read(fds[0], &err, sizeof(err));
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (got == sizeof(err))
		return -err;
	return WIFSIGNALED(status) ? -1000 - WTERMSIG(status) : WEXITSTATUS(status);
}

static void exec_checks(void)
{
	check(copy_self(PROG, 0755) == 0 && run((char *[]){ PROG, "exit", "7", NULL }) == 7,
	      "exec_of_a_static_program_in_tmp");
	int fd = open("/tmp/fm-script", O_CREAT | O_WRONLY | O_TRUNC, 0755);
	write(fd, "#!" PROG " script\n", strlen("#!" PROG " script\n"));
	close(fd);
	check(run((char *[]){ "/tmp/fm-script", NULL }) == 9, "exec_of_a_script_in_tmp_run_by_a_program_in_tmp");
	chmod(PROG, 0644);
	check(run((char *[]){ PROG, "exit", "7", NULL }) == -EACCES, "exec_without_an_x_bit_is_EACCES");
	chmod(PROG, 0755);
	int writer = open(PROG, O_WRONLY);
	check(run((char *[]){ PROG, "exit", "7", NULL }) == -ETXTBSY,
	      "exec_of_a_file_open_for_writing_is_ETXTBSY");
	close(writer);

	/* The child runs its copy (it says so on its stdout) while the parent
	 * tries to write it, then unlinks it: its pages stay (the mapping
	 * holds the file). */
	int in[2], out[2];
	pipe(in);
	pipe(out);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]), close(out[0]);
		execv(PROG, (char *[]){ PROG, "wait", NULL });
		_exit(127);
	}
	close(in[0]), close(out[1]);
	char running = 0;
	read(out[0], &running, 1);
	check(running == 'r' && raw(open(PROG, O_WRONLY)) == -ETXTBSY &&
	      raw(truncate(PROG, 0)) == -ETXTBSY && raw(open(PROG, O_RDONLY)) >= 0,
	      "a_running_program_cannot_be_written_ETXTBSY");
	unlink(PROG);
	write(in[1], "x", 1);
	close(in[1]), close(out[0]);
	int status = -1;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 5, "program_runs_on_after_its_file_is_unlinked");
	unlink("/tmp/fm-script");
}

/* ---- truncation racing faults on other CPUs ---- */

static volatile int racing;
static long passes, bus_errors;		/* the touchers' rounds; their SIGBUS touches */

/* Touch every 512th byte of two pages, reading and writing, until told
 * to stop: each touch either works or is SIGBUS (past the end then). */
static void *toucher(void *arg)
{
	char *p = arg, byte;
	long wrong = 0;
	for (; racing; __atomic_add_fetch(&passes, 1, __ATOMIC_RELAXED))
		for (int i = 0; i < 2 * PAGE; i += 512) {
			int sig = touch(p + i, i & 512, &byte);
			wrong += sig != 0 && sig != SIGBUS;
			if (sig == SIGBUS)
				__atomic_add_fetch(&bus_errors, 1, __ATOMIC_RELAXED);
		}
	return (void *)wrong;
}

/* Two threads fault a shared mapping's pages in while a third truncates
 * the file under them (300 times at least, and while the two make 200
 * passes): nothing but SIGBUS, then the mapping as good as new. */
static int race_round(void)
{
	long wrong = 0;
	int fd = make_file("/tmp/fm-race", 2 * PAGE);
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	pthread_t t[2];
	racing = 1;
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, toucher, p);
	long start = __atomic_load_n(&passes, __ATOMIC_RELAXED);
	for (int i = 0; i < 300 || __atomic_load_n(&passes, __ATOMIC_RELAXED) < start + 200; i++)
		ftruncate(fd, (i % 5) * PAGE / 2);	/* until both threads have raced */
	racing = 0;
	for (int i = 0; i < 2; i++) {
		void *w;
		pthread_join(t[i], &w);
		wrong += (long)w;
	}
	char buf[4] = { 0 };
	int ok = wrong == 0 && ftruncate(fd, 2 * PAGE) == 0 && (p[PAGE + 3] = 'z') == 'z' &&
		 pread(fd, buf, 1, PAGE + 3) == 1 && buf[0] == 'z';
	munmap(p, 2 * PAGE);
	close(fd);
	unlink("/tmp/fm-race");
	return ok;
}

/* Two rounds: the second's frames counted (this kernel's only), after
 * the first filled glibc's cache of thread stacks. */
static void race_checks(void)
{
	int here = syscall(NR_FREE_FRAMES) > 0;
	int ok = race_round();
	long before = here ? syscall(NR_FREE_FRAMES) : 0;
	ok &= race_round();
	long after = here ? syscall(NR_FREE_FRAMES) : 0;
	check(ok, "truncation_racing_faults_in_threads_then_the_mapping_works");
	printf("# %ld touches were SIGBUS\n", bus_errors);
	check_ours(here, before == after, "the_race_keeps_no_frame");
	if (here && before != after)
		printf("# free frames before %ld, after %ld\n", before, after);
}

/* ---- POSIX shared memory: files in /dev/shm, mapped shared ---- */

static int shm_is_tmpfs(void)
{
	struct statfs sf;
	return statfs("/dev/shm", &sf) == 0 && sf.f_type == TMPFS_MAGIC;
}

static void shm_checks(void)
{
	if (!shm_is_tmpfs()) {		/* a Linux boot without one: make it */
		mkdir("/dev/shm", 01777);
		mount("shm", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	}
	check(shm_is_tmpfs(), "dev_shm_is_a_tmpfs");
	shm_unlink("/fm-shm");
	int fd = shm_open("/fm-shm", O_CREAT | O_EXCL | O_RDWR, 0600);
	struct stat st;
	check(fd >= 0 && ftruncate(fd, 2 * PAGE) == 0 && fstat(fd, &st) == 0 &&
	      st.st_size == 2 * PAGE && (st.st_mode & 07777) == 0600 &&
	      access("/dev/shm/fm-shm", F_OK) == 0, "shm_open_makes_a_file_in_dev_shm");
	check(raw(shm_open("/fm-shm", O_CREAT | O_EXCL | O_RDWR, 0600)) == -EEXIST,
	      "shm_open_o_excl_of_an_existing_name_is_EEXIST");
	char *a = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	strcpy(a + PAGE, "parent");
	pid_t pid = fork();
	if (pid == 0) {			/* its own open and mapping of the name */
		int cfd = shm_open("/fm-shm", O_RDWR, 0);
		char *c = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		if (c == MAP_FAILED || strcmp(c + PAGE, "parent") != 0)
			_exit(1);
		strcpy(c, "child");
		_exit(0);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && strcmp(a, "child") == 0,
	      "shm_mapping_is_shared_between_processes_by_name");
	check(shm_unlink("/fm-shm") == 0 && raw(shm_open("/fm-shm", O_RDWR, 0)) == -ENOENT &&
	      raw(shm_unlink("/fm-shm")) == -ENOENT, "shm_unlink_removes_the_name");
	strcpy(a + 10, "still");
	check(strcmp(a + 10, "still") == 0 && strcmp(a + PAGE, "parent") == 0,
	      "shm_mapping_outlives_shm_unlink");
	munmap(a, 2 * PAGE);
	close(fd);

	sem_unlink("/fm-sem");
	sem_t *sem = sem_open("/fm-sem", O_CREAT | O_EXCL, 0600, 0);
	pid = fork();
	if (pid == 0) {
		sem_t *s2 = sem_open("/fm-sem", 0);
		_exit(s2 != SEM_FAILED && sem_post(s2) == 0 && sem_post(s2) == 0 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	int value = -1;
	check(sem != SEM_FAILED && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	      sem_wait(sem) == 0 && sem_getvalue(sem, &value) == 0 && value == 1,
	      "named_semaphore_posted_by_a_child_is_the_parents");
	check(sem_unlink("/fm-sem") == 0 && sem_open("/fm-sem", 0) == SEM_FAILED && errno == ENOENT,
	      "sem_unlink_removes_the_name");
	sem_close(sem);
}

/* ---- frames ---- */

static void leak_checks(void)
{
	int here = syscall(NR_FREE_FRAMES) > 0;
	long before = 0, after = 0;
	for (int round = 0; round < 2; round++) {
		if (here)
			before = syscall(NR_FREE_FRAMES);
		for (int i = 0; i < 20; i++) {
			int fd = make_file("/tmp/fm-leak", 3 * PAGE);
			char *s = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
			close(fd);
			s[0] = p[PAGE] = 'x';
			p[2 * PAGE] = p[2 * PAGE + 1] + 1;	/* read, then copied */
			pid_t pid = fork();
			if (pid == 0) {
				s[PAGE] = p[0] = 'y';
				_exit(0);
			}
			waitpid(pid, NULL, 0);
			unlink("/tmp/fm-leak");
			munmap(p, 3 * PAGE);
			munmap(s, 3 * PAGE);
		}
		copy_self(PROG, 0755);
		run((char *[]){ PROG, "exit", "0", NULL });
		unlink(PROG);
		if (here)
			after = syscall(NR_FREE_FRAMES);
	}
	check_ours(here, before == after, "map_fork_unlink_munmap_and_exec_keep_no_frame");
	if (here && before != after)
		printf("# free frames before %ld, after %ld\n", before, after);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "exit") == 0)
		return atoi(argv[2]);
	if (argc == 3 && strcmp(argv[1], "script") == 0)
		return strcmp(argv[2], "/tmp/fm-script") == 0 ? 9 : 1;
	if (argc == 2 && strcmp(argv[1], "wait") == 0) {
		char c;
		write(1, "r", 1);
		return read(0, &c, 1) == 1 ? 5 : 1;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	catch_faults();
	printf("KTAP version 1\n1..54\n");
	shared_checks();
	eof_checks();
	private_checks();
	refusal_checks();
	maps_checks();
	exec_checks();
	race_checks();
	shm_checks();
	leak_checks();
	return failures ? 1 : 0;
}
