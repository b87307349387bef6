/*
 * msg.c - System V message queues: msgget, msgsnd, msgrcv, msgctl, with
 * Linux 6.1's rules and errors (ipc/msg.c) checked in its order.
 *
 * A queue is a list of messages in the order sent, each a type (> 0) and
 * up to MSGMAX bytes; it holds at most q_qbytes bytes (MSGMNB at first)
 * and as many messages. A sender that finds no room, and a receiver that
 * finds no message of the type it wants, sleep on the queue's senders'
 * or receivers' wait queue; every change wakes the other side, which
 * looks again. (Linux hands a message straight to a sleeping receiver
 * that wants it, and wakes one sender at a time; the answers are the
 * same, the order among several sleepers may differ.) Removing the queue
 * wakes everyone: they answer EIDRM. Each sleeper holds a reference, so
 * the queue lives until the last one has looked.
 *
 * Locks: msg_ids.lock guards the table, every queue and the totals;
 * messages are copied from and to user memory outside it.
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
#include "kernel/task/signal.h"	/* ERESTARTNOHAND */

struct msg_msg {
	struct msg_msg *next;
	int32_t type;
	uint32_t size;
	char text[];
};

struct msg_queue {
	struct kern_ipc_perm perm;	/* first: the table holds &perm */
	uint32_t stime, rtime, ctime;
	uint32_t cbytes, qnum, qbytes;	/* bytes and messages in it; its room */
	int lspid, lrpid;		/* the last sender's and receiver's tgid */
	struct msg_msg *head, **tail;
	struct waitq senders, receivers;
};

static struct ipc_ids msg_ids = IPC_IDS_INIT("msg_ids", &ipc_tun.msgmni, &ipc_tun.msg_next_id);
static uint32_t msg_hdrs, msg_bytes;	/* in every queue: MSG_INFO's */

/* msgrcv's ways of choosing (convert_mode) */
enum { SEARCH_ANY, SEARCH_EQUAL, SEARCH_NOTEQUAL, SEARCH_LESSEQUAL, SEARCH_NUMBER };

static struct msg_queue *to_queue(struct kern_ipc_perm *p)
{
	return (struct msg_queue *)p;
}

/* ---- msgget ---------------------------------------------------------------- */

static struct kern_ipc_perm *queue_alloc(const void *params, int *err)
{
	(void)params;
	struct msg_queue *q = kzalloc(sizeof(*q));
	if (!q) {
		*err = -ENOMEM;
		return NULL;
	}
	q->qbytes = (uint32_t)ipc_tun.msgmnb;
	q->ctime = ipc_now();
	q->tail = &q->head;
	waitq_init(&q->senders, "msg_senders");
	waitq_init(&q->receivers, "msg_receivers");
	return &q->perm;
}

/* The queue and what is left in it; no one else can reach it. */
static void queue_free(struct kern_ipc_perm *p)
{
	struct msg_queue *q = to_queue(p);
	for (struct msg_msg *m = q->head, *next; m; m = next) {
		next = m->next;
		kfree(m);
	}
	kfree(q);
}

static const struct ipc_kind msg_kind = { &msg_ids, queue_alloc, queue_free, NULL, NULL, NULL };

int sys_msgget(int key, int msgflg)
{
	return ipc_get(&msg_kind, key, msgflg, NULL);
}

/* ---- sleeping -------------------------------------------------------------- */

/* Sleep on wq until woken or a signal; msg_ids.lock held, and again on
 * return. The caller holds a reference: q stays. */
static void queue_sleep(struct waitq *wq)
{
	struct waiter w;
	waitq_prepare(wq, &w, TASK_INTERRUPTIBLE);
	spin_unlock(&msg_ids.lock);
	if (!signal_pending(current()))
		schedule();
	waitq_finish(wq, &w);
	spin_lock(&msg_ids.lock);
}

/* The end of a call that held q: unlock, and free q if it went meanwhile
 * and this was its last reference. Returns ret. */
