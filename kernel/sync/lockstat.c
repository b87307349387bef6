/*
 * lockstat.c - lock statistics, by class (kernel/sync/lockstat.h).
 *
 * A class is every lock of one name and kind: the 32 run queues are one
 * class "runqueue", as Linux's lockdep groups locks by where they are
 * initialised. Classes are claimed on a lock's first acquisition, without
 * a lock of their own (a lock cannot count itself while it is being
 * registered): a CPU claims the first free slot with a compare-and-swap
 * of its name, so two CPUs registering the same name meet in the same
 * slot. Counters are per CPU, written only by their own CPU with
 * interrupts off (inside spin_lock), so they need no atomic operations;
 * a read sums the CPUs, and may see a count that is a moment old.
 */
#include "lockstat.h"
#include "kernel/arch/cpu.h"
#include "kernel/task/cred.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/time/time.h"
#include "kernel/mm/uaccess.h"
#include "kernel/arch/x86.h"
#include <uapi/lockstat.h>

#define LOCK_CLASSES 64

struct lock_class {
	const char *volatile name;	/* NULL: free slot */
	enum lock_kind kind;
	struct lock_cpu_stat cpu[MAX_CPUS];
};

volatile bool lockstat_on;

static struct lock_class classes[LOCK_CLASSES];
/* Where locks whose class table is full are counted (and named so). */
static struct lock_class overflow = { "(other classes)", LOCK_SPIN, { { 0 } } };

/* Name pointers already seen, to their class: a spinlock has no room for
 * its class (lib/spinlock.h), so a counted acquisition finds it here by
 * the address of its name, claimed as the class slots are. */
#define NAME_CACHE 256
static struct { const char *volatile name; enum lock_kind kind; struct lock_class *cls; }
	name_cache[NAME_CACHE];

static struct lock_class *class_by_name(const char *name, enum lock_kind kind);

struct lock_class *lockstat_class(const char *name, enum lock_kind kind)
{
	if (!name)
		return class_by_name(name, kind);
	uint32_t h = ((uint32_t)name >> 2) * 2654435761u;
	for (int i = 0; i < NAME_CACHE; i++) {
		int k = (h + i) % NAME_CACHE;
		const char *n = __atomic_load_n(&name_cache[k].name, __ATOMIC_ACQUIRE);
		if (n == name && name_cache[k].kind == kind && name_cache[k].cls)
			return name_cache[k].cls;
		if (!n && __sync_bool_compare_and_swap(&name_cache[k].name, NULL, name)) {
			name_cache[k].kind = kind;
			__atomic_store_n(&name_cache[k].cls, class_by_name(name, kind), __ATOMIC_RELEASE);
			return name_cache[k].cls;
		}
	}
	return class_by_name(name, kind);	/* cache full: the slow way */
}

static struct lock_class *class_by_name(const char *name, enum lock_kind kind)
{
	if (!name)
		name = "(unnamed)";
	for (int i = 0; i < LOCK_CLASSES; i++) {
		struct lock_class *c = &classes[i];
		const char *n = c->name;
		if (!n) {
			/* The kind is written before the name makes the slot
			 * visible; a CPU that loses the race reads the winner's. */
			if (__sync_bool_compare_and_swap(&c->name, NULL, (const char *)1)) {
				c->kind = kind;
				__atomic_store_n(&c->name, name, __ATOMIC_RELEASE);
				return c;
			}
			while ((n = __atomic_load_n(&c->name, __ATOMIC_ACQUIRE)) == (const char *)1)
				pause();
		}
		if (n != (const char *)1 && c->kind == kind && strcmp(n, name) == 0)
			return c;
	}
	return &overflow;
}

static void account(uint64_t *total, uint64_t *min, uint64_t *max, uint64_t v)
{
	*total += v;
	if (v > *max)
		*max = v;
	if (*min == 0 || v < *min)
		*min = v;
}

/* Called with interrupts off, by the CPU that now holds the lock;
 * last_cpu is the lock's own record of its previous holder (-1: none). */
void lockstat_acquired(struct lock_class *c, int last_cpu, uint64_t wait, bool contended)
{
	int me = cpu_id();
	struct lock_cpu_stat *s = &c->cpu[me];
	bool bounced = last_cpu >= 0 && last_cpu != me;

	s->acquisitions++;
	s->acq_bounces += bounced;
	if (contended) {
		s->contentions++;
		s->con_bounces += bounced;
		account(&s->wait_total, &s->wait_min, &s->wait_max, wait);
	}
}

void lockstat_released(struct lock_class *c, uint64_t held)
{
	struct lock_cpu_stat *s = &c->cpu[cpu_id()];
	account(&s->hold_total, &s->hold_min, &s->hold_max, held);
}

/* The spinlocks a CPU holds that were taken counting, with when: locks are
 * released by the CPU that took them, not always in the reverse order. */
#define HOLDS 8
static struct hold {
	struct spinlock *lock;
	struct lock_class *cls;
	uint64_t since;
} holds[MAX_CPUS][HOLDS];

