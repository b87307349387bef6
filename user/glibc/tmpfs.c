/*
 * tmpfs - a writable /tmp as programs use it (issue 44), in KTAP, so that
 * tests/linux-diff.sh compares this kernel's tmpfs with Linux 6.1's:
 * mkstemp, write, read, pread/pwrite and holes, O_APPEND, ftruncate,
 * rename over a name, link, symlink and readlink, mkdir and rmdir,
 * readdir while the directory's names are unlinked, an unlinked file
 * open to its last close, utimensat and futimens, fchdir, statfs of /tmp, permissions of an ordinary
 * user (EACCES, the sticky bit's EPERM), mount and umount2 of a small
 * tmpfs (ENOSPC keeps what was written, EBUSY while a file is open), and
 * the bad input Linux refuses: ENAMETOOLONG, EEXIST, ENOTEMPTY, EISDIR,
 * ENOTDIR, EINVAL (a directory into its own subtree), EPERM, ENODEV.
 * Only this kernel counts its free frames (call 505): that check says
 * "kernel-specific" and Linux prints SKIP there.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o tmpfs user/glibc/tmpfs.c
 * tmpfs.linux.ktap beside it is its transcript on Debian's Linux 6.1 in
 * QEMU with the project's init, which mounts a tmpfs on /tmp there
 * (user/bin/init.c), as systemd does.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>		/* RENAME_* */
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <linux/magic.h>	/* TMPFS_MAGIC */

#include "ktap.h"	/* n, failures, check(), check_ours(), raw() */
#define NR_FREE_FRAMES	505		/* this kernel's own (include/uapi/unistd.h) */

static void fill(char *buf, size_t len, int seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)('a' + (i * 7 + (size_t)seed) % 26);
}

static void file_checks(void)
{
	char name[] = "/tmp/tmpfs-XXXXXX", buf[10000], back[10000];
	int fd = mkstemp(name);
	struct stat st;
	check(fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	      (st.st_mode & 07777) == 0600 && st.st_nlink == 1 && st.st_size == 0,
	      "mkstemp_makes_an_empty_0600_file");
	fill(buf, sizeof(buf), 1);
	check(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) && fstat(fd, &st) == 0 &&
	      st.st_size == 10000 && st.st_blocks == 24, "write_10000_bytes_size_and_3_pages_of_blocks");
	check(lseek(fd, 0, SEEK_SET) == 0 && read(fd, back, sizeof(back)) == (ssize_t)sizeof(back) &&
	      memcmp(buf, back, sizeof(buf)) == 0, "read_back_what_was_written");
	check(pwrite(fd, "tail!", 5, 20000) == 5 && fstat(fd, &st) == 0 && st.st_size == 20005 &&
	      lseek(fd, 0, SEEK_CUR) == 10000, "pwrite_past_the_end_leaves_the_offset");
	memset(back, 'x', 100);
	check(pread(fd, back, 100, 15000) == 100 && back[0] == 0 && back[99] == 0 &&
	      pread(fd, back, 10, 20000) == 5 && memcmp(back, "tail!", 5) == 0,
	      "a_hole_reads_as_zeros");
	check(fstat(fd, &st) == 0 && st.st_blocks == 32, "a_hole_takes_no_blocks");
	check(ftruncate(fd, 5) == 0 && fstat(fd, &st) == 0 && st.st_size == 5 &&
	      pread(fd, back, 100, 0) == 5 && memcmp(back, buf, 5) == 0, "ftruncate_down_keeps_the_head");
	check(ftruncate(fd, 8192) == 0 && pread(fd, back, 10, 5) == 10 && back[0] == 0 && back[9] == 0,
	      "ftruncate_up_reads_zeros");
	check(raw(ftruncate(fd, -1)) == -EINVAL, "ftruncate_negative_einval");
	int ap = open(name, O_WRONLY | O_APPEND);
	check(ap >= 0 && write(ap, "end", 3) == 3 && fstat(fd, &st) == 0 && st.st_size == 8195 &&
	      pread(fd, back, 3, 8192) == 3 && memcmp(back, "end", 3) == 0, "o_append_writes_at_the_end");
	close(ap);
	int ro = open(name, O_RDONLY);
	check(raw(write(ro, "x", 1)) == -EBADF && raw(ftruncate(ro, 0)) == -EINVAL,
	      "a_read_only_descriptor_does_not_write");
	close(ro);
	check(raw(open(name, O_CREAT | O_EXCL | O_WRONLY, 0600)) == -EEXIST, "o_excl_on_a_name_there_eexist");
	int tr = open(name, O_WRONLY | O_TRUNC);
	check(tr >= 0 && fstat(fd, &st) == 0 && st.st_size == 0, "o_trunc_empties_the_file");
	close(tr);
	close(fd);
	unlink(name);
}