static int queue_done(struct msg_queue *q, int ret)
{
	bool last = ipc_put(&q->perm);
	spin_unlock(&msg_ids.lock);
	if (last)
		queue_free(&q->perm);
	return ret;
}

/* q by id, with a reference for the call; NULL (unlocked) if none. */
static struct msg_queue *queue_get(int msqid)
{
	spin_lock(&msg_ids.lock);
	struct kern_ipc_perm *p = ipc_obtain(&msg_ids, msqid);
	if (!p) {
		spin_unlock(&msg_ids.lock);
		return NULL;
	}
	p->refs++;
	return to_queue(p);
}

/* ---- msgsnd ---------------------------------------------------------------- */

static bool fits(const struct msg_queue *q, uint32_t size)
{
	return size + q->cbytes <= q->qbytes && 1 + q->qnum <= q->qbytes;
}

static void enqueue(struct msg_queue *q, struct msg_msg *m)
{
	m->next = NULL;
	*q->tail = m;
	q->tail = &m->next;
	q->cbytes += m->size;
	q->qnum++;
	msg_hdrs++;
	msg_bytes += m->size;
	q->lspid = ipc_tgid();
	q->stime = ipc_now();
	waitq_wake_all(&q->receivers);
}

/* Wait for room for m, then queue it: 0 or an errno (m still ours). */
static int send_locked(struct msg_queue *q, struct msg_msg *m, int msgflg)
{
	for (;;) {
		if (ipc_perms(&q->perm, S_IWUGO) < 0)
			return -EACCES;
		if (q->perm.deleted)
			return -EIDRM;
		if (fits(q, m->size))
			break;
		if (msgflg & IPC_NOWAIT)
			return -EAGAIN;
		if (signal_pending(current()))
			return -ERESTARTNOHAND;
		queue_sleep(&q->senders);
	}
	enqueue(q, m);
	return 0;
}

int sys_msgsnd(int msqid, uint32_t umsgp, uint32_t msgsz, int msgflg)
{
	int32_t mtype;

	if (copy_from_user(&mtype, (const void *)umsgp, sizeof(mtype)) < 0)
		return -EFAULT;
	if (msgsz > (uint32_t)ipc_tun.msgmax || msqid < 0 || mtype < 1)
		return -EINVAL;
	struct msg_msg *m = kmalloc(sizeof(*m) + msgsz);
	if (!m)
		return -ENOMEM;
	m->type = mtype;
	m->size = msgsz;
	if (copy_from_user(m->text, (const void *)(umsgp + 4), msgsz) < 0) {
		kfree(m);
		return -EFAULT;
	}
	struct msg_queue *q = queue_get(msqid);
	int err = q ? send_locked(q, m, msgflg) : -EINVAL;
	if (q)
		queue_done(q, err);
	if (err < 0)
		kfree(m);
	return err;
}

/* ---- msgrcv ---------------------------------------------------------------- */

static int convert_mode(int32_t *msgtyp, int msgflg)
{
	if (msgflg & MSG_COPY)
		return SEARCH_NUMBER;
	if (*msgtyp == 0)
		return SEARCH_ANY;
	if (*msgtyp < 0) {
		*msgtyp = *msgtyp == INT32_MIN ? INT32_MAX : -*msgtyp;
		return SEARCH_LESSEQUAL;
	}
	return (msgflg & MSG_EXCEPT) ? SEARCH_NOTEQUAL : SEARCH_EQUAL;
}

static bool testmsg(const struct msg_msg *m, int32_t type, int mode)
{
	switch (mode) {
	case SEARCH_ANY:
	case SEARCH_NUMBER:	return true;
	case SEARCH_LESSEQUAL:	return m->type <= type;
	case SEARCH_EQUAL:	return m->type == type;
	default:		return m->type != type;
	}
}

/* The link that points at the message to take, or NULL: the first that
 * matches; for LESSEQUAL the first of the lowest type; for NUMBER the
 * type'th (MSG_COPY). */
