/*
 * files - the descriptor calls busybox and glibc's stdio lean on, in KTAP,
 * so that tests/linux-diff.sh compares this kernel's answers with Linux
 * 6.1's: openat, fcntl (F_GETFL/SETFL, F_GETFD/SETFD, F_DUPFD and
 * F_DUPFD_CLOEXEC), close-on-exec across execve, lseek and _llseek,
 * O_NONBLOCK on pipes, poll, the devices of /dev, /proc/self/exe,
 * prctl's name, and what rt-tests' programs call on the way (dup,
 * clock_getres, unlink, mlockall).
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o files user/glibc/files.c
 * files.linux.ktap beside it is its transcript on Debian's Linux 6.1
 * (6.1.0-57-686) in QEMU with the project's init, as tests/linux-diff.sh
 * boots it (init mounts /proc and /dev there).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"	/* n, failures, check(), check_ours(), raw() */

static void open_checks(void)
{
	int dir = open("/bin", O_RDONLY | O_DIRECTORY);
	int fd = openat(dir, "files", O_RDONLY);
	check(dir >= 0 && fd >= 0, "openat_relative_to_a_directory_fd");
	check(raw(openat(fd, "x", O_RDONLY)) == -ENOTDIR, "openat_relative_to_a_file_enotdir");
	check(raw(openat(99, "x", O_RDONLY)) == -EBADF, "openat_bad_dirfd_ebadf");
	check(raw(openat(99, "/bin/files", O_RDONLY)) >= 0, "openat_absolute_ignores_dirfd");
	struct stat a, b;
	check(fstatat(dir, "files", &a, 0) == 0 && stat("/bin/files", &b) == 0 &&
	      a.st_ino == b.st_ino && a.st_size == b.st_size, "fstatat_relative_to_a_directory_fd");
	check(raw(open("/bin/files", O_WRONLY)) == -EROFS || raw(open("/bin/files", O_WRONLY)) == -ETXTBSY,
	      "open_a_program_for_writing_fails");
	close(fd);
	close(dir);
}

static void fcntl_checks(void)
{
	int fd = open("/bin/files", O_RDONLY);
	int fl = fcntl(fd, F_GETFL);
	check((fl & O_ACCMODE) == O_RDONLY && !(fl & O_NONBLOCK), "getfl_of_a_read_only_file");
	check(fcntl(fd, F_SETFL, fl | O_NONBLOCK | O_APPEND) == 0 &&
	      (fcntl(fd, F_GETFL) & (O_NONBLOCK | O_APPEND)) == (O_NONBLOCK | O_APPEND),
	      "setfl_sets_nonblock_and_append");
	check(fcntl(fd, F_SETFL, O_RDWR) == 0 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY,
	      "setfl_leaves_the_access_mode");
	check(fcntl(fd, F_GETFD) == 0, "getfd_is_0_after_open");
	check(fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC,
	      "setfd_cloexec_reads_back");
	int d = fcntl(fd, F_DUPFD, 10);
	check(d == 10 && fcntl(d, F_GETFD) == 0, "dupfd_from_10_is_10_and_not_cloexec");
	int e = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	check(e == 11 && fcntl(e, F_GETFD) == FD_CLOEXEC, "dupfd_cloexec_next_free_and_cloexec");
	check(raw(fcntl(99, F_GETFD)) == -EBADF, "fcntl_bad_fd_ebadf");
	check(raw(fcntl(fd, F_DUPFD, 1 << 20)) == -EINVAL, "dupfd_past_the_limit_einval");
	check(raw(fcntl(fd, 12345)) == -EINVAL, "fcntl_unknown_command_einval");
	int c = open("/bin/files", O_RDONLY | O_CLOEXEC);
	check(fcntl(c, F_GETFD) == FD_CLOEXEC, "open_cloexec_sets_fd_cloexec");
	check(dup2(c, 12) == 12 && fcntl(12, F_GETFD) == 0, "dup2_copy_is_not_cloexec");
	close(fd);
	close(d);
	close(e);
	close(c);
	close(12);
}

/* The child execs this program again with "probe FD": it exits 0 when FD
 * is closed, 1 when it is open. */
