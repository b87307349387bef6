/*
 * sem.c - System V semaphores: semget, semop and semtimedop, semctl, and
 * SEM_UNDO's adjustments at exit, with Linux 6.1's rules and errors
 * (ipc/sem.c) checked in its order.
 *
 * An array holds nsems semaphores, each a value 0..SEMVMX. A semop is a
 * list of operations applied all at once or not at all: each adds
 * sem_op to its semaphore, or (sem_op 0) waits for it to be 0; a value
 * that would go below 0, or a 0-wait on a nonzero value, blocks the
 * whole list. A blocked caller queues its list on the array (pending, in
 * arrival order) and sleeps; whoever changes a value then retries every
 * pending list in order, completes those that now go through, on their
 * sleepers' behalf, and wakes them (Linux's update_queue). GETNCNT and
 * GETZCNT count the sleepers whose blocking operation is on that
 * semaphore. SEM_UNDO keeps, per process and array, the sum of the
 * caller's sem_op negated (semadj); the process's end adds it back.
 * Removing the array wakes every sleeper to EIDRM.
 *
 * Locks: sem_ids.lock guards the table, every array, its queue and its
 * undo lists; operations are copied in and values out outside it.
 */
#include "ipc.h"
#include "util.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sync/waitq.h"
#include "kernel/task/proc.h"
#include "kernel/time/sleep.h"
#include "kernel/time/time.h"

struct sem {
	uint16_t val;
	int pid;			/* the tgid of the last to change or wait on it */
};

/* One process's adjustments to one array (Linux's sem_undo). */
struct sem_undo {
	struct sem_undo *next;
	int tgid;
	int16_t adj[];			/* per semaphore, -SEMAEM-1..SEMAEM */
};

/* A sleeper's operations, queued on the array (Linux's sem_queue). */
struct sem_queue {
	struct sem_queue *next;
	const struct sembuf *sops;
	int nsops;
	int tgid;
	struct sem_undo *undo;		/* its adjustments, if any op has SEM_UNDO */
	int blocking;			/* the index of the op it waits on */
	int status;			/* 1 while waiting, then 0 or an errno */
	bool alter;			/* does any op change a value? */
	bool want_undo;			/* has any op SEM_UNDO? */
};

struct sem_array {
	struct kern_ipc_perm perm;	/* first: the table holds &perm */
	uint32_t otime, ctime;
	int nsems;
	struct sem_queue *pending;	/* in arrival order */
	struct sem_undo *undos;
	struct waitq wait;		/* every sleeper; each looks at its own status */
	struct sem sems[];
};

static struct ipc_ids sem_ids = IPC_IDS_INIT("sem_ids", &ipc_tun.sem[SEM_SEMMNI],
					      &ipc_tun.sem_next_id);
/* Undo lists on every array (under sem_ids.lock): while there is none, a
 * process's end does not walk the table. */
static int nr_undos;
static int64_t used_sems;		/* in every array (sem_ids.lock) */

static struct sem_array *to_array(struct kern_ipc_perm *p)
{
	return (struct sem_array *)p;
}

/* ---- semget ---------------------------------------------------------------- */

static struct kern_ipc_perm *array_alloc(const void *params, int *err)
{
	int nsems = *(const int *)params;
	struct sem_array *a = nsems ? kzalloc(sizeof(*a) + nsems * sizeof(struct sem)) : NULL;
	if (!a) {
		*err = nsems ? -ENOMEM : -EINVAL;
		return NULL;
	}
	a->nsems = nsems;
	a->ctime = ipc_now();
	waitq_init(&a->wait, "sem_wait");
	return &a->perm;
}

static void array_free(struct kern_ipc_perm *p)
{
	kfree(to_array(p));
}

static int array_more_checks(struct kern_ipc_perm *p, const void *params)
{
	return *(const int *)params > to_array(p)->nsems ? -EINVAL : 0;
}

/* semmns: the semaphores of every array (Linux's used_sems). */
static int array_charge(struct kern_ipc_perm *p)
{
	if (used_sems + to_array(p)->nsems > ipc_tun.sem[SEM_SEMMNS])
		return -ENOSPC;
	used_sems += to_array(p)->nsems;
	return 0;
}