static void name_checks(void)
{
	struct stat a, b;
	int fd = open("/tmp/n-one", O_CREAT | O_WRONLY, 0644);
	write(fd, "one", 3);
	close(fd);
	fd = open("/tmp/n-two", O_CREAT | O_WRONLY, 0644);
	write(fd, "two!", 4);
	close(fd);
	stat("/tmp/n-one", &a);
	check(rename("/tmp/n-one", "/tmp/n-two") == 0 && stat("/tmp/n-two", &b) == 0 &&
	      b.st_ino == a.st_ino && b.st_size == 3 && raw(stat("/tmp/n-one", &a)) == -ENOENT,
	      "rename_over_an_existing_name_replaces_it");
	check(link("/tmp/n-two", "/tmp/n-link") == 0 && stat("/tmp/n-link", &a) == 0 &&
	      a.st_ino == b.st_ino && a.st_nlink == 2, "link_is_a_second_name_of_one_file");
	check(unlink("/tmp/n-two") == 0 && stat("/tmp/n-link", &a) == 0 && a.st_nlink == 1,
	      "unlink_of_one_name_leaves_the_other");
	check(raw(link("/tmp/n-link", "/tmp/n-link")) == -EEXIST, "link_to_a_name_there_eexist");
	check(raw(open("/tmp/n-new/", O_CREAT | O_WRONLY, 0600)) == -EISDIR &&
	      raw(stat("/tmp/n-new", &a)) == -ENOENT, "o_creat_of_a_name_with_a_slash_eisdir");
	int made = symlink("n-made", "/tmp/n-dangling") == 0 &&
		   (fd = open("/tmp/n-dangling", O_CREAT | O_WRONLY, 0600)) >= 0 &&
		   write(fd, "via", 3) == 3 && close(fd) == 0;
	check(made && stat("/tmp/n-made", &a) == 0 && a.st_size == 3 &&
	      raw(open("/tmp/n-dangling", O_CREAT | O_EXCL | O_WRONLY, 0600)) == -EEXIST,
	      "o_creat_through_a_dangling_link_makes_its_target");
	unlink("/tmp/n-dangling");
	unlink("/tmp/n-made");
	char target[64];
	ssize_t len;
	check(symlink("n-link", "/tmp/n-sym") == 0 && lstat("/tmp/n-sym", &a) == 0 &&
	      S_ISLNK(a.st_mode) && a.st_size == 6 && stat("/tmp/n-sym", &b) == 0 &&
	      S_ISREG(b.st_mode) && b.st_size == 3, "symlink_lstat_is_the_link_stat_its_file");
	check((len = readlink("/tmp/n-sym", target, sizeof(target))) == 6 &&
	      memcmp(target, "n-link", 6) == 0, "readlink_gives_the_target");
	check(raw(open("/tmp/n-sym", O_RDONLY | O_NOFOLLOW)) == -ELOOP, "o_nofollow_on_a_link_eloop");
	check(unlink("/tmp/n-sym") == 0 && stat("/tmp/n-link", &a) == 0, "unlink_of_a_link_keeps_its_file");
	check(chmod("/tmp/n-link", 0640) == 0 && stat("/tmp/n-link", &a) == 0 &&
	      (a.st_mode & 07777) == 0640, "chmod_reads_back");
	check(chown("/tmp/n-link", 1000, 1000) == 0 && stat("/tmp/n-link", &a) == 0 &&
	      a.st_uid == 1000 && a.st_gid == 1000, "chown_by_root_reads_back");
	unlink("/tmp/n-link");
	char longname[300];
	memset(longname, 'x', sizeof(longname));
	memcpy(longname, "/tmp/", 5);
	longname[5 + 256] = 0;
	check(raw(open(longname, O_CREAT | O_WRONLY, 0600)) == -ENAMETOOLONG,
	      "a_256_byte_name_enametoolong");
	longname[5 + 255] = 0;
	fd = open(longname, O_CREAT | O_WRONLY, 0600);
	check(fd >= 0 && unlink(longname) == 0, "a_255_byte_name_is_fine");
	close(fd);
}

static long rename2(const char *a, const char *b, unsigned flags)
{
	return raw(syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, flags));
}

/* renameat2: RENAME_NOREPLACE and RENAME_EXCHANGE (a file with a file, a
 * directory with a file in another directory: the parents' links move). */