static struct msg_msg **find_msg(struct msg_queue *q, int32_t type, int mode)
{
	struct msg_msg **found = NULL;
	int32_t count = 0;

	for (struct msg_msg **pm = &q->head; *pm; pm = &(*pm)->next) {
		if (!testmsg(*pm, type, mode))
			continue;
		if (mode == SEARCH_LESSEQUAL && (*pm)->type != 1) {
			type = (*pm)->type - 1;
			found = pm;
		} else if (mode != SEARCH_NUMBER || count++ == type) {
			return pm;
		}
	}
	return found;
}

/* Take the message *pm out of q. */
static struct msg_msg *unlink_msg(struct msg_queue *q, struct msg_msg **pm)
{
	struct msg_msg *m = *pm;
	*pm = m->next;
	if (q->tail == &m->next)
		q->tail = pm;
	q->qnum--;
	q->cbytes -= m->size;
	msg_hdrs--;
	msg_bytes -= m->size;
	q->lrpid = ipc_tgid();
	q->rtime = ipc_now();
	waitq_wake_all(&q->senders);
	return m;
}

/* MSG_COPY: a copy of m for the caller, m left in place. */
static struct msg_msg *copy_msg(const struct msg_msg *m, int *err)
{
	struct msg_msg *c = kmalloc(sizeof(*c) + m->size);
	if (!c)
		*err = -ENOMEM;
	else
		memcpy(c, m, sizeof(*c) + m->size);
	return c;
}

/* Wait for a message that matches, and take it (or copy it). */
static struct msg_msg *recv_locked(struct msg_queue *q, uint32_t bufsz, int32_t type, int mode,
				   int msgflg, int *err)
{
	for (;;) {
		if (ipc_perms(&q->perm, S_IRUGO) < 0) {
			*err = -EACCES;
			return NULL;
		}
		*err = -EIDRM;
		if (q->perm.deleted)
			return NULL;
		struct msg_msg **pm = find_msg(q, type, mode);
		if (pm && bufsz < (*pm)->size && !(msgflg & MSG_NOERROR))
			*err = -E2BIG;
		else if (pm)
			return (msgflg & MSG_COPY) ? copy_msg(*pm, err) : unlink_msg(q, pm);
		else if (msgflg & IPC_NOWAIT)
			*err = -ENOMSG;
		else if (signal_pending(current()))
			*err = -ERESTARTNOHAND;
		else
			*err = 0;
		if (*err)
			return NULL;
		queue_sleep(&q->receivers);
	}
}

/* mtype, then the text cut to bufsz: the bytes given, or -EFAULT (the
 * message is gone either way, as on Linux). */
static int store_msg(uint32_t umsgp, const struct msg_msg *m, uint32_t bufsz)
{
	uint32_t n = m->size < bufsz ? m->size : bufsz;
	if (copy_to_user((void *)umsgp, &m->type, sizeof(m->type)) < 0 ||
	    copy_to_user((void *)(umsgp + 4), m->text, n) < 0)
		return -EFAULT;
	return (int)n;
}

int sys_msgrcv(int msqid, uint32_t umsgp, uint32_t bufsz, int msgtyp, int msgflg)
{
	int err;

	if (msqid < 0 || (int32_t)bufsz < 0)
		return -EINVAL;
	if ((msgflg & MSG_COPY) && ((msgflg & MSG_EXCEPT) || !(msgflg & IPC_NOWAIT)))
		return -EINVAL;
	int32_t type = msgtyp;
	int mode = convert_mode(&type, msgflg);
	struct msg_queue *q = queue_get(msqid);
	if (!q)
		return -EINVAL;
	struct msg_msg *m = recv_locked(q, bufsz, type, mode, msgflg, &err);
	queue_done(q, 0);
	if (!m)
		return err;
	err = store_msg(umsgp, m, bufsz);
	kfree(m);
	return err;
}

/* ---- msgctl ---------------------------------------------------------------- */

