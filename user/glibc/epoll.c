/*
 * epoll - epoll_create, epoll_create1, epoll_ctl, epoll_wait and
 * epoll_pwait as glibc calls them, in KTAP, so that tests/linux-diff.sh
 * compares this kernel's answers with Linux 6.1's: level- and
 * edge-triggered and oneshot items on pipes, socket pairs and the
 * terminal; EPOLLHUP, EPOLLERR and EPOLLRDHUP; an epoll inside an epoll;
 * an item that goes when the last reference to its file goes (and stays
 * while a dup lives); a sleeping wait woken by a write, its timeout, a
 * signal (EINTR, also with SA_RESTART) and epoll_pwait's mask; the
 * ready list's order with a short buffer; and every errno Linux gives for
 * a bad argument (EBADF, EEXIST, ENOENT, EINVAL, EPERM, ELOOP, EFAULT).
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o epoll user/glibc/epoll.c
 * epoll.linux.ktap beside it is its transcript on Debian's Linux 6.1 in
 * QEMU, as tests/linux-diff.sh boots it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int n, failures;
static void *volatile bad = (void *)16;		/* an unmapped address */
static void *volatile kernel = (void *)0xc0000000u;
static void *volatile null;
static volatile int minus_one = -1;

static void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

static long raw(long r)
{
	return r < 0 ? -errno : r;
}

static int add(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };
	return (int)raw(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
}

static int mod(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };
	return (int)raw(epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev));
}

/* One wait of timeout ms for at most one event: 1 and *ev, 0, or -errno. */
static int wait1(int ep, struct epoll_event *ev, int timeout)
{
	return (int)raw(epoll_wait(ep, ev, 1, timeout));
}

/* The events of one event ready now, 0 if none. */
static uint32_t ready(int ep)
{
	struct epoll_event ev;
	return wait1(ep, &ev, 0) == 1 ? ev.events : 0;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void create_checks(void)
{
	check(raw(epoll_create(0)) == -EINVAL, "create_size_0_EINVAL");
	check(raw(epoll_create(-1)) == -EINVAL, "create_size_negative_EINVAL");
	check(raw(epoll_create1(1)) == -EINVAL, "create1_unknown_flag_EINVAL");
	int ep = epoll_create1(EPOLL_CLOEXEC);
	check(ep >= 0 && fcntl(ep, F_GETFD) == FD_CLOEXEC, "create1_cloexec_sets_FD_CLOEXEC");
	struct stat st;
	check(fstat(ep, &st) == 0 && st.st_mode == 0600, "fstat_mode_0600_no_type");
	check(fcntl(ep, F_GETFL) == O_RDWR, "getfl_O_RDWR");
	char c;
	check(raw(read(ep, &c, 1)) == -EINVAL, "read_EINVAL");
	close(ep);
	ep = epoll_create(1);
	check(ep >= 0 && fcntl(ep, F_GETFD) == 0, "create_size_1_no_cloexec");
	close(ep);
}

static void ctl_error_checks(void)
{
	int ep = epoll_create1(0), fds[2], nul = open("/dev/null", O_RDWR);
	int reg = open("/bin/epoll", O_RDONLY);
	pipe(fds);
	check(add(99, fds[0], EPOLLIN, 0) == -EBADF, "ctl_bad_epfd_EBADF");
	check(add(ep, 99, EPOLLIN, 0) == -EBADF, "ctl_bad_fd_EBADF");
	check(add(fds[1], fds[0], EPOLLIN, 0) == -EINVAL, "ctl_epfd_not_epoll_EINVAL");
	check(add(ep, ep, EPOLLIN, 0) == -EINVAL, "ctl_epoll_on_itself_EINVAL");
	check(add(ep, reg, EPOLLIN, 0) == -EPERM, "ctl_regular_file_EPERM");
	check(add(ep, nul, EPOLLIN, 0) == -EPERM, "ctl_dev_null_EPERM");
	check(add(fds[1], reg, EPOLLIN, 0) == -EPERM, "ctl_EPERM_before_EINVAL");
	check(raw(epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], bad)) == -EFAULT, "ctl_add_bad_event_EFAULT");
	check(raw(epoll_ctl(99, EPOLL_CTL_ADD, fds[0], bad)) == -EFAULT, "ctl_EFAULT_before_EBADF");
	check(raw(epoll_ctl(ep, EPOLL_CTL_DEL, fds[0], NULL)) == -ENOENT, "ctl_del_not_added_ENOENT");
	check(mod(ep, fds[0], EPOLLIN, 0) == -ENOENT, "ctl_mod_not_added_ENOENT");
	check(add(ep, fds[0], EPOLLIN, 0) == 0, "ctl_add_pipe");
	check(add(ep, fds[0], EPOLLIN, 0) == -EEXIST, "ctl_add_twice_EEXIST");
	struct epoll_event ev = { .events = EPOLLIN };
	check(raw(epoll_ctl(ep, 99, fds[0], &ev)) == -EINVAL, "ctl_bad_op_EINVAL");
	check(raw(epoll_ctl(ep, EPOLL_CTL_DEL, fds[0], NULL)) == 0, "ctl_del_null_event");
	check(add(ep, fds[0], EPOLLIN | EPOLLEXCLUSIVE | EPOLLONESHOT, 0) == -EINVAL,
	      "exclusive_with_oneshot_EINVAL");
	check(add(ep, fds[0], EPOLLIN | EPOLLEXCLUSIVE, 0) == 0, "exclusive_add");
	check(mod(ep, fds[0], EPOLLIN, 0) == -EINVAL, "exclusive_item_mod_EINVAL");
	check(mod(ep, fds[1], EPOLLIN | EPOLLEXCLUSIVE, 0) == -EINVAL, "mod_with_exclusive_EINVAL");
	int inner = epoll_create1(0);
	check(add(ep, inner, EPOLLIN | EPOLLEXCLUSIVE, 0) == -EINVAL, "exclusive_on_epoll_EINVAL");
	close(inner);
	close(reg);
	close(nul);
	close(fds[0]);
	close(fds[1]);
	close(ep);
}

