/* cred.h - the id system calls (kernel/task/cred.c). */
#ifndef KERNEL_CRED_H
#define KERNEL_CRED_H

int sys_setuid(int uid);
int sys_setgid(int gid);
int sys_setreuid(int r, int e);
int sys_setregid(int r, int e);
int sys_setresuid(int r, int e, int s);
int sys_setresgid(int r, int e, int s);
int sys_getresuid(int *r, int *e, int *s);
int sys_getresgid(int *r, int *e, int *s);
int sys_getuid(void);
int sys_geteuid(void);
int sys_getgid(void);
int sys_getegid(void);
/* 184: capget(header, data): the capability sets the ids imply (cred.c). */
int sys_capget(void *uheader, void *udata);

#endif