static void rename2_checks(void)
{
	struct stat a, b, x, y;
	close(open("/tmp/x-a", O_CREAT | O_WRONLY, 0600));
	close(open("/tmp/x-b", O_CREAT | O_WRONLY, 0644));
	mkdir("/tmp/x-d", 0755);
	mkdir("/tmp/x-e", 0755);
	stat("/tmp/x-a", &a);
	stat("/tmp/x-b", &b);
	check(rename2("/tmp/x-a", "/tmp/x-b", RENAME_NOREPLACE) == -EEXIST &&
	      rename2("/tmp/x-a", "/tmp/x-b", RENAME_NOREPLACE | RENAME_EXCHANGE) == -EINVAL,
	      "renameat2_noreplace_eexist_and_with_exchange_einval");
	check(rename2("/tmp/x-a", "/tmp/x-b", RENAME_EXCHANGE) == 0 && stat("/tmp/x-a", &x) == 0 &&
	      stat("/tmp/x-b", &y) == 0 && x.st_ino == b.st_ino && y.st_ino == a.st_ino,
	      "renameat2_exchange_swaps_two_files");
	check(rename2("/tmp/x-a", "/tmp/x-none", RENAME_EXCHANGE) == -ENOENT,
	      "renameat2_exchange_with_nothing_enoent");
	close(open("/tmp/x-e/g", O_CREAT | O_WRONLY, 0600));
	stat("/tmp/x-e", &b);
	check(rename2("/tmp/x-d", "/tmp/x-e/g", RENAME_EXCHANGE) == 0 && stat("/tmp/x-e/g", &x) == 0 &&
	      S_ISDIR(x.st_mode) && stat("/tmp/x-d", &y) == 0 && S_ISREG(y.st_mode),
	      "renameat2_exchange_a_directory_and_a_file");
	check(stat("/tmp/x-e", &x) == 0 && x.st_nlink == b.st_nlink + 1,
	      "the_directory_gained_by_the_swap_gains_a_link");
	check(rename2("/tmp/x-e", "/tmp/x-e/g", RENAME_EXCHANGE) == -EINVAL,
	      "renameat2_exchange_into_its_own_subtree_einval");
	rmdir("/tmp/x-e/g");
	rmdir("/tmp/x-e");
	unlink("/tmp/x-a");
	unlink("/tmp/x-b");
	unlink("/tmp/x-d");
}

static void dir_checks(void)
{
	struct stat st;
	check(mkdir("/tmp/d", 0755) == 0 && stat("/tmp/d", &st) == 0 && S_ISDIR(st.st_mode) &&
	      st.st_nlink == 2, "mkdir_makes_a_directory_of_2_links");
	check(raw(mkdir("/tmp/d", 0755)) == -EEXIST, "mkdir_of_a_name_there_eexist");
	check(mkdir("/tmp/d/sub", 0755) == 0 && stat("/tmp/d", &st) == 0 && st.st_nlink == 3,
	      "a_subdirectory_adds_a_link");
	check(raw(rmdir("/tmp/d")) == -ENOTEMPTY, "rmdir_of_a_non_empty_directory_enotempty");
	check(raw(unlink("/tmp/d")) == -EISDIR, "unlink_of_a_directory_eisdir");
	check(raw(rename("/tmp/d", "/tmp/d/sub/d")) == -EINVAL,
	      "rename_of_a_directory_into_its_own_subtree_einval");
	int fd = open("/tmp/d/file", O_CREAT | O_WRONLY, 0644);
	close(fd);
	check(raw(rmdir("/tmp/d/file")) == -ENOTDIR, "rmdir_of_a_file_enotdir");
	check(raw(rename("/tmp/d/sub", "/tmp/d/file")) == -ENOTDIR, "rename_of_a_directory_over_a_file_enotdir");
	check(raw(rename("/tmp/d/file", "/tmp/d/sub")) == -EISDIR, "rename_of_a_file_over_a_directory_eisdir");
	check(rename("/tmp/d/sub", "/tmp/sub2") == 0 && stat("/tmp/d", &st) == 0 && st.st_nlink == 2,
	      "rename_of_a_directory_moves_its_link");
	char cwd[64], link[64] = "";
	check(chdir("/tmp/sub2") == 0 && getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/tmp/sub2") == 0 &&
	      readlink("/proc/self/cwd", link, sizeof(link)) == 9 && memcmp(link, "/tmp/sub2", 9) == 0 &&
	      chdir("..") == 0 && getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/tmp") == 0,
	      "getcwd_and_dotdot_in_tmpfs");
	char buf[64];
	check(mkdir("/tmp/gone", 0755) == 0 && mkdir("/tmp/gone/in", 0755) == 0 &&
	      chdir("/tmp/gone/in") == 0 && rmdir("/tmp/gone/in") == 0 && rmdir("/tmp/gone") == 0 &&
	      raw(syscall(SYS_getcwd, buf, sizeof(buf))) == -ENOENT &&
	      raw(open("new", O_CREAT | O_WRONLY, 0600)) == -ENOENT && raw(mkdir("sub", 0755)) == -ENOENT &&
	      chdir("..") == 0, "a_removed_working_directory_has_no_path_and_takes_no_names");
	chdir("/");
	check(rmdir("/tmp/sub2") == 0 && unlink("/tmp/d/file") == 0 && rmdir("/tmp/d") == 0 &&
	      raw(stat("/tmp/d", &st)) == -ENOENT, "rmdir_of_empty_directories");
}

