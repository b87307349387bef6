/*
 * util.h - what message queues, semaphores and shared memory share
 * (kernel/ipc/util.c): an object's ipc_perm, the table of one kind's
 * objects and its ids, the get algorithm of msgget/semget/shmget, and
 * Linux's permission rules. Linux's ipc/util.h, at teaching size: an
 * array where Linux has an idr, a fixed table of chains where it has a
 * resizable hash table of keys.
 */
#ifndef KERNEL_IPC_UTIL_H
#define KERNEL_IPC_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/spinlock.h"
#include <uapi/ipc.h>

/* An id is (seq << IPCMNI_SHIFT) + index, as Linux's without
 * ipc_mni_extend: a stale id of a removed object names its slot with
 * an older seq, and is EINVAL. */
#define IPCMNI_SHIFT	15
#define IPCMNI		(1 << IPCMNI_SHIFT)
#define IPCID_SEQ_MAX	(0x7FFFFFFF >> IPCMNI_SHIFT)
/* Indices are handed out in turn below max(in_use * 3 / 2, this). */
#define IPC_MIN_CYCLE	64
/* Keys are found through a hash table of this many chains. */
#define IPC_KEY_BUCKETS	256

#define S_IRUGO	0444
#define S_IWUGO	0222
#define S_IRWXUGO 0777

/* The head of every object (Linux's kern_ipc_perm). Under its table's lock. */
struct kern_ipc_perm {
	int id;
	int32_t key;
	uint32_t uid, gid, cuid, cgid;
	uint16_t mode;			/* permission bits, and shm's SHM_DEST, SHM_LOCKED */
	uint16_t seq;
	bool deleted;			/* removed: sleepers on it answer EIDRM */
	int refs;			/* the table's one, and each sleeper's */
	struct kern_ipc_perm *key_next;	/* its key's chain (not IPC_PRIVATE's) */
};

/* One kind's objects (Linux's ipc_ids). */
struct ipc_ids {
	struct spinlock lock;		/* the table and every object in it */
	struct kern_ipc_perm **slot;	/* by index; NULL where free (kmalloc) */
	int cap;			/* slots allocated */
	int in_use;			/* objects in the table */
	int last_idx;			/* the index handed out last, -1 at first */
	uint16_t seq;			/* grows each time the indices wrap */
	const int *limit;		/* msgmni, semmni, shmmni (ipc_tun) */
	int *next_id;			/* msg_next_id...: -1, or the id to give next */
	struct kern_ipc_perm *keys[IPC_KEY_BUCKETS];	/* by key, IPC_PRIVATE's not */
};

#define IPC_IDS_INIT(name, lim, next) \
	{ SPINLOCK_INIT(name), NULL, 0, 0, -1, 0, (lim), (next), { NULL } }

/* What /proc/sys/kernel shows and root sets (kernel/ipc/sysctl.c; Linux's
 * ipc_namespace's msg_ctlmax...), Linux's defaults at boot. Read without
 * a lock: a change meets only the calls that start after it. */
struct ipc_tunables {
	int msgmax, msgmnb, msgmni;
	int sem[4];			/* semmsl, semmns, semopm, semmni */
	uint32_t shmall, shmmax;
	int shmmni;
	int msg_next_id, sem_next_id, shm_next_id;	/* under the kind's table lock */
};
extern struct ipc_tunables ipc_tun;
#define SEM_SEMMSL	0
#define SEM_SEMMNS	1
#define SEM_SEMOPM	2
#define SEM_SEMMNI	3

