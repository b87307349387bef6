/*
 * itimer.c - alarm, setitimer and getitimer: a process's three interval
 * timers, as Linux 6.1 has them (kernel/time/itimer.c, and the itimer
 * half of kernel/time/posix-cpu-timers.c).
 *
 * ITIMER_REAL: the armed real timers of every process wait on one list,
 * soonest first. The CPU that arms one programs its one-shot timer for it
 * (drivers/timer.c); every CPU's timer interrupt sends SIGALRM to the
 * processes whose time has come (itimer_expire) and asks for the next
 * expiry. An interval timer starts its next period when the process
 * takes its SIGALRM, not at expiry: Linux's dequeue_signal re-arms it
 * there, so a process that blocks SIGALRM gets one signal, not a backlog,
 * and getitimer reads 0 until the signal is taken.
 *
 * ITIMER_VIRTUAL and ITIMER_PROF: the process's CPU time as the tick
 * counts it (user ticks; user and system ticks), checked at each tick of
 * one of its threads, as Linux's run_posix_cpu_timers does under tick
 * accounting. So they are a tick coarse, and setitimer adds a tick to
 * the first period (Linux's set_cpu_itimer): never early.
 *
 * Locking: itimer_lock guards every struct itimers and the list. Senders
 * take signal_lock first (signal_send_process needs it): the order is
 * signal_lock, then itimer_lock, never the other way. Two looks go without
 * it (else every CPU's timer interrupt and every exit would take it): the
 * soonest expiry, through a seqcount, and an exiting process's own
 * timers when none is on the list.
 */
#include "itimer.h"
#include "lib/errno.h"
#include "kernel/task/proc.h"
#include "kernel/task/signal.h"
#include "time.h"
#include "kernel/mm/uaccess.h"
#include "drivers/timer.h"
#include "sched/sched.h"

#define NSEC_PER_USEC	1000ull
#define NSEC_PER_SEC	1000000000ull
#define USEC_PER_SEC	1000000ul
#define ALARM_MAX	0x7fffffffu	/* alarm's seconds on a 32-bit Linux: INT_MAX */

enum { CPU_VIRT, CPU_PROF };		/* struct itimers' cpu[] and cputime[] */

/* A timer's value and period in ns, as setitimer and getitimer pass them. */
struct itimer_ns {
	uint64_t value, interval;
};

static struct spinlock itimer_lock = SPINLOCK_INIT("itimer");
static struct thread_group *real_head;		/* the armed real timers, soonest first */
static volatile int real_armed;		/* their number: the interrupt's quick look */
/* The head's expiry (UINT64_MAX: none), for every CPU's timer interrupt
 * to read without itimer_lock (else every CPU would take the lock at
 * every tick just to read it). 64 bits are two words on
 * i386: real_seq is odd while they are written (a seqcount, Linux's). */
static volatile uint64_t real_soonest = UINT64_MAX;
static volatile uint32_t real_seq;

/* itimer_lock held: the list's head changed. */
static void soonest_update(void)
{
	real_seq++;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	real_soonest = real_head ? real_head->it.real_expires : UINT64_MAX;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	real_seq++;
}

static uint64_t soonest_read(void)
{
	uint32_t seq;
	uint64_t v;
	do {
		seq = __atomic_load_n(&real_seq, __ATOMIC_ACQUIRE);
		v = real_soonest;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || seq != __atomic_load_n(&real_seq, __ATOMIC_RELAXED));
	return v;
}

/* Linux's TICK_NSEC: one tick of CPU time. */
static uint64_t tick_ns(void)
{
	return NSEC_PER_SEC / (uint64_t)sched_hz();
}

/* ---- ITIMER_REAL ----------------------------------------------------------- */

static void real_insert(struct thread_group *g)
{
	struct thread_group **pp = &real_head;
	while (*pp && (*pp)->it.real_expires <= g->it.real_expires)
		pp = &(*pp)->it.real_next;
	g->it.real_next = *pp;
	*pp = g;
	g->it.real_queued = true;
	real_armed++;
	soonest_update();
	timer_arm(g->it.real_expires);	/* this CPU's interrupt then */
}

static void real_remove(struct thread_group *g)
{
	if (!g->it.real_queued)
		return;
	for (struct thread_group **pp = &real_head; *pp; pp = &(*pp)->it.real_next) {
		if (*pp == g) {
			*pp = g->it.real_next;
			break;
		}
	}
	g->it.real_queued = false;
	real_armed--;
	soonest_update();
}

/* Linux's itimer_get_remtime: time left, 1 us once due but not yet
 * sent, 0 when not armed (an interval timer whose SIGALRM waits too). */
static void real_get(const struct itimers *it, struct itimer_ns *v)
{
	uint64_t now = clock_ns();
	v->value = 0;
	if (it->real_queued)
		v->value = it->real_expires > now ? it->real_expires - now : NSEC_PER_USEC;
	v->interval = it->real_incr;
}