/* Fifty names listed while each is unlinked as it is seen: each is seen
 * once, and the directory is empty after. */
static void readdir_checks(void)
{
	char path[300];
	mkdir("/tmp/r", 0755);
	for (int i = 0; i < 50; i++) {
		snprintf(path, sizeof(path), "/tmp/r/f%02d", i);
		close(open(path, O_CREAT | O_WRONLY, 0644));
	}
	int seen[50] = { 0 }, others = 0, total = 0;
	DIR *d = opendir("/tmp/r");
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		int k;
		if (sscanf(e->d_name, "f%d", &k) == 1 && k >= 0 && k < 50) {
			seen[k]++;
			snprintf(path, sizeof(path), "/tmp/r/%s", e->d_name);
			unlink(path);
		} else if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			others++;
		}
	}
	for (int i = 0; i < 50; i++)
		total += seen[i] == 1;
	check(total == 50 && others == 0, "readdir_while_unlinking_sees_each_name_once");
	rewinddir(d);
	int left = 0;
	while ((e = readdir(d)) != NULL)
		left += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	check(left == 0 && rmdir("/tmp/r") == 0, "the_directory_is_empty_after");
}

/* utimensat (touch's call), futimens and fchdir (find's way back). */
static void time_checks(void)
{
	struct stat st;
	struct timespec ts[2] = { { 1000000000, 5 }, { 1200000000, 7 } };
	int fd = open("/tmp/t", O_CREAT | O_WRONLY, 0644);
	check(utimensat(AT_FDCWD, "/tmp/t", ts, 0) == 0 && stat("/tmp/t", &st) == 0 &&
	      st.st_atim.tv_sec == 1000000000 && st.st_atim.tv_nsec == 5 &&
	      st.st_mtim.tv_sec == 1200000000 && st.st_mtim.tv_nsec == 7 &&
	      st.st_ctim.tv_sec > 1200000000, "utimensat_sets_both_times_ctime_is_now");
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_nsec = UTIME_NOW;
	check(futimens(fd, ts) == 0 && stat("/tmp/t", &st) == 0 && st.st_atim.tv_sec == 1000000000 &&
	      st.st_mtim.tv_sec > 1200000000, "futimens_omit_and_now");
	ts[1].tv_nsec = 1000000000;
	check(raw(utimensat(AT_FDCWD, "/tmp/t", ts, 0)) == -EINVAL, "utimensat_bad_nsec_einval");
	check(raw(utimensat(AT_FDCWD, "/tmp/none", NULL, 0)) == -ENOENT, "utimensat_of_nothing_enoent");
	close(fd);
	unlink("/tmp/t");
	char cwd[64];
	int dir = open("/tmp", O_RDONLY | O_DIRECTORY);
	check(chdir("/bin") == 0 && fchdir(dir) == 0 && getcwd(cwd, sizeof(cwd)) &&
	      strcmp(cwd, "/tmp") == 0, "fchdir_to_an_open_directory");
	fd = open("/bin/tmpfs", O_RDONLY);
	check(raw(fchdir(fd)) == -ENOTDIR && raw(fchdir(99)) == -EBADF, "fchdir_of_a_file_enotdir");
	close(fd);
	close(dir);
	chdir("/");
}

static void wait_all(int n)
{
	while (n-- > 0)
		wait(NULL);
}

/* Two processes appending at once: each 100-byte record whole, none
 * written over another. Then two writing regions of their own with
 * pwrite while a third truncates the file to its size: every byte read
 * back as its writer wrote it. */
