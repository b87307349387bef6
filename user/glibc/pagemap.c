/*
 * pagemap - /proc/PID/pagemap as programs read it (LTP's mmap12, tools
 * such as page-types), in KTAP, so that tests/linux-diff.sh compares this
 * kernel's words with Linux 6.1's: each page's flags (present, swapped,
 * file or shared, exclusively mapped, soft-dirty) for untouched and
 * written anonymous memory, MAP_POPULATE of anonymous memory and of a
 * file (private writable: copies; read-only: the file's pages), shared
 * file and anonymous mappings, a page mapped twice, the program's own
 * code, copy-on-write pages before and after a fork's child writes,
 * mprotect, MADV_DONTNEED and munmap; the PFN for root and not for
 * others; another user's pagemap (EACCES); offsets and counts that are
 * not whole words (EINVAL), a bad buffer (EFAULT), the end of user
 * space, read and pread and where the offset goes. No PFN is printed:
 * the checks compare them with each other.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o pagemap user/glibc/pagemap.c
 * pagemap.linux.ktap beside it is its transcript on Debian's Linux 6.1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"	/* n, failures, check(), check_why(), raw() */

#define PAGE		4096u
#define PM_PRESENT	(1ull << 63)
#define PM_SWAP		(1ull << 62)
#define PM_FILE		(1ull << 61)
#define PM_EXCLUSIVE	(1ull << 56)
#define PM_SOFT_DIRTY	(1ull << 55)
#define PM_PFN		((1ull << 55) - 1)
#define FILE_PAGES	16
#define TMPFILE		"/tmp/pagemap.file"

static int pm = -1;

/* The word of page va (pread), or all ones when the read failed. */
static uint64_t word(const volatile void *va)
{
	uint64_t w;
	off_t at = (off_t)((uintptr_t)va / PAGE) * 8;
	return pread(pm, &w, 8, at) == 8 ? w : ~0ull;
}

/* Page flags as letters: p present, s swapped, f file/shared,
 * x exclusively mapped, d soft-dirty; "-" none. PFN apart. */
static const char *flags(uint64_t w, char *out)
{
	char *o = out;
	if (w == ~0ull)
		return strcpy(out, "unreadable");
	if (w & PM_PRESENT)
		*o++ = 'p';
	if (w & PM_SWAP)
		*o++ = 's';
	if (w & PM_FILE)
		*o++ = 'f';
	if (w & PM_EXCLUSIVE)
		*o++ = 'x';
	if (w & PM_SOFT_DIRTY)
		*o++ = 'd';
	if (o == out)
		*o++ = '-';
	*o = 0;
	return out;
}

/* The flags of npages pages from base, space-separated, into what. */
static const char *flags_of(const volatile char *base, int npages, char *what, size_t size)
{
	char f[16];
	what[0] = 0;
	for (int i = 0; i < npages; i++)
		snprintf(what + strlen(what), size - strlen(what), "%s%s", i ? " " : "",
			 flags(word(base + i * PAGE), f));
	return what;
}

/* Every one of npages pages from base has exactly these flags. */
static int all_are(const volatile char *base, int npages, const char *want)
{
	char f[16];
	for (int i = 0; i < npages; i++)
		if (strcmp(flags(word(base + i * PAGE), f), want) != 0)
			return 0;
	return 1;
}

