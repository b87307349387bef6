/*
 * util.c - the part of System V IPC that the three kinds share (Linux's
 * ipc/util.c): ids and their table, the get algorithm, permissions.
 *
 * A kind's table is an array of slots that doubles when full. A new
 * object takes the next free index after the last one handed out, below
 * max(in_use * 3 / 2, 64), wrapping to 0 (Linux's idr_alloc_cyclic), and
 * the table's seq grows at each wrap: so the first ids are 0, 1, 2, ...
 * as on Linux, and an id is not soon given again after a removal. Keys
 * are found through a fixed table of chains; IPC_PRIVATE's are in none.
 */
#include "util.h"
#include "ipc.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/task/proc.h"
#include "kernel/time/time.h"
#include "kernel/time/systime.h"

uint32_t ipc_now(void)
{
	return (uint32_t)((clock_ns() + realtime_offset_ns()) / 1000000000u);
}

int ipc_tgid(void)
{
	return current()->group_leader->pid;
}

/* ---- the table ------------------------------------------------------------ */

struct kern_ipc_perm *ipc_at_index(struct ipc_ids *ids, int idx)
{
	return idx >= 0 && idx < ids->cap ? ids->slot[idx] : NULL;
}

struct kern_ipc_perm *ipc_obtain(struct ipc_ids *ids, int id)
{
	if (id < 0)
		return NULL;
	struct kern_ipc_perm *p = ipc_at_index(ids, id & (IPCMNI - 1));
	return p && p->seq == (id >> IPCMNI_SHIFT) ? p : NULL;
}

int ipc_max_idx(const struct ipc_ids *ids)
{
	for (int i = ids->cap - 1; i >= 0; i--)
		if (ids->slot[i])
			return i;
	return -1;
}

static struct kern_ipc_perm **key_chain(struct ipc_ids *ids, int32_t key)
{
	return &ids->keys[(uint32_t)key % IPC_KEY_BUCKETS];
}

static struct kern_ipc_perm *find_key(struct ipc_ids *ids, int32_t key)
{
	for (struct kern_ipc_perm *p = *key_chain(ids, key); p; p = p->key_next)
		if (p->key == key)
			return p;
	return NULL;
}

void ipc_set_key_private(struct ipc_ids *ids, struct kern_ipc_perm *p)
{
	if (p->key == IPC_PRIVATE)
		return;
	struct kern_ipc_perm **pp = key_chain(ids, p->key);
	while (*pp != p)
		pp = &(*pp)->key_next;
	*pp = p->key_next;
	p->key = IPC_PRIVATE;
}