static void concurrency_checks(void)
{
	enum { RECS = 200, REC = 100, HALF = 65536 };
	static char all[2 * HALF], want[REC];
	int fd = open("/tmp/c", O_CREAT | O_RDWR | O_TRUNC, 0600);
	for (int k = 0; k < 2; k++)
		if (fork() == 0) {
			int a = open("/tmp/c", O_WRONLY | O_APPEND);
			char rec[REC];
			memset(rec, 'A' + k, sizeof(rec));
			for (int i = 0; i < RECS; i++)
				write(a, rec, sizeof(rec));
			_exit(0);
		}
	wait_all(2);
	int whole = 0, as = 0;
	ssize_t got = pread(fd, all, sizeof(all), 0);
	for (int r = 0; got == 2 * RECS * REC && r < 2 * RECS; r++) {
		memset(want, all[r * REC], sizeof(want));
		whole += memcmp(all + r * REC, want, REC) == 0;
		as += all[r * REC] == 'A';
	}
	check(got == 2 * RECS * REC && whole == 2 * RECS && as == RECS,
	      "o_append_from_two_processes_never_overwrites");
	ftruncate(fd, 2 * HALF);
	for (int k = 0; k < 3; k++)
		if (fork() == 0) {
			char chunk[1000];
			for (int i = 0; i < 3 * HALF / 1000 && k == 2; i++)
				ftruncate(fd, 2 * HALF);
			for (int round = 0; round < 3 && k < 2; round++)
				for (int off = 0; off < HALF; off += sizeof(chunk)) {
					fill(chunk, sizeof(chunk), k * HALF + off + round);
					int n = off + (int)sizeof(chunk) > HALF ? HALF - off : (int)sizeof(chunk);
					pwrite(fd, chunk, n, k * HALF + off);
				}
			_exit(0);
		}
	wait_all(3);
	ftruncate(fd, 2 * HALF);		/* once more, after every write */
	int right = pread(fd, all, sizeof(all), 0) == 2 * HALF;
	for (int k = 0; k < 2; k++)
		for (int off = 0; off < HALF; off += 1000) {
			char chunk[1000];
			int n = off + 1000 > HALF ? HALF - off : 1000;
			fill(chunk, sizeof(chunk), k * HALF + off + 2);
			right &= memcmp(all + k * HALF + off, chunk, n) == 0;
		}
	check(right, "two_writers_and_a_truncation_keep_every_byte");
	close(fd);
	unlink("/tmp/c");
}

static int lock(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	return fcntl(fd, cmd, &fl) == 0 ? 0 : -errno;
}

/* What the child sees of the parent's write lock on bytes 0..99. */
static int lock_child(void)
{
	int fd = open("/tmp/lk", O_RDWR);
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 50, .l_len = 10 };
	if (fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type != F_WRLCK || fl.l_start != 0 ||
	    fl.l_len != 100 || fl.l_pid != getppid())
		return 1;
	if (lock(fd, F_SETLK, F_RDLCK, 50, 10) != -EAGAIN || lock(fd, F_SETLK, F_WRLCK, 100, 10) != 0)
		return 2;
	fl = (struct flock){ .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 200, .l_len = 5 };
	if (fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type != F_UNLCK || fl.l_start != 200)
		return 3;
	return lock(fd, F_SETLKW, F_WRLCK, 0, 1) == 0 ? 0 : 4;	/* waits for the parent */
}

/* fcntl's record locks (sqlite3 takes them on its database): conflicts
 * between processes, F_GETLK's answer, and every lock of a process let go
 * when it closes any descriptor of the file. */
static void lock_checks(void)
{
	int fd = open("/tmp/lk", O_CREAT | O_RDWR, 0600), other = open("/tmp/lk", O_RDONLY);
	check(lock(fd, F_SETLK, F_WRLCK, 0, 100) == 0 && lock(fd, F_SETLK, F_RDLCK, 10, 10) == 0 &&
	      lock(other, F_SETLK, F_WRLCK, 0, 1) == -EBADF, "setlk_takes_and_changes_own_locks_ebadf_on_access");
	check(lock(fd, F_SETLK, F_WRLCK, 10, 10) == 0 && lock(fd, F_SETLK, 9, 0, 1) == -EINVAL,
	      "setlk_bad_type_einval");
	pid_t child = fork();
	if (child == 0)
		_exit(lock_child());
	usleep(200000);
	close(other);			/* POSIX: every lock of ours on the file goes */
	int status = -1;
	waitpid(child, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "another_process_sees_the_lock_and_waits_for_the_close");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("# the child's status %#x\n", status);
	close(fd);
	unlink("/tmp/lk");
}

/* fallocate: pages taken (the size grown unless KEEP_SIZE), a hole
 * punched, Linux's errnos; on a full mount ENOSPC with nothing taken. */
