/*
 * copyrange - copy_file_range and posix_fadvise as coreutils' cp and
 * others call them, in KTAP, so that tests/linux-diff.sh compares this
 * kernel's answers with Linux 6.1's: a whole file by the files' offsets,
 * a range by the caller's, past the end, the same file without and with
 * overlap, and the errors in Linux's order (EBADF, EINVAL for flags or a
 * pipe, EOVERFLOW for a negative offset, EISDIR, EBADF for a file opened the wrong
 * way or O_APPEND, EXDEV between two file systems: the initrd's /bin and
 * /tmp, /tmp and /dev/shm); the fadvise hints and their errors.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -O2 -o copyrange user/glibc/copyrange.c
 * copyrange.linux.ktap beside it is its transcript on Debian's Linux 6.1
 * in QEMU with the project's init (tmpfs on /tmp and /dev/shm).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "ktap.h"

static const char *err_name(int e)
{
	return e ? (strerrorname_np(e) ? strerrorname_np(e) : "?") : "no error";
}

/* copy_file_range's result and errno as one word: "5" or "-1 EXDEV". */
static const char *result(ssize_t r)
{
	static char buf[64];
	if (r < 0)
		snprintf(buf, sizeof(buf), "-1 %s", err_name(errno));
	else
		snprintf(buf, sizeof(buf), "%zd", r);
	return buf;
}

static int make_file(const char *path, const char *text, int flags)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd >= 0 && write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return -1;
	if (fd >= 0)
		close(fd);
	return open(path, flags);
}

static void contents(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t got = fd >= 0 ? read(fd, buf, size - 1) : -1;
	buf[got > 0 ? got : 0] = 0;
	if (fd >= 0)
		close(fd);
}

static void copies(void)
{
	char buf[64], what[128];
	int in = make_file("/tmp/cr_in", "0123456789", O_RDONLY);
	int out = open("/tmp/cr_out", O_CREAT | O_TRUNC | O_WRONLY, 0644);
	ssize_t r = copy_file_range(in, NULL, out, NULL, 100, 0);
	contents("/tmp/cr_out", buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s, out has %s, offsets %ld %ld", result(r), buf,
		 (long)lseek(in, 0, SEEK_CUR), (long)lseek(out, 0, SEEK_CUR));
	check_why(r == 10 && !strcmp(buf, "0123456789"), "whole_file_by_the_files_offsets", what);
	r = copy_file_range(in, NULL, out, NULL, 100, 0);
	check_why(r == 0, "at_the_end_copies_nothing", result(r));

	loff_t oi = 2, oo = 12;
	r = copy_file_range(in, &oi, out, &oo, 3, 0);
	contents("/tmp/cr_out", buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s, out %s, offsets %lld %lld, the file's %ld", result(r),
		 buf, (long long)oi, (long long)oo, (long)lseek(in, 0, SEEK_CUR));
	check_why(r == 3 && oi == 5 && oo == 15 && lseek(in, 0, SEEK_CUR) == 10,
	      "a_range_by_the_callers_offsets_past_a_hole", what);
	oi = 8;
	r = copy_file_range(in, &oi, out, NULL, 100, 0);
	check_why(r == 2 && oi == 10, "past_the_end_copies_what_there_is", result(r));
	close(in);
	close(out);

	int rw = make_file("/tmp/cr_same", "abcdefgh", O_RDWR);
	oi = 0, oo = 4;
	r = copy_file_range(rw, &oi, rw, &oo, 4, 0);
	contents("/tmp/cr_same", buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s, now %s", result(r), buf);
	check_why(r == 4 && !strcmp(buf, "abcdabcd"), "same_file_without_overlap", what);
	oi = 0, oo = 2;
	r = copy_file_range(rw, &oi, rw, &oo, 4, 0);
	check_why(r < 0 && errno == EINVAL, "same_file_overlapping_is_einval", result(r));
	close(rw);
}

/* copy_file_range's errno for one case, or 0 if it copied. */
static int copy_err(int in, loff_t *oin, int out, unsigned flags)
{
	errno = 0;
	return copy_file_range(in, oin, out, NULL, 1, flags) < 0 ? errno : 0;
}

static void errors(void)
{
	int in = open("/tmp/cr_in", O_RDONLY), out = open("/tmp/cr_out", O_WRONLY);
	int wo = open("/tmp/cr_in", O_WRONLY), ap = open("/tmp/cr_out", O_WRONLY | O_APPEND);
	int dir = open("/tmp", O_RDONLY | O_DIRECTORY), p[2];
	loff_t neg = -1;
	char what[160];
	if (pipe(p) < 0)
		p[0] = p[1] = -1;
	struct { const char *name; int got, want; } c[] = {
		{ "bad_fd", copy_err(99, NULL, out, 0), EBADF },
		{ "flags", copy_err(in, NULL, out, 1), EINVAL },
		{ "in_write_only", copy_err(wo, NULL, out, 0), EBADF },
		{ "out_read_only", copy_err(in, NULL, in, 0), EBADF },
		{ "out_append", copy_err(in, NULL, ap, 0), EBADF },
		{ "directory", copy_err(dir, NULL, out, 0), EISDIR },
		{ "pipe", copy_err(p[0], NULL, out, 0), EINVAL },
		{ "negative_offset", copy_err(in, &neg, out, 0), EOVERFLOW },
		{ "offset_unmapped", copy_err(in, (loff_t *)1, out, 0), EFAULT },
	};
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(what, sizeof(what), "copy_file_range_%s", c[i].name);
		check_why(c[i].got == c[i].want, what, err_name(c[i].got));
	}
	int bin = open("/bin/hello", O_RDONLY), shm = open("/dev/shm/cr", O_CREAT | O_RDWR, 0600);
	int e1 = copy_err(bin, NULL, out, 0), e2 = copy_err(in, NULL, shm, 0);
	snprintf(what, sizeof(what), "/bin to /tmp %s, /tmp to /dev/shm %s", err_name(e1),
		 err_name(e2));
	check_why(e1 == EXDEV && e2 == EXDEV, "another_file_system_is_exdev", what);
	unlink("/dev/shm/cr");
	int fds[] = { in, out, wo, ap, dir, p[0], p[1], bin, shm };
	for (unsigned i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		close(fds[i]);
}

static void fadvises(void)
{
	int fd = open("/tmp/cr_in", O_RDONLY), p[2];
	char what[128];
	if (pipe(p) < 0)
		p[0] = -1;
	int a = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	int b = posix_fadvise(fd, 0, 4096, POSIX_FADV_DONTNEED);
	int c = posix_fadvise(fd, 0, 0, 99);
	int d = posix_fadvise(p[0], 0, 0, POSIX_FADV_NORMAL);
	int e = posix_fadvise(99, 0, 0, POSIX_FADV_NORMAL);
	int f = posix_fadvise(fd, 0, -1, POSIX_FADV_NORMAL);
	snprintf(what, sizeof(what), "sequential %s, dontneed %s, advice 99 %s, pipe %s, bad fd %s, "
		 "len -1 %s", err_name(a), err_name(b), err_name(c), err_name(d), err_name(e),
		 err_name(f));
	check_why(!a && !b && c == EINVAL && d == ESPIPE && e == EBADF && !f,
	      "fadvise_hints_and_their_errors", what);
	close(fd);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..17\n");
	copies();
	errors();
	fadvises();
	unlink("/tmp/cr_in");
	unlink("/tmp/cr_out");
	unlink("/tmp/cr_same");
	return failures != 0;
}