/* Room for index idx; 0 or -ENOMEM. */
static int grow(struct ipc_ids *ids, int idx)
{
	int cap = ids->cap ? ids->cap : IPC_MIN_CYCLE;
	if (idx < ids->cap)
		return 0;
	while (cap <= idx)
		cap *= 2;
	struct kern_ipc_perm **bigger = kzalloc(cap * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	if (ids->cap)
		memcpy(bigger, ids->slot, ids->cap * sizeof(*bigger));
	kfree(ids->slot);
	ids->slot = bigger;
	ids->cap = cap;
	return 0;
}

/* A free index in [from, end), or -1. */
static int free_index(struct ipc_ids *ids, int from, int end)
{
	for (int i = from; i < end; i++)
		if (!ipc_at_index(ids, i))
			return i;
	return -1;
}

/* The index for a new object, and its seq (Linux's ipc_idr_alloc): the
 * next free index in turn, or the one asked for through next_id (the
 * lowest free from it, with its seq; asked once). -1 when none is free. */
static int new_index(struct ipc_ids *ids, uint16_t *seq)
{
	int want = *ids->next_id, end = ids->in_use * 3 / 2;

	*ids->next_id = -1;
	if (want >= 0) {
		*seq = (uint16_t)(want >> IPCMNI_SHIFT);
		return free_index(ids, want & (IPCMNI - 1), IPCMNI);
	}
	if (end < IPC_MIN_CYCLE)
		end = IPC_MIN_CYCLE;
	if (end > IPCMNI)
		end = IPCMNI;
	int idx = free_index(ids, ids->last_idx + 1, end);
	if (idx < 0)
		idx = free_index(ids, 0, end);
	if (idx >= 0 && idx <= ids->last_idx && ++ids->seq >= IPCID_SEQ_MAX)
		ids->seq = 0;
	if (idx >= 0)
		ids->last_idx = idx;
	*seq = ids->seq;
	return idx;
}

/* Put p in the table (Linux's ipc_addid): its id, or -ENOSPC. */
static int add_id(struct ipc_ids *ids, struct kern_ipc_perm *p)
{
	if (ids->in_use >= *ids->limit)
		return -ENOSPC;
	int idx = new_index(ids, &p->seq);
	if (idx < 0)
		return -ENOSPC;
	if (grow(ids, idx) < 0)
		return -ENOMEM;
	p->id = (p->seq << IPCMNI_SHIFT) + idx;
	p->refs = 1;
	ids->slot[idx] = p;
	ids->in_use++;
	if (p->key != IPC_PRIVATE) {
		p->key_next = *key_chain(ids, p->key);
		*key_chain(ids, p->key) = p;
	}
	return p->id;
}

void ipc_rmid(struct ipc_ids *ids, struct kern_ipc_perm *p)
{
	ipc_set_key_private(ids, p);
	ids->slot[p->id & (IPCMNI - 1)] = NULL;
	ids->in_use--;
	p->deleted = true;
}

bool ipc_put(struct kern_ipc_perm *p)
{
	return --p->refs == 0;
}

/* ---- permissions ------------------------------------------------------------ */

int ipc_perms(const struct kern_ipc_perm *p, int flag)
{
	struct proc *me = current();
	int requested = (flag >> 6) | (flag >> 3) | flag;
	int granted = p->mode;

	if ((uint32_t)me->euid == p->cuid || (uint32_t)me->euid == p->uid)
		granted >>= 6;
	else if ((uint32_t)me->egid == p->cgid || (uint32_t)me->egid == p->gid)
		granted >>= 3;
	/* root's CAP_IPC_OWNER */
	return (requested & ~granted & 0007) && !proc_capable(me, CAP_IPC_OWNER) ? -EACCES : 0;
}

bool ipc_owner(const struct kern_ipc_perm *p)
{
	uint32_t euid = (uint32_t)current()->euid;
	return euid == p->cuid || euid == p->uid || capable(CAP_SYS_ADMIN);
}

void ipc_perm_out(const struct kern_ipc_perm *p, struct ipc64_perm *out)
{
	memset(out, 0, sizeof(*out));
	out->key = p->key;
	out->uid = p->uid;
	out->gid = p->gid;
	out->cuid = p->cuid;
	out->cgid = p->cgid;
	out->mode = p->mode;
	out->seq = p->seq;
}

int ipc_perm_set(struct kern_ipc_perm *p, const struct ipc64_perm *in)
{
	if (in->uid == 0xFFFFFFFFu || in->gid == 0xFFFFFFFFu)
		return -EINVAL;		/* Linux: not a valid kuid/kgid */
	p->uid = in->uid;
	p->gid = in->gid;
	p->mode = (p->mode & ~S_IRWXUGO) | (in->mode & S_IRWXUGO);
	return 0;
}

void ipc_perm_to_old(const struct ipc64_perm *in, struct ipc_perm *out)
{
	memset(out, 0, sizeof(*out));
	out->key = in->key;
	out->uid = (uint16_t)in->uid;	/* Linux: SET_UID, truncated */
	out->gid = (uint16_t)in->gid;
	out->cuid = (uint16_t)in->cuid;
	out->cgid = (uint16_t)in->cgid;
	out->mode = in->mode;
	out->seq = in->seq;
}

void ipc_perm_from_old(const struct ipc_perm *in, struct ipc64_perm *out)
{
	memset(out, 0, sizeof(*out));
	out->uid = in->uid;
	out->gid = in->gid;
	out->mode = in->mode;
}

/* ---- get --------------------------------------------------------------------- */

/* key's object exists: Linux's ipcget_public checks, in its order. */
static int found(const struct ipc_kind *k, struct kern_ipc_perm *p, int flg, const void *params)
{
	if ((flg & IPC_CREAT) && (flg & IPC_EXCL))
		return -EEXIST;
	int err = k->more_checks ? k->more_checks(p, params) : 0;
	if (!err)
		err = ipc_perms(p, flg);
	return err ? err : p->id;
}

/* A new object, made outside the lock (an array of 32,000 semaphores is
 * a big block to allocate with interrupts off). */
static struct kern_ipc_perm *make(const struct ipc_kind *k, int32_t key, int flg,
				  const void *params, int *err)
{
	struct proc *me = current();
	struct kern_ipc_perm *p = k->alloc(params, err);
	if (!p)
		return NULL;
	p->key = key;
	p->mode = (uint16_t)(flg & S_IRWXUGO);
	p->uid = p->cuid = (uint32_t)me->euid;
	p->gid = p->cgid = (uint32_t)me->egid;
	return p;
}

int ipc_get(const struct ipc_kind *k, int32_t key, int flg, const void *params)
{
	struct ipc_ids *ids = k->ids;
	struct kern_ipc_perm *p, *mine = NULL;
	int ret;

	for (;;) {
		spin_lock(&ids->lock);
		p = key != IPC_PRIVATE ? find_key(ids, key) : NULL;
		if (p || mine || (key != IPC_PRIVATE && !(flg & IPC_CREAT)))
			break;
		spin_unlock(&ids->lock);
		if (!(mine = make(k, key, flg, params, &ret)))
			return ret;
	}
	/* Under the lock: key's object, or none and ours to add. */
	if (p)
		ret = found(k, p, flg, params);
	else if (!mine)
		ret = -ENOENT;
	else if ((ret = k->charge ? k->charge(mine) : 0) == 0 &&
		 (ret = add_id(ids, mine)) < 0 && k->uncharge)
		k->uncharge(mine);
	bool added = !p && mine && ret >= 0;
	spin_unlock(&ids->lock);
	if (mine && !added)
		k->free(mine);		/* another made key's meanwhile, or no room */
	return ret;
}

/* ---- /proc/sysvipc ------------------------------------------------------------ */

void ipc_proc_text(int which, struct pbuf *b)
{
	if (which == SYSVIPC_MSG)
		msg_proc_text(b);
	else if (which == SYSVIPC_SEM)
		sem_proc_text(b);
	else
		shm_proc_text(b);
}