static void array_uncharge(struct kern_ipc_perm *p)
{
	used_sems -= to_array(p)->nsems;
}

static const struct ipc_kind sem_kind = { &sem_ids, array_alloc, array_free, array_more_checks,
					   array_charge, array_uncharge };

int sys_semget(int key, int nsems, int semflg)
{
	if (nsems < 0 || nsems > ipc_tun.sem[SEM_SEMMSL])
		return -EINVAL;
	return ipc_get(&sem_kind, key, semflg, &nsems);
}

/* ---- the operations ---------------------------------------------------------- */

/* Undo ops 0..n-1 of sops (applied by try_ops). */
static void revert(struct sem_array *a, const struct sembuf *sops, int n, struct sem_undo *un)
{
	while (n-- > 0) {
		a->sems[sops[n].sem_num].val -= sops[n].sem_op;
		if (sops[n].sem_flg & SEM_UNDO)
			un->adj[sops[n].sem_num] += sops[n].sem_op;
	}
}

/* Apply sops all at once (Linux's perform_atomic_semop): 0 done, 1 it
 * would block (on op *blocking), or -EAGAIN (that op has IPC_NOWAIT) or
 * -ERANGE; nothing changed unless 0. */
static int try_ops(struct sem_array *a, const struct sembuf *sops, int nsops,
		   struct sem_undo *un, int tgid, int *blocking)
{
	for (int i = 0; i < nsops; i++) {
		const struct sembuf *s = &sops[i];
		int cur = a->sems[s->sem_num].val, result = cur + s->sem_op;
		int err = 0, undo = 0;
		if ((s->sem_op == 0 && cur != 0) || result < 0) {
			*blocking = i;
			err = (s->sem_flg & IPC_NOWAIT) ? -EAGAIN : 1;
		} else if (result > SEMVMX) {
			err = -ERANGE;
		} else if (s->sem_flg & SEM_UNDO) {
			undo = un->adj[s->sem_num] - s->sem_op;
			if (undo < -SEMAEM - 1 || undo > SEMAEM)
				err = -ERANGE;
		}
		if (err) {
			revert(a, sops, i, un);
			return err;
		}
		a->sems[s->sem_num].val = (uint16_t)result;
		if (s->sem_flg & SEM_UNDO)
			un->adj[s->sem_num] = (int16_t)undo;
	}
	for (int i = 0; i < nsops; i++)
		a->sems[sops[i].sem_num].pid = tgid;
	a->otime = ipc_now();
	return 0;
}

static void unqueue(struct sem_array *a, struct sem_queue *q)
{
	for (struct sem_queue **pq = &a->pending; *pq; pq = &(*pq)->next) {
		if (*pq == q) {
			*pq = q->next;
			return;
		}
	}
}

/* The values changed: complete, in order, every pending list that now
 * goes through, and wake their sleepers (Linux's update_queue). A list
 * that changed a value may let an earlier one through: start again. */
static void update_queue(struct sem_array *a)
{
	bool woke = false;

	for (struct sem_queue *q = a->pending, *next; q; q = next) {
		next = q->next;
		int r = try_ops(a, q->sops, q->nsops, q->undo, q->tgid, &q->blocking);
		if (r == 1)
			continue;
		unqueue(a, q);
		q->status = r;
		woke = true;
		if (r == 0 && q->alter)
			next = a->pending;
	}
	if (woke)
		waitq_wake_all(&a->wait);
}

/* The caller's adjustments to a: found or made (zeroed); NULL when
 * memory is out. */
static struct sem_undo *find_alloc_undo(struct sem_array *a, int tgid)
{
	for (struct sem_undo *u = a->undos; u; u = u->next)
		if (u->tgid == tgid)
			return u;
	struct sem_undo *u = kzalloc(sizeof(*u) + a->nsems * sizeof(int16_t));
	if (!u)
		return NULL;
	u->tgid = tgid;
	u->next = a->undos;
	a->undos = u;
	__atomic_store_n(&nr_undos, nr_undos + 1, __ATOMIC_RELAXED);
	return u;
}

/* Sleep until q is done, the deadline (0: none) or a signal: q's status,
 * -EAGAIN at the deadline, -EINTR for a signal (semop is never
 * restarted). sem_ids.lock held, and again on return; a held. */
