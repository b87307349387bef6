/*
 * selftest.h - the kernel's test-only code, all in kernel/debug/selftest.c
 * (Linux keeps such code behind CONFIG_*_SELFTEST). It is compiled in,
 * because the boot tests need it, and the real paths reach it only
 * through the named hooks below, one each.
 */
#ifndef KERNEL_SELFTEST_H
#define KERNEL_SELFTEST_H

/* kmain, once the scheduler runs: the self-test the boot parameter test=
 * names (panic, timer, echo, ipi, slowfind), if any. */
void selftest_boot(void);

/* proc_get, after a successful lookup: under test=slowfind, wait 500 us,
 * so that a system call racing with exit and fork would act on a reused
 * slot if the reference did not keep it (user/tests/pid_reuse.c). */
void selftest_lookup_delay(void);

/* proc_exit: release the test mutexes of call 503 that the exiting
 * process holds (kernel code proper never exits holding a mutex). */
void selftest_exit(void);

/* System call 503, __NR_test_mutex: the kernel mutexes, spins and stack
 * overflow the boot tests drive (the operations: selftest.c). */
int sys_test_mutex(int op, int arg);

#endif