/* A kind's part of the get algorithm (Linux's ipc_ops). */
struct ipc_kind {
	struct ipc_ids *ids;
	/* A new object for params, its ipc_perm zeroed: NULL with *err. */
	struct kern_ipc_perm *(*alloc)(const void *params, int *err);
	void (*free)(struct kern_ipc_perm *p);
	/* An existing object asked for again: 0 or -EINVAL (NULL: none). */
	int (*more_checks)(struct kern_ipc_perm *p, const void *params);
	/* A new object counted in the kind's total (semmns's semaphores,
	 * shmall's pages): 0, or -ENOSPC past it (then nothing counted);
	 * uncharge takes it out again. Under the lock; NULL: no total. */
	int (*charge)(struct kern_ipc_perm *p);
	void (*uncharge)(struct kern_ipc_perm *p);
};

/* msgget, semget and shmget: the object of key (IPC_PRIVATE: a new one),
 * made if IPC_CREAT says so: its id, or -ENOENT, -EEXIST, -EACCES,
 * -ENOSPC, or alloc's or more_checks's errno. */
int ipc_get(const struct ipc_kind *k, int32_t key, int flg, const void *params);

/* Under ids->lock: */
struct kern_ipc_perm *ipc_obtain(struct ipc_ids *ids, int id);	/* NULL: EINVAL */
struct kern_ipc_perm *ipc_at_index(struct ipc_ids *ids, int idx);
int ipc_max_idx(const struct ipc_ids *ids);			/* -1 when empty */
void ipc_rmid(struct ipc_ids *ids, struct kern_ipc_perm *p);	/* out of the table */
/* The key becomes IPC_PRIVATE: no get finds it again (shm's IPC_RMID
 * while attached). */
void ipc_set_key_private(struct ipc_ids *ids, struct kern_ipc_perm *p);
/* Linux's ipcperms: flag's rwx bits (S_IRUGO...) against the mode for
 * the caller's class; root passes. 0 or -EACCES. */
int ipc_perms(const struct kern_ipc_perm *p, int flag);
/* IPC_SET and IPC_RMID: the creator, the owner or root. */
bool ipc_owner(const struct kern_ipc_perm *p);
void ipc_perm_out(const struct kern_ipc_perm *p, struct ipc64_perm *out);
/* IPC_SET: uid, gid and the permission bits from in; -EINVAL for a uid
 * or gid of -1 (nothing changed then). */
int ipc_perm_set(struct kern_ipc_perm *p, const struct ipc64_perm *in);
/* IPC_OLD's 16-bit ipc_perm, from and to the 64-bit one. */
void ipc_perm_to_old(const struct ipc64_perm *in, struct ipc_perm *out);
void ipc_perm_from_old(const struct ipc_perm *in, struct ipc64_perm *out);

/* Drop a reference taken under the lock (a sleeper's): the lock held;
 * true when it was the last, and the caller frees the object after
 * unlocking. */
bool ipc_put(struct kern_ipc_perm *p);

/* Seconds of CLOCK_REALTIME, for the *_time fields. */
uint32_t ipc_now(void);
/* The caller's process id (its thread group's) and effective ids. */
int ipc_tgid(void);

/* cmd's IPC_64 bit off, and which structs the caller means. */
static inline int ipc_parse_version(int *cmd)
{
	if (*cmd & IPC_64) {
		*cmd ^= IPC_64;
		return IPC_64;
	}
	return IPC_OLD;
}

/* ---- each kind's entries, for kernel/ipc/syscall.c and util.c ---------------- */

/* The ctl calls with cmd's IPC_64 bit parsed off into version. */
int msgctl_version(int msqid, int cmd, uint32_t ubuf, int version);
int semctl_version(int semid, int semnum, int cmd, uint32_t arg, int version);
int shmctl_version(int shmid, int cmd, uint32_t ubuf, int version);
/* semop and semtimedop: timeout NULL, or {seconds, nanoseconds}. */
int semtimedop_common(int semid, uint32_t usops, uint32_t nsops, const int64_t *timeout);
/* shmat: the address, or an errno. */
int shmat_common(int shmid, uint32_t addr, int shmflg);

struct pbuf;
void msg_proc_text(struct pbuf *b);
void sem_proc_text(struct pbuf *b);
void shm_proc_text(struct pbuf *b);

#endif
