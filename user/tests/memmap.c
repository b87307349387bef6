/*
 * memmap - mmap, munmap, mprotect, mremap, madvise and brk as Linux i386
 * has them, and what copy-on-write fork and shared mappings promise.
 *
 * One check per rule, each printing only what Linux prints too (no
 * addresses), so tests/linux-diff.sh compares the transcript with Linux
 * 6.1's line for line. A fault the test provokes on purpose (a write to a
 * read-only page, a read of a PROT_NONE guard page or of an unmapped page)
 * is taken by a SIGSEGV handler that records si_code and si_addr and
 * resumes after the faulting instruction (try_read/try_write below), so
 * the test sees whether the access happened and what the kernel reported.
 * The checks of the kernel's frame count only apply here ("kernel-specific").
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel_calls.h"
#include "ktap.h"
#include "syscall.h"

#define PAGE 4096
#define RW (PROT_READ | PROT_WRITE)
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)

/* ---- faulting accesses that come back ---- */

/* try_write(p, v): 0 if *p = v happened, 1 if it faulted (the handler
 * moves eip to try_skip). try_read(p): the byte, or -1 if it faulted. */
int try_write(int *p, int v);
int try_read(const char *p);
extern char try_skip[];
__asm__(".text\n"
	".globl try_write\ntry_write:\n"
	"	movl 4(%esp), %edx\n	movl 8(%esp), %eax\n"
	"	movl %eax, (%edx)\n	xorl %eax, %eax\n	ret\n"
	".globl try_read\ntry_read:\n"
	"	movl 4(%esp), %edx\n	movzbl (%edx), %eax\n	ret\n"
	".globl try_skip\ntry_skip:\n	movl $-1, %eax\n	ret\n");

/* struct sigcontext, struct ucontext: uapi/signal.h (through <signal.h>). */

static volatile int faults, last_code, last_sig;
static void *volatile last_addr;

static void on_fault(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;

	faults++;
	last_sig = sig;
	last_code = si->si_code;
	last_addr = si->si_addr;
	uc->uc_mcontext.eip = (unsigned long)try_skip;
	uc->uc_mcontext.eax = (unsigned long)-1;
}

static void catch_faults(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

static const char *code_name(int code)
{
	return code == SEGV_MAPERR ? "SEGV_MAPERR" : code == SEGV_ACCERR ? "SEGV_ACCERR" : "other";
}

/* "faulted with SEGV_x at the page" or "no fault". */
static int faulted_at(int r, void *where, int code)
{
	return r == -1 && last_sig == SIGSEGV && last_code == code && last_addr == where;
}

static char *map(size_t len, int prot, int flags)
{
	return mmap(NULL, len, prot, flags, -1, 0);
}

static const char *me = "/bin/memmap";

/* ---- errors: Linux's errno, nothing changed ---- */

static void bad_calls(void)
{
	char *p = map(2 * PAGE, RW, ANON);
	int fds[2];

	ktap_errno("mmap_len_0_is_einval", ERRNO_OF((long)map(0, RW, ANON)), EINVAL);
	ktap_errno("mmap_without_shared_or_private_is_einval",
		   ERRNO_OF((long)map(PAGE, RW, MAP_ANONYMOUS)), EINVAL);
	ktap_errno("mmap_fixed_unaligned_is_einval",
		   ERRNO_OF((long)mmap(p + 1, PAGE, RW, ANON | MAP_FIXED, -1, 0)), EINVAL);
	ktap_errno("mmap_3_gib_is_enomem", ERRNO_OF((long)map(0xC0000000u, RW, ANON)), ENOMEM);
	ktap_errno("mmap_fixed_noreplace_over_a_mapping_is_eexist",
		   ERRNO_OF((long)mmap(p, PAGE, RW, ANON | MAP_FIXED_NOREPLACE, -1, 0)), EEXIST);
	ktap_errno("mmap_of_a_closed_fd_is_ebadf",
		   ERRNO_OF((long)mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, 99, 0)), EBADF);
	pipe(fds);
	ktap_errno("mmap_of_a_pipe_is_enodev",
		   ERRNO_OF((long)mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fds[0], 0)), ENODEV);
	close(fds[0]);
	close(fds[1]);
	int fd = open(me, O_RDONLY);
	ktap_errno("mmap_offset_not_page_aligned_is_einval",
		   ERRNO_OF((long)mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 100)), EINVAL);
	close(fd);
	ktap_errno("munmap_unaligned_is_einval", ERRNO_OF(munmap(p + 1, PAGE)), EINVAL);
	ktap_errno("munmap_len_0_is_einval", ERRNO_OF(munmap(p, 0)), EINVAL);
	ktap_errno("munmap_of_the_kernel_half_is_einval",
		   ERRNO_OF(munmap((void *)0xC0000000u, PAGE)), EINVAL);
	ktap_errno("mprotect_unaligned_is_einval", ERRNO_OF(mprotect(p + 1, PAGE, PROT_READ)), EINVAL);
	ktap_errno("mprotect_unknown_prot_bit_is_einval", ERRNO_OF(mprotect(p, PAGE, 0x10)), EINVAL);
	ktap_errno("mprotect_len_0_succeeds", ERRNO_OF(mprotect(p, 0, PROT_READ)), 0);
	munmap(p + PAGE, PAGE);
	/* (Linux has changed the first page by then; this kernel has not.) */
	ktap_errno("mprotect_over_a_hole_is_enomem", ERRNO_OF(mprotect(p, 2 * PAGE, PROT_READ)), ENOMEM);
	ktap_errno("mremap_unknown_flag_is_einval",
		   ERRNO_OF((long)mremap(p, PAGE, 2 * PAGE, 8)), EINVAL);
	ktap_errno("mremap_new_len_0_is_einval", ERRNO_OF((long)mremap(p, PAGE, 0, 0)), EINVAL);
	ktap_errno("mremap_unaligned_is_einval",
		   ERRNO_OF((long)mremap(p + 1, PAGE, 2 * PAGE, MREMAP_MAYMOVE)), EINVAL);
	ktap_errno("mremap_of_an_unmapped_page_is_efault",
		   ERRNO_OF((long)mremap(p + PAGE, PAGE, 2 * PAGE, MREMAP_MAYMOVE)), EFAULT);
	ktap_errno("madvise_unknown_advice_is_einval", ERRNO_OF(madvise(p, PAGE, 999)), EINVAL);
	ktap_errno("madvise_over_a_hole_is_enomem",
		   ERRNO_OF(madvise(p, 2 * PAGE, MADV_DONTNEED)), ENOMEM);
	munmap(p, PAGE);
}

