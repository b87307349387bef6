/*
 * syscall.c - int 0x80: Linux i386 system call numbers to kernel functions.
 *
 * The convention is Linux's (docs/abi.md §2): number in eax, arguments in ebx,
 * ecx, edx, esi, edi, ebp, result in eax, -errno on failure. This file is
 * the one table of every call the kernel has, including the ones that exist
 * only here (500 and up), and the dispatcher; each call lives with its
 * subsystem, in the file named beside its entry.
 */
#include "syscall.h"
#include "lib/errno.h"
#include "kernel/arch/cpu.h"
#include "kernel/task/cred.h"
#include "kernel/task/exec.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/namei.h"
#include "kernel/time/itimer.h"
#include "kernel/task/futex.h"
#include "kernel/arch/gdt.h"
#include "kernel/arch/ldt.h"
#include "kernel/sync/lockstat.h"
#include "kernel/mm/mmap.h"
#include "kernel/sync/mutex.h"
#include "kernel/task/pgrp.h"
#include "kernel/mm/pmm.h"
#include "kernel/sys/power.h"
#include "kernel/debug/printk.h"
#include "kernel/sys/random.h"
#include "kernel/task/proc.h"
#include "kernel/task/sched_glue.h"
#include "kernel/task/signal.h"
#include "kernel/net/net.h"
#include "kernel/sys/sysinfo.h"
#include "kernel/fs/stat.h"
#include "kernel/time/sleep.h"
#include "kernel/time/systime.h"
#include "kernel/task/thread.h"
#include "kernel/debug/trace.h"
#include "kernel/arch/tls.h"
#include "kernel/arch/trap.h"
#include "kernel/sys/uname.h"
#include "kernel/arch/x86.h"
#include "drivers/topology.h"
#include "sched/syscalls.h"	/* the scheduler's calls (sched/syscalls.c) */
#include "kernel/fs/poll.h"
#include "kernel/fs/eventpoll.h"
#include "kernel/task/prctl.h"
#include "kernel/task/ioprio.h"
#include "kernel/debug/selftest.h"
#include "kernel/ipc/ipc.h"
#include <uapi/unistd.h>

typedef int (*syscall_fn)(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t);

#define NSYSCALLS (__NR_lock_stat + 1)	/* the last number in uapi/unistd.h */
#define SYSCALL(nr, fn) [nr] = (syscall_fn)(void *)(fn)