static int msgctl_info(int cmd, uint32_t ubuf)
{
	struct msginfo mi = { MSGPOOL, MSGMAP, ipc_tun.msgmax, ipc_tun.msgmnb, ipc_tun.msgmni,
			      MSGSSZ, MSGTQL, MSGSEG };

	spin_lock(&msg_ids.lock);
	int max_idx = ipc_max_idx(&msg_ids);
	if (cmd == MSG_INFO) {
		mi.msgpool = msg_ids.in_use;
		mi.msgmap = (int32_t)msg_hdrs;
		mi.msgtql = (int32_t)msg_bytes;
	}
	spin_unlock(&msg_ids.lock);
	if (copy_to_user((void *)ubuf, &mi, sizeof(mi)) < 0)
		return -EFAULT;
	return max_idx < 0 ? 0 : max_idx;
}

static void fill_ds(const struct msg_queue *q, struct msqid64_ds *ds)
{
	memset(ds, 0, sizeof(*ds));
	ipc_perm_out(&q->perm, &ds->msg_perm);
	ds->msg_stime = q->stime;
	ds->msg_rtime = q->rtime;
	ds->msg_ctime = q->ctime;
	ds->msg_cbytes = q->cbytes;
	ds->msg_qnum = q->qnum;
	ds->msg_qbytes = q->qbytes;
	ds->msg_lspid = q->lspid;
	ds->msg_lrpid = q->lrpid;
}

static uint16_t clamp16(uint32_t v)
{
	return v > 0xFFFF ? 0xFFFF : (uint16_t)v;
}

static int copy_ds_out(uint32_t ubuf, const struct msqid64_ds *ds, int version)
{
	if (version == IPC_64)
		return copy_to_user((void *)ubuf, ds, sizeof(*ds)) < 0 ? -EFAULT : 0;
	struct msqid_ds old;
	memset(&old, 0, sizeof(old));
	ipc_perm_to_old(&ds->msg_perm, &old.msg_perm);
	old.msg_stime = (int32_t)ds->msg_stime;
	old.msg_rtime = (int32_t)ds->msg_rtime;
	old.msg_ctime = (int32_t)ds->msg_ctime;
	old.msg_lcbytes = ds->msg_cbytes;
	old.msg_lqbytes = ds->msg_qbytes;
	old.msg_cbytes = clamp16(ds->msg_cbytes);
	old.msg_qnum = clamp16(ds->msg_qnum);
	old.msg_qbytes = clamp16(ds->msg_qbytes);
	old.msg_lspid = (uint16_t)ds->msg_lspid;
	old.msg_lrpid = (uint16_t)ds->msg_lrpid;
	return copy_to_user((void *)ubuf, &old, sizeof(old)) < 0 ? -EFAULT : 0;
}

static int copy_ds_in(uint32_t ubuf, struct msqid64_ds *ds, int version)
{
	if (version == IPC_64)
		return copy_from_user(ds, (const void *)ubuf, sizeof(*ds)) < 0 ? -EFAULT : 0;
	struct msqid_ds old;
	if (copy_from_user(&old, (const void *)ubuf, sizeof(old)) < 0)
		return -EFAULT;
	memset(ds, 0, sizeof(*ds));
	ipc_perm_from_old(&old.msg_perm, &ds->msg_perm);
	ds->msg_qbytes = old.msg_qbytes ? old.msg_qbytes : old.msg_lqbytes;
	return 0;
}

/* IPC_STAT by id, MSG_STAT and MSG_STAT_ANY by index: 0 or the id. */
static int msgctl_stat(int msqid, int cmd, uint32_t ubuf, int version)
{
	struct msqid64_ds ds;

	spin_lock(&msg_ids.lock);
	struct kern_ipc_perm *p = cmd == IPC_STAT ? ipc_obtain(&msg_ids, msqid)
				  : ipc_at_index(&msg_ids, msqid & (IPCMNI - 1));
	int ret = !p ? -EINVAL : cmd != MSG_STAT_ANY && ipc_perms(p, S_IRUGO) < 0 ? -EACCES
		  : cmd == IPC_STAT ? 0 : p->id;
	if (ret >= 0)
		fill_ds(to_queue(p), &ds);
	spin_unlock(&msg_ids.lock);
	if (ret >= 0 && copy_ds_out(ubuf, &ds, version) < 0)
		return -EFAULT;
	return ret;
}

