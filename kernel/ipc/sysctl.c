/*
 * sysctl.c - System V IPC's files in /proc/sys/kernel (Linux's
 * ipc/ipc_sysctl.c): the limits, which root may change as on Linux, and
 * msg_next_id, sem_next_id, shm_next_id, the id the next get of that kind
 * is to have (CONFIG_CHECKPOINT_RESTORE's; -1 when none, and again once
 * used: kernel/ipc/util.c). Files in name order, as Linux lists them.
 * A write is checked whole before anything changes: numbers outside a
 * file's range, or no number, are EINVAL.
 */
#include "ipc.h"
#include "util.h"
#include "lib/errno.h"
#include "lib/format.h"		/* parse_decimals */
#include "kernel/fs/proc/procfs.h"	/* pb_printf */

struct ipc_tunables ipc_tun = {
	MSGMAX, MSGMNB, MSGMNI, { SEMMSL, SEMMNS, SEMOPM, SEMMNI }, SHMALL, SHMMAX, SHMMNI,
	-1, -1, -1,
};

enum { INT, ULONG, SEM4, ZERO };	/* ZERO: shm_rmid_forced, read-only 0 here */

static const struct {
	const char *name;
	int kind;
	void *value;
	int64_t min, max;
} sysctls[IPC_SYSCTL_NR] = {
	{ "msg_next_id",	INT,	&ipc_tun.msg_next_id,	-1, INT32_MAX },
	{ "msgmax",		INT,	&ipc_tun.msgmax,	0, INT32_MAX },
	{ "msgmnb",		INT,	&ipc_tun.msgmnb,	0, INT32_MAX },
	{ "msgmni",		INT,	&ipc_tun.msgmni,	0, IPCMNI },
	{ "sem",		SEM4,	ipc_tun.sem,		INT32_MIN, INT32_MAX },
	{ "sem_next_id",	INT,	&ipc_tun.sem_next_id,	-1, INT32_MAX },
	{ "shm_next_id",	INT,	&ipc_tun.shm_next_id,	-1, INT32_MAX },
	{ "shm_rmid_forced",	ZERO,	NULL,			0, 0 },
	{ "shmall",		ULONG,	&ipc_tun.shmall,	0, UINT32_MAX },
	{ "shmmax",		ULONG,	&ipc_tun.shmmax,	0, UINT32_MAX },
	{ "shmmni",		INT,	&ipc_tun.shmmni,	0, IPCMNI },
};

const char *ipc_sysctl_name(int i)
{
	return sysctls[i].name;
}

int ipc_sysctl_mode(int i)
{
	return sysctls[i].kind == ZERO ? 0444 : 0644;
}

void ipc_sysctl_text(int i, struct pbuf *b)
{
	const int *v = sysctls[i].value;
	switch (sysctls[i].kind) {
	case SEM4:	pb_printf(b, "%d\t%d\t%d\t%d\n", v[0], v[1], v[2], v[3]); break;
	case ULONG:	pb_printf(b, "%u\n", *(const uint32_t *)v); break;
	case INT:	pb_printf(b, "%d\n", *v); break;
	default:	pb_printf(b, "0\n"); break;
	}
}

int ipc_sysctl_write(int i, const char *text, uint32_t len)
{
	int64_t v[4];
	int kind = sysctls[i].kind;
	int n = parse_decimals(text, len, v, kind == SEM4 ? 4 : 1);

	if (n < 0 || kind == ZERO)
		return -EINVAL;
	for (int k = 0; k < n; k++)
		if (v[k] < sysctls[i].min || v[k] > sysctls[i].max)
			return -EINVAL;
	if (kind == SEM4 && n == 4 && (v[SEM_SEMMNI] < 0 || v[SEM_SEMMNI] > IPCMNI))
		return -EINVAL;		/* Linux's proc_ipc_sem_dointvec */
	for (int k = 0; k < n; k++) {
		if (kind == ULONG)
			((uint32_t *)sysctls[i].value)[k] = (uint32_t)v[k];
		else
			((int *)sysctls[i].value)[k] = (int)v[k];
	}
	return 0;
}
