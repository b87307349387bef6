/* cred.h - credentials: the id system calls (kernel/task/cred.c) and
 * capabilities (kernel/task/capability.c). */
#ifndef KERNEL_CRED_H
#define KERNEL_CRED_H

#include <stdbool.h>
#include <stdint.h>
#include <uapi/capability.h>

/*
 * A task's capabilities, one bit per capability (uapi/capability.h), as
 * Linux's struct cred keeps them. Invariants: effective and ambient are
 * subsets of permitted, ambient of inheritable too; every set is inside
 * CAP_VALID (capabilities 0..CAP_LAST_CAP). Written only by the task
 * itself (capset, prctl, the id calls, exec); fork copies them.
 */
struct caps {
	uint64_t effective, permitted, inheritable, bounding, ambient;
	uint8_t securebits;		/* 1 << SECURE_*, and each one's lock bit */
	bool no_new_privs;		/* prctl PR_SET_NO_NEW_PRIVS: never cleared */
};
#define CAP_VALID	((1ull << (CAP_LAST_CAP + 1)) - 1)
#define CAP_TO_MASK(cap)	(1ull << (cap))

struct proc;

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

/* Is cap in the caller's effective set? (Linux's capable()) */
bool capable(int cap);
/* Is cap in p's effective set? */
bool proc_capable(const struct proc *p, int cap);
/* init's: every capability (Linux's init_cred). */
void caps_init(struct caps *c);
/* exec: the sets the new program starts with, from the ids (Linux's
 * cap_bprm_creds_from_file for a file with no capabilities). */
void caps_exec(struct proc *p);
/* After a uid change from old real, effective and saved uids: root's
 * capabilities go when root's last id goes (Linux's cap_emulate_setxuid). */
void caps_setuid_fixup(struct proc *p, int old_r, int old_e, int old_s);
/* prctl's capability options (PR_CAPBSET_*, PR_*_SECUREBITS,
 * PR_*_KEEPCAPS, PR_CAP_AMBIENT): the result, or -ENOSYS for another
 * option (Linux's security_task_prctl). */
int caps_prctl(uint32_t option, uint32_t arg2, uint32_t arg3, uint32_t arg4, uint32_t arg5);
/* 184: capget(header, data); 185: capset(header, data). */
int sys_capget(void *uheader, void *udata);
int sys_capset(void *uheader, const void *udata);

#endif