static void fallocate_checks(void)
{
	struct stat st;
	char back[8];
	int fd = open("/tmp/fa", O_CREAT | O_RDWR, 0600), ro = open("/tmp/fa", O_RDONLY);
	check(fallocate(fd, 0, 0, 16384) == 0 && fstat(fd, &st) == 0 && st.st_size == 16384 &&
	      st.st_blocks == 32, "fallocate_takes_pages_and_grows_the_size");
	check(fallocate(fd, FALLOC_FL_KEEP_SIZE, 16384, 8192) == 0 && fstat(fd, &st) == 0 &&
	      st.st_size == 16384 && st.st_blocks == 48, "keep_size_takes_pages_past_the_end");
	pwrite(fd, "abcdefgh", 8, 4090);
	check(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 4092, 8192) == 0 &&
	      fstat(fd, &st) == 0 && st.st_size == 16384 && st.st_blocks == 40 &&
	      pread(fd, back, 8, 4090) == 8 && memcmp(back, "ab\0\0\0\0\0\0", 8) == 0,
	      "punch_hole_zeros_the_range_and_frees_whole_pages");
	check(raw(fallocate(fd, 0, 0, 0)) == -EINVAL && raw(fallocate(fd, 0, -1, 10)) == -EINVAL &&
	      raw(fallocate(fd, FALLOC_FL_PUNCH_HOLE, 0, 10)) == -EOPNOTSUPP &&
	      raw(fallocate(ro, 0, 0, 10)) == -EBADF, "fallocate_bad_input");
	close(ro);
	close(fd);
	unlink("/tmp/fa");
	mkdir("/tmp/fsmall", 0755);
	mount("fsmall", "/tmp/fsmall", "tmpfs", 0, "size=16k");
	fd = open("/tmp/fsmall/f", O_CREAT | O_RDWR, 0600);
	struct statfs s;
	check(raw(fallocate(fd, 0, 0, 32768)) == -ENOSPC && fstat(fd, &st) == 0 && st.st_size == 0 &&
	      st.st_blocks == 0 && statfs("/tmp/fsmall", &s) == 0 && s.f_bfree == 4,
	      "fallocate_past_the_limit_enospc_takes_nothing");
	close(fd);
	umount2("/tmp/fsmall", 0);
	rmdir("/tmp/fsmall");
}

/* Extended attributes as Linux's tmpfs answers for a file with none:
 * security.* and ACLs ENODATA, user.* EOPNOTSUPP, an empty list; ls -l
 * and cp -a ask so. */
static void xattr_checks(void)
{
	char v[16], list[64];
	close(open("/tmp/xa", O_CREAT | O_WRONLY, 0600));
	symlink("xa", "/tmp/xl");
	check(raw(getxattr("/tmp/xa", "security.selinux", v, sizeof(v))) == -ENODATA &&
	      raw(getxattr("/tmp/xa", "system.posix_acl_access", v, sizeof(v))) == -ENODATA &&
	      raw(lgetxattr("/tmp/xl", "security.selinux", v, sizeof(v))) == -ENODATA,
	      "getxattr_of_a_security_name_enodata");
	check(raw(getxattr("/tmp/xa", "user.note", v, sizeof(v))) == -EOPNOTSUPP &&
	      raw(setxattr("/tmp/xa", "user.note", "x", 1, 0)) == -EOPNOTSUPP,
	      "user_names_are_not_kept_on_tmpfs_eopnotsupp");
	check(listxattr("/tmp/xa", list, sizeof(list)) == 0 && llistxattr("/tmp/xl", list, sizeof(list)) == 0,
	      "listxattr_is_empty");
	check(raw(getxattr("/tmp/none", "security.selinux", v, sizeof(v))) == -ENOENT &&
	      raw(getxattr("/tmp/xa", "", v, sizeof(v))) == -ERANGE &&
	      raw(fgetxattr(99, "security.selinux", v, sizeof(v))) == -EBADF, "getxattr_bad_input");
	unlink("/tmp/xl");
	unlink("/tmp/xa");
}

static void unlinked_open_checks(void)
{
	char buf[8] = { 0 };
	struct stat st;
	int fd = open("/tmp/u", O_CREAT | O_RDWR, 0600);
	write(fd, "alive", 5);
	check(unlink("/tmp/u") == 0 && fstat(fd, &st) == 0 && st.st_nlink == 0 &&
	      pread(fd, buf, 5, 0) == 5 && memcmp(buf, "alive", 5) == 0,
	      "an_unlinked_open_file_keeps_its_data");
	check(write(fd, "!", 1) == 1 && fstat(fd, &st) == 0 && st.st_size == 6,
	      "and_takes_writes_until_closed");
	close(fd);
}

static void statfs_checks(void)
{
	struct statfs s;
	check(statfs("/tmp", &s) == 0 && s.f_type == TMPFS_MAGIC && s.f_bsize == 4096 &&
	      s.f_namelen == 255 && s.f_blocks > 0 && s.f_bfree <= s.f_blocks,
	      "statfs_of_tmp_is_tmpfs");
	int fd = open("/tmp", O_RDONLY | O_DIRECTORY);
	struct statfs t;
	check(fd >= 0 && fstatfs(fd, &t) == 0 && t.f_type == TMPFS_MAGIC && t.f_blocks == s.f_blocks,
	      "fstatfs_agrees");
	close(fd);
	check(raw(statfs("/tmp/none/such", &s)) == -ENOENT, "statfs_of_nothing_enoent");
}

/* As uid 1000 in a child: root's 0644 file is not the user's to write,
 * and in sticky /tmp not the user's to remove; the user's own is. */