static void loop_checks(void)
{
	int a = epoll_create1(0), b = epoll_create1(0);
	check(add(a, b, EPOLLIN, 0) == 0, "epoll_in_epoll_add");
	check(add(b, a, EPOLLIN, 0) == -ELOOP, "epoll_cycle_ELOOP");
	close(a);
	close(b);
	enum { CHAIN = 8 };
	int e[CHAIN], first_fail = -1;
	for (int i = 0; i < CHAIN; i++)
		e[i] = epoll_create1(0);
	for (int i = CHAIN - 2; i >= 0 && first_fail < 0; i--)	/* from the bottom up */
		if (add(e[i], e[i + 1], EPOLLIN, 0) == -ELOOP)
			first_fail = i;
	printf("# a chain built bottom-up fails at %d\n", first_fail);
	check(first_fail == 2, "chain_too_deep_ELOOP");
	for (int i = 0; i < CHAIN; i++)
		close(e[i]);
}

static void wait_error_checks(void)
{
	int ep = epoll_create1(0), fds[2];
	struct epoll_event evs[2];
	pipe(fds);
	check(raw(epoll_wait(ep, evs, 0, 0)) == -EINVAL, "wait_maxevents_0_EINVAL");
	check(raw(epoll_wait(ep, evs, minus_one, 0)) == -EINVAL, "wait_maxevents_negative_EINVAL");
	check(raw(epoll_wait(99, evs, 1, 0)) == -EBADF, "wait_bad_fd_EBADF");
	check(raw(epoll_wait(fds[0], evs, 1, 0)) == -EINVAL, "wait_not_epoll_EINVAL");
	check(raw(epoll_wait(ep, kernel, 1, 0)) == -EFAULT, "wait_kernel_buffer_EFAULT");
	check(raw(epoll_wait(ep, null, 1, 0)) == 0, "wait_null_buffer_nothing_ready_0");
	add(ep, fds[1], EPOLLOUT, 0);
	check(raw(epoll_wait(ep, bad, 1, 0)) == -EFAULT, "wait_unmapped_buffer_ready_EFAULT");
	check(ready(ep) == EPOLLOUT, "wait_after_EFAULT_still_ready");
	sigset_t s;
	sigemptyset(&s);
	check(raw(syscall(319, ep, evs, 1, 0, &s, 4)) == -EINVAL, "pwait_sigsetsize_4_EINVAL");
	close(fds[0]);
	close(fds[1]);
	close(ep);
}

