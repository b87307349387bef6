/*
 * futexv - futex_waitv (449), in KTAP, so that tests/linux-diff.sh
 * compares this kernel's answers with Linux 6.1's (LTP's futex_waitv01-03
 * run it too, make ltp):
 *   - the errors in Linux's order: flags, a count of 0 or 129, no array,
 *     a clock other than MONOTONIC/REALTIME, a word without FUTEX_32 or
 *     with unknown flags or __reserved, a misaligned word, an array
 *     or a timeout or a shared word out of the address space;
 *   - EAGAIN when any word no longer holds its value;
 *   - ETIMEDOUT at an absolute MONOTONIC and REALTIME deadline;
 *   - a thread woken on the second of three words returns 1, on private
 *     and on shared words (a MAP_SHARED page woken from a forked child);
 *   - a handler's signal makes the wait EINTR.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o futexv user/glibc/futexv.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "asleep.h"
#include "ktap.h"


struct waitv {
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};
struct ts64 {
	int64_t sec, nsec;
};

static long waitv(struct waitv *w, unsigned n, unsigned flags, struct ts64 *to, int clk)
{
	return raw(syscall(__NR_futex_waitv, w, n, flags, to, clk));
}

static const char *name(long r)
{
	static char buf[32];
	if (r >= 0) {
		snprintf(buf, sizeof(buf), "%ld", r);
		return buf;
	}
	return strerrorname_np((int)-r) ? strerrorname_np((int)-r) : "?";
}

static void expect(long r, long want, const char *what)
{
	char seen[64];
	snprintf(seen, sizeof(seen), "%s", name(r));
	check_why(r == want, what, seen);
}

/* An absolute deadline ms (>= 0) from now on clock clk. */
static struct ts64 in_ms(int clk, long ms)
{
	struct timespec now;
	clock_gettime(clk, &now);
	int64_t ns = now.tv_nsec + ms * 1000000LL;
	return (struct ts64){ now.tv_sec + ns / 1000000000L, ns % 1000000000L };
}

static uint32_t words[3];

static void set3(struct waitv *w, uint32_t *base, uint32_t flags)
{
	for (int i = 0; i < 3; i++)
		w[i] = (struct waitv){ base[i], (uintptr_t)&base[i], flags, 0 };
}

static void errors(void)
{
	struct waitv w[3];
	struct ts64 to = in_ms(CLOCK_MONOTONIC, 50);
	int priv = FUTEX_32 | FUTEX_PRIVATE_FLAG;

	set3(w, words, priv);
	expect(waitv(w, 1, 1, &to, CLOCK_MONOTONIC), -EINVAL, "flags_nonzero");
	expect(waitv(w, 0, 0, &to, CLOCK_MONOTONIC), -EINVAL, "count_0");
	expect(waitv(w, 129, 0, &to, CLOCK_MONOTONIC), -EINVAL, "count_129");
	expect(waitv(NULL, 1, 0, &to, CLOCK_MONOTONIC), -EINVAL, "null_array");
	expect(waitv(w, 1, 0, &to, CLOCK_TAI), -EINVAL, "clock_tai");
	expect(waitv(w, 1, 0, &to, CLOCK_BOOTTIME), -EINVAL, "clock_boottime");
	expect(waitv(w, 1, 0, (struct ts64 *)8, CLOCK_MONOTONIC), -EFAULT, "timeout_unmapped");
	struct ts64 bad = { 0, 1000000000 };
	expect(waitv(w, 1, 0, &bad, CLOCK_MONOTONIC), -EINVAL, "timeout_nsec_1e9");
	expect(waitv((struct waitv *)8, 1, 0, &to, CLOCK_MONOTONIC), -EFAULT, "array_unmapped");
	w[0].flags = FUTEX_PRIVATE_FLAG;
	expect(waitv(w, 1, 0, &to, CLOCK_MONOTONIC), -EINVAL, "word_without_futex_32");
	w[0].flags = priv | 0x100;
	expect(waitv(w, 1, 0, &to, CLOCK_MONOTONIC), -EINVAL, "word_unknown_flag");
	w[0].flags = priv;
	w[0].reserved = 1;
	expect(waitv(w, 1, 0, &to, CLOCK_MONOTONIC), -EINVAL, "word_reserved");
	w[0].reserved = 0;
	w[1].uaddr += 1;
	expect(waitv(w, 2, 0, &to, CLOCK_MONOTONIC), -EINVAL, "word_misaligned");
	w[1].uaddr = 8;
	expect(waitv(w, 2, 0, &to, CLOCK_MONOTONIC), -EFAULT, "private_word_unmapped");
	w[1].flags = FUTEX_32;
	expect(waitv(w, 2, 0, &to, CLOCK_MONOTONIC), -EFAULT, "shared_word_unmapped");
}