void lockstat_spin_taken(struct spinlock *l, uint64_t waited_from)
{
	uint64_t now = rdtsc();
	struct lock_class *c = lockstat_class(l->name, LOCK_SPIN);
	struct hold *h = holds[cpu_id()];

	lockstat_acquired(c, l->last_cpu, waited_from ? now - waited_from : 0, waited_from != 0);
	l->last_cpu = (int16_t)cpu_id();
	for (int i = 0; i < HOLDS; i++) {
		if (!h[i].lock) {
			h[i] = (struct hold){ l, c, now };
			/* we hold it: spin_unlock will take its slow path */
			l->locked = LOCKED_COUNTED;
			return;
		}
	}
	/* Nested deeper than HOLDS counted locks: its hold goes uncounted. */
}

void lockstat_spin_released(struct spinlock *l)
{
	struct hold *h = holds[cpu_id()];
	for (int i = 0; i < HOLDS; i++) {
		if (h[i].lock == l) {
			lockstat_released(h[i].cls, rdtsc() - h[i].since);
			h[i].lock = NULL;
			return;
		}
	}
}

/* One class, summed over the CPUs, times in ns. */
static void summarise(const struct lock_class *c, struct lock_stat_info *out)
{
	memset(out, 0, sizeof(*out));
	strlcpy(out->name, c->name, sizeof(out->name));
	out->kind = c->kind;
	for (int i = 0; i < MAX_CPUS; i++) {
		const struct lock_cpu_stat *s = &c->cpu[i];
		out->acquisitions += s->acquisitions;
		out->contentions += s->contentions;
		out->acq_bounces += s->acq_bounces;
		out->con_bounces += s->con_bounces;
		out->wait_total_ns += clock_cycles_to_ns(s->wait_total);
		out->hold_total_ns += clock_cycles_to_ns(s->hold_total);
		if (clock_cycles_to_ns(s->wait_max) > out->wait_max_ns)
			out->wait_max_ns = clock_cycles_to_ns(s->wait_max);
		if (clock_cycles_to_ns(s->hold_max) > out->hold_max_ns)
			out->hold_max_ns = clock_cycles_to_ns(s->hold_max);
		if (s->wait_min && (!out->wait_min_ns || clock_cycles_to_ns(s->wait_min) < out->wait_min_ns))
			out->wait_min_ns = clock_cycles_to_ns(s->wait_min);
		if (s->hold_min && (!out->hold_min_ns || clock_cycles_to_ns(s->hold_min) < out->hold_min_ns))
			out->hold_min_ns = clock_cycles_to_ns(s->hold_min);
	}
}

static struct lock_class *class_at(int i)
{
	if (i < LOCK_CLASSES) {
		const char *n = __atomic_load_n(&classes[i].name, __ATOMIC_ACQUIRE);
		return n && n != (const char *)1 ? &classes[i] : NULL;
	}
	return i == LOCK_CLASSES && overflow.cpu[0].acquisitions + overflow.cpu[1].acquisitions
		? &overflow : NULL;
}

/* Copy up to n classes to ubuf; the number of classes there are. */
static int read_stats(uint32_t ubuf, int n)
{
	int count = 0;
	for (int i = 0; i <= LOCK_CLASSES; i++) {
		struct lock_class *c = class_at(i);
		if (!c)
			continue;
		if (count < n) {
			struct lock_stat_info info;
			summarise(c, &info);
			if (copy_to_user((void *)(ubuf + count * sizeof(info)), &info, sizeof(info)) < 0)
				return -EFAULT;
		}
		count++;
	}
	return count;
}

/* Zero every counter. A CPU counting at the same moment may keep a count
 * of the old period: a reset is a fresh start to within one acquisition. */
static void reset_stats(void)
{
	for (int i = 0; i <= LOCK_CLASSES; i++) {
		struct lock_class *c = i < LOCK_CLASSES ? &classes[i] : &overflow;
		memset(c->cpu, 0, sizeof(c->cpu));
	}
}

/*
 * sys_lock_stat(op, buf, n) - system call 509 (docs/abi.md §4).
 *   LOCK_STAT_READ   copy up to n struct lock_stat_info to buf; returns how
 *                    many classes there are (call with n = 0 to size buf)
 *   LOCK_STAT_RESET  root only (EPERM): zero every counter
 *   LOCK_STAT_SET    root only: count from now on (buf 1) or stop (buf 0);
 *                    -EOPNOTSUPP in a DEBUG=0 kernel, which has no counters
 *   LOCK_STAT_STATE  1 if counting, 0 if not
 * -EINVAL for a bad op or n < 0, -EFAULT for a bad buf.
 */
int sys_lock_stat(int op, uint32_t ubuf, int n)
{
	switch (op) {
	case LOCK_STAT_READ:
		return n < 0 ? -EINVAL : read_stats(ubuf, n);
	case LOCK_STAT_RESET:
		if (sys_geteuid() != 0)
			return -EPERM;
		reset_stats();
		return 0;
	case LOCK_STAT_SET:
		if (sys_geteuid() != 0)
			return -EPERM;
		if (ubuf > 1)
			return -EINVAL;
#ifdef LOCK_DEBUG
		lockstat_on = ubuf;
		return 0;
#else
		return -EOPNOTSUPP;
#endif
	case LOCK_STAT_STATE:
		return lockstat_on;
	default:
		return -EINVAL;
	}
}
