/*
 * dynamic - a program linked the way the distribution links them
 * (i686-linux-gnu-gcc prog.c: a position-independent executable with
 * /lib/ld-linux.so.2 as its interpreter), in KTAP, so that
 * tests/linux-diff.sh compares this kernel's answers with Linux 6.1's,
 * both with Debian's own ld.so and libc.so.6 (libc6:i386) in the initrd:
 * the auxiliary vector execve passes the loader, the loader's and the
 * program's places, dlopen of another library, threads and TLS in a
 * shared libc, and execve's errors for a missing or broken interpreter.
 *
 * Built by make (user/user.mk) with:
 *	i686-linux-gnu-gcc -O2 -pthread -o dynamic user/glibc-dyn/dynamic.c
 * and two programs that name interpreters that are not there
 * (-Wl,--dynamic-linker=/no/such/ld.so) or not ELF (/usr/lib/notelf, an
 * executable text file that tests/linux-diff.sh adds beside libc6).
 * dynamic.linux.ktap beside it is its transcript on Linux 6.1 in QEMU.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

static int n;
static int failures;

static void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

static int objects;
static int count_objects(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)info, (void)size, (void)data;
	objects++;
	return 0;
}

static __thread int tls_value = 7;

static void *thread_main(void *arg)
{
	tls_value = (int)(long)arg;
	errno = 0;
	return (void *)(long)(tls_value * 2 + (errno == 0));
}

/* The errno execve gave a child that ran PATH: its exit status. */
static int exec_errno(const char *path)
{
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)path, NULL };
		execv(path, argv);
		_exit(errno);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(int argc, char **argv)
{
	(void)argc;
	printf("KTAP version 1\n1..14\n");
	unsigned long base = getauxval(AT_BASE), entry = getauxval(AT_ENTRY);
	check(base != 0 && base % 4096 == 0, "at_base_is_the_loaders_page_aligned_address");
	check(entry == (unsigned long)dlsym(RTLD_DEFAULT, "_start") || entry != 0,
	      "at_entry_is_the_programs_entry");
	Elf32_Phdr *ph = (Elf32_Phdr *)getauxval(AT_PHDR);
	check(ph && getauxval(AT_PHNUM) > 0 && getauxval(AT_PHENT) == sizeof(Elf32_Phdr) &&
	      ph[0].p_type == PT_PHDR, "at_phdr_points_at_the_programs_headers");
	check(getauxval(AT_PAGESZ) == 4096, "at_pagesz_4096");
	check(getauxval(AT_EXECFN) && strcmp((char *)getauxval(AT_EXECFN), argv[0]) == 0,
	      "at_execfn_is_the_path_given_to_execve");
	check(getauxval(AT_PLATFORM) && strcmp((char *)getauxval(AT_PLATFORM), "i686") == 0,
	      "at_platform_i686");
	check((getauxval(AT_HWCAP) & 1) != 0, "at_hwcap_has_the_fpu_bit");
	check((unsigned long)&main >= 0x400000, "a_pie_program_is_placed_at_4_mib_or_above");
	dl_iterate_phdr(count_objects, NULL);
	check(objects >= 3, "dl_iterate_phdr_sees_program_libc_and_loader");
	void *libm = dlopen("libm.so.6", RTLD_NOW);
	double (*cosine)(double) = libm ? (double (*)(double))dlsym(libm, "cos") : NULL;
	char s[32];
	snprintf(s, sizeof(s), "%.3f", cosine ? cosine(0.5) : -1.0);
	check(strcmp(s, "0.878") == 0, "dlopen_libm_and_call_cos");
	pthread_t t;
	void *ret = NULL;
	check(pthread_create(&t, NULL, thread_main, (void *)21L) == 0 && pthread_join(t, &ret) == 0 &&
	      (long)ret == 43 && tls_value == 7, "threads_and_tls_in_a_shared_libc");
	check(exec_errno("/bin/interp_missing") == ENOENT, "execve_missing_interpreter_enoent");
	check(exec_errno("/bin/interp_notelf") == ELIBBAD, "execve_interpreter_not_elf_elibbad");
	check(exec_errno("/bin/interp_notelf/x") == ENOTDIR, "execve_path_through_a_file_enotdir");
	return failures ? 1 : 0;
}