static int as_user(void)
{
	if (setgid(1000) < 0 || setuid(1000) < 0)
		return 10;
	if (raw(open("/tmp/p-root", O_WRONLY)) != -EACCES)
		return 1;
	if (raw(unlink("/tmp/p-root")) != -EPERM)
		return 2;
	if (raw(rename("/tmp/p-root", "/tmp/p-mine")) != -EPERM)
		return 3;
	if (raw(chmod("/tmp/p-root", 0666)) != -EPERM)
		return 4;
	int fd = open("/tmp/p-mine", O_CREAT | O_WRONLY, 0600);
	if (fd < 0 || write(fd, "mine", 4) != 4 || unlink("/tmp/p-mine") != 0)
		return 5;
	if (raw(mount("none", "/tmp", "tmpfs", 0, NULL)) != -EPERM)
		return 6;
	if (raw(mkdir("/tmp/p-dir/x", 0755)) != -EACCES)
		return 7;
	return 0;
}

static void permission_checks(void)
{
	close(open("/tmp/p-root", O_CREAT | O_WRONLY, 0644));
	mkdir("/tmp/p-dir", 0755);
	pid_t pid = fork();
	if (pid == 0)
		_exit(as_user());
	int status = -1;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a_user_gets_eacces_and_the_sticky_eperm_and_keeps_its_own");
	struct stat st;
	check(stat("/tmp", &st) == 0 && (st.st_mode & 07777) == 01777, "tmp_is_sticky_1777");
	unlink("/tmp/p-root");
	rmdir("/tmp/p-dir");
}

/* Twenty directories, one in the other, each with a file of a page. */
static void make_tree(const char *top)
{
	char path[128], file[140];
	strcpy(path, top);
	for (int depth = 0; depth < 20; depth++) {
		strcat(path, "/d");
		mkdir(path, 0755);
		snprintf(file, sizeof(file), "%s/f", path);
		int fd = open(file, O_CREAT | O_WRONLY, 0600);
		write(fd, file, sizeof(file));
		close(fd);
	}
}

/* A tmpfs of two pages: a write of three stops at two (what fit is
 * kept), the next is ENOSPC; umount2 is EBUSY while a file is open. */
static void mount_checks(void)
{
	char buf[12288], back[8192], mounts[4096] = "", link[32] = "";
	mkdir("/tmp/small", 0755);
	check(raw(mount("none", "/tmp/small", "nosuchfs", 0, NULL)) == -ENODEV,
	      "mount_of_an_unknown_type_enodev");
	check(mount("small", "/tmp/small", "tmpfs", 0, "size=8k") == 0, "mount_tmpfs_size_8k");
	int mfd = open("/proc/self/mounts", O_RDONLY);
	ssize_t len = mfd >= 0 ? read(mfd, mounts, sizeof(mounts) - 1) : -1;
	close(mfd);
	check(len > 0 && strstr(mounts, "\nsmall /tmp/small tmpfs rw,relatime,size=8k 0 0\n") &&
	      readlink("/proc/mounts", link, sizeof(link)) == 11 && memcmp(link, "self/mounts", 11) == 0,
	      "proc_self_mounts_shows_it_as_linux");
	struct statfs s;
	check(statfs("/tmp/small", &s) == 0 && s.f_type == TMPFS_MAGIC && s.f_blocks == 2,
	      "its_statfs_says_2_blocks");
	fill(buf, sizeof(buf), 3);
	int fd = open("/tmp/small/f", O_CREAT | O_RDWR, 0600);
	check(write(fd, buf, sizeof(buf)) == 8192, "a_write_past_the_limit_stops_at_it");
	check(raw(write(fd, buf, 10)) == -ENOSPC, "the_next_write_enospc");
	struct stat st;
	check(raw(pwrite(fd, buf, 10, 100000)) == -ENOSPC && fstat(fd, &st) == 0 && st.st_size == 8192,
	      "a_failed_write_past_the_end_grows_nothing");
	check(pread(fd, back, sizeof(back), 0) == 8192 && memcmp(buf, back, sizeof(back)) == 0,
	      "what_was_written_stays");
	check(raw(umount2("/tmp/small", 0)) == -EBUSY, "umount_while_a_file_is_open_ebusy");
	close(fd);
	unlink("/tmp/small/f");
	make_tree("/tmp/small");
	int cwd = open("/tmp/small/d/d", O_RDONLY | O_DIRECTORY);
	check(fchdir(cwd) == 0 && raw(umount2("/tmp/small", 0)) == -EBUSY && chdir("/") == 0,
	      "umount_while_a_working_directory_is_in_it_ebusy");
	close(cwd);
	pid_t child = fork();
	if (child == 0)
		_exit(chdir("/tmp/small/d") != 0);	/* and exits there */
	int status = -1;
	waitpid(child, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && umount2("/tmp/small", 0) == 0,
	      "a_process_that_exits_in_it_lets_it_go");
	mount("small", "/tmp/small", "tmpfs", 0, "size=8k");
	check(umount2("/tmp/small", 0) == 0 && raw(stat("/tmp/small/f", &(struct stat){ 0 })) == -ENOENT,
	      "umount_after_close");
	check(raw(umount2("/tmp/small", 0)) == -EINVAL, "umount_of_a_directory_not_mounted_einval");
	rmdir("/tmp/small");
}

