/*
 * unix_scm.c - SCM_RIGHTS: open files passed in a message, as Linux's
 * net/core/scm.c. sendmsg's control buffer is read here (scm_from_user):
 * each SOL_SOCKET/SCM_RIGHTS message's descriptors become held files,
 * which travel with the datagram, or with a stream's bytes (unix_data.c
 * marks where in the receiving pipe they start and end), until recvmsg
 * installs them in the receiver's table (scm_to_user) or they are
 * dropped (a read without room for them: MSG_CTRUNC; a socket freed with
 * them queued), which closes them.
 *
 * Not done: Linux's garbage collector for sockets sent over themselves
 * (such a cycle keeps its memory until reboot here), SCM_CREDENTIALS
 * (checked for its size, then ignored), and descriptors on MSG_PEEK.
 */
#include "unix.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/fs/file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include <uapi/socket.h>

#define OPTMEM_MAX	20480		/* Linux's net.core.optmem_max: a control buffer */
#define CMSG_ALIGN(n)	(((n) + 3u) & ~3u)

void scm_unref(struct scm_fds *b)
{
	if (__atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0)
		kfree(b);
}

void scm_free(struct scm_fds *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->n; i++)
		if (b->files[i])
			file_close(b->files[i]);
	b->n = 0;
	scm_unref(b);
}

/* One SCM_RIGHTS message's descriptors, added to *b (made at the first):
 * EINVAL past SCM_MAX_FD in all, EBADF for one not open. */
static int take_rights(const struct cmsghdr *c, struct scm_fds **b)
{
	int num = (int)((c->cmsg_len - sizeof(*c)) / sizeof(int));
	if (num <= 0)
		return 0;
	if (!*b && !(*b = kzalloc(sizeof(**b) + SCM_MAX_FD * sizeof(struct file *))))
		return -ENOMEM;
	(*b)->refs = 1;
	if ((*b)->n + num > SCM_MAX_FD)
		return -EINVAL;
	const int *fds = (const int *)(c + 1);
	for (int i = 0; i < num; i++) {
		struct file *f = fd_get(fds[i]);
		if (!f)
			return -EBADF;
		(*b)->files[(*b)->n++] = f;
	}
	return 0;
}

/* Linux's __scm_send over a copy of the control buffer. */
static int parse(const char *ctl, uint32_t len, struct scm_fds **b)
{
	for (uint32_t at = 0; len - at >= sizeof(struct cmsghdr);) {
		const struct cmsghdr *c = (const struct cmsghdr *)(ctl + at);
		if (c->cmsg_len < sizeof(*c) || c->cmsg_len > len - at)
			return -EINVAL;		/* !CMSG_OK */
		int err = 0;
		if (c->cmsg_level != SOL_SOCKET)
			err = 0;
		else if (c->cmsg_type == SCM_RIGHTS)
			err = take_rights(c, b);
		else if (c->cmsg_type != SCM_CREDENTIALS || c->cmsg_len != sizeof(*c) + 12)
			err = -EINVAL;
		if (err)
			return err;
		at += CMSG_ALIGN(c->cmsg_len);
		if (at > len)
			break;
	}
	return 0;
}

int scm_from_user(const struct user_msghdr *m, struct scm_fds **out)
{
	*out = NULL;
	uint32_t len = m->msg_controllen;
	if (!len)
		return 0;
	if (len > OPTMEM_MAX)
		return -ENOBUFS;
	char *ctl = kmalloc(len);
	if (!ctl)
		return -ENOBUFS;
	int err = copy_from_user(ctl, m->msg_control, len) < 0 ? -EFAULT : parse(ctl, len, out);
	kfree(ctl);
	if (err) {
		scm_free(*out);
		*out = NULL;
	}
	return err;
}

/* recvmsg: b's files on the lowest free descriptors (MSG_CMSG_CLOEXEC:
 * close-on-exec), as many as the control buffer has room for, in one
 * SCM_RIGHTS message written there; *used its length. What does not fit
 * or cannot be installed is closed, with MSG_CTRUNC. b is consumed. */
int scm_to_user(struct scm_fds *b, void *uctl, uint32_t ctllen, uint32_t flags, uint32_t *used,
		uint32_t *msg_flags)
{
	*used = 0;
	if (!b)
		return 0;
	int k = 0, err = 0;
	int room = ctllen >= sizeof(struct cmsghdr) && uctl ?
		   (int)((ctllen - sizeof(struct cmsghdr)) / sizeof(int)) : 0;
	int *ufds = (int *)((char *)uctl + sizeof(struct cmsghdr));
	for (; k < b->n && k < room && !err; k++) {
		int fd = fd_install(b->files[k], flags & MSG_CMSG_CLOEXEC);
		if (fd < 0)
			break;
		b->files[k] = NULL;		/* the table's now */
		err = copy_to_user(ufds + k, &fd, sizeof(fd)) < 0 ? -EFAULT : 0;
	}
	if (k < b->n)
		*msg_flags |= MSG_CTRUNC;
	scm_free(b);
	if (!k || err)
		return err;
	struct cmsghdr c = { sizeof(c) + (uint32_t)k * sizeof(int), SOL_SOCKET, SCM_RIGHTS };
	if (copy_to_user(uctl, &c, sizeof(c)) < 0)
		return -EFAULT;
	*used = CMSG_ALIGN(c.cmsg_len);
	return 0;
}