static void values_and_timeouts(void)
{
	struct waitv w[3];
	int priv = FUTEX_32 | FUTEX_PRIVATE_FLAG;

	set3(w, words, priv);
	w[2].val = 7;
	struct ts64 to = in_ms(CLOCK_MONOTONIC, 50);
	expect(waitv(w, 3, 0, &to, CLOCK_MONOTONIC), -EAGAIN, "third_word_changed");
	w[2].val = words[2];
	for (int c = 0; c < 2; c++) {
		int clk = c ? CLOCK_REALTIME : CLOCK_MONOTONIC;
		struct timespec t0, t1;
		to = in_ms(clk, 100);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		long r = waitv(w, 3, 0, &to, clk);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		check_why(r == -ETIMEDOUT && ms >= 99, c ? "timeout_realtime" : "timeout_monotonic",
			  name(r));
	}
	to = (struct ts64){ 0, 1 };	/* the clock's first nanosecond */
	expect(waitv(w, 3, 0, &to, CLOCK_MONOTONIC), -ETIMEDOUT, "deadline_past");
}

/* The waiter's thread: its result, once it is asleep. */
static long result;
static struct waitv *tw;

static void *waiter(void *arg)
{
	(void)arg;
	result = waitv(tw, 3, 0, NULL, 0);
	return NULL;
}

/* Until thread tid of process pid sleeps in the kernel (asleep.h). */
static void wait_asleep(pid_t pid, pid_t tid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	wait_stat_asleep(path);
}

static pid_t waiter_tid;

static void *waiter_tid_too(void *arg)
{
	waiter_tid = gettid();
	return waiter(arg);
}

static void wake_second(void)
{
	struct waitv w[3];
	pthread_t t;

	set3(w, words, FUTEX_32 | FUTEX_PRIVATE_FLAG);
	tw = w;
	waiter_tid = 0;
	pthread_create(&t, NULL, waiter_tid_too, NULL);
	while (!__atomic_load_n(&waiter_tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	wait_asleep(getpid(), waiter_tid);
	long woke = raw(syscall(SYS_futex, &words[1], FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	pthread_join(t, NULL);
	char what[128];
	snprintf(what, sizeof(what), "woke %ld, waitv returned %s", woke, name(result));
	check_why(woke == 1 && result == 1, "private_second_word_woken", what);

	/* shared words: a child wakes the third through its own mapping */
	uint32_t *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				-1, 0);
	set3(w, shared, FUTEX_32);
	pid_t me = gettid(), c = fork();
	if (c == 0) {
		wait_asleep(me, me);
		_exit(syscall(SYS_futex, &shared[2], FUTEX_WAKE, 1, NULL, NULL, 0) == 1 ? 0 : 1);
	}
	long r = waitv(w, 3, 0, NULL, 0);
	int st;
	waitpid(c, &st, 0);
	snprintf(what, sizeof(what), "waitv returned %s, the waker exited %d", name(r),
		 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	check_why(r == 2 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "shared_third_word_woken",
		  what);
	munmap(shared, 4096);
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void interrupted(void)
{
	struct waitv w[3];
	pid_t me = gettid();
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */

	sigaction(SIGUSR1, &sa, NULL);
	set3(w, words, FUTEX_32 | FUTEX_PRIVATE_FLAG);
	pid_t c = fork();
	if (c == 0) {
		wait_asleep(me, me);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	struct ts64 to = in_ms(CLOCK_MONOTONIC, 5000);
	long r = waitv(w, 3, 0, &to, CLOCK_MONOTONIC);
	waitpid(c, NULL, 0);
	expect(r, -EINTR, "handler_makes_eintr");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..22\n");
	errors();
	values_and_timeouts();
	wake_second();
	interrupted();
	return failures != 0;
}