/* ---- mappings ---- */

static void anonymous(void)
{
	int *p = (int *)map(3 * PAGE, RW, ANON);
	int zero = p != MAP_FAILED && p[0] == 0 && p[PAGE / 4] == 0 && p[3 * PAGE / 4 - 1] == 0;

	if (p != MAP_FAILED)
		p[PAGE / 4] = 77;
	ktap_ok(zero && p[PAGE / 4] == 77, "anonymous_private_is_zeroed_and_writable",
		"zero: %s", zero ? "yes" : "no");
	munmap(p, 3 * PAGE);
}

static void munmap_splits(void)
{
	char *p = map(3 * PAGE, RW, ANON);

	p[0] = 'a';
	p[PAGE] = 'b';
	p[2 * PAGE] = 'c';
	int r = munmap(p + PAGE, PAGE);
	int a = try_read(p), c = try_read(p + 2 * PAGE);
	int b = try_read(p + PAGE);
	ktap_ok(r == 0 && a == 'a' && c == 'c' && faulted_at(b, p + PAGE, SEGV_MAPERR),
		"munmap_of_the_middle_page_splits_the_mapping",
		"sides kept: %s, middle: %s", a == 'a' && c == 'c' ? "yes" : "no",
		b == -1 ? code_name(last_code) : "no fault");
	munmap(p, 3 * PAGE);
}

static void protections(void)
{
	int *p = (int *)map(3 * PAGE, RW, ANON);
	int *mid = p + PAGE / 4;

	*mid = 42;
	mprotect(mid, PAGE, PROT_READ);
	int w = try_write(mid, 7);
	ktap_ok(faulted_at(w, mid, SEGV_ACCERR) && *mid == 42,
		"write_to_a_read_only_page_faults_and_the_value_is_kept",
		"%s, value %d", w == -1 ? code_name(last_code) : "no fault", *mid);
	int lo = try_write(p, 1), hi = try_write(p + 2 * PAGE / 4, 2);
	ktap_ok(lo == 0 && hi == 0, "mprotect_of_the_middle_page_splits_the_mapping",
		"the pages either side still writable: %s", lo == 0 && hi == 0 ? "yes" : "no");
	mprotect(mid, PAGE, RW);
	ktap_ok(try_write(mid, 9) == 0 && *mid == 9, "mprotect_back_to_read_write", NULL);
	mprotect(p, PAGE, PROT_NONE);
	int g = try_read((char *)p);
	ktap_ok(faulted_at(g, p, SEGV_ACCERR), "prot_none_guard_page_read_is_sigsegv_accerr",
		"%s", g == -1 ? code_name(last_code) : "no fault");
	munmap(p, 3 * PAGE);
	int u = try_read((char *)mid);
	ktap_ok(faulted_at(u, mid, SEGV_MAPERR), "read_of_an_unmapped_page_is_sigsegv_maperr",
		"%s", u == -1 ? code_name(last_code) : "no fault");
}

