/*
 * pipe_limits.c - what pipes may cost, as Linux's fs/pipe.c limits it:
 * /proc/sys/fs/pipe-max-size (the most an unprivileged F_SETPIPE_SZ may
 * ask, and a new pipe's size if it is lower than 64 KiB) and the pages
 * each user's pipes may hold, pipe-user-pages-soft (past it a user's new
 * pipes get 2 pages) and pipe-user-pages-hard (past it they are refused;
 * 0: no limit). A pipe's pages are charged to the real uid that made it
 * (Linux's user_struct pipe_bufs) until it is freed, at their number when
 * full, whether they exist yet or not. CAP_SYS_RESOURCE or CAP_SYS_ADMIN
 * (Linux's pipe_is_unprivileged_user) is not held to either limit.
 */
#include "file.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/spinlock.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/task/proc.h"

#define PIPE_MIN_DEF_PAGES	2	/* Linux's PIPE_MIN_DEF_BUFFERS */

static uint32_t pipe_max_size = 1024 * 1024;	/* Linux's defaults */
static uint32_t pages_hard = 0;
static uint32_t pages_soft = 16 * 1024;		/* 16 pages each for 1,024 pipes */

/* One per user with pipes: a list, short (users are few). */
struct pipe_user {
	int uid;
	uint32_t pages;			/* what its pipes are charged */
	uint32_t pipes;			/* they hold it while they exist */
	struct pipe_user *next;
};
static struct pipe_user *users;
static struct spinlock users_lock = SPINLOCK_INIT("pipe users");

static const char *const names[PIPE_SYSCTL_NR] = {
	[PIPE_SYSCTL_MAX_SIZE] = "pipe-max-size",
	[PIPE_SYSCTL_PAGES_HARD] = "pipe-user-pages-hard",
	[PIPE_SYSCTL_PAGES_SOFT] = "pipe-user-pages-soft",
};
static uint32_t *const values[PIPE_SYSCTL_NR] = {
	&pipe_max_size, &pages_hard, &pages_soft,
};

const char *pipe_sysctl_name(int i) { return names[i]; }
uint32_t pipe_sysctl_value(int i)  { return __atomic_load_n(values[i], __ATOMIC_RELAXED); }

/* Linux's round_pipe_size: a power of two pages, at least one; 0 past
 * 2 GiB. */
uint32_t pipe_round_size(uint64_t size)
{
	if (size > (1ull << 31))
		return 0;
	uint32_t r = PAGE_SIZE;
	while (r < size)
		r <<= 1;
	return r;
}

/* A write of one number: pipe-max-size is rounded as a pipe's size is. */
int pipe_sysctl_write(int i, const char *text, uint32_t len)
{
	int64_t v;
	if (parse_decimals(text, len, &v, 1) != 1 || v < 0 || v > UINT32_MAX)
		return -EINVAL;
	if (i == PIPE_SYSCTL_MAX_SIZE && !(v = pipe_round_size((uint64_t)v)))
		return -EINVAL;
	__atomic_store_n(values[i], (uint32_t)v, __ATOMIC_RELAXED);
	return 0;
}

bool pipe_unprivileged(void)
{
	return !capable(CAP_SYS_RESOURCE) && !capable(CAP_SYS_ADMIN);
}

/* Linux's too_many_pipe_buffers_soft and _hard: a limit of 0 is none. */
bool pipe_pages_over_soft(uint32_t pages)
{
	uint32_t soft = pipe_sysctl_value(PIPE_SYSCTL_PAGES_SOFT);
	return soft && pages > soft;
}

bool pipe_pages_over_hard(uint32_t pages)
{
	uint32_t hard = pipe_sysctl_value(PIPE_SYSCTL_PAGES_HARD);
	return hard && pages > hard;
}

/* uid's record, held by one more pipe; NULL if it has none. users_lock
 * held. */
static struct pipe_user *find_user(int uid)
{
	struct pipe_user *u = users;
	while (u && u->uid != uid)
		u = u->next;
	if (u)
		u->pipes++;
	return u;
}

/* The caller's user, held by one more pipe; NULL when memory ran out. */
struct pipe_user *pipe_user_get(void)
{
	int uid = current()->uid;
	spin_lock(&users_lock);
	struct pipe_user *u = find_user(uid);
	spin_unlock(&users_lock);
	if (u)
		return u;
	struct pipe_user *fresh = kzalloc(sizeof(*fresh));	/* the user's first pipe */
	spin_lock(&users_lock);
	u = find_user(uid);
	if (!u && fresh) {
		*fresh = (struct pipe_user){ .uid = uid, .pipes = 1, .next = users };
		users = u = fresh;
		fresh = NULL;
	}
	spin_unlock(&users_lock);
	kfree(fresh);
	return u;
}

/* Its charge moves from old to new pages: the user's total after. */
uint32_t pipe_user_charge(struct pipe_user *u, uint32_t old, uint32_t new)
{
	spin_lock(&users_lock);
	u->pages = u->pages - old + new;
	uint32_t total = u->pages;
	spin_unlock(&users_lock);
	return total;
}

/* A pipe that held u (charged 0 now) is gone; the last one frees it. */
void pipe_user_put(struct pipe_user *u)
{
	spin_lock(&users_lock);
	bool last = --u->pipes == 0;
	if (last) {
		struct pipe_user **pp = &users;
		while (*pp != u)
			pp = &(*pp)->next;
		*pp = u->next;
	}
	spin_unlock(&users_lock);
	if (last)
		kfree(u);
}
