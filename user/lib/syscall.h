/*
 * syscall.h - the only place user code enters the kernel.
 *
 * Linux i386 convention (docs/abi.md §2): number in eax, arguments in ebx, ecx,
 * edx, esi, edi; `int $0x80`; result in eax, -errno on failure.  These raw
 * wrappers return the kernel's value untouched; the libc functions turn a
 * negative result into -1 + errno with __syscall_ret().  No call we use takes
 * six arguments, so ebp (which gcc may want as a frame pointer) is never
 * needed.
 */
#ifndef USER_SYSCALL_H
#define USER_SYSCALL_H

#define SYS_exit                    1
#define SYS_fork                    2
#define SYS_read                    3
#define SYS_write                   4
#define SYS_open                    5
#define SYS_close                   6
#define SYS_waitpid                 7
#define SYS_execve                 11
#define SYS_chdir                  12
#define SYS_getpid                 20
#define SYS_setuid                 23
#define SYS_getuid                 24
#define SYS_nice                   34
#define SYS_kill                   37
#define SYS_pipe                   42
#define SYS_times                  43
#define SYS_brk                    45
#define SYS_geteuid                49
#define SYS_dup2                   63
#define SYS_getppid                64
#define SYS_setrlimit              75
#define SYS_getrusage              77
#define SYS_ugetrlimit            191
#define SYS_getcwd                183
#define SYS_stat64                195
#define SYS_lstat64               196
#define SYS_fstat64               197
#define SYS_getdents64            220
#define SYS_reboot                 88
#define SYS_mmap                   90
#define SYS_munmap                 91
#define SYS_mprotect              125
#define SYS_mremap                163
#define SYS_mmap2                 192
#define SYS_madvise               219
#define SYS_getpriority            96
#define SYS_setpriority            97
#define SYS_wait4                 114
#define SYS_sysinfo               116
#define SYS_uname                 122
#define SYS_sched_setparam        154
#define SYS_sched_getparam        155
#define SYS_sched_setscheduler    156
#define SYS_sched_getscheduler    157
#define SYS_sched_yield           158
#define SYS_sched_get_priority_max 159
#define SYS_sched_get_priority_min 160
#define SYS_sched_rr_get_interval 161
#define SYS_nanosleep             162
#define SYS_getuid32              199
#define SYS_geteuid32             201
#define SYS_setuid32              213
#define SYS_gettid                224
#define SYS_sched_setaffinity     241
#define SYS_sched_getaffinity     242
#define SYS_exit_group            252
#define SYS_clock_gettime         265
#define SYS_clock_nanosleep       267
#define SYS_getcpu                318
#define SYS_restart_syscall         0
#define SYS_pause                  29
#define SYS_ioctl                  54
#define SYS_setpgid                57
#define SYS_getpgrp                65
#define SYS_setsid                 66
#define SYS_sigreturn             119
#define SYS_getpgid               132
#define SYS_getsid                147
#define SYS_rt_sigreturn          173
#define SYS_rt_sigaction          174
#define SYS_rt_sigprocmask        175
#define SYS_rt_sigpending         176
#define SYS_rt_sigsuspend         179
#define SYS_getgid32              200
#define SYS_getegid32             202
#define SYS_setreuid32            203
#define SYS_setregid32            204
#define SYS_setresuid32           208
#define SYS_getresuid32           209
#define SYS_setresgid32           210
#define SYS_getresgid32           211
#define SYS_setgid32              214

static inline long syscall0(long n)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(n) : "memory");
	return r;
}

static inline long syscall1(long n, long a)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a) : "memory");
	return r;
}

static inline long syscall2(long n, long a, long b)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b)
			 : "memory");
	return r;
}

static inline long syscall3(long n, long a, long b, long c)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b), "d"(c)
			 : "memory");
	return r;
}

static inline long syscall4(long n, long a, long b, long c, long d)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
	return r;
}

static inline long syscall5(long n, long a, long b, long c, long d, long e)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory");
	return r;
}

/* -4095..-1 is an error; anything else is a result.  Sets errno only then. */
long __syscall_ret(long r);

#endif