static void pipe_checks(void)
{
	int ep = epoll_create1(0), fds[2];
	struct epoll_event ev;
	char buf[8];
	pipe(fds);
	add(ep, fds[0], EPOLLIN, 0x1122334455667788ull);
	check(ready(ep) == 0, "pipe_empty_not_ready");
	write(fds[1], "ab", 2);
	check(wait1(ep, &ev, 0) == 1 && ev.events == EPOLLIN && ev.data.u64 == 0x1122334455667788ull,
	      "pipe_data_EPOLLIN_with_data_u64");
	check(ready(ep) == EPOLLIN, "pipe_level_triggered_again");
	read(fds[0], buf, 2);
	check(ready(ep) == 0, "pipe_drained_not_ready");
	mod(ep, fds[0], EPOLLIN | EPOLLET, 0);
	write(fds[1], "a", 1);
	check(ready(ep) == EPOLLIN, "et_first_EPOLLIN");
	check(ready(ep) == 0, "et_not_again");
	write(fds[1], "b", 1);
	check(ready(ep) == EPOLLIN, "et_new_write_again");
	mod(ep, fds[0], EPOLLIN | EPOLLONESHOT, 0);
	check(ready(ep) == EPOLLIN, "oneshot_first");
	write(fds[1], "c", 1);
	check(ready(ep) == 0, "oneshot_disabled_after");
	mod(ep, fds[0], EPOLLIN | EPOLLONESHOT, 0);
	check(ready(ep) == EPOLLIN, "oneshot_rearmed_by_mod");
	int ep2 = epoll_create1(0);
	add(ep2, fds[1], EPOLLOUT | EPOLLIN, 0);
	check(ready(ep2) == EPOLLOUT, "pipe_write_end_EPOLLOUT");
	close(fds[0]);
	check(ready(ep2) == (EPOLLOUT | EPOLLERR), "pipe_reader_gone_EPOLLERR");
	close(ep2);
	pipe(fds);
	add(ep, fds[0], EPOLLOUT, 0);		/* asks for nothing a read end has */
	check(ready(ep) == 0, "pipe_read_end_EPOLLOUT_never");
	close(fds[1]);
	check(ready(ep) == EPOLLHUP, "pipe_writer_gone_EPOLLHUP_unasked");
	close(fds[0]);
	close(ep);
}

static void socket_checks(void)
{
	int ep = epoll_create1(0), sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	add(ep, sv[0], EPOLLIN | EPOLLOUT | EPOLLRDHUP, 0);
	check(ready(ep) == EPOLLOUT, "socket_EPOLLOUT");
	write(sv[1], "x", 1);
	check(ready(ep) == (EPOLLIN | EPOLLOUT), "socket_data_EPOLLIN");
	mod(ep, sv[0], EPOLLIN | EPOLLET, 0);
	check(ready(ep) == EPOLLIN, "socket_et_first");
	write(sv[0], "y", 1);		/* our own write: nothing new to read */
	check(ready(ep) == 0, "socket_et_own_write_not_reported");
	mod(ep, sv[0], EPOLLIN | EPOLLOUT | EPOLLRDHUP, 0);
	shutdown(sv[1], SHUT_WR);
	check(ready(ep) == (EPOLLIN | EPOLLOUT | EPOLLRDHUP), "socket_peer_shut_wr_EPOLLRDHUP");
	close(sv[1]);			/* with our "y" unread: Linux's ECONNRESET */
	uint32_t got = ready(ep);
	printf("# peer closed: events %#x\n", got);
	check(got == (EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLHUP | EPOLLERR), "socket_peer_closed_EPOLLHUP");
	close(sv[0]);
	close(ep);
	ep = epoll_create1(0);
	struct epoll_event ev;		/* Linux's serial console may be draining a moment */
	check(add(ep, 1, EPOLLOUT, 0) == 0 && wait1(ep, &ev, 5000) == 1 && ev.events == EPOLLOUT,
	      "tty_stdout_EPOLLOUT");
	close(ep);
}

static void nest_checks(void)
{
	int outer = epoll_create1(0), inner = epoll_create1(0), fds[2];
	char c;
	pipe(fds);
	add(inner, fds[0], EPOLLIN, 0);
	add(outer, inner, EPOLLIN, 7);
	struct epoll_event ev;
	check(wait1(outer, &ev, 0) == 0, "nested_nothing_ready");
	write(fds[1], "z", 1);
	check(wait1(outer, &ev, 0) == 1 && ev.events == EPOLLIN && ev.data.u64 == 7, "nested_inner_EPOLLIN");
	struct pollfd p = { .fd = inner, .events = POLLIN };
	check(poll(&p, 1, 0) == 1 && p.revents == POLLIN, "poll_on_epoll_POLLIN");
	read(fds[0], &c, 1);
	check(wait1(outer, &ev, 0) == 0, "nested_drained_not_ready");
	check(poll(&p, 1, 0) == 0, "poll_on_epoll_drained_0");
	close(fds[0]);
	close(fds[1]);
	close(inner);
	close(outer);
}