static int sem_sleep(struct sem_array *a, struct sem_queue *q, uint64_t deadline)
{
	struct sem_queue **pq = &a->pending;
	while (*pq)
		pq = &(*pq)->next;
	*pq = q;
	for (;;) {
		struct waiter w;
		waitq_prepare(&a->wait, &w, TASK_INTERRUPTIBLE);
		if (deadline)
			sleep_timer_start(deadline);
		spin_unlock(&sem_ids.lock);
		if (q->status == 1 && !signal_pending(current()) && (!deadline || clock_ns() < deadline))
			schedule();
		if (deadline)
			sleep_timer_cancel();
		waitq_finish(&a->wait, &w);
		spin_lock(&sem_ids.lock);
		if (q->status != 1)
			return q->status;
		int err = deadline && clock_ns() >= deadline ? -EAGAIN
			  : signal_pending(current()) ? -EINTR : 0;
		if (err) {
			unqueue(a, q);
			return err;
		}
	}
}

/* What a list asks: the highest sem_num, whether any op changes a value,
 * whether any has SEM_UNDO. */
static void scan_ops(struct sem_queue *q, int *max)
{
	*max = 0;
	for (int i = 0; i < q->nsops; i++) {
		if (q->sops[i].sem_num >= *max)
			*max = q->sops[i].sem_num;
		if (q->sops[i].sem_op != 0)
			q->alter = true;
		if (q->sops[i].sem_flg & SEM_UNDO)
			q->want_undo = true;
	}
}

/* The checks once the array is found, then the operation; under the lock. */
static int semop_locked(struct sem_array *a, struct sem_queue *q, int max, uint64_t deadline)
{
	if (max >= a->nsems)
		return -EFBIG;
	if (ipc_perms(&a->perm, q->alter ? S_IWUGO : S_IRUGO) < 0)
		return -EACCES;
	if (q->want_undo && !(q->undo = find_alloc_undo(a, q->tgid)))
		return -ENOMEM;
	int r = try_ops(a, q->sops, q->nsops, q->undo, q->tgid, &q->blocking);
	if (r == 0 && q->alter)
		update_queue(a);
	if (r != 1)
		return r;
	return sem_sleep(a, q, deadline);
}

/* semop and semtimedop: timeout (seconds, nanoseconds) NULL for none. */
int semtimedop_common(int semid, uint32_t usops, uint32_t nsops, const int64_t *timeout)
{
	struct sem_queue q = { .nsops = (int)nsops, .tgid = ipc_tgid(), .status = 1 };
	uint64_t deadline = 0;
	int max;

	if (nsops < 1 || semid < 0)
		return -EINVAL;
	if (nsops > (uint32_t)ipc_tun.sem[SEM_SEMOPM])
		return -E2BIG;
	struct sembuf *sops = kmalloc(nsops * sizeof(*sops));
	if (!sops)
		return -ENOMEM;
	int err = copy_from_user(sops, (const void *)usops, nsops * sizeof(*sops)) < 0 ? -EFAULT : 0;
	if (!err && timeout && (timeout[0] < 0 || timeout[1] < 0 || timeout[1] >= 1000000000))
		err = -EINVAL;
	if (err) {
		kfree(sops);
		return err;
	}
	if (timeout)	/* past 2^63 ns from now: never */
		deadline = clock_ns() + ((uint64_t)timeout[0] < (1ull << 33) ?
			   (uint64_t)timeout[0] * 1000000000u + (uint64_t)timeout[1] : 1ull << 62);
	q.sops = sops;
	scan_ops(&q, &max);
	spin_lock(&sem_ids.lock);
	struct kern_ipc_perm *p = ipc_obtain(&sem_ids, semid);
	if (p) {
		p->refs++;
		err = semop_locked(to_array(p), &q, max, deadline);
	}
	bool last = p && ipc_put(p);
	spin_unlock(&sem_ids.lock);
	if (last)
		array_free(p);
	kfree(sops);
	return p ? err : -EINVAL;
}

/* ---- the process's end: SEM_UNDO ------------------------------------------- */

/* Add u's adjustments back to a's values, kept in 0..SEMVMX (Linux's
 * exit_sem), and let the sleepers retry. */
