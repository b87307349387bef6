/*
 * uapi/ipc.h - System V IPC: Linux i386's numbers and structs
 * (linux/ipc.h, linux/msg.h, linux/sem.h, linux/shm.h and asm-generic's
 * ipcbuf.h, msgbuf.h, shmbuf.h, x86's sembuf.h), once for the kernel
 * (kernel/ipc/) and user programs. tests/host-tools/test_uapi.py checks
 * every number and every field's offset against Linux's headers.
 */
#ifndef UAPI_IPC_H
#define UAPI_IPC_H

#include <stdint.h>

/* ---- common: keys, flags, control commands (linux/ipc.h) ------------------ */

#define IPC_PRIVATE	0		/* a key that always makes a new object */
#define IPC_CREAT	00001000	/* get: create if the key is new */
#define IPC_EXCL	00002000	/* get: fail if the key exists */
#define IPC_NOWAIT	00004000	/* never sleep: EAGAIN or ENOMSG */

#define IPC_RMID	0		/* remove */
#define IPC_SET		1		/* set owner and mode */
#define IPC_STAT	2		/* read the *id64_ds */
#define IPC_INFO	3		/* the limits */

/* cmd's version bit: the 64-bit structs (32-bit uids) if set, else the
 * old ones. The ipc multiplexer passes it through; the direct calls
 * always mean IPC_64. */
#define IPC_OLD		0
#define IPC_64		0x0100

/* ipc(2)'s calls (the multiplexer, 117), as i386 glibc makes them; the
 * version rides in the call's top 16 bits (IPCCALL). */
#define SEMOP		1
#define SEMGET		2
#define SEMCTL		3
#define SEMTIMEDOP	4
#define MSGSND		11
#define MSGRCV		12
#define MSGGET		13
#define MSGCTL		14
#define SHMAT		21
#define SHMDT		22
#define SHMGET		23
#define SHMCTL		24

struct ipc64_perm {
	int32_t key;
	uint32_t uid, gid, cuid, cgid;
	uint16_t mode;
	uint8_t __pad1[2];
	uint16_t seq;
	uint16_t __pad2;
	uint32_t __unused1, __unused2;
};

/* IPC_OLD's: 16-bit ids (linux/ipc.h) */
struct ipc_perm {
	int32_t key;
	uint16_t uid, gid, cuid, cgid;
	uint16_t mode;
	uint16_t seq;
};

/* msgrcv's arguments through ipc(MSGRCV) with version 0 */
struct ipc_kludge {
	uint32_t msgp;
	int32_t msgtyp;
};

/* ---- message queues (linux/msg.h) ------------------------------------------ */

#define MSG_STAT	11
#define MSG_INFO	12
#define MSG_STAT_ANY	13

#define MSG_NOERROR	010000		/* truncate a message too long for the buffer */
#define MSG_EXCEPT	020000		/* the first message not of msgtyp */
#define MSG_COPY	040000		/* copy the msgtyp'th message, leave it */

/* Linux 6.1's defaults (kernel.msgmni, msgmax, msgmnb) */
#define MSGMNI	32000			/* queues */
#define MSGMAX	8192			/* bytes in a message */
#define MSGMNB	16384			/* bytes in a queue, at first */
#define MSGPOOL	(MSGMNI * MSGMNB / 1024)
#define MSGTQL	MSGMNB
#define MSGMAP	MSGMNB
#define MSGSSZ	16
#define MSGSEG	0xffff

struct msqid64_ds {
	struct ipc64_perm msg_perm;
	uint32_t msg_stime, msg_stime_high;
	uint32_t msg_rtime, msg_rtime_high;
	uint32_t msg_ctime, msg_ctime_high;
	uint32_t msg_cbytes;
	uint32_t msg_qnum;
	uint32_t msg_qbytes;
	int32_t msg_lspid, msg_lrpid;
	uint32_t __unused4, __unused5;
};

/* IPC_OLD's (linux/msg.h) */
struct msqid_ds {
	struct ipc_perm msg_perm;
	uint32_t msg_first, msg_last;	/* kernel pointers once: 0 */
	int32_t msg_stime, msg_rtime, msg_ctime;
	uint32_t msg_lcbytes, msg_lqbytes;
	uint16_t msg_cbytes, msg_qnum, msg_qbytes;
	uint16_t msg_lspid, msg_lrpid;
};