static void close_checks(void)
{
	int ep = epoll_create1(0), ep2 = epoll_create1(0), fds[2];
	struct epoll_event ev;
	pipe(fds);
	int d = dup(fds[0]);
	add(ep, fds[0], EPOLLIN, 41);
	add(ep2, fds[0], EPOLLIN, 42);
	close(fds[0]);
	write(fds[1], "q", 1);
	check(wait1(ep, &ev, 0) == 1 && ev.data.u64 == 41, "closed_fd_dup_alive_still_reported");
	check(raw(epoll_ctl(ep, EPOLL_CTL_DEL, fds[0], NULL)) == -EBADF, "closed_fd_del_EBADF");
	close(d);			/* the last reference: out of both */
	check(wait1(ep, &ev, 0) == 0 && wait1(ep2, &ev, 0) == 0, "last_close_removes_from_both");
	int again[2];
	pipe(again);			/* the same numbers again */
	check(again[0] == fds[0] && add(ep, again[0], EPOLLIN, 0) == 0, "same_fd_number_adds_anew");
	close(again[0]);
	close(again[1]);
	close(fds[1]);
	close(ep2);
	close(ep);
}

static void order_checks(void)
{
	int ep = epoll_create1(0), p[3][2];
	struct epoll_event evs[2];
	for (int i = 0; i < 3; i++) {
		pipe(p[i]);
		write(p[i][1], "o", 1);
		add(ep, p[i][0], EPOLLIN, (uint64_t)i);
	}
	int a = epoll_wait(ep, evs, 2, 0);
	int first = a == 2 && evs[0].data.u64 == 0 && evs[1].data.u64 == 1;
	int b = epoll_wait(ep, evs, 2, 0);
	check(first && b == 2 && evs[0].data.u64 == 2 && evs[1].data.u64 == 0, "short_buffer_round_robin");
	for (int i = 0; i < 3; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
	close(ep);
}

static void on_signal(int sig)
{
	(void)sig;
}

static void sleep_checks(void)
{
	int ep = epoll_create1(0), fds[2];
	struct epoll_event ev;
	struct timespec t0;
	pipe(fds);
	add(ep, fds[0], EPOLLIN, 5);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	check(wait1(ep, &ev, 100) == 0 && ms_since(&t0) >= 99 && ms_since(&t0) < 1000, "timeout_100ms");
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000);
		write(fds[1], "w", 1);
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int r = wait1(ep, &ev, -1);
	long ms = ms_since(&t0);
	check(r == 1 && ev.data.u64 == 5 && ms >= 90 && ms < 2000, "sleeping_wait_woken_by_write");
	waitpid(pid, NULL, 0);
	char c;
	read(fds[0], &c, 1);
	struct sigaction sa = { .sa_handler = on_signal };
	struct itimerval it = { .it_value = { 0, 50000 } };
	for (int restart = 0; restart < 2; restart++) {
		sa.sa_flags = restart ? SA_RESTART : 0;
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		check(wait1(ep, &ev, -1) == -EINTR, restart ? "signal_EINTR_even_with_SA_RESTART"
							    : "signal_EINTR");
	}
	sigset_t usr1, none, now;
	sigemptyset(&usr1);
	sigemptyset(&none);
	sigaddset(&usr1, SIGUSR1);
	sigaction(SIGUSR1, &sa, NULL);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	raise(SIGUSR1);
	check(raw(epoll_pwait(ep, &ev, 1, -1, &none)) == -EINTR, "pwait_mask_lets_pending_signal_in");
	sigprocmask(SIG_BLOCK, NULL, &now);
	check(sigismember(&now, SIGUSR1) == 1, "pwait_mask_put_back");
	check(raw(epoll_pwait(ep, &ev, 1, 10, &usr1)) == 0, "pwait_timeout_0_events");
	sigprocmask(SIG_UNBLOCK, &usr1, NULL);
	close(fds[0]);
	close(fds[1]);
	close(ep);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..78\n");
	create_checks();
	ctl_error_checks();
	loop_checks();
	wait_error_checks();
	pipe_checks();
	socket_checks();
	nest_checks();
	close_checks();
	order_checks();
	sleep_checks();
	printf("# %d checks\n", n);
	return failures ? 1 : 0;
}