static void remaps(void)
{
	char *p = map(2 * PAGE, RW, ANON), *blocker;

	p[0] = 'x';
	p[PAGE] = 'y';
	char *q = mremap(p, 2 * PAGE, 8 * PAGE, MREMAP_MAYMOVE);
	ktap_ok(q != MAP_FAILED && q[0] == 'x' && q[PAGE] == 'y' && q[7 * PAGE] == 0,
		"mremap_grows_keeping_the_data", NULL);
	q = mremap(q, 8 * PAGE, PAGE, 0);
	int gone = try_read(q + PAGE);
	ktap_ok(q != MAP_FAILED && q[0] == 'x' && faulted_at(gone, q + PAGE, SEGV_MAPERR),
		"mremap_shrinks_in_place", NULL);
	blocker = mmap(q + PAGE, PAGE, RW, ANON | MAP_FIXED, -1, 0);
	ktap_errno("mremap_grow_blocked_without_maymove_is_enomem",
		   ERRNO_OF((long)mremap(q, PAGE, 2 * PAGE, 0)), ENOMEM);
	char *moved = mremap(q, PAGE, 2 * PAGE, MREMAP_MAYMOVE);
	int old = try_read(q);
	ktap_ok(moved != MAP_FAILED && moved != q && moved[0] == 'x' && old == -1,
		"mremap_maymove_moves_past_a_blocker", NULL);
	munmap(moved, 2 * PAGE);
	munmap(blocker, PAGE);
}

static void advice(void)
{
	int *p = (int *)map(2 * PAGE, RW, ANON);
	int *s = (int *)map(PAGE, RW, MAP_SHARED | MAP_ANONYMOUS);

	p[0] = 5;
	p[PAGE / 4] = 6;
	*s = 7;
	int r = madvise(p, 2 * PAGE, MADV_DONTNEED);
	ktap_ok(r == 0 && p[0] == 0 && p[PAGE / 4] == 0, "madv_dontneed_zeroes_private_pages", NULL);
	madvise(s, PAGE, MADV_DONTNEED);
	ktap_ok(*s == 7, "madv_dontneed_keeps_shared_data", "value %d", *s);
	ktap_errno("madvise_hint_is_accepted", ERRNO_OF(madvise(p, PAGE, MADV_SEQUENTIAL)), 0);
	munmap(p, 2 * PAGE);
	munmap(s, PAGE);
}

/* ---- fork ---- */

static int child_status(pid_t pid)
{
	int st = -1;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (st & 0x7f);
}

static void copy_on_write(void)
{
	int *p = (int *)map(PAGE, RW, ANON);
	static int data = 10;

	*p = 1;
	pid_t pid = fork();
	if (pid == 0) {
		int saw = *p == 1 && data == 10;
		*p = 2;
		data = 20;
		_exit(saw && *p == 2 && data == 20 ? 0 : 1);
	}
	int st = child_status(pid);
	ktap_ok(st == 0 && *p == 1 && data == 10, "fork_copy_on_write_isolates_parent_and_child",
		"child: %s, parent still sees %d and %d", st == 0 ? "ok" : "failed", *p, data);
	munmap(p, PAGE);
}

static void shared_anonymous(void)
{
	int *s = (int *)map(2 * PAGE, RW, MAP_SHARED | MAP_ANONYMOUS);

	pid_t pid = fork();
	if (pid == 0) {
		s[0] = 1234;
		s[PAGE / 4] = 5678;
		_exit(0);
	}
	child_status(pid);
	ktap_ok(s[0] == 1234 && s[PAGE / 4] == 5678, "map_shared_anonymous_is_shared_after_fork",
		"parent reads %d and %d", s[0], s[PAGE / 4]);
	munmap(s, 2 * PAGE);
}