static char *map(int npages, int prot, int flags, int fd)
{
	void *p = mmap(NULL, npages * PAGE, prot, flags, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* ---- the file's own rules ------------------------------------------------------ */

static void file_checks(void)
{
	struct stat st;
	char what[64];
	check(pm >= 0, "open_own_pagemap");
	snprintf(what, sizeof(what), "%o", fstat(pm, &st) == 0 ? (unsigned)st.st_mode : 0);
	check_why(S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0400,
		  "pagemap_is_a_regular_file_0400", what);
	uint64_t w[4];
	check(raw(pread(pm, w, 8, 4)) == -EINVAL, "an_offset_not_a_whole_word_einval");
	check(raw(pread(pm, w, 4, 8)) == -EINVAL, "a_count_not_a_whole_word_einval");
	check(raw(pread(pm, w, 0, 8)) == 0, "a_count_of_0_reads_nothing");
	check(raw(syscall(SYS_pread64, pm, 8, 8, 8, 0)) == -EFAULT, "a_bad_buffer_efault");
	off_t end = (off_t)(0xC0000000u / PAGE) * 8;
	long last = raw(pread(pm, w, 16, end - 8)), past = raw(pread(pm, w, 8, end));
	snprintf(what, sizeof(what), "%ld %ld", last, past);
	check_why(last == 8 && past == 0, "reads_stop_at_the_end_of_user_space", what);
	check(lseek(pm, 8 * 16, SEEK_SET) == 8 * 16 && read(pm, w, 32) == 32 &&
	      lseek(pm, 0, SEEK_CUR) == 8 * 20, "read_moves_the_offset_by_what_it_read");
	check(lseek(pm, 8, SEEK_SET) == 8 && raw(read(pm, w, 4)) == -EINVAL &&
	      lseek(pm, 0, SEEK_CUR) == 8, "a_refused_read_leaves_the_offset");
}

/* ---- anonymous memory ---------------------------------------------------------- */

static void anon_checks(void)
{
	char what[128];
	volatile char *a = map(4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	check_why(a && all_are(a, 4, "-"), "untouched_anonymous_pages_are_absent",
		  flags_of(a, 4, what, sizeof(what)));
	a[0] = 1;
	a[2 * PAGE] = 1;
	check_why(a && !strcmp(flags_of(a, 4, what, sizeof(what)), "px - px -"),
		  "written_pages_are_present_and_exclusive", what);
	check((word(a) & PM_PFN) != 0 && (word(a) & PM_PFN) != (word(a + 2 * PAGE) & PM_PFN),
	      "root_sees_two_frames");
	mprotect((void *)a, PAGE, PROT_NONE);
	check_why(!strcmp(flags(word(a), what), "px"), "a_prot_none_page_stays_present", what);
	madvise((void *)(a + 2 * PAGE), PAGE, MADV_DONTNEED);
	check_why(!strcmp(flags(word(a + 2 * PAGE), what), "-"), "madv_dontneed_takes_it_away",
		  what);
	munmap((void *)a, 4 * PAGE);
	check_why(!strcmp(flags(word(a), what), "-"), "an_unmapped_page_is_absent", what);

	volatile char *p = map(8, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1);
	check_why(p && all_are(p, 8, "px"), "map_populate_makes_every_page_present",
		  flags_of(p, 8, what, sizeof(what)));
	munmap((void *)p, 8 * PAGE);
	p = map(4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE |
		MAP_NONBLOCK, -1);
	check_why(p && all_are(p, 4, "-"), "map_nonblock_turns_populate_off",
		  flags_of(p, 4, what, sizeof(what)));
	munmap((void *)p, 4 * PAGE);

	volatile char *s = map(2, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1);
	s[0] = 1;
	check_why(s && !strcmp(flags(word(s), what), "pfx"), "shared_anonymous_is_a_file_page",
		  what);
	munmap((void *)s, 2 * PAGE);
}

/* ---- a file's pages --------------------------------------------------------------- */

static void file_page_checks(void)
{
	char what[128];
	int fd = open(TMPFILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	check(fd >= 0 && ftruncate(fd, FILE_PAGES * PAGE) == 0, "a_tmpfs_file");
	/* mmap12: private, writable, populated: copies, the process's own */
	volatile char *w = map(FILE_PAGES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_POPULATE, fd);
	int zero = 1;
	for (unsigned i = 0; w && i < FILE_PAGES * PAGE; i++)
		zero &= w[i] == 0;
	check_why(w && all_are(w, FILE_PAGES, "px") && zero,
		  "populated_private_writable_file_pages_are_copies",
		  flags_of(w, 4, what, sizeof(what)));
	/* read-only: the file's own pages */
	volatile char *r = map(4, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd);
	check_why(r && all_are(r, 4, "pfx"), "populated_read_only_file_pages_are_the_files",
		  flags_of(r, 4, what, sizeof(what)));
	munmap((void *)r, 4 * PAGE);
	volatile char *s1 = map(2, PROT_READ | PROT_WRITE, MAP_SHARED, fd);
	s1[0] = 7;
	check_why(s1 && !strcmp(flags_of(s1, 2, what, sizeof(what)), "pfx -"),
		  "a_shared_file_mapping_written_once", what);
	volatile char *s2 = map(2, PROT_READ | PROT_WRITE, MAP_SHARED, fd);
	(void)s2[0];
	check_why(s2 && !strcmp(flags(word(s2), what), "pf") && !strcmp(flags(word(s1), what), "pf"),
		  "a_page_in_two_mappings_is_not_exclusive", what);
	check((word(s1) & PM_PFN) == (word(s2) & PM_PFN) && (word(s1) & PM_PFN) != 0,
	      "both_mappings_name_one_frame");
	munmap((void *)s2, 2 * PAGE);
	check_why(!strcmp(flags(word(s1), what), "pfx"), "unmapping_one_makes_the_other_exclusive",
		  what);
	munmap((void *)w, FILE_PAGES * PAGE);
	munmap((void *)s1, 2 * PAGE);
	close(fd);
	unlink(TMPFILE);
	uint64_t code = word((const void *)file_checks);
	check_why((code & (PM_PRESENT | PM_FILE)) == (PM_PRESENT | PM_FILE), "the_programs_code_is_file_pages",
		  flags(code, what));
}

/* ---- copy-on-write after fork ------------------------------------------------------- */

static void cow_checks(void)
{
	char what[160], f1[16], f2[16];
	volatile char *a = map(1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	a[0] = 1;
	uint64_t before = word(a);
	int to_parent[2], to_child[2];
	pipe(to_parent);
	pipe(to_child);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(pm);	/* the parent's: Linux's file keeps the mm it was opened for */
		pm = open("/proc/self/pagemap", O_RDONLY);
		uint64_t shared = word(a);
		a[0] = 2;
		uint64_t own = word(a);
		int ok = shared != ~0ull && (shared & PM_PFN) == (before & PM_PFN) &&
			 (own & PM_PFN) != (before & PM_PFN);
		char line[64];
		snprintf(line, sizeof(line), "%s %s %d", flags(shared, f1), flags(own, f2), ok);
		write(to_parent[1], line, strlen(line) + 1);
		char c;
		read(to_child[0], &c, 1);
		_exit(0);
	}
	char line[64] = "";
	read(to_parent[0], line, sizeof(line));
	uint64_t after = word(a);
	snprintf(what, sizeof(what), "child %s, parent %s", line, flags(after, f1));
	check_why(!strcmp(line, "p px 1") && !strcmp(f1, "px"),
		  "a_cow_page_is_shared_until_the_child_writes", what);
	write(to_child[1], "x", 1);
	waitpid(pid, NULL, 0);
	munmap((void *)a, PAGE);
}

/* ---- who may read, and the PFN ------------------------------------------------------ */

static int as_user(void)
{
	char path[64];
	volatile char *a = map(1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	a[0] = 1;
	if (setuid(1000) != 0)
		return 1;
	prctl(PR_SET_DUMPABLE, 1);
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)getppid());
	if (open(path, O_RDONLY) >= 0 || errno != EACCES)
		return 2;
	close(pm);
	pm = open("/proc/self/pagemap", O_RDONLY);
	uint64_t w = word(a);
	return pm < 0 ? 3 : (w & PM_PRESENT) && !(w & PM_PFN) ? 0 : 4;
}

static void permission_checks(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(as_user());
	int st = -1;
	waitpid(pid, &st, 0);
	char what[32];
	snprintf(what, sizeof(what), "%d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	check_why(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "another_users_pagemap_eacces_own_without_pfns", what);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..28\n");
	pm = open("/proc/self/pagemap", O_RDONLY);
	file_checks();
	anon_checks();
	file_page_checks();
	cow_checks();
	permission_checks();
	return failures ? 1 : 0;
}