static int exec_probe(int fd)
{
	pid_t pid = fork();
	if (pid == 0) {
		char arg[16];
		snprintf(arg, sizeof(arg), "%d", fd);
		execl("/proc/self/exe", "files", "probe", arg, (char *)NULL);
		_exit(99);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* close_range (436, Linux 5.9; Python's subprocess calls it in the child):
 * closes, or marks close-on-exec, every open descriptor of a range; a
 * range past the table is fine, a backward one and unknown flags EINVAL. */
static void close_range_checks(void)
{
	int a = open("/bin/files", O_RDONLY), b = dup(a), c = dup(a);
	check(syscall(436, b, ~0u, 4) == 0 && fcntl(a, F_GETFD) == 0 &&
	      fcntl(b, F_GETFD) == FD_CLOEXEC && fcntl(c, F_GETFD) == FD_CLOEXEC,
	      "close_range_cloexec_marks_the_range");
	check(syscall(436, b, ~0u, 0) == 0 && fcntl(a, F_GETFD) == 0 &&
	      raw(fcntl(b, F_GETFD)) == -EBADF && raw(fcntl(c, F_GETFD)) == -EBADF,
	      "close_range_closes_to_the_end_of_the_table");
	check(raw(syscall(436, 9, 8, 0)) == -EINVAL && raw(syscall(436, 0, 1, 1)) == -EINVAL &&
	      fcntl(a, F_GETFD) == 0, "close_range_backward_or_unknown_flag_einval");
	close(a);
}

static void cloexec_checks(void)
{
	int kept = open("/bin/files", O_RDONLY);
	int gone = open("/bin/files", O_RDONLY | O_CLOEXEC);
	check(exec_probe(kept) == 1, "exec_keeps_an_ordinary_descriptor");
	check(exec_probe(gone) == 0, "exec_closes_a_cloexec_descriptor");
	int p[2];
	check(pipe2(p, O_CLOEXEC | O_NONBLOCK) == 0 && fcntl(p[0], F_GETFD) == FD_CLOEXEC &&
	      (fcntl(p[1], F_GETFL) & (O_NONBLOCK | O_ACCMODE)) == (O_NONBLOCK | O_WRONLY),
	      "pipe2_cloexec_nonblock");
	char c;
	check(raw(read(p[0], &c, 1)) == -EAGAIN, "nonblocking_read_of_an_empty_pipe_eagain");
	close(p[0]);
	close(p[1]);
	check(raw(pipe2(p, 0x10)) == -EINVAL, "pipe2_unknown_flag_einval");
	close(kept);
	close(gone);
	close_range_checks();
}

static void seek_checks(void)
{
	int fd = open("/bin/files", O_RDONLY);
	struct stat st;
	fstat(fd, &st);
	check(lseek(fd, 0, SEEK_END) == st.st_size, "lseek_end_is_the_size");
	check(lseek(fd, -4, SEEK_CUR) == st.st_size - 4, "lseek_cur_moves_back");
	char buf[8];
	check(read(fd, buf, sizeof(buf)) == 4, "read_after_seek_gets_the_rest");
	check(lseek(fd, 1, SEEK_SET) == 1 && read(fd, buf, 3) == 3 && memcmp(buf, "ELF", 3) == 0,
	      "lseek_set_then_read");
	check(raw(lseek(fd, -1, SEEK_SET)) == -EINVAL, "lseek_negative_einval");
	check(raw(lseek(fd, 0, 7)) == -EINVAL, "lseek_bad_whence_einval");
	check(lseek(fd, 100, SEEK_DATA) == 100 && lseek(fd, 100, SEEK_HOLE) == st.st_size,
	      "seek_data_and_hole");
	check(raw(lseek(fd, st.st_size, SEEK_DATA)) == -ENXIO, "seek_data_at_the_end_enxio");
	off64_t big = lseek64(fd, 5000000000LL, SEEK_SET);
	check(big == 5000000000LL && read(fd, buf, 1) == 0, "llseek_past_4_gib_then_eof");
	check(raw(lseek(fd, 0, SEEK_CUR)) == -EOVERFLOW, "lseek_32_bit_past_2_gib_eoverflow");
	int p[2];
	pipe(p);
	check(raw(lseek(p[0], 0, SEEK_SET)) == -ESPIPE, "lseek_on_a_pipe_espipe");
	close(p[0]);
	close(p[1]);
	close(fd);
}

static void poll_checks(void)
{
	int p[2];
	pipe(p);
	struct pollfd f[2] = { { .fd = p[0], .events = POLLIN }, { .fd = p[1], .events = POLLOUT } };
	check(poll(f, 2, 0) == 1 && f[0].revents == 0 && f[1].revents == POLLOUT,
	      "poll_empty_pipe_writable_only");
	write(p[1], "x", 1);
	check(poll(f, 1, 100) == 1 && f[0].revents == POLLIN, "poll_pipe_with_data_readable");
	struct pollfd neg = { .fd = -1, .events = POLLIN, .revents = 7 };
	struct pollfd bad = { .fd = 99, .events = POLLIN };
	check(poll(&neg, 1, 0) == 0 && neg.revents == 0, "poll_negative_fd_ignored");
	check(poll(&bad, 1, 0) == 1 && bad.revents == POLLNVAL, "poll_closed_fd_pollnval");
	close(p[1]);
	char c;
	read(p[0], &c, 1);
	check(poll(f, 1, 0) == 1 && f[0].revents == POLLHUP, "poll_pipe_without_writers_pollhup");
	close(p[0]);
	pipe(p);
	struct pollfd r = { .fd = p[0], .events = POLLIN };
	check(poll(&r, 1, 30) == 0 && r.revents == 0, "poll_times_out_with_nothing");
	if (fork() == 0) {
		usleep(20000);
		write(p[1], "y", 1);
		_exit(0);
	}
	check(poll(&r, 1, -1) == 1 && r.revents == POLLIN, "poll_wakes_when_a_writer_writes");
	wait(NULL);
	close(p[0]);
	close(p[1]);
	struct pollfd *volatile nowhere = NULL;		/* hidden from the compiler's check */
	check(raw(poll(nowhere, 1, 0)) == -EFAULT, "poll_bad_pointer_efault");
}

static void dev_checks(void)
{
	struct stat st;
	check(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
	      minor(st.st_rdev) == 3 && (st.st_mode & 0777) == 0666, "dev_null_is_char_1_3_rw");
	int null = open("/dev/null", O_RDWR), zero = open("/dev/zero", O_RDONLY);
	int full = open("/dev/full", O_WRONLY), ur = open("/dev/urandom", O_RDONLY);
	char buf[16] = "abc";
	check(write(null, buf, 3) == 3 && read(null, buf, 3) == 0, "dev_null_takes_and_gives_nothing");
	check(read(zero, buf, 16) == 16 && buf[0] == 0 && buf[15] == 0, "dev_zero_reads_zeros");
	check(raw(write(full, buf, 1)) == -ENOSPC, "dev_full_write_enospc");
	check(read(ur, buf, 16) == 16, "dev_urandom_reads");
	check(lseek(null, 100, SEEK_SET) == 0, "dev_null_seeks_to_0");
	check(!isatty(null), "dev_null_is_not_a_terminal");
	close(null);
	close(zero);
	close(full);
	close(ur);
}

static void self_checks(void)
{
	char buf[64] = { 0 };
	ssize_t k = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	check(k == 10 && strcmp(buf, "/bin/files") == 0, "readlink_proc_self_exe");
	check(readlink("/proc/self/exe", buf, 4) == 4 && memcmp(buf, "/bin", 4) == 0,
	      "readlink_cuts_without_a_nul");
	struct stat a, b;
	check(stat("/proc/self/exe", &a) == 0 && stat("/bin/files", &b) == 0 &&
	      a.st_ino == b.st_ino && S_ISREG(a.st_mode), "stat_follows_proc_self_exe");
	check(lstat("/proc/self/exe", &a) == 0 && S_ISLNK(a.st_mode), "lstat_sees_a_link");
	char name[16] = { 0 };
	check(prctl(PR_SET_NAME, "a-much-longer-name-than-16") == 0 &&
	      prctl(PR_GET_NAME, name) == 0 && strcmp(name, "a-much-longer-n") == 0,
	      "pr_set_name_keeps_15_bytes");
	check(prctl(PR_GET_DUMPABLE) == 1 && prctl(PR_SET_DUMPABLE, 0) == 0 &&
	      prctl(PR_GET_DUMPABLE) == 0, "dumpable_reads_back");
	check(raw(prctl(PR_SET_DUMPABLE, 2)) == -EINVAL, "dumpable_2_einval");
}

/* The calls cyclictest and hackbench (rt-tests) make on the way. */
static void rt_tests_checks(void)
{
	int d = dup(1);
	check(d >= 3 && fcntl(d, F_GETFD) == 0, "dup_gives_the_lowest_free_descriptor");
	close(d);
	check(raw(dup(99)) == -EBADF, "dup_bad_fd_ebadf");
	struct timespec res = { 5, 5 };
	check(clock_getres(CLOCK_MONOTONIC, &res) == 0 && res.tv_sec == 0 && res.tv_nsec == 1,
	      "clock_getres_monotonic_1_ns");
	check(raw(clock_getres(12345, &res)) == -EINVAL, "clock_getres_bad_clock_einval");
	check(raw(unlink("/no/such/file")) == -ENOENT, "unlink_missing_enoent");
	check(raw(unlink("/bin")) == -EISDIR, "unlink_a_directory_eisdir");
	check(raw(unlinkat(AT_FDCWD, "/bin/files", AT_REMOVEDIR)) == -ENOTDIR,
	      "rmdir_of_a_file_enotdir");
	check(mlockall(MCL_CURRENT | MCL_FUTURE) == 0 && munlockall() == 0, "mlockall_as_root");
	check(raw(mlockall(0)) == -EINVAL && raw(mlockall(MCL_ONFAULT)) == -EINVAL,
	      "mlockall_bad_flags_einval");
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "probe") == 0)
		return fcntl(atoi(argv[2]), F_GETFD) >= 0;
	printf("KTAP version 1\n1..68\n");
	open_checks();
	fcntl_checks();
	cloexec_checks();
	seek_checks();
	poll_checks();
	dev_checks();
	self_checks();
	rt_tests_checks();
	return failures ? 1 : 0;
}