/* ---- files ---- */

static long file_size(const char *path)
{
	char buf[512];
	long n = 0, r;
	int fd = open(path, O_RDONLY);

	while (fd >= 0 && (r = read(fd, buf, sizeof(buf))) > 0)
		n += r;
	close(fd);
	return n;
}

static void files(void)
{
	int fd = open(me, O_RDONLY);
	char *f = mmap(NULL, 2 * PAGE, RW, MAP_PRIVATE, fd, 0), head[4];

	ktap_ok(f != MAP_FAILED && memcmp(f, "\177ELF", 4) == 0, "private_file_mapping_has_the_file_bytes", NULL);
	f[0] = 'X';
	read(fd, head, 4);
	ktap_ok(f[0] == 'X' && memcmp(head, "\177ELF", 4) == 0,
		"write_to_a_private_file_mapping_leaves_the_file", NULL);
	munmap(f, 2 * PAGE);
	ktap_errno("map_shared_writable_of_a_read_only_file_is_eacces",
		   ERRNO_OF((long)mmap(NULL, PAGE, RW, MAP_SHARED, fd, 0)), EACCES);
	f = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	ktap_errno("mprotect_writable_of_a_shared_read_only_file_is_eacces",
		   ERRNO_OF(mprotect(f, PAGE, RW)), EACCES);
	munmap(f, PAGE);
	long pages = (file_size(me) + PAGE - 1) / PAGE;
	f = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, (pages + 1) * PAGE);
	int r = try_read(f);
	ktap_ok(f != MAP_FAILED && r == -1 && last_sig == SIGBUS,
		"read_past_the_end_of_a_mapped_file_is_sigbus", "%s",
		r == -1 ? (last_sig == SIGBUS ? "SIGBUS" : "SIGSEGV") : "no fault");
	munmap(f, PAGE);
	close(fd);
}

/* ---- limits and accounting ---- */

static long minflt(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static void demand_paging(void)
{
	long before = minflt();
	char *p = map(16 * PAGE, RW, ANON);

	for (int i = 0; i < 16; i++)
		p[i * PAGE] = 1;
	long n = minflt() - before;
	ktap_ok(n >= 16, "touching_16_new_pages_is_16_minor_faults", "run-dependent: %ld", n);
	munmap(p, 16 * PAGE);
}

static void frames_stay(void)
{
	int before = free_frames();

	if (before < 0) {
		ktap_skip("big_mapping_costs_no_frames_until_touched", "kernel-specific");
		ktap_skip("fork_then_exit_gives_every_frame_back", "kernel-specific");
		return;
	}
	char *p = map(64 << 20, RW, ANON | MAP_NORESERVE);
	int mapped = free_frames();
	p[0] = 1;
	int touched = free_frames();
	munmap(p, 64 << 20);
	ktap_ok(p != MAP_FAILED && before - mapped <= 1 && mapped - touched <= 2,
		"big_mapping_costs_no_frames_until_touched",
		"kernel-specific: 64 MiB mapped took %d frames, one touch %d", before - mapped, mapped - touched);
	char *s = map(4 * PAGE, RW, MAP_SHARED | MAP_ANONYMOUS);
	before = free_frames();
	pid_t pid = fork();
	if (pid == 0) {
		s[0] = 1;
		_exit(0);
	}
	child_status(pid);
	int after = free_frames();
	munmap(s, 4 * PAGE);
	ktap_ok(after == before, "fork_then_exit_gives_every_frame_back",
		"kernel-specific: %d frames before, %d after", before, after);
}

static void rlimit_as(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 64 << 20, 64 << 20 };
		setrlimit(RLIMIT_AS, &rl);
		void *p = map(128 << 20, RW, ANON);
		_exit(p == MAP_FAILED && errno == ENOMEM ? 0 : 1);
	}
	ktap_ok(child_status(pid) == 0, "mmap_past_rlimit_as_is_enomem", NULL);
}

int main(int argc, char **argv)
{
	if (argc > 0 && argv[0][0] == '/')
		me = argv[0];
	catch_faults();
	ktap_plan(46);
	bad_calls();
	anonymous();
	munmap_splits();
	protections();
	remaps();
	advice();
	copy_on_write();
	shared_anonymous();
	files();
	demand_paging();
	frames_stay();
	rlimit_as();
	return ktap_done();
}
