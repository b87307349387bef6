/*
 * coredump - core files as Linux 6.1 writes them (fs/coredump.c), in KTAP
 * for tests/linux-diff.sh: a child killed by SIGSEGV with RLIMIT_CORE
 * unlimited leaves "core" in its working directory (a directory of its
 * own in /tmp) and the core-dump bit in its wait status; the file is ELF
 * ET_CORE for EM_386, its first program header a PT_NOTE whose first note
 * is NT_PRSTATUS naming the signal and the child, and the page of a
 * global the child wrote before it faulted holds what it wrote. An old
 * "core" is replaced; RLIMIT_CORE 0 and a signal that does not dump
 * (SIGTERM) leave no file and no bit; SIGABRT (abort) dumps; and before
 * any of it, RLIMIT_CORE is 0 (hard: unlimited), as init starts it.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -O2 -o coredump user/glibc/coredump.c
 */
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

#define DIR		"/tmp/coredump-test"
#define MARK		0x5EED1234u

static volatile unsigned marker;	/* the child writes MARK, then faults */
static char core[1 << 16];		/* the core file's first bytes: its headers */

/* A child that sets RLIMIT_CORE to limit and dies of sig (SIGSEGV by a
 * write through NULL, SIGABRT by abort, else kill); its wait status. */
static int die_of(int sig, rlim_t limit)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl = { limit, limit };
		setrlimit(RLIMIT_CORE, &rl);
		marker = MARK;
		if (sig == SIGSEGV)
			*(volatile int *)0 = 1;
		else if (sig == SIGABRT)
			abort();
		kill(getpid(), sig);
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return st;
}

/* The core file's size (its start read into core[]), or -1 if there is
 * none. */
static long read_core(void)
{
	struct stat st;
	int fd = open(DIR "/core", O_RDONLY);
	if (fd < 0)
		return -1;
	long n = read(fd, core, sizeof(core));
	if (fstat(fd, &st) == 0 && n > 0)
		n = (long)st.st_size;
	close(fd);
	return n;
}

/* 4 bytes of the core file at off: is it MARK? */
static int marked_at(uint32_t off)
{
	unsigned v = 0;
	int fd = open(DIR "/core", O_RDONLY);
	int ok = fd >= 0 && pread(fd, &v, sizeof(v), off) == sizeof(v) && v == MARK;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* What the core says of the process: the signal in NT_PRSTATUS, and
 * whether the segment holding marker has MARK there. */
static void core_facts(long size, int *signo, int *marked)
{
	const Elf32_Ehdr *eh = (const Elf32_Ehdr *)core;
	const Elf32_Phdr *ph = (const Elf32_Phdr *)(core + eh->e_phoff);
	*signo = *marked = 0;
	if (size < (long)sizeof(*eh) || eh->e_phoff + eh->e_phnum * sizeof(*ph) > sizeof(core))
		return;
	if (eh->e_phnum && ph[0].p_type == PT_NOTE && ph[0].p_offset + 12 + 8 + 4 <= sizeof(core)) {
		const Elf32_Nhdr *nh = (const Elf32_Nhdr *)(core + ph[0].p_offset);
		if (nh->n_type == NT_PRSTATUS)
			*signo = *(const int *)(core + ph[0].p_offset + 12 + 8);
	}
	uint32_t at = (uint32_t)(uintptr_t)&marker;
	for (int i = 1; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || at < ph[i].p_vaddr || at >= ph[i].p_vaddr + ph[i].p_filesz)
			continue;
		*marked = marked_at(ph[i].p_offset + (at - ph[i].p_vaddr));
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..7\n");
	struct rlimit rl;
	check(getrlimit(RLIMIT_CORE, &rl) == 0 && rl.rlim_cur == 0 && rl.rlim_max == RLIM_INFINITY,
	      "rlimit_core_starts_at_0_unlimited_hard");
	mkdir(DIR, 0700);
	if (chdir(DIR) < 0)
		printf("# chdir %s failed\n", DIR);
	unlink("core");

	int st = die_of(SIGSEGV, RLIM_INFINITY);
	long size = read_core();
	const Elf32_Ehdr *eh = (const Elf32_Ehdr *)core;
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV && WCOREDUMP(st) && size > 0,
	      "sigsegv_writes_core_and_sets_the_bit");
	check(size >= (long)sizeof(*eh) && !memcmp(eh->e_ident, ELFMAG, SELFMAG) &&
	      eh->e_ident[EI_CLASS] == ELFCLASS32 && eh->e_type == ET_CORE &&
	      eh->e_machine == EM_386, "core_is_an_elf32_core_file_for_i386");
	int signo, marked;
	core_facts(size, &signo, &marked);
	check(signo == SIGSEGV && marked, "core_has_prstatus_and_the_written_page");
	printf("# %ld bytes, %d program headers, signal %d, marked %d\n", size,
	       size > 0 ? eh->e_phnum : 0, signo, marked);

	int fd = open("core", O_WRONLY | O_TRUNC);
	if (fd >= 0) {
		write(fd, "old", 3);
		close(fd);
	}
	st = die_of(SIGABRT, RLIM_INFINITY);
	size = read_core();
	core_facts(size, &signo, &marked);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && WCOREDUMP(st) && size > 3 &&
	      signo == SIGABRT, "abort_dumps_and_replaces_an_old_core");

	unlink("core");
	st = die_of(SIGSEGV, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV && !WCOREDUMP(st) && read_core() < 0,
	      "rlimit_core_0_means_no_core");
	st = die_of(SIGTERM, RLIM_INFINITY);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && !WCOREDUMP(st) && read_core() < 0,
	      "sigterm_dumps_nothing");
	unlink("core");
	chdir("/");
	rmdir(DIR);
	return failures != 0;
}