static void real_set(struct thread_group *g, const struct itimer_ns *new, struct itimer_ns *old)
{
	struct itimers *it = &g->it;
	real_get(it, old);
	real_remove(g);
	it->real_incr = new->value ? new->interval : 0;
	if (new->value) {
		it->real_expires = clock_ns() + new->value;
		real_insert(g);
	}
}

uint64_t itimer_expire(void)
{
	if (!real_armed)
		return UINT64_MAX;
	uint64_t next = soonest_read();
	if (next > clock_ns())
		return next;
	/* Linux's it_real_fn: SIGALRM to the process, from the kernel. */
	struct ksiginfo info = { SI_KERNEL, 0, 0, 0, 0 };
	spin_lock(&signal_lock);
	spin_lock(&itimer_lock);
	uint64_t now = clock_ns();
	while (real_head && real_head->it.real_expires <= now) {
		struct thread_group *g = real_head;
		real_remove(g);
		signal_send_process(g->leader, SIGALRM, &info);	/* g->leader: signal_lock's */
	}
	next = real_head ? real_head->it.real_expires : UINT64_MAX;
	spin_unlock(&itimer_lock);
	spin_unlock(&signal_lock);
	return next;
}

/* Linux's hrtimer_forward: the first whole period after the last expiry
 * that is later than now; periods missed meanwhile are not made up. */
void itimer_sigalrm_taken(struct proc *leader)
{
	struct itimers *it = &leader->group->it;
	spin_lock(&itimer_lock);
	if (!it->real_queued && it->real_incr) {
		uint64_t now = clock_ns();
		if (now >= it->real_expires)
			it->real_expires += ((now - it->real_expires) / it->real_incr + 1) * it->real_incr;
		real_insert(leader->group);
	}
	spin_unlock(&itimer_lock);
}

/* ---- ITIMER_VIRTUAL, ITIMER_PROF --------------------------------------------- */

/* Linux's get_cpu_itimer: the CPU time left; a tick once it is due. */
static void cpu_get(const struct itimers *it, int clk, struct itimer_ns *v)
{
	uint64_t expires = it->cpu[clk].expires, now = it->cputime[clk];
	v->value = !expires ? 0 : expires < now ? tick_ns() : expires - now;
	v->interval = it->cpu[clk].incr;
}

/* Linux's set_cpu_itimer and set_process_cpu_timer (whose "about to
 * fire" test is <=, get_cpu_itimer's <: copied as they are). */
static void cpu_set(struct itimers *it, int clk, const struct itimer_ns *new,
		    struct itimer_ns *old)
{
	struct cpu_itimer *t = &it->cpu[clk];
	uint64_t now = it->cputime[clk];
	old->value = !t->expires ? 0 : t->expires <= now ? tick_ns() : t->expires - now;
	old->interval = t->incr;
	t->expires = new->value ? now + new->value + tick_ns() : 0;
	t->incr = new->interval;
}

/* Due? Then the next period, or disarmed (Linux's check_cpu_itimer: one
 * period a check, however far behind). */
static bool cpu_check(struct cpu_itimer *t, uint64_t now)
{
	if (!t->expires || now < t->expires)
		return false;
	t->expires = t->incr ? t->expires + t->incr : 0;
	return true;
}

void itimer_tick(struct proc *p, bool user_mode)
{
	struct itimers *it = &p->group->it;
	/* A look without the lock, as most processes arm neither: a torn
	 * read of a timer being armed costs at most this tick. */
	if (!it->cpu[CPU_VIRT].expires && !it->cpu[CPU_PROF].expires)
		return;
	/* One tick a call, whatever ticks the timer lost to a host stall: lost
	 * ticks charged at once right after arming made SIGPROF come sooner
	 * than 20 ms of wall time after a 20 ms timer (make test, itimer). */
	uint64_t ns = tick_ns();
	spin_lock(&itimer_lock);
	if (user_mode)
		it->cputime[CPU_VIRT] += ns;
	it->cputime[CPU_PROF] += ns;
	bool vt = cpu_check(&it->cpu[CPU_VIRT], it->cputime[CPU_VIRT]);
	bool prof = cpu_check(&it->cpu[CPU_PROF], it->cputime[CPU_PROF]);
	spin_unlock(&itimer_lock);
	if (!vt && !prof)
		return;
	struct ksiginfo info = { SI_KERNEL, 0, 0, 0, 0 };
	spin_lock(&signal_lock);
	if (vt)
		signal_send_process(p, SIGVTALRM, &info);
	if (prof)
		signal_send_process(p, SIGPROF, &info);
	spin_unlock(&signal_lock);
}

/* ---- the process's life -------------------------------------------------------- */

