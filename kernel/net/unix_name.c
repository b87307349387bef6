/*
 * unix_name.c - the names AF_UNIX sockets are bound to, as Linux's
 * unix_bind and unix_find_other.
 *
 * A path name is a socket file made in the tree (a tmpfs directory: /tmp)
 * by bind, and found again by connect or sendto through the path walk;
 * the socket holds the file while it is bound, so the node's address is
 * its key. Unlinking the file takes the name away (connect: ENOENT), not
 * the socket's own address. An abstract name (a leading NUL) lives only
 * here, and goes with its socket. Every bound socket is on one list under
 * names_lock; a socket leaves it when its file closes.
 */
#include "unix.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/namei.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/task/proc.h"
#include <uapi/socket.h>

static struct spinlock names_lock = SPINLOCK_INIT("unix names");
static struct socket *names;		/* bound sockets, under names_lock */
static uint32_t next_auto;		/* autobind's next name, under names_lock */

static bool abstract(const struct unix_addr *a)
{
	return a->bytes[2] == '\0';
}

/* Under names_lock: the socket of this type bound to abstract name a,
 * or NULL. Linux hashes an abstract name with the type: each type has
 * its own, so a stream and a datagram socket may share one. */
static struct socket *find_abstract(const struct unix_addr *a, int type)
{
	for (struct socket *s = names; s; s = s->table_next)
		if (s->addr && !s->node && s->type == type && s->addr->len == a->len &&
		    memcmp(s->addr->bytes, a->bytes, a->len) == 0)
			return s;
	return NULL;
}

static struct socket *find_node(const struct initrd_file *node)
{
	for (struct socket *s = names; s; s = s->table_next)
		if (s->node == node)
			return s;
	return NULL;
}

/* Bound to a (kmalloc'd copy) and node, unless it already is (EINVAL)
 * or, abstract, the name is taken (EADDRINUSE). */
static int enter(struct socket *s, struct unix_addr *a, const struct initrd_file *node)
{
	int err = 0;
	spin_lock(&names_lock);
	spin_lock(&s->lock);
	if (s->addr)
		err = -EINVAL;
	else if (!node && find_abstract(a, s->type))
		err = -EADDRINUSE;
	if (!err) {
		s->addr = a;
		s->node = node;
		s->in_table = true;
		s->table_next = names;
		names = s;
	}
	spin_unlock(&s->lock);
	spin_unlock(&names_lock);
	return err;
}

/* A path name: the socket file first (EADDRINUSE if the name is there),
 * then the binding; a socket already bound takes it back (EINVAL). */
static int bind_path(struct socket *s, struct unix_addr *a)
{
	char path[FS_PATH_MAX];
	const struct initrd_file *node;
	strlcpy(path, a->bytes + 2, sizeof(path));
	int err = fs_mksock(path, 0777, &node);
	if (err)
		return err == -EEXIST ? -EADDRINUSE : err;
	err = enter(s, a, node);
	if (err) {
		strlcpy(path, a->bytes + 2, sizeof(path));
		fs_mksock_undo(path);
		node_drop(node);
	}
	return err;
}

int unix_bind(struct socket *s, const struct unix_addr *a)
{
	struct unix_addr *copy = kmalloc(sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	*copy = *a;
	int err = abstract(a) ? enter(s, copy, NULL) : bind_path(s, copy);
	if (err)
		kfree(copy);
	return err;
}

/* bind with only the family, or a datagram sent unnamed with SO_PASSCRED:
 * an abstract name of five hex digits, as Linux's unix_autobind. A socket
 * already named keeps its name. */
int unix_autobind(struct socket *s)
{
	struct unix_addr *a = kzalloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	for (int tries = 0; tries < 0x100000; tries++) {
		spin_lock(&names_lock);
		uint32_t n = next_auto++ & 0xfffff;
		spin_unlock(&names_lock);
		static const char hex[] = "0123456789abcdef";
		a->bytes[0] = AF_UNIX;
		for (int i = 0; i < 5; i++)
			a->bytes[3 + i] = hex[n >> (16 - 4 * i) & 0xf];
		a->len = 2 + 1 + 5;
		int err = enter(s, a, NULL);
		if (err != -EADDRINUSE) {
			if (err)
				kfree(a);
			return err == -EINVAL ? 0 : err;
		}
	}
	kfree(a);
	return -ENOSPC;
}

/* Linux's unix_find_bsd: the walk's errors, EACCES without write
 * permission, ECONNREFUSED for a file that is not a socket or one no
 * socket is bound to (EPROTOTYPE, unix_find's, for one of another type). */
static int find_path(const struct unix_addr *a, struct socket **out)
{
	const struct initrd_file *node;
	*out = NULL;
	int err = fs_lookup(current(), a->bytes + 2, &node);
	if (err)
		return err;
	if (!fs_is_socket(node))
		return -ECONNREFUSED;
	if (fs_permission(node, MAY_WRITE))
		return -EACCES;
	spin_lock(&names_lock);
	struct socket *s = find_node(node);
	if (s)
		sock_get(s);
	spin_unlock(&names_lock);
	*out = s;
	return s ? 0 : -ECONNREFUSED;
}

int unix_find(const struct unix_addr *a, int type, struct socket **out)
{
	int err;
	if (abstract(a)) {
		spin_lock(&names_lock);
		*out = find_abstract(a, type);
		if (*out)
			sock_get(*out);
		spin_unlock(&names_lock);
		err = *out ? 0 : -ECONNREFUSED;
	} else {
		err = find_path(a, out);
	}
	if (!err && (*out)->type != type) {
		sock_put(*out);
		err = -EPROTOTYPE;
	}
	if (err)
		*out = NULL;		/* nothing held: the caller puts what it got */
	return err;
}

/* Its file is gone: the name is free again (the socket file stays in the
 * tree until unlinked, as Linux's). */
void unix_unbind(struct socket *s)
{
	spin_lock(&names_lock);
	if (s->in_table) {
		for (struct socket **pp = &names; *pp; pp = &(*pp)->table_next)
			if (*pp == s) {
				*pp = s->table_next;
				break;
			}
		s->in_table = false;
	}
	spin_unlock(&names_lock);
	if (s->node)
		node_drop(s->node);
	s->node = NULL;
}