static void undo_apply(struct sem_array *a, const struct sem_undo *u)
{
	for (int i = 0; i < a->nsems; i++) {
		if (!u->adj[i])
			continue;
		int v = a->sems[i].val + u->adj[i];
		a->sems[i].val = (uint16_t)(v < 0 ? 0 : v > SEMVMX ? SEMVMX : v);
		a->sems[i].pid = u->tgid;
	}
	update_queue(a);
}

/* An undo list goes (its process ended, or its array). */
static void undo_free(struct sem_undo *u)
{
	__atomic_store_n(&nr_undos, nr_undos - 1, __ATOMIC_RELAXED);
	kfree(u);
}

void sem_exit(int tgid)
{
	/* Only this process's threads, all gone now, made its lists. */
	if (!__atomic_load_n(&nr_undos, __ATOMIC_RELAXED))
		return;
	spin_lock(&sem_ids.lock);
	for (int i = 0; i < sem_ids.cap; i++) {
		struct kern_ipc_perm *p = ipc_at_index(&sem_ids, i);
		struct sem_array *a = p ? to_array(p) : NULL;
		for (struct sem_undo **pu = a ? &a->undos : NULL; pu && *pu; pu = &(*pu)->next) {
			struct sem_undo *u = *pu;
			if (u->tgid != tgid)
				continue;
			*pu = u->next;
			undo_apply(a, u);
			undo_free(u);
			break;
		}
	}
	spin_unlock(&sem_ids.lock);
}

/* ---- semctl ---------------------------------------------------------------- */

static int semctl_info(int cmd, uint32_t ubuf)
{
	struct seminfo si = { SEMMAP, ipc_tun.sem[SEM_SEMMNI], ipc_tun.sem[SEM_SEMMNS], SEMMNU,
			      ipc_tun.sem[SEM_SEMMSL], ipc_tun.sem[SEM_SEMOPM], SEMUME,
			      SEMUSZ, SEMVMX, SEMAEM };

	spin_lock(&sem_ids.lock);
	int max_idx = ipc_max_idx(&sem_ids);
	if (cmd == SEM_INFO) {
		si.semusz = sem_ids.in_use;
		si.semaem = (int32_t)used_sems;
	}
	spin_unlock(&sem_ids.lock);
	if (copy_to_user((void *)ubuf, &si, sizeof(si)) < 0)
		return -EFAULT;
	return max_idx < 0 ? 0 : max_idx;
}

static int copy_ds_out(uint32_t ubuf, const struct semid64_ds *ds, int version)
{
	if (version == IPC_64)
		return copy_to_user((void *)ubuf, ds, sizeof(*ds)) < 0 ? -EFAULT : 0;
	struct semid_ds old;
	memset(&old, 0, sizeof(old));
	ipc_perm_to_old(&ds->sem_perm, &old.sem_perm);
	old.sem_otime = (int32_t)ds->sem_otime;
	old.sem_ctime = (int32_t)ds->sem_ctime;
	old.sem_nsems = (uint16_t)ds->sem_nsems;
	return copy_to_user((void *)ubuf, &old, sizeof(old)) < 0 ? -EFAULT : 0;
}

static int copy_ds_in(uint32_t ubuf, struct semid64_ds *ds, int version)
{
	if (version == IPC_64)
		return copy_from_user(ds, (const void *)ubuf, sizeof(*ds)) < 0 ? -EFAULT : 0;
	struct semid_ds old;
	if (copy_from_user(&old, (const void *)ubuf, sizeof(old)) < 0)
		return -EFAULT;
	memset(ds, 0, sizeof(*ds));
	ipc_perm_from_old(&old.sem_perm, &ds->sem_perm);
	return 0;
}

