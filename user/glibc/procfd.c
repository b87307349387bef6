/*
 * procfd - /proc/PID/fd/ and /proc/PID/fdinfo/ as programs read them, in
 * KTAP, so that tests/linux-diff.sh compares this kernel's with Linux
 * 6.1's: readlink of fd/N for a file (and once unlinked), a directory, a
 * device, a /proc file, a pipe and a socket pair; lstat's mode and size
 * of the links; stat and open through them; a listing that names each
 * open descriptor; fdinfo's offset, flags and inode; the bad names; and
 * another user's descriptors (EACCES). No pid, inode or mount number is
 * printed: they differ between the kernels; the checks compare them with
 * what fstat and fcntl say.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o procfd user/glibc/procfd.c
 * procfd.linux.ktap beside it is its transcript on Debian's Linux 6.1.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"	/* n, failures, check(), check_ours(), raw() */

#define NR_FREE_FRAMES	505		/* this kernel's own (include/uapi/unistd.h) */

/* readlink of /proc/self/fd/fd into buf: its length, or -errno. */
static long link_of(int fd, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	long len = raw(readlink(path, buf, size - 1));
	buf[len > 0 ? len : 0] = 0;
	return len;
}

static int link_is(int fd, const char *want)
{
	char buf[256];
	return link_of(fd, buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0;
}

/* "pipe:[N]" or "socket:[N]" whose N is fd's inode number. */
static int anon_link_is(int fd, const char *kind)
{
	char buf[256], want[64];
	struct stat st;
	if (fstat(fd, &st) < 0)
		return 0;
	snprintf(want, sizeof(want), "%s:[%lu]", kind, (unsigned long)st.st_ino);
	return link_of(fd, buf, sizeof(buf)) > 0 && strcmp(buf, want) == 0;
}

static mode_t lmode(int fd, off_t *size)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (lstat(path, &st) < 0)
		return 0;
	*size = st.st_size;
	return st.st_mode;
}

static void link_checks(void)
{
	int fd = open("/tmp/fd-file", O_CREAT | O_RDWR | O_TRUNC, 0644);
	check(link_is(fd, "/tmp/fd-file"), "fd_link_of_a_file_is_its_path");
	int dir = open("/tmp", O_RDONLY | O_DIRECTORY), null = open("/dev/null", O_WRONLY);
	check(link_is(dir, "/tmp") && link_is(null, "/dev/null"), "fd_link_of_a_directory_and_a_device");
	char want[64];
	snprintf(want, sizeof(want), "/proc/%d/stat", getpid());
	int st = open("/proc/self/stat", O_RDONLY);
	check(link_is(st, want), "fd_link_of_a_proc_file_names_the_pid");
	int p[2], s[2];
	pipe(p);
	socketpair(AF_UNIX, SOCK_STREAM, 0, s);
	struct stat a, b;
	check(anon_link_is(p[0], "pipe") && anon_link_is(p[1], "pipe") && fstat(p[0], &a) == 0 &&
	      fstat(p[1], &b) == 0 && a.st_ino == b.st_ino, "pipe_ends_link_to_one_pipe_inode");
	check(anon_link_is(s[0], "socket") && anon_link_is(s[1], "socket") && fstat(s[0], &a) == 0 &&
	      fstat(s[1], &b) == 0 && a.st_ino != b.st_ino, "socket_pair_ends_link_to_two_sockets");

	off_t size = 0;
	mode_t m = lmode(fd, &size);
	check(S_ISLNK(m) && (m & 0777) == 0700 && size == 64, "fd_link_lstat_lrwx_size_64_for_read_write");
	m = lmode(null, &size);
	check(S_ISLNK(m) && (m & 0777) == 0300, "fd_link_lstat_l_wx_for_write_only");
	m = lmode(dir, &size);
	check(S_ISLNK(m) && (m & 0777) == 0500, "fd_link_lstat_lr_x_for_read_only");

	write(fd, "hello", 5);
	struct stat via, own;
	char path[64], buf[8] = { 0 };
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	check(stat(path, &via) == 0 && fstat(fd, &own) == 0 && via.st_ino == own.st_ino &&
	      via.st_dev == own.st_dev && via.st_size == 5, "stat_through_the_link_is_the_files");
	int again = open(path, O_RDONLY);
	check(again >= 0 && read(again, buf, 5) == 5 && strcmp(buf, "hello") == 0 &&
	      lseek(fd, 0, SEEK_CUR) == 5, "open_through_the_link_opens_the_file_anew");
	close(again);
	unlink("/tmp/fd-file");
	check(link_is(fd, "/tmp/fd-file (deleted)"), "fd_link_of_an_unlinked_file_says_deleted");
	close(fd);
	check(link_of(fd, buf, sizeof(buf)) == -ENOENT, "fd_link_of_a_closed_descriptor_is_ENOENT");
	check(raw(readlink("/proc/self/fd/999", buf, sizeof(buf))) == -ENOENT &&
	      raw(readlink("/proc/self/fd/01", buf, sizeof(buf))) == -ENOENT &&
	      raw(readlink("/proc/self/fd/x", buf, sizeof(buf))) == -ENOENT &&
	      raw(open("/proc/self/fdinfo/999", O_RDONLY)) == -ENOENT, "bad_descriptor_names_are_ENOENT");
	close(dir), close(null), close(st), close(p[0]), close(p[1]), close(s[0]), close(s[1]);
}