static const syscall_fn syscalls[NSYSCALLS] = {
	SYSCALL(__NR_restart_syscall, sys_restart_syscall),	/* sleep.c */
	SYSCALL(__NR_exit, sys_exit),				/* exit.c */
	SYSCALL(__NR_fork, proc_fork),				/* proc.c */
	SYSCALL(__NR_vfork, sys_vfork),				/* thread.c */
	SYSCALL(__NR_read, sys_read),				/* file.c */
	SYSCALL(__NR_write, sys_write),				/* file.c */
	SYSCALL(__NR_open, sys_open),				/* file.c */
	SYSCALL(__NR_close, sys_close),				/* file.c */
	SYSCALL(__NR_waitpid, sys_waitpid),			/* wait.c */
	SYSCALL(__NR_creat, sys_creat),				/* file.c */
	SYSCALL(__NR_link, sys_link),				/* namei.c */
	SYSCALL(__NR_unlink, sys_unlink),			/* namei.c */
	SYSCALL(__NR_execve, sys_execve),			/* exec.c */
	SYSCALL(__NR_chdir, sys_chdir),				/* fs.c */
	SYSCALL(__NR_mkdir, sys_mkdir),				/* namei.c */
	SYSCALL(__NR_rmdir, sys_rmdir),				/* namei.c */
	SYSCALL(__NR_rename, sys_rename),			/* namei.c */
	SYSCALL(__NR_chmod, sys_chmod),				/* namei.c */
	SYSCALL(__NR_mount, sys_mount),				/* mount.c */
	SYSCALL(__NR_umount2, sys_umount2),			/* mount.c */
	SYSCALL(__NR_symlink, sys_symlink),			/* namei.c */
	SYSCALL(__NR_truncate, sys_truncate),			/* namei.c */
	SYSCALL(__NR_ftruncate, sys_ftruncate),			/* namei.c */
	SYSCALL(__NR_fchmod, sys_fchmod),			/* namei.c */
	SYSCALL(__NR_statfs, sys_statfs),			/* mount.c */
	SYSCALL(__NR_fstatfs, sys_fstatfs),			/* mount.c */
	SYSCALL(__NR_fsync, sys_fsync),				/* namei.c */
	SYSCALL(__NR_fdatasync, sys_fsync),			/* namei.c */
	SYSCALL(__NR_pread64, sys_pread64),			/* fileio.c */
	SYSCALL(__NR_pwrite64, sys_pwrite64),			/* fileio.c */
	SYSCALL(__NR_truncate64, sys_truncate64),		/* namei.c */
	SYSCALL(__NR_ftruncate64, sys_ftruncate64),		/* namei.c */
	SYSCALL(__NR_lchown32, sys_lchown32),			/* namei.c */
	SYSCALL(__NR_fchown32, sys_fchown32),			/* namei.c */
	SYSCALL(__NR_chown32, sys_chown32),			/* namei.c */
	SYSCALL(__NR_statfs64, sys_statfs64),			/* mount.c */
	SYSCALL(__NR_fstatfs64, sys_fstatfs64),			/* mount.c */
	SYSCALL(__NR_fchownat, sys_fchownat),			/* namei.c */
	SYSCALL(__NR_renameat, sys_renameat),			/* namei.c */
	SYSCALL(__NR_linkat, sys_linkat),			/* namei.c */
	SYSCALL(__NR_symlinkat, sys_symlinkat),			/* namei.c */
	SYSCALL(__NR_fchmodat, sys_fchmodat),			/* namei.c */
	SYSCALL(__NR_renameat2, sys_renameat2),			/* namei.c */
	SYSCALL(__NR_fchdir, sys_fchdir),			/* fs.c */
	SYSCALL(__NR_fallocate, sys_fallocate),			/* fileio.c */
	SYSCALL(__NR_setxattr, sys_setxattr),			/* xattr.c */
	SYSCALL(__NR_lsetxattr, sys_lsetxattr),		/* xattr.c */
	SYSCALL(__NR_fsetxattr, sys_fsetxattr),		/* xattr.c */
	SYSCALL(__NR_getxattr, sys_getxattr),			/* xattr.c */
	SYSCALL(__NR_lgetxattr, sys_lgetxattr),		/* xattr.c */
	SYSCALL(__NR_fgetxattr, sys_fgetxattr),		/* xattr.c */
	SYSCALL(__NR_listxattr, sys_listxattr),		/* xattr.c */
	SYSCALL(__NR_llistxattr, sys_llistxattr),		/* xattr.c */
	SYSCALL(__NR_flistxattr, sys_flistxattr),		/* xattr.c */
	SYSCALL(__NR_removexattr, sys_removexattr),		/* xattr.c */
	SYSCALL(__NR_lremovexattr, sys_lremovexattr),		/* xattr.c */
	SYSCALL(__NR_fremovexattr, sys_fremovexattr),		/* xattr.c */
	SYSCALL(__NR_utimensat, sys_utimensat),			/* namei.c */
	SYSCALL(__NR_utimensat_time64, sys_utimensat_time64),	/* namei.c */
	SYSCALL(__NR_lseek, sys_lseek),				/* file.c */
	SYSCALL(__NR_getpid, sys_getpid),			/* exit.c */
	SYSCALL(__NR_setuid, sys_setuid),			/* cred.c */
	SYSCALL(__NR_getuid, sys_getuid),			/* cred.c */
	SYSCALL(__NR_alarm, sys_alarm),				/* itimer.c */
	SYSCALL(__NR_pause, sys_pause),				/* signal.c */
	SYSCALL(__NR_access, sys_access),			/* stat.c */
	SYSCALL(__NR_nice, sys_nice),				/* sched/syscalls.c */
	SYSCALL(__NR_kill, sys_kill),				/* signal.c */
	SYSCALL(__NR_dup, sys_dup),				/* file.c */
	SYSCALL(__NR_pipe, sys_pipe),				/* file.c */
	SYSCALL(__NR_times, sys_times),				/* systime.c */
	SYSCALL(__NR_brk, sys_brk),				/* mmap.c */
	SYSCALL(__NR_getgid, sys_getgid),			/* cred.c */
	SYSCALL(__NR_geteuid, sys_geteuid),			/* cred.c */
	SYSCALL(__NR_getegid, sys_getegid),			/* cred.c */
	SYSCALL(__NR_ioctl, sys_ioctl),				/* ioctl.c */
	SYSCALL(__NR_fcntl, sys_fcntl64),			/* file.c */
	SYSCALL(__NR_setpgid, sys_setpgid),			/* pgrp.c */
	SYSCALL(__NR_umask, sys_umask),				/* fs.c */
	SYSCALL(__NR_dup2, sys_dup2),				/* file.c */
	SYSCALL(__NR_getppid, sys_getppid),			/* exit.c */
	SYSCALL(__NR_getpgrp, sys_getpgrp),			/* pgrp.c */
	SYSCALL(__NR_setsid, sys_setsid),			/* pgrp.c */
	SYSCALL(__NR_setrlimit, sys_setrlimit),			/* rlimit.c */
	SYSCALL(__NR_getrlimit, sys_getrlimit),			/* rlimit.c (old getrlimit: the same here) */
	SYSCALL(__NR_getrusage, sys_getrusage),			/* systime.c */
	SYSCALL(__NR_readlink, sys_readlink),			/* stat.c */
	SYSCALL(__NR_reboot, sys_reboot),			/* power.c */
	SYSCALL(__NR_mmap, sys_old_mmap),			/* mmap.c */
	SYSCALL(__NR_munmap, sys_munmap),			/* mmap.c */
	SYSCALL(__NR_getpriority, sys_getpriority),		/* sched/syscalls.c */
	SYSCALL(__NR_setpriority, sys_setpriority),		/* sched/syscalls.c */
	SYSCALL(__NR_ioperm, sys_ioperm),			/* gdt.c */
	SYSCALL(__NR_syslog, sys_syslog),			/* printk.c */
	SYSCALL(__NR_setitimer, sys_setitimer),			/* itimer.c */
	SYSCALL(__NR_getitimer, sys_getitimer),			/* itimer.c */
	SYSCALL(__NR_iopl, sys_iopl),				/* gdt.c */
	SYSCALL(__NR_socketcall, sys_socketcall),		/* net/socket.c */
	SYSCALL(__NR_wait4, proc_wait4),			/* wait.c */
	SYSCALL(__NR_sysinfo, sys_sysinfo),			/* sysinfo.c */
	SYSCALL(__NR_ipc, sys_ipc),				/* ipc/syscall.c (glibc's way in) */
	SYSCALL(__NR_sigreturn, sys_sigreturn),			/* signal.c */
	SYSCALL(__NR_clone, sys_clone),				/* thread.c (threads, fork-like) */
	SYSCALL(__NR_uname, sys_uname),				/* uname.c */
	SYSCALL(__NR_modify_ldt, sys_modify_ldt),		/* arch/ldt.c */
	SYSCALL(__NR_mprotect, sys_mprotect),			/* mmap.c */
	SYSCALL(__NR_getpgid, sys_getpgid),			/* pgrp.c */
	SYSCALL(__NR__llseek, sys_llseek),			/* file.c */
	SYSCALL(__NR_getsid, sys_getsid),			/* pgrp.c */
	SYSCALL(__NR_readv, sys_readv),				/* file.c */
	SYSCALL(__NR_writev, sys_writev),			/* file.c */
	SYSCALL(__NR_mlock, sys_mlock),				/* mmap.c */
	SYSCALL(__NR_munlock, sys_munlock),			/* mmap.c */
	SYSCALL(__NR_mlockall, sys_mlockall),			/* mmap.c */
	SYSCALL(__NR_munlockall, sys_munlockall),		/* mmap.c */
	SYSCALL(__NR_sched_setparam, sys_sched_setparam),	/* sched/syscalls.c */
	SYSCALL(__NR_sched_getparam, sys_sched_getparam),	/* sched/syscalls.c */
	SYSCALL(__NR_sched_setscheduler, sys_sched_setscheduler),	/* sched/syscalls.c */
	SYSCALL(__NR_sched_getscheduler, sys_sched_getscheduler),	/* sched/syscalls.c */
	SYSCALL(__NR_sched_yield, sys_sched_yield),		/* sched/syscalls.c */
	SYSCALL(__NR_sched_get_priority_max, sys_sched_get_priority_max),	/* sched/syscalls.c */
	SYSCALL(__NR_sched_get_priority_min, sys_sched_get_priority_min),	/* sched/syscalls.c */
	SYSCALL(__NR_sched_rr_get_interval, sys_sched_rr_get_interval),	/* sched/syscalls.c */
	SYSCALL(__NR_nanosleep, sys_nanosleep),			/* sleep.c */
	SYSCALL(__NR_mremap, sys_mremap),			/* mmap.c */
	SYSCALL(__NR_msync, sys_msync),				/* mmap.c */
	SYSCALL(__NR_poll, sys_poll),				/* poll.c */
	SYSCALL(__NR__newselect, sys_select),			/* poll.c */
	SYSCALL(__NR_pselect6, sys_pselect6),			/* poll.c */
	SYSCALL(__NR_pselect6_time64, sys_pselect6_time64),	/* poll.c */
	SYSCALL(__NR_epoll_create, sys_epoll_create),		/* eventpoll.c */
	SYSCALL(__NR_epoll_create1, sys_epoll_create1),		/* eventpoll.c */
	SYSCALL(__NR_epoll_ctl, sys_epoll_ctl),			/* eventpoll.c */
	SYSCALL(__NR_epoll_wait, sys_epoll_wait),		/* eventpoll.c */
	SYSCALL(__NR_epoll_pwait, sys_epoll_pwait),		/* eventpoll.c */
	SYSCALL(__NR_prctl, sys_prctl),				/* prctl.c */
	SYSCALL(__NR_rt_sigreturn, sys_rt_sigreturn),		/* signal.c */
	SYSCALL(__NR_rt_sigaction, sys_rt_sigaction),		/* signal.c */
	SYSCALL(__NR_rt_sigprocmask, sys_rt_sigprocmask),	/* signal.c */
	SYSCALL(__NR_rt_sigpending, sys_rt_sigpending),		/* signal.c */
	SYSCALL(__NR_rt_sigsuspend, sys_rt_sigsuspend),		/* signal.c */
	SYSCALL(__NR_sigaltstack, sys_sigaltstack),		/* signal.c */
	SYSCALL(__NR_getcwd, sys_getcwd),			/* fs.c */
	SYSCALL(__NR_capget, sys_capget),			/* capability.c */
	SYSCALL(__NR_capset, sys_capset),			/* capability.c */
	SYSCALL(__NR_mq_open, sys_mq_open),			/* mqueue.c */
	SYSCALL(__NR_mq_unlink, sys_mq_unlink),			/* mqueue.c */
	SYSCALL(__NR_mq_timedsend, sys_mq_timedsend),		/* mqueue_msg.c */
	SYSCALL(__NR_mq_timedreceive, sys_mq_timedreceive),	/* mqueue_msg.c */
	SYSCALL(__NR_mq_notify, sys_mq_notify),			/* mqueue_msg.c */
	SYSCALL(__NR_mq_getsetattr, sys_mq_getsetattr),		/* mqueue_msg.c */
	SYSCALL(__NR_waitid, sys_waitid),			/* wait.c */
	SYSCALL(__NR_ioprio_set, sys_ioprio_set),		/* ioprio.c */
	SYSCALL(__NR_ioprio_get, sys_ioprio_get),		/* ioprio.c */
	SYSCALL(__NR_ugetrlimit, sys_getrlimit),		/* rlimit.c (ugetrlimit) */
	SYSCALL(__NR_mmap2, sys_mmap2),				/* mmap.c */
	SYSCALL(__NR_stat64, sys_stat64),			/* stat.c */
	SYSCALL(__NR_lstat64, sys_lstat64),			/* stat.c */
	SYSCALL(__NR_fstat64, sys_fstat64),			/* stat.c */
	SYSCALL(__NR_getuid32, sys_getuid),			/* cred.c */
	SYSCALL(__NR_getgid32, sys_getgid),			/* cred.c */
	SYSCALL(__NR_geteuid32, sys_geteuid),			/* cred.c */
	SYSCALL(__NR_getegid32, sys_getegid),			/* cred.c */
	SYSCALL(__NR_setreuid32, sys_setreuid),			/* cred.c */
	SYSCALL(__NR_setregid32, sys_setregid),			/* cred.c */
	SYSCALL(__NR_setresuid32, sys_setresuid),		/* cred.c */
	SYSCALL(__NR_getresuid32, sys_getresuid),		/* cred.c */
	SYSCALL(__NR_setresgid32, sys_setresgid),		/* cred.c */
	SYSCALL(__NR_getresgid32, sys_getresgid),		/* cred.c */
	SYSCALL(__NR_setuid32, sys_setuid),			/* cred.c */
	SYSCALL(__NR_setgid32, sys_setgid),			/* cred.c */
	SYSCALL(__NR_madvise, sys_madvise),			/* mmap.c */
	SYSCALL(__NR_getdents64, sys_getdents64),		/* fs.c */
	SYSCALL(__NR_fcntl64, sys_fcntl64),			/* file.c */
	SYSCALL(__NR_gettid, sys_gettid),			/* exit.c */
	SYSCALL(__NR_tkill, sys_tkill),				/* signal.c */
	SYSCALL(__NR_sendfile64, sys_sendfile64),		/* file.c (EINVAL: no splice here) */
	SYSCALL(__NR_copy_file_range, sys_copy_file_range),	/* copyrange.c */
	SYSCALL(__NR_fadvise64, sys_fadvise64),
	SYSCALL(__NR_fadvise64_64, sys_fadvise64_64),
	SYSCALL(__NR_futex, sys_futex),				/* futex.c */
	SYSCALL(__NR_sched_setaffinity, sys_sched_setaffinity),	/* sched/syscalls.c */
	SYSCALL(__NR_sched_getaffinity, sys_sched_getaffinity),	/* sched/syscalls.c */
	SYSCALL(__NR_set_thread_area, sys_set_thread_area),	/* tls.c */
	SYSCALL(__NR_get_thread_area, sys_get_thread_area),	/* tls.c */
	SYSCALL(__NR_exit_group, sys_exit_group),		/* exit.c */
	SYSCALL(__NR_set_tid_address, sys_set_tid_address),	/* thread.c */
	SYSCALL(__NR_clock_gettime, sys_clock_gettime),		/* systime.c */
	SYSCALL(__NR_clock_getres, sys_clock_getres),		/* systime.c */
	SYSCALL(__NR_clock_nanosleep, sys_clock_nanosleep),	/* sleep.c */
	SYSCALL(__NR_tgkill, sys_tgkill),			/* signal.c */
	SYSCALL(__NR_openat, sys_openat),			/* file.c */
	SYSCALL(__NR_mkdirat, sys_mkdirat),			/* namei.c */
	SYSCALL(__NR_fstatat64, sys_fstatat64),			/* stat.c */
	SYSCALL(__NR_unlinkat, sys_unlinkat),			/* namei.c */
	SYSCALL(__NR_readlinkat, sys_readlinkat),		/* stat.c */
	SYSCALL(__NR_faccessat, sys_faccessat),			/* stat.c */
	SYSCALL(__NR_unshare, sys_unshare),			/* thread.c */
	SYSCALL(__NR_set_robust_list, sys_set_robust_list),	/* thread.c */
	SYSCALL(__NR_get_robust_list, sys_get_robust_list),	/* thread.c */
	SYSCALL(__NR_getcpu, sys_getcpu),			/* cpu.c */
	SYSCALL(__NR_dup3, sys_dup3),				/* file.c */
	SYSCALL(__NR_pipe2, sys_pipe2),				/* file.c (flags 0 only) */
	SYSCALL(__NR_prlimit64, sys_prlimit64),			/* rlimit.c */
	SYSCALL(__NR_sched_setattr, sys_sched_setattr),		/* sched/syscalls.c */
	SYSCALL(__NR_sched_getattr, sys_sched_getattr),		/* sched/syscalls.c */
	SYSCALL(__NR_getrandom, sys_getrandom),			/* random.c */
	SYSCALL(__NR_socket, sys_socket),			/* net/socket.c (AF_UNIX) */
	SYSCALL(__NR_socketpair, sys_socketpair),		/* net/socket.c */
	SYSCALL(__NR_bind, sys_bind),				/* net/socket.c */
	SYSCALL(__NR_connect, sys_connect),			/* net/socket.c */
	SYSCALL(__NR_listen, sys_listen),			/* net/socket.c */
	SYSCALL(__NR_accept4, sys_accept4),			/* net/socket.c */
	SYSCALL(__NR_getsockopt, sys_getsockopt),		/* net/socket.c */
	SYSCALL(__NR_setsockopt, sys_setsockopt),		/* net/socket.c */
	SYSCALL(__NR_getsockname, sys_getsockname),		/* net/socket.c */
	SYSCALL(__NR_getpeername, sys_getpeername),		/* net/socket.c */
	SYSCALL(__NR_sendto, sys_sendto),			/* net/socket.c */
	SYSCALL(__NR_sendmsg, sys_sendmsg),			/* net/socket.c */
	SYSCALL(__NR_recvfrom, sys_recvfrom),			/* net/socket.c */
	SYSCALL(__NR_recvmsg, sys_recvmsg),			/* net/socket.c */
	SYSCALL(__NR_shutdown, sys_shutdown),			/* net/socket.c */
	SYSCALL(__NR_statx, sys_statx),				/* stat.c */
	SYSCALL(__NR_semget, sys_semget),			/* ipc/sem.c */
	SYSCALL(__NR_semctl, sys_semctl),			/* ipc/syscall.c */
	SYSCALL(__NR_shmget, sys_shmget),			/* ipc/shm.c */
	SYSCALL(__NR_shmctl, sys_shmctl),			/* ipc/shm.c */
	SYSCALL(__NR_shmat, sys_shmat),				/* ipc/shm.c */
	SYSCALL(__NR_shmdt, sys_shmdt),				/* ipc/shm.c */
	SYSCALL(__NR_msgget, sys_msgget),			/* ipc/msg.c */
	SYSCALL(__NR_msgsnd, sys_msgsnd),			/* ipc/msg.c */
	SYSCALL(__NR_msgrcv, sys_msgrcv),			/* ipc/msg.c */
	SYSCALL(__NR_msgctl, sys_msgctl),			/* ipc/msg.c */
	SYSCALL(__NR_rseq, sys_rseq),				/* thread.c (ENOSYS, as without CONFIG_RSEQ) */
	SYSCALL(__NR_clock_gettime64, sys_clock_gettime64),	/* systime.c */
	SYSCALL(__NR_clock_getres_time64, sys_clock_getres_time64),	/* systime.c */
	SYSCALL(__NR_clock_nanosleep_time64, sys_clock_nanosleep_time64),	/* sleep.c */
	SYSCALL(__NR_mq_timedsend_time64, sys_mq_timedsend_time64),	/* mqueue_msg.c */
	SYSCALL(__NR_mq_timedreceive_time64, sys_mq_timedreceive_time64),	/* mqueue_msg.c */
	SYSCALL(__NR_semtimedop_time64, sys_semtimedop_time64),	/* ipc/syscall.c */
	SYSCALL(__NR_futex_time64, sys_futex_time64),		/* futex.c */
	SYSCALL(__NR_sched_rr_get_interval_time64, sys_sched_rr_get_interval_time64),	/* sched/syscalls.c */
	SYSCALL(__NR_clone3, sys_clone3),			/* thread.c (ENOSYS, as before Linux 5.3) */
	SYSCALL(__NR_close_range, sys_close_range),		/* closerange.c */
	SYSCALL(__NR_faccessat2, sys_faccessat2),		/* stat.c */
	SYSCALL(__NR_futex_waitv, sys_futex_waitv),		/* futex.c */
	/* Only here (docs/abi.md §4: 500 and up). */
	SYSCALL(__NR_sched_task_stats, sys_sched_task_stats),	/* sched/syscalls.c */
	SYSCALL(__NR_sched_cpu_stats, sys_sched_cpu_stats),	/* sched/syscalls.c */
	SYSCALL(__NR_sched_tunable, sys_sched_tunable),		/* sched_glue.c */
	SYSCALL(__NR_test_mutex, sys_test_mutex),		/* selftest.c */
	SYSCALL(__NR_trace, sys_trace),				/* trace.c */
	SYSCALL(__NR_free_frames, sys_free_frames),		/* proc.c */
	SYSCALL(__NR_sched_topology, sys_sched_topology),	/* drivers/topology.c */
	SYSCALL(__NR_proc_name, sys_proc_name),			/* exit.c */
	SYSCALL(__NR_proc_ids, sys_proc_ids),			/* exit.c */
	SYSCALL(__NR_lock_stat, sys_lock_stat),			/* lockstat.c */
};

