/*
 * syscall.c - the ways into System V IPC (Linux's ipc/syscall.c shape).
 *
 * i386 has two: the ipc multiplexer (117), which glibc 2.36 uses for
 * every call (qemu-i386 -strace shows ipc(13, ...) for msgget), and the
 * direct calls Linux added in 5.1 (393-402, and 420 semtimedop_time64;
 * there is no direct semop). Both end in the same functions. Through
 * ipc, a ctl command says which structs it means by its IPC_64 bit
 * (ipc_parse_version); a direct call always means IPC_64. Through ipc,
 * msgrcv's version 0 passes (msgp, msgtyp) in a struct ipc_kludge, and
 * shmat stores the address at `third` and returns 0.
 */
#include "ipc.h"
#include "util.h"
#include "lib/errno.h"
#include "kernel/mm/uaccess.h"
#include <stddef.h>
#include <uapi/time.h>

/* ---- semaphores' timeouts ---------------------------------------------------- */

/* struct timespec32 at u (NULL: no timeout): 0 and *has, or -EFAULT. */
static int timeout32(uint32_t u, int64_t ts[2], bool *has)
{
	struct timespec32 t;
	*has = u != 0;
	if (!u)
		return 0;
	if (copy_from_user(&t, (const void *)u, sizeof(t)) < 0)
		return -EFAULT;
	ts[0] = t.tv_sec;
	ts[1] = t.tv_nsec;
	return 0;
}

/* 420: struct __kernel_timespec; i386's long tv_nsec is its low half. */
int sys_semtimedop_time64(int semid, uint32_t usops, uint32_t nsops, uint32_t utimeout)
{
	int64_t t[2] = { 0, 0 };
	if (utimeout && copy_from_user(t, (const void *)utimeout, sizeof(t)) < 0)
		return -EFAULT;
	t[1] = (int32_t)t[1];
	return semtimedop_common(semid, usops, nsops, utimeout ? t : NULL);
}

/* ---- the direct calls ---------------------------------------------------------- */

int sys_semctl(int semid, int semnum, int cmd, uint32_t arg)
{
	return semctl_version(semid, semnum, cmd, arg, IPC_64);
}

/* ---- ipc(2) ------------------------------------------------------------------ */

static int ipc_msgrcv(int version, int first, uint32_t second, uint32_t third, uint32_t ptr,
		      int fifth)
{
	struct ipc_kludge k;

	if (version != 0)
		return sys_msgrcv(first, ptr, second, fifth, (int)third);
	if (!ptr)
		return -EINVAL;
	if (copy_from_user(&k, (const void *)ptr, sizeof(k)) < 0)
		return -EFAULT;
	return sys_msgrcv(first, k.msgp, second, k.msgtyp, (int)third);
}

static int ipc_semctl(int first, uint32_t second, uint32_t third, uint32_t ptr)
{
	uint32_t arg;
	int cmd = (int)third;

	if (!ptr)
		return -EINVAL;
	if (copy_from_user(&arg, (const void *)ptr, sizeof(arg)) < 0)
		return -EFAULT;
	int version = ipc_parse_version(&cmd);
	return semctl_version(first, (int)second, cmd, arg, version);
}

static int ipc_semtimedop(int first, uint32_t second, uint32_t ptr, int fifth)
{
	int64_t t[2];
	bool has;
	int err = timeout32((uint32_t)fifth, t, &has);
	return err ? err : semtimedop_common(first, ptr, second, has ? t : NULL);
}

static int ipc_shmat(int version, int first, uint32_t second, uint32_t third, uint32_t ptr)
{
	if (version == 1)
		return -EINVAL;		/* iBCS2's entry, long gone */
	int addr = shmat_common(first, ptr, (int)second);
	if (addr < 0 && addr > -4096)
		return addr;
	return copy_to_user((void *)third, &addr, sizeof(addr)) < 0 ? -EFAULT : 0;
}

int sys_ipc(uint32_t call, int first, uint32_t second, uint32_t third, uint32_t ptr, int fifth)
{
	int version = (int)(call >> 16), cmd = (int)second;

	switch (call & 0xFFFF) {
	case SEMOP:	 return semtimedop_common(first, ptr, second, NULL);
	case SEMTIMEDOP: return ipc_semtimedop(first, second, ptr, fifth);
	case SEMGET:	 return sys_semget(first, (int)second, (int)third);
	case SEMCTL:	 return ipc_semctl(first, second, third, ptr);
	case MSGSND:	 return sys_msgsnd(first, ptr, second, (int)third);
	case MSGRCV:	 return ipc_msgrcv(version, first, second, third, ptr, fifth);
	case MSGGET:	 return sys_msgget(first, (int)second);
	case MSGCTL:
		version = ipc_parse_version(&cmd);
		return msgctl_version(first, cmd, ptr, version);
	case SHMAT:	 return ipc_shmat(version, first, second, third, ptr);
	case SHMDT:	 return sys_shmdt(ptr);
	case SHMGET:	 return sys_shmget(first, second, (int)third);
	case SHMCTL:
		version = ipc_parse_version(&cmd);
		return shmctl_version(first, cmd, ptr, version);
	default:	 return -ENOSYS;
	}
}