/* nr_inodes= counts the root too; the next name is ENOSPC. */
static void inode_limit_checks(void)
{
	struct statfs s;
	mkdir("/tmp/few", 0755);
	int ok = mount("few", "/tmp/few", "tmpfs", 0, "nr_inodes=3") == 0;
	int a = open("/tmp/few/a", O_CREAT | O_WRONLY, 0600), b = open("/tmp/few/b", O_CREAT | O_WRONLY, 0600);
	check(ok && a >= 0 && b >= 0 && raw(open("/tmp/few/c", O_CREAT | O_WRONLY, 0600)) == -ENOSPC &&
	      raw(mkdir("/tmp/few/d", 0755)) == -ENOSPC, "nr_inodes_3_takes_the_root_and_two_names");
	check(statfs("/tmp/few", &s) == 0 && s.f_files == 3 && s.f_ffree == 0, "statfs_counts_the_inodes");
	close(a);
	close(b);
	check(unlink("/tmp/few/a") == 0 && (close(open("/tmp/few/c", O_CREAT | O_WRONLY, 0600)), 1) &&
	      umount2("/tmp/few", 0) == 0, "an_unlinked_name_gives_its_inode_back");
	rmdir("/tmp/few");
}

/* /proc/meminfo's Shmem counts tmpfs's pages: 400 kB written, then
 * unlinked (Linux's count is folded from per-CPU deltas: 396 kB was seen). */
static long shmem_kb(void)
{
	char text[4096];
	int fd = open("/proc/meminfo", O_RDONLY);
	ssize_t n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = 0;
	char *line = strstr(text, "\nShmem:");
	return line ? atol(line + 7) : -1;
}

static void shmem_checks(void)
{
	static char buf[400 * 1024];
	long before = shmem_kb();
	int fd = open("/tmp/shm", O_CREAT | O_WRONLY, 0600);
	write(fd, buf, sizeof(buf));
	long during = shmem_kb();
	close(fd);
	unlink("/tmp/shm");
	long after = shmem_kb();
	check(before >= 0 && during - before >= 300 && during - before < 480 &&
	      after - before < 80 && before - after < 80, "meminfo_shmem_counts_tmpfs_pages");
	printf("# Shmem %ld kB, with the file %ld kB, after %ld kB\n", before, during, after);
}

/* umount frees a whole tree: the second of two rounds keeps no frame
 * (the first fills the heap's per-CPU caches, as in leak_checks). */
static void umount_leak_checks(void)
{
	int here = syscall(NR_FREE_FRAMES) > 0;
	long before = 0, after = 0;
	mkdir("/tmp/m", 0755);
	for (int round = 0; round < 2; round++) {
		if (here)
			before = syscall(NR_FREE_FRAMES);
		mount("m", "/tmp/m", "tmpfs", 0, "size=1m");
		make_tree("/tmp/m");
		umount2("/tmp/m", 0);
		if (here)
			after = syscall(NR_FREE_FRAMES);
	}
	rmdir("/tmp/m");
	check_ours(here, before == after, "umount_frees_every_frame_of_a_tree");
	if (here && after != before)
		printf("# free frames before the mount %ld, after the umount %ld\n", before, after);
}

/* A loop that creates, writes and unlinks: no frame is kept. */
static void leak_checks(void)
{
	int here = syscall(NR_FREE_FRAMES) > 0;
	char buf[9000];
	fill(buf, sizeof(buf), 5);
	long before = 0, after = 0;
	for (int round = 0; round < 2; round++) {
		if (here)
			before = syscall(NR_FREE_FRAMES);
		for (int i = 0; i < 100; i++) {
			int fd = open("/tmp/leak", O_CREAT | O_RDWR | O_TRUNC, 0600);
			write(fd, buf, sizeof(buf));
			link("/tmp/leak", "/tmp/leak2");
			unlink("/tmp/leak");
			close(fd);
			unlink("/tmp/leak2");
		}
		if (here)
			after = syscall(NR_FREE_FRAMES);
	}
	check_ours(here, before == after, "create_write_unlink_keeps_no_frame");
}

int main(void)
{
	printf("KTAP version 1\n1..94\n");
	file_checks();
	name_checks();
	dir_checks();
	rename2_checks();
	readdir_checks();
	time_checks();
	concurrency_checks();
	lock_checks();
	fallocate_checks();
	xattr_checks();
	unlinked_open_checks();
	statfs_checks();
	permission_checks();
	mount_checks();
	inode_limit_checks();
	shmem_checks();
	leak_checks();
	umount_leak_checks();
	return failures ? 1 : 0;
}