/* IPC_STAT by id, SEM_STAT and SEM_STAT_ANY by index: 0 or the id. */
static int semctl_stat(int semid, int cmd, uint32_t ubuf, int version)
{
	struct semid64_ds ds;

	memset(&ds, 0, sizeof(ds));
	spin_lock(&sem_ids.lock);
	struct kern_ipc_perm *p = cmd == IPC_STAT ? ipc_obtain(&sem_ids, semid)
				  : ipc_at_index(&sem_ids, semid & (IPCMNI - 1));
	int ret = !p ? -EINVAL : cmd != SEM_STAT_ANY && ipc_perms(p, S_IRUGO) < 0 ? -EACCES
		  : cmd == IPC_STAT ? 0 : p->id;
	if (ret >= 0) {
		ipc_perm_out(p, &ds.sem_perm);
		ds.sem_otime = to_array(p)->otime;
		ds.sem_ctime = to_array(p)->ctime;
		ds.sem_nsems = (uint32_t)to_array(p)->nsems;
	}
	spin_unlock(&sem_ids.lock);
	if (ret >= 0 && copy_ds_out(ubuf, &ds, version) < 0)
		return -EFAULT;
	return ret;
}

/* SETVAL and SETALL forget every process's adjustments to what they set. */
static void clear_adj(struct sem_array *a, int semnum)
{
	for (struct sem_undo *u = a->undos; u; u = u->next) {
		if (semnum >= 0)
			u->adj[semnum] = 0;
		else
			memset(u->adj, 0, a->nsems * sizeof(int16_t));
	}
}

static int semctl_setval(int semid, int semnum, int val)
{
	if (val > SEMVMX || val < 0)
		return -ERANGE;
	spin_lock(&sem_ids.lock);
	struct kern_ipc_perm *p = ipc_obtain(&sem_ids, semid);
	struct sem_array *a = p ? to_array(p) : NULL;
	int err = !a ? -EINVAL : semnum < 0 || semnum >= a->nsems ? -EINVAL
		  : ipc_perms(p, S_IWUGO) < 0 ? -EACCES : 0;
	if (!err) {
		clear_adj(a, semnum);
		a->sems[semnum].val = (uint16_t)val;
		a->sems[semnum].pid = ipc_tgid();
		a->ctime = ipc_now();
		update_queue(a);
	}
	spin_unlock(&sem_ids.lock);
	return err;
}

/* GETNCNT (sem_op < 0) and GETZCNT (sem_op 0): the sleepers whose
 * blocking operation is on semaphore n (Linux's count_semcnt). */
static int count_waiters(const struct sem_array *a, int n, bool zero)
{
	int count = 0;
	for (const struct sem_queue *q = a->pending; q; q = q->next) {
		const struct sembuf *s = &q->sops[q->blocking];
		count += s->sem_num == n && (zero ? s->sem_op == 0 : s->sem_op < 0);
	}
	return count;
}

/* GETVAL, GETPID, GETNCNT, GETZCNT of a found array; under the lock. */
static int get_one(struct sem_array *a, int semnum, int cmd)
{
	if (ipc_perms(&a->perm, S_IRUGO) < 0)
		return -EACCES;
	if (semnum < 0 || semnum >= a->nsems)
		return -EINVAL;
	switch (cmd) {
	case GETVAL:	return a->sems[semnum].val;
	case GETPID:	return a->sems[semnum].pid;
	case GETNCNT:	return count_waiters(a, semnum, false);
	default:	return count_waiters(a, semnum, true);
	}
}

/* GETALL reads every value into v; SETALL sets them from v. Under the lock. */
static void values_locked(struct sem_array *a, int cmd, uint16_t *v)
{
	for (int i = 0; i < a->nsems; i++) {
		if (cmd == GETALL) {
			v[i] = a->sems[i].val;
		} else {
			a->sems[i].val = v[i];
			a->sems[i].pid = ipc_tgid();
		}
	}
	if (cmd == SETALL) {
		clear_adj(a, -1);
		a->ctime = ipc_now();
		update_queue(a);
	}
}

/* GETALL and SETALL, through a copy of the values made outside the lock;
 * the array held meanwhile. */