void itimer_exit(struct proc *leader)
{
	/* Not on the list: no other CPU can reach its timers (only the
	 * process arms them, and its threads are gone; an expiry that took
	 * it off the list reads it no more), so no lock: exits do not meet on
	 * this global lock. */
	if (!__atomic_load_n(&leader->group->it.real_queued, __ATOMIC_ACQUIRE)) {
		leader->group->it = (struct itimers){ 0 };
		return;
	}
	spin_lock(&itimer_lock);
	real_remove(leader->group);
	leader->group->it = (struct itimers){ 0 };
	spin_unlock(&itimer_lock);
}

/* ---- the calls ----------------------------------------------------------------- */

static int do_setitimer(int which, const struct itimer_ns *new, struct itimer_ns *old)
{
	struct proc *leader = current()->group_leader;
	if ((unsigned)which > ITIMER_PROF)
		return -EINVAL;
	spin_lock(&itimer_lock);
	if (which == ITIMER_REAL)
		real_set(leader->group, new, old);
	else
		cpu_set(&leader->group->it, which == ITIMER_VIRTUAL ? CPU_VIRT : CPU_PROF, new, old);
	spin_unlock(&itimer_lock);
	return 0;
}

static int do_getitimer(int which, struct itimer_ns *v)
{
	struct proc *leader = current()->group_leader;
	if ((unsigned)which > ITIMER_PROF)
		return -EINVAL;
	spin_lock(&itimer_lock);
	if (which == ITIMER_REAL)
		real_get(&leader->group->it, v);
	else
		cpu_get(&leader->group->it, which == ITIMER_VIRTUAL ? CPU_VIRT : CPU_PROF, v);
	spin_unlock(&itimer_lock);
	return 0;
}

/* Linux's timeval_valid: seconds >= 0, 0 <= microseconds < 1,000,000. */
static bool timeval_valid(const struct timeval32 *t)
{
	return t->tv_sec >= 0 && (unsigned long)t->tv_usec < USEC_PER_SEC;
}

static uint64_t timeval_ns(const struct timeval32 *t)
{
	return (uint64_t)t->tv_sec * NSEC_PER_SEC + (uint64_t)t->tv_usec * NSEC_PER_USEC;
}

/* Whole microseconds, the rest dropped (Linux's put_itimerval). */
static struct timeval32 timeval_of(uint64_t ns)
{
	return (struct timeval32){ (long)(ns / NSEC_PER_SEC),
				   (long)(ns % NSEC_PER_SEC / NSEC_PER_USEC) };
}

static int itimerval_read(const void *u, struct itimer_ns *v)
{
	struct itimerval32 k;
	if (copy_from_user(&k, u, sizeof(k)) < 0)
		return -EFAULT;
	if (!timeval_valid(&k.it_value) || !timeval_valid(&k.it_interval))
		return -EINVAL;
	v->value = timeval_ns(&k.it_value);
	v->interval = timeval_ns(&k.it_interval);
	return 0;
}

static int itimerval_write(void *u, const struct itimer_ns *v)
{
	struct itimerval32 k = { timeval_of(v->interval), timeval_of(v->value) };
	return copy_to_user(u, &k, sizeof(k)) < 0 ? -EFAULT : 0;
}

/* Syscall 104. A NULL value disarms, as Linux still allows. Linux's
 * order: the new value is read and checked (EFAULT, EINVAL) before
 * which; the timer is set before the old value is written (EFAULT then
 * leaves it set). */
int sys_setitimer(int which, const void *uvalue, void *uovalue)
{
	struct itimer_ns new = { 0, 0 }, old;
	int err = uvalue ? itimerval_read(uvalue, &new) : 0;
	if (err < 0)
		return err;
	err = do_setitimer(which, &new, &old);
	if (err < 0 || !uovalue)
		return err;
	return itimerval_write(uovalue, &old);
}

/* Syscall 105. */
int sys_getitimer(int which, void *uvalue)
{
	struct itimer_ns v;
	int err = do_getitimer(which, &v);
	return err < 0 ? err : itimerval_write(uvalue, &v);
}

/* Syscall 27: ITIMER_REAL in whole seconds, no period. The seconds left
 * of the old alarm are rounded as Linux's alarm_setitimer does: never 0
 * while one was pending, half a second and more up. */
int sys_alarm(unsigned seconds)
{
	struct itimer_ns new = { (uint64_t)(seconds > ALARM_MAX ? ALARM_MAX : seconds) * NSEC_PER_SEC, 0 };
	struct itimer_ns old;
	do_setitimer(ITIMER_REAL, &new, &old);
	uint64_t sec = old.value / NSEC_PER_SEC, nsec = old.value % NSEC_PER_SEC;
	if ((!sec && nsec) || nsec >= NSEC_PER_SEC / 2)
		sec++;
	return (int)sec;
}