/* The listing names exactly the open descriptors, each a link. */
static void listing_checks(void)
{
	int extra = open("/dev/null", O_RDONLY);
	dup2(extra, 20);
	DIR *d = opendir("/proc/self/fd");
	int ok = d != NULL, seen[64] = { 0 }, dots = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
			dots++;
			continue;
		}
		int fd = atoi(e->d_name);
		ok &= fd >= 0 && fd < 64 && e->d_type == DT_LNK && !seen[fd];
		if (fd >= 0 && fd < 64)
			seen[fd] = 1;
	}
	for (int fd = 0; fd < 64; fd++)
		ok &= seen[fd] == (fcntl(fd, F_GETFD) >= 0);
	check(ok && dots == 2, "fd_listing_names_each_open_descriptor_as_a_link");
	if (d)
		closedir(d);
	d = opendir("/proc/self/fdinfo");
	int files = 0, regular = 1;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			files++;
			regular &= e->d_type == DT_REG;
		}
	if (d)
		closedir(d);
	check(files >= 5 && regular, "fdinfo_listing_names_each_as_a_file");
	close(20);
	close(extra);
}

/* fdinfo/N's four lines: the offset, F_GETFL's flags with O_CLOEXEC,
 * a mount id, the inode number. */
static void fdinfo_checks(void)
{
	int fd = open("/tmp/fd-info", O_CREAT | O_RDWR | O_APPEND | O_CLOEXEC, 0644);
	write(fd, "0123456789", 10);
	lseek(fd, 4, SEEK_SET);
	char path[64], text[256] = { 0 };
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	int in = open(path, O_RDONLY);
	ssize_t got = read(in, text, sizeof(text) - 1);
	close(in);
	long pos = -1, mnt = -1;
	unsigned long ino = 0;
	unsigned flags = 0;
	struct stat st;
	int fields = sscanf(text, "pos:\t%ld\nflags:\t%o\nmnt_id:\t%ld\nino:\t%lu\n", &pos, &flags, &mnt, &ino);
	check(got > 0 && fields == 4 && pos == 4, "fdinfo_pos_is_the_offset");
	check(flags == (unsigned)(fcntl(fd, F_GETFL) | O_CLOEXEC), "fdinfo_flags_are_getfl_with_o_cloexec");
	check(fstat(fd, &st) == 0 && ino == st.st_ino, "fdinfo_ino_is_the_files");
	close(fd);
	unlink("/tmp/fd-info");

	int p[2];
	pipe2(p, O_NONBLOCK);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", p[1]);
	memset(text, 0, sizeof(text));
	in = open(path, O_RDONLY);
	read(in, text, sizeof(text) - 1);
	close(in);
	check(strncmp(text, "pos:\t0\nflags:\t04001\nmnt_id:\t", 28) == 0, "fdinfo_of_a_pipes_write_end");
	close(p[0]), close(p[1]);
}

/* Another user's descriptors: EACCES (pid 1 is root's). */
static void permission_checks(void)
{
	struct stat st;
	check(stat("/proc/1/fd", &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0500,
	      "fd_directory_is_dr_x_by_its_owner");
	check(stat("/proc/1/fdinfo", &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0555,
	      "fdinfo_directory_is_dr_xr_xr_x");
	pid_t pid = fork();
	if (pid == 0) {
		char buf[64];
		if (setuid(1000) < 0)
			_exit(9);
		int bad = 0;
		bad |= (raw(open("/proc/1/fd", O_RDONLY | O_DIRECTORY)) != -EACCES) << 0;
		bad |= (raw(readlink("/proc/1/fd/0", buf, sizeof(buf))) != -EACCES) << 1;
		bad |= (raw(open("/proc/1/fdinfo/0", O_RDONLY)) != -EACCES) << 2;
		bad |= (raw(open("/proc/1/fdinfo", O_RDONLY | O_DIRECTORY)) != -EACCES) << 3;
		int own = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
		bad |= (own < 0) << 4;
		_exit(bad);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "another_users_fd_and_fdinfo_are_EACCES_own_are_not");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("# status %#x\n", status);
}

/* Listings and readlinks of 100 descriptors keep no frame once they are
 * closed (this kernel's count only: the nodes go when it counts). */
static void leak_checks(void)
{
	int here = syscall(NR_FREE_FRAMES) > 0, fds[100];
	long before = 0, after = 0;
	char buf[64];
	for (int round = 0; round < 2; round++) {
		if (here)
			before = syscall(NR_FREE_FRAMES);
		for (int i = 0; i < 100; i++)
			fds[i] = open("/dev/null", O_RDONLY);
		static const char *const dirs[] = { "/proc/self/fd", "/proc/self/fdinfo" };
		for (int k = 0; k < 2; k++) {
			DIR *d = opendir(dirs[k]);
			while (d && readdir(d))
				;
			if (d)
				closedir(d);
		}
		for (int i = 0; i < 100; i++) {
			link_of(fds[i], buf, sizeof(buf));
			close(fds[i]);
		}
		if (here)
			after = syscall(NR_FREE_FRAMES);
	}
	if (!here) {
		printf("ok %d - fd_nodes_keep_no_frame # SKIP kernel-specific\n", ++n);
		return;
	}
	printf("%sok %d - fd_nodes_keep_no_frame # kernel-specific\n", before == after ? "" : "not ", ++n);
	failures += before != after;
	if (before != after)
		printf("# free frames before %ld, after %ld\n", before, after);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..23\n");
	link_checks();
	listing_checks();
	fdinfo_checks();
	permission_checks();
	leak_checks();
	return failures ? 1 : 0;
}