/* IPC_RMID (Linux's freeque): out of the table; sleepers wake to EIDRM. */
static void queue_remove(struct msg_queue *q)
{
	ipc_rmid(&msg_ids, &q->perm);
	msg_hdrs -= q->qnum;
	msg_bytes -= q->cbytes;
	waitq_wake_all(&q->senders);
	waitq_wake_all(&q->receivers);
}

static int queue_set(struct msg_queue *q, const struct msqid64_ds *ds)
{
	if (ds->msg_qbytes > (uint32_t)ipc_tun.msgmnb && !capable(CAP_SYS_RESOURCE))
		return -EPERM;		/* past msgmnb needs CAP_SYS_RESOURCE */
	int err = ipc_perm_set(&q->perm, &ds->msg_perm);
	if (err < 0)
		return err;
	q->qbytes = ds->msg_qbytes;
	q->ctime = ipc_now();
	waitq_wake_all(&q->senders);	/* more room, maybe */
	waitq_wake_all(&q->receivers);
	return 0;
}

/* IPC_SET and IPC_RMID: the owner's (Linux's msgctl_down). */
static int msgctl_down(int msqid, int cmd, const struct msqid64_ds *ds)
{
	struct msg_queue *q = queue_get(msqid);
	if (!q)
		return -EINVAL;
	int err = 0;
	if (!ipc_owner(&q->perm))
		err = -EPERM;
	else if (cmd == IPC_RMID)
		queue_remove(q);
	else
		err = queue_set(q, ds);
	bool last = ipc_put(&q->perm);
	if (cmd == IPC_RMID && !err)
		last = ipc_put(&q->perm);	/* and the table's */
	spin_unlock(&msg_ids.lock);
	if (last)
		queue_free(&q->perm);
	return err;
}

/* msgctl with cmd's version already parsed (kernel/ipc/syscall.c). */
int msgctl_version(int msqid, int cmd, uint32_t ubuf, int version)
{
	struct msqid64_ds ds;

	if (msqid < 0 || cmd < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case MSG_INFO:
		return msgctl_info(cmd, ubuf);
	case IPC_STAT:
	case MSG_STAT:
	case MSG_STAT_ANY:
		return msgctl_stat(msqid, cmd, ubuf, version);
	case IPC_SET:
		if (copy_ds_in(ubuf, &ds, version) < 0)
			return -EFAULT;
		return msgctl_down(msqid, cmd, &ds);
	case IPC_RMID:
		return msgctl_down(msqid, cmd, NULL);
	default:
		return -EINVAL;
	}
}

int sys_msgctl(int msqid, int cmd, uint32_t ubuf)
{
	return msgctl_version(msqid, cmd, ubuf, IPC_64);
}

/* ---- /proc/sysvipc/msg ------------------------------------------------------ */

void msg_proc_text(struct pbuf *b)
{
	pb_printf(b, "       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  "
		  "cuid  cgid      stime      rtime      ctime\n");
	spin_lock(&msg_ids.lock);
	for (int i = 0; i < msg_ids.cap; i++) {
		struct msg_queue *q = (struct msg_queue *)msg_ids.slot[i];
		if (!q)
			continue;
		pb_printf(b, "%10d %10d  %4o  %10u %10u %5d %5d %5u %5u %5u %5u %10u %10u %10u\n",
			  q->perm.key, q->perm.id, q->perm.mode, q->cbytes, q->qnum, q->lspid,
			  q->lrpid, q->perm.uid, q->perm.gid, q->perm.cuid, q->perm.cgid,
			  q->stime, q->rtime, q->ctime);
	}
	spin_unlock(&msg_ids.lock);
}