struct msginfo {
	int32_t msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql;
	uint16_t msgseg;
};

/* ---- semaphores (linux/sem.h) ----------------------------------------------- */

#define SEM_UNDO	0x1000		/* undone when the process exits */

#define GETPID	11
#define GETVAL	12
#define GETALL	13
#define GETNCNT	14
#define GETZCNT	15
#define SETVAL	16
#define SETALL	17
#define SEM_STAT	18
#define SEM_INFO	19
#define SEM_STAT_ANY	20

#define SEMMNI	32000			/* arrays */
#define SEMMSL	32000			/* semaphores in an array */
#define SEMMNS	(SEMMNI * SEMMSL)	/* semaphores in all */
#define SEMOPM	500			/* operations in one semop */
#define SEMVMX	32767			/* a semaphore's largest value */
#define SEMAEM	SEMVMX			/* the largest adjustment at exit */
#define SEMUME	SEMOPM
#define SEMMNU	SEMMNS
#define SEMMAP	SEMMNS
#define SEMUSZ	20

struct sembuf {
	uint16_t sem_num;
	int16_t sem_op;
	int16_t sem_flg;
};

struct semid64_ds {
	struct ipc64_perm sem_perm;
	uint32_t sem_otime, sem_otime_high;
	uint32_t sem_ctime, sem_ctime_high;
	uint32_t sem_nsems;
	uint32_t __unused3, __unused4;
};

/* IPC_OLD's (linux/sem.h) */
struct semid_ds {
	struct ipc_perm sem_perm;
	int32_t sem_otime, sem_ctime;
	uint32_t sem_base, sem_pending, sem_pending_last, undo;	/* 0 */
	uint16_t sem_nsems;
};

struct seminfo {
	int32_t semmap, semmni, semmns, semmnu, semmsl, semopm, semume, semusz, semvmx, semaem;
};

/* ---- shared memory (linux/shm.h) -------------------------------------------- */

#define SHM_NORESERVE	010000		/* shmget: no check against the memory there is */
#define SHM_RDONLY	010000		/* shmat: read only */
#define SHM_RND		020000		/* shmat: round the address down to SHMLBA */
#define SHM_REMAP	040000		/* shmat: over what is mapped there */
#define SHM_EXEC	0100000		/* shmat: executable */

#define SHM_LOCK	11
#define SHM_UNLOCK	12
#define SHM_STAT	13
#define SHM_INFO	14
#define SHM_STAT_ANY	15

/* in shm_perm.mode above the permission bits (Linux's include/linux/shm.h,
 * not its uapi; ipcs prints "dest" and "locked" from them) */
#define SHM_DEST	01000		/* IPC_RMID'd: goes at the last detach */
#define SHM_LOCKED	02000		/* SHM_LOCK'd */

#define SHMMIN	1			/* bytes, the smallest segment */
#define SHMMNI	4096			/* segments */
#define SHMMAX	(0xFFFFFFFFu - (1u << 24))	/* bytes in a segment */
#define SHMALL	(0xFFFFFFFFu - (1u << 24))	/* pages in all segments */
#define SHMSEG	SHMMNI

struct shmid64_ds {
	struct ipc64_perm shm_perm;
	uint32_t shm_segsz;
	uint32_t shm_atime, shm_atime_high;
	uint32_t shm_dtime, shm_dtime_high;
	uint32_t shm_ctime, shm_ctime_high;
	int32_t shm_cpid, shm_lpid;
	uint32_t shm_nattch;
	uint32_t __unused4, __unused5;
};

/* IPC_OLD's (linux/shm.h) */
struct shmid_ds {
	struct ipc_perm shm_perm;
	int32_t shm_segsz;
	int32_t shm_atime, shm_dtime, shm_ctime;
	uint16_t shm_cpid, shm_lpid;
	uint16_t shm_nattch;
	uint16_t shm_unused;
	uint32_t shm_unused2, shm_unused3;
};

struct shminfo64 {
	uint32_t shmmax, shmmin, shmmni, shmseg, shmall;
	uint32_t __unused1, __unused2, __unused3, __unused4;
};

/* IPC_OLD's IPC_INFO */
struct shminfo {
	int32_t shmmax, shmmin, shmmni, shmseg, shmall;
};

struct shm_info {
	int32_t used_ids;
	uint32_t shm_tot, shm_rss, shm_swp, swap_attempts, swap_successes;
};

#endif