/* tools/mksyscallnames.sh, from Linux's asm/unistd_32.h at build time. */
extern const char *const linux_syscall_names[];
extern const unsigned linux_syscall_names_count;

/*
 * A call this kernel does not have: -ENOSYS, as Linux gives for one it
 * does not have, and one console line the first time each number is
 * asked for, so that a real program shows what ABI is missing (numbers
 * from 1,024 up share one line). Out of line: no known call pays for it.
 */
static __attribute__((noinline)) int syscall_unknown(uint32_t nr)
{
	static uint32_t logged[1024 / 32 + 1];
	uint32_t bit = nr < 1024 ? nr : 1024;
	if (__atomic_fetch_or(&logged[bit / 32], 1u << (bit % 32), __ATOMIC_RELAXED) &
	    (1u << (bit % 32)))
		return -ENOSYS;
	const char *name = nr < linux_syscall_names_count ? linux_syscall_names[nr] : NULL;
	struct proc *p = current();
	printk("syscall: unimplemented system call %u (%s) from %s[%d]; -ENOSYS "
	       "(logged once per number)\n", nr, name ? name : "not a Linux i386 call",
	       p->name, p->pid);
	return -ENOSYS;
}

/*
 * int 0x80 lands here from trapentry.asm's syscall_entry, not through
 * trap(): the number picks the function and the result goes back in eax.
 * Interrupts are on (a trap gate), so a long call does not hold off the
 * timer. On the way out, signals and the scheduler get their turn
 * (proc_return_to_user); most calls find nothing to do and return here.
 */
void syscall(struct trapframe *tf)
{
	struct proc *p = current();
	uint32_t nr = tf->eax;
	int ret;

	p->syscall_nr = (int)nr;	/* for a restart after a signal */
	if (nr < NSYSCALLS && syscalls[nr])
		ret = syscalls[nr](tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp);
	else
		ret = syscall_unknown(nr);
	/* execve replaced the whole trap frame; its eax must start at 0. */
	tf->eax = (uint32_t)ret;
	cli();
	if (return_work(p, tf)) {
		sti();
		proc_return_to_user(tf);
	}
}