static int get_set_all(int semid, int cmd, uint32_t uarray)
{
	spin_lock(&sem_ids.lock);
	struct kern_ipc_perm *p = ipc_obtain(&sem_ids, semid);
	int nsems = p ? to_array(p)->nsems : 0;
	int err = !p ? -EINVAL : ipc_perms(p, cmd == SETALL ? S_IWUGO : S_IRUGO);
	if (!err)
		p->refs++;
	spin_unlock(&sem_ids.lock);
	if (err < 0)
		return err;
	uint16_t *v = kmalloc(nsems * sizeof(*v));
	err = v ? 0 : -ENOMEM;
	if (!err && cmd == SETALL && copy_from_user(v, (const void *)uarray, nsems * sizeof(*v)) < 0)
		err = -EFAULT;
	for (int i = 0; !err && cmd == SETALL && i < nsems; i++)
		if (v[i] > SEMVMX)
			err = -ERANGE;
	spin_lock(&sem_ids.lock);
	if (!err && p->deleted)
		err = -EIDRM;		/* removed meanwhile */
	if (!err)
		values_locked(to_array(p), cmd, v);
	bool last = ipc_put(p);
	spin_unlock(&sem_ids.lock);
	if (last)
		array_free(p);
	if (!err && cmd == GETALL && copy_to_user((void *)uarray, v, nsems * sizeof(*v)) < 0)
		err = -EFAULT;
	kfree(v);
	return err;
}

/* IPC_RMID (Linux's freeary): every sleeper to EIDRM, undo lists gone. */
static void array_remove(struct sem_array *a)
{
	for (struct sem_queue *q = a->pending; q; q = q->next)
		q->status = -EIDRM;
	a->pending = NULL;
	for (struct sem_undo *u = a->undos, *next; u; u = next) {
		next = u->next;
		undo_free(u);
	}
	a->undos = NULL;
	array_uncharge(&a->perm);
	ipc_rmid(&sem_ids, &a->perm);
	waitq_wake_all(&a->wait);
}

/* IPC_SET and IPC_RMID: the owner's (Linux's semctl_down). */
static int semctl_down(int semid, int cmd, const struct semid64_ds *ds)
{
	spin_lock(&sem_ids.lock);
	struct kern_ipc_perm *p = ipc_obtain(&sem_ids, semid);
	int err = !p ? -EINVAL : !ipc_owner(p) ? -EPERM : 0;
	bool last = false;
	if (!err && cmd == IPC_RMID) {
		array_remove(to_array(p));
		last = ipc_put(p);
	} else if (!err && !(err = ipc_perm_set(p, &ds->sem_perm))) {
		to_array(p)->ctime = ipc_now();
	}
	spin_unlock(&sem_ids.lock);
	if (last)
		array_free(p);
	return err;
}

/* semctl with cmd's version already parsed (kernel/ipc/syscall.c); arg
 * is the union semun: a value for SETVAL, else a pointer. */
int semctl_version(int semid, int semnum, int cmd, uint32_t arg, int version)
{
	struct semid64_ds ds;

	if (semid < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case SEM_INFO:
		return semctl_info(cmd, arg);
	case IPC_STAT:
	case SEM_STAT:
	case SEM_STAT_ANY:
		return semctl_stat(semid, cmd, arg, version);
	case GETALL:
	case SETALL:
		return get_set_all(semid, cmd, arg);
	case GETVAL:
	case GETPID:
	case GETNCNT:
	case GETZCNT: {
		spin_lock(&sem_ids.lock);
		struct kern_ipc_perm *p = ipc_obtain(&sem_ids, semid);
		int ret = p ? get_one(to_array(p), semnum, cmd) : -EINVAL;
		spin_unlock(&sem_ids.lock);
		return ret;
	}
	case SETVAL:
		return semctl_setval(semid, semnum, (int)arg);
	case IPC_SET:
		if (copy_ds_in(arg, &ds, version) < 0)
			return -EFAULT;
		return semctl_down(semid, cmd, &ds);
	case IPC_RMID:
		return semctl_down(semid, cmd, NULL);
	default:
		return -EINVAL;
	}
}

/* ---- /proc/sysvipc/sem ------------------------------------------------------ */

void sem_proc_text(struct pbuf *b)
{
	pb_printf(b, "       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime\n");
	spin_lock(&sem_ids.lock);
	for (int i = 0; i < sem_ids.cap; i++) {
		struct sem_array *a = (struct sem_array *)sem_ids.slot[i];
		if (!a)
			continue;
		pb_printf(b, "%10d %10d  %4o %10u %5u %5u %5u %5u %10u %10u\n",
			  a->perm.key, a->perm.id, a->perm.mode, (uint32_t)a->nsems, a->perm.uid,
			  a->perm.gid, a->perm.cuid, a->perm.cgid, a->otime, a->ctime);
	}
	spin_unlock(&sem_ids.lock);
}
