/*
 * uapi/unistd.h - the system-call numbers, defined once for the kernel's
 * table (kernel/syscall.c: [__NR_getpid] = sys_getpid) and the small libc's
 * wrappers (user/lib/syscall.h). Linux i386's numbers and names
 * (asm/unistd_32.h; tests/host-tools/test_uapi.py compares them), for the
 * calls this kernel implements or its programs make; a call not listed is
 * answered -ENOSYS and logged once by its Linux name (kernel/syscall.c).
 * The project's own calls are 500 and up (docs/abi.md §4), past Linux's.
 */
#ifndef UAPI_UNISTD_H
#define UAPI_UNISTD_H

#define __NR_restart_syscall         0
#define __NR_exit                    1
#define __NR_fork                    2
#define __NR_read                    3
#define __NR_write                   4
#define __NR_open                    5
#define __NR_close                   6
#define __NR_waitpid                 7
#define __NR_creat                   8
#define __NR_link                    9
#define __NR_unlink                  10
#define __NR_execve                  11
#define __NR_chdir                   12
#define __NR_chmod                   15
#define __NR_lseek                   19
#define __NR_getpid                  20
#define __NR_mount                   21
#define __NR_setuid                  23
#define __NR_getuid                  24
#define __NR_alarm                   27
#define __NR_pause                   29
#define __NR_access                  33
#define __NR_nice                    34
#define __NR_kill                    37
#define __NR_rename                  38
#define __NR_mkdir                   39
#define __NR_rmdir                   40
#define __NR_dup                     41
#define __NR_pipe                    42
#define __NR_times                   43
#define __NR_brk                     45
#define __NR_getgid                  47
#define __NR_geteuid                 49
#define __NR_getegid                 50
#define __NR_umount2                 52
#define __NR_ioctl                   54
#define __NR_fcntl                   55
#define __NR_setpgid                 57
#define __NR_umask                   60
#define __NR_dup2                    63
#define __NR_getppid                 64
#define __NR_getpgrp                 65
#define __NR_setsid                  66
#define __NR_setrlimit               75
#define __NR_getrlimit               76
#define __NR_getrusage               77
#define __NR_symlink                 83
#define __NR_readlink                85
#define __NR_reboot                  88
#define __NR_mmap                    90
#define __NR_munmap                  91
#define __NR_truncate                92
#define __NR_ftruncate               93
#define __NR_fchmod                  94
#define __NR_getpriority             96
#define __NR_setpriority             97
#define __NR_statfs                  99
#define __NR_fstatfs                 100
#define __NR_ioperm                  101
#define __NR_setitimer               104
#define __NR_getitimer               105
#define __NR_iopl                    110
#define __NR_socketcall              102
#define __NR_syslog                  103
#define __NR_wait4                   114
#define __NR_sysinfo                 116
#define __NR_ipc                     117
#define __NR_fsync                   118
#define __NR_sigreturn               119
#define __NR_clone                   120
#define __NR_uname                   122
#define __NR_modify_ldt              123
#define __NR_mprotect                125
#define __NR_getpgid                 132
#define __NR_fchdir                  133
#define __NR__llseek                 140
#define __NR__newselect               142
#define __NR_msync                   144
#define __NR_getsid                  147
#define __NR_readv                   145
#define __NR_writev                  146
#define __NR_fdatasync               148
#define __NR_mlock                   150
#define __NR_munlock                 151
#define __NR_mlockall                152
#define __NR_munlockall              153
#define __NR_sched_setparam          154
#define __NR_sched_getparam          155
#define __NR_sched_setscheduler      156
#define __NR_sched_getscheduler      157
#define __NR_sched_yield             158
#define __NR_sched_get_priority_max  159
#define __NR_sched_get_priority_min  160
#define __NR_sched_rr_get_interval   161
#define __NR_nanosleep               162
#define __NR_mremap                  163
#define __NR_poll                    168
#define __NR_prctl                   172
#define __NR_rt_sigreturn            173
#define __NR_rt_sigaction            174
#define __NR_rt_sigprocmask          175
#define __NR_rt_sigpending           176
#define __NR_rt_sigsuspend           179
#define __NR_pread64                 180
#define __NR_pwrite64                181
#define __NR_getcwd                  183
#define __NR_capget                  184
#define __NR_capset                  185
#define __NR_sigaltstack             186
#define __NR_vfork                   190
#define __NR_ugetrlimit              191
#define __NR_mmap2                   192
#define __NR_truncate64              193
#define __NR_ftruncate64             194
#define __NR_stat64                  195
#define __NR_lstat64                 196
#define __NR_fstat64                 197
#define __NR_lchown32                198
#define __NR_getuid32                199
#define __NR_getgid32                200
#define __NR_geteuid32               201
#define __NR_getegid32               202
#define __NR_setreuid32              203
#define __NR_setregid32              204
#define __NR_setgroups32             206
#define __NR_fchown32                207
#define __NR_setresuid32             208
#define __NR_getresuid32             209
#define __NR_setresgid32             210
#define __NR_getresgid32             211
#define __NR_chown32                 212
#define __NR_setuid32                213
#define __NR_setgid32                214
#define __NR_madvise                 219
#define __NR_getdents64              220
#define __NR_fcntl64                 221
#define __NR_gettid                  224
#define __NR_setxattr                226
#define __NR_lsetxattr               227
#define __NR_fsetxattr               228
#define __NR_getxattr                229
#define __NR_lgetxattr               230
#define __NR_fgetxattr               231
#define __NR_listxattr               232
#define __NR_llistxattr              233
#define __NR_flistxattr              234
#define __NR_removexattr             235
#define __NR_lremovexattr            236
#define __NR_fremovexattr            237
#define __NR_tkill                   238
#define __NR_sendfile64              239
#define __NR_futex                   240
#define __NR_sched_setaffinity       241
#define __NR_sched_getaffinity       242
#define __NR_set_thread_area         243
#define __NR_get_thread_area         244
#define __NR_exit_group              252
#define __NR_epoll_create            254
#define __NR_epoll_ctl               255
#define __NR_epoll_wait              256
#define __NR_fadvise64               250
#define __NR_set_tid_address         258
#define __NR_clock_gettime           265
#define __NR_clock_getres            266
#define __NR_clock_nanosleep         267
#define __NR_statfs64                268
#define __NR_fstatfs64               269
#define __NR_tgkill                  270
#define __NR_fadvise64_64            272
#define __NR_waitid                  284
#define __NR_ioprio_set              289
#define __NR_ioprio_get              290
#define __NR_openat                  295
#define __NR_mkdirat                 296
#define __NR_fchownat                298
#define __NR_fstatat64               300
#define __NR_unlinkat                301
#define __NR_renameat                302
#define __NR_linkat                  303
#define __NR_symlinkat               304
#define __NR_readlinkat              305
#define __NR_fchmodat                306
#define __NR_faccessat               307
#define __NR_pselect6                308
#define __NR_unshare                 310
#define __NR_set_robust_list         311
#define __NR_get_robust_list         312
#define __NR_getcpu                  318
#define __NR_epoll_pwait             319
#define __NR_utimensat               320
#define __NR_fallocate               324
#define __NR_epoll_create1           329
#define __NR_dup3                    330
#define __NR_pipe2                   331
#define __NR_prlimit64               340
#define __NR_sched_setattr           351
#define __NR_sched_getattr           352
#define __NR_renameat2               353
#define __NR_getrandom               355
#define __NR_socket                  359
#define __NR_socketpair              360
#define __NR_bind                    361
#define __NR_connect                 362
#define __NR_listen                  363
#define __NR_accept4                 364
#define __NR_getsockopt              365
#define __NR_setsockopt              366
#define __NR_getsockname             367
#define __NR_getpeername             368
#define __NR_sendto                  369
#define __NR_sendmsg                 370
#define __NR_recvfrom                371
#define __NR_recvmsg                 372
#define __NR_shutdown                373
#define __NR_copy_file_range         377
#define __NR_statx                   383
#define __NR_semget                  393
#define __NR_semctl                  394
#define __NR_shmget                  395
#define __NR_shmctl                  396
#define __NR_shmat                   397
#define __NR_shmdt                   398
#define __NR_msgget                  399
#define __NR_msgsnd                  400
#define __NR_msgrcv                  401
#define __NR_msgctl                  402
#define __NR_rseq                    386
#define __NR_clock_gettime64         403
#define __NR_clock_getres_time64     406
#define __NR_clock_nanosleep_time64  407
#define __NR_utimensat_time64        412
#define __NR_pselect6_time64         413
#define __NR_semtimedop_time64       420
#define __NR_futex_time64            422
#define __NR_sched_rr_get_interval_time64 423
#define __NR_clone3                  435
#define __NR_close_range             436
#define __NR_faccessat2              439
#define __NR_futex_waitv             449

/* The project's own (docs/abi.md §4). */
#define __NR_sched_task_stats        500	/* (pid, struct sched_task_info *): sched/syscalls.c */
#define __NR_sched_cpu_stats         501	/* (cpu, struct sched_cpu_info *): sched/syscalls.c */
#define __NR_sched_tunable           502	/* (id, op, value): kernel/task/sched_glue.c */
#define __NR_test_mutex              503	/* (op, arg): the boot tests' mutex, kernel/sync/mutex.c */
#define __NR_trace                   504	/* (op, arg): kernel/debug/trace.c, docs/trace.md */
#define __NR_free_frames             505	/* (): free physical frames, for leak tests */
#define __NR_sched_topology          506	/* (cpu, struct sched_topology_info *) */
#define __NR_proc_name               507	/* (pid, char *buf, len >= 16): a process's name, for ps */
#define __NR_proc_ids                508	/* (pid, struct proc_ids *): parent, ids, start, for ps */
#define __NR_lock_stat               509	/* (op, ...): lock statistics, uapi/lockstat.h */

#endif
