/*
 * sockets - socketpair(AF_UNIX, SOCK_STREAM) as hackbench's default mode
 * (issue 28) and glibc use it, in KTAP, so that tests/linux-diff.sh
 * compares this kernel's answers with Linux 6.1's: data both ways
 * through read/write, readv/writev, send/recv, sendto/recvfrom; the
 * flags (SOCK_NONBLOCK, SOCK_CLOEXEC, MSG_DONTWAIT, MSG_NOSIGNAL, fcntl's
 * O_NONBLOCK); poll; a closed peer (EOF, EPIPE and SIGPIPE); shutdown;
 * fstat's S_IFSOCK; the errors in Linux's order (flags, then the
 * descriptors are taken and written out, then family, type, protocol);
 * socketcall (102, glibc's way on i386) and the direct calls.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o sockets user/glibc/sockets.c
 * sockets.linux.ktap beside it is its transcript on Debian's Linux 6.1
 * (6.1.0-50-686) in QEMU, as tests/linux-diff.sh boots it. SOCK_DGRAM
 * pairs are not checked: Linux has them, this kernel does not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static int n, failures;
static volatile int sigpipes;
static void *volatile bad = (void *)16;	/* an unmapped address */

static void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

static long raw(long r)
{
	return r < 0 ? -errno : r;
}

static void on_sigpipe(int sig)
{
	(void)sig;
	sigpipes++;
}

static int pair(int type, int sv[2])
{
	return (int)raw(socketpair(AF_UNIX, type, 0, sv));
}

static void close2(int sv[2])
{
	close(sv[0]);
	close(sv[1]);
}

/* The lowest free descriptor now. */
static int lowest_free(void)
{
	int fd = dup(0);
	close(fd);
	return fd;
}

static short revents(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	return poll(&p, 1, 0) == 1 ? p.revents : 0;
}

static void data_checks(void)
{
	int sv[2];
	char buf[64];
	check(pair(SOCK_STREAM, sv) == 0 && sv[0] >= 3 && sv[1] == sv[0] + 1,
	      "socketpair_unix_stream_two_lowest_fds");
	check(write(sv[0], "ping", 4) == 4 && read(sv[1], buf, sizeof(buf)) == 4 &&
	      memcmp(buf, "ping", 4) == 0, "write_a_read_b");
	check(write(sv[1], "pong!", 5) == 5 && read(sv[0], buf, sizeof(buf)) == 5 &&
	      memcmp(buf, "pong!", 5) == 0, "write_b_read_a");
	struct iovec out[2] = { { "abc", 3 }, { "defg", 4 } };
	char x[2], y[16];
	struct iovec in[2] = { { x, 2 }, { y, sizeof(y) } };
	check(writev(sv[0], out, 2) == 7 && readv(sv[1], in, 2) == 7 &&
	      memcmp(x, "ab", 2) == 0 && memcmp(y, "cdefg", 5) == 0, "writev_readv");
	check(send(sv[0], "s", 1, 0) == 1 && recv(sv[1], buf, sizeof(buf), 0) == 1 &&
	      buf[0] == 's', "send_recv");
	struct sockaddr_storage from;
	socklen_t fromlen = sizeof(from);
	check(sendto(sv[1], "to", 2, 0, NULL, 0) == 2 &&
	      recvfrom(sv[0], buf, sizeof(buf), 0, (struct sockaddr *)&from, &fromlen) == 2 &&
	      fromlen == 0, "sendto_recvfrom_peer_has_no_name");
	struct sockaddr sa = { .sa_family = AF_UNIX };
	check(raw(sendto(sv[0], "x", 1, 0, &sa, sizeof(sa))) == -EISCONN, "sendto_address_eisconn");
	check(raw(recv(sv[0], buf, sizeof(buf), MSG_DONTWAIT)) == -EAGAIN, "recv_dontwait_eagain");
	check(raw(send(sv[0], "z", 1, MSG_DONTWAIT)) == 1 && read(sv[1], buf, 1) == 1,
	      "send_dontwait_with_room");
	check(fcntl(sv[0], F_GETFL) == O_RDWR, "getfl_rdwr");
	check(fcntl(sv[0], F_GETFD) == 0, "not_cloexec");
	struct stat st;
	check(fstat(sv[0], &st) == 0 && S_ISSOCK(st.st_mode) && (st.st_mode & 07777) == 0777,
	      "fstat_s_ifsock_0777");
	check(fcntl(sv[0], F_SETFL, O_NONBLOCK) == 0 && raw(read(sv[0], buf, 1)) == -EAGAIN,
	      "setfl_nonblock_read_eagain");
	check(write(sv[1], "q", 1) == 1 && raw(read(sv[0], bad, 1)) == -EFAULT &&
	      read(sv[0], buf, 1) == 1, "read_bad_buffer_efault_keeps_data");
	close2(sv);
}

static void flag_checks(void)
{
	int sv[2];
	char buf[8];
	check(pair(SOCK_STREAM | SOCK_NONBLOCK, sv) == 0 &&
	      fcntl(sv[0], F_GETFL) == (O_RDWR | O_NONBLOCK) &&
	      fcntl(sv[1], F_GETFL) == (O_RDWR | O_NONBLOCK) &&
	      raw(read(sv[1], buf, 1)) == -EAGAIN, "sock_nonblock_read_eagain");
	close2(sv);
	check(pair(SOCK_STREAM | SOCK_CLOEXEC, sv) == 0 && fcntl(sv[0], F_GETFD) == FD_CLOEXEC &&
	      fcntl(sv[1], F_GETFD) == FD_CLOEXEC, "sock_cloexec_both");
	close2(sv);
	check(pair(SOCK_STREAM, sv) == 0, "socketpair_again");
	check(revents(sv[0], POLLIN | POLLOUT) == POLLOUT, "poll_empty_pollout_only");
	write(sv[1], "1", 1);
	check(revents(sv[0], POLLIN | POLLOUT) == (POLLIN | POLLOUT), "poll_data_pollin_pollout");
	int total = 0, k;
	char big[1024] = { 0 };
	while ((k = send(sv[0], big, sizeof(big), MSG_DONTWAIT)) > 0)
		total += k;
	check(k < 0 && errno == EAGAIN && total > 0, "send_dontwait_full_eagain");
	printf("# %d bytes fit\n", total);
	check(revents(sv[0], POLLOUT) == 0, "poll_full_no_pollout");
	close2(sv);
}

/* A reader that sleeps until the data comes, a writer that sleeps until
 * the reader drains a full socket: 100,000 bytes from a child. The child
 * stays until the parent has read them all and says so: had it exited
 * first (Linux's socket buffer holds all 100,000 bytes, and a loaded host
 * may run the parent late), poll would add POLLHUP and the check would
 * depend on timing (CI saw it once on Linux 6.1). */
static void blocking_checks(void)
{
	int sv[2];
	static char buf[100000];
	char ack;
	pair(SOCK_STREAM, sv);
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		usleep(50000);
		memset(buf, 'b', sizeof(buf));
		int ok = write(sv[1], buf, sizeof(buf)) == sizeof(buf);
		ok = ok && read(sv[1], &ack, 1) == 1;
		_exit(ok ? 0 : 1);
	}
	close(sv[1]);
	struct pollfd p = { .fd = sv[0], .events = POLLIN };
	int r = poll(&p, 1, -1);
	printf("# poll %d revents %#x\n", r, r == 1 ? p.revents : 0);
	check(r == 1 && p.revents == POLLIN, "poll_wakes_on_data");
	long got = 0, k = 0;
	memset(buf, 0, sizeof(buf));
	while (got < (long)sizeof(buf) && (k = read(sv[0], buf + got, sizeof(buf) - got)) > 0)
		got += k;
	write(sv[0], "k", 1);
	k = read(sv[0], &ack, 1);
	int st;
	waitpid(pid, &st, 0);
	check(got == sizeof(buf) && k == 0 && buf[0] == 'b' && buf[sizeof(buf) - 1] == 'b' &&
	      WIFEXITED(st) && WEXITSTATUS(st) == 0, "100000_bytes_through_then_eof");
	close(sv[0]);
}

static void close_checks(void)
{
	int sv[2];
	char buf[8];
	signal(SIGPIPE, on_sigpipe);
	pair(SOCK_STREAM, sv);
	write(sv[1], "xy", 2);
	close(sv[1]);
	check(revents(sv[0], POLLIN | POLLOUT | POLLRDHUP) == (POLLIN | POLLOUT | POLLHUP | POLLRDHUP),
	      "peer_closed_poll_in_out_hup_rdhup");
	check(read(sv[0], buf, sizeof(buf)) == 2 && read(sv[0], buf, sizeof(buf)) == 0,
	      "peer_closed_data_then_eof");
	check(raw(write(sv[0], "a", 1)) == -EPIPE && sigpipes == 1, "peer_closed_write_epipe_sigpipe");
	check(raw(send(sv[0], "a", 1, MSG_NOSIGNAL)) == -EPIPE && sigpipes == 1,
	      "peer_closed_send_nosignal_no_sigpipe");
	close(sv[0]);
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		pair(SOCK_STREAM, sv);
		close(sv[1]);
		write(sv[0], "a", 1);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE, "sigpipe_default_kills");
}

static void shutdown_checks(void)
{
	int sv[2];
	char buf[8];
	pair(SOCK_STREAM, sv);
	write(sv[1], "r", 1);
	check(shutdown(sv[0], SHUT_WR) == 0, "shut_wr");
	check(read(sv[1], buf, sizeof(buf)) == 0, "shut_wr_peer_reads_eof");
	check(raw(write(sv[0], "a", 1)) == -EPIPE && sigpipes == 2, "shut_wr_write_epipe_sigpipe");
	check(read(sv[0], buf, sizeof(buf)) == 1 && buf[0] == 'r' && write(sv[1], "s", 1) == 1 &&
	      read(sv[0], buf, sizeof(buf)) == 1 && buf[0] == 's', "shut_wr_other_way_works");
	check(revents(sv[0], POLLIN | POLLOUT | POLLRDHUP) == POLLOUT, "shut_wr_poll_self_pollout");
	check(revents(sv[1], POLLIN | POLLOUT | POLLRDHUP) == (POLLIN | POLLOUT | POLLRDHUP),
	      "shut_wr_poll_peer_in_out_rdhup");
	close2(sv);
	pair(SOCK_STREAM, sv);
	write(sv[1], "d", 1);
	check(shutdown(sv[0], SHUT_RD) == 0 && read(sv[0], buf, sizeof(buf)) == 1 &&
	      read(sv[0], buf, sizeof(buf)) == 0, "shut_rd_data_then_eof");
	check(raw(write(sv[1], "a", 1)) == -EPIPE && sigpipes == 3, "shut_rd_peer_write_epipe");
	check(write(sv[0], "w", 1) == 1 && read(sv[1], buf, 1) == 1, "shut_rd_write_works");
	check(shutdown(sv[0], SHUT_RDWR) == 0 &&
	      revents(sv[0], POLLIN | POLLOUT) == (POLLIN | POLLOUT | POLLHUP), "shut_rdwr_poll_hup");
	check(raw(shutdown(sv[0], 3)) == -EINVAL, "shutdown_how_3_einval");
	check(raw(shutdown(sv[0], -1)) == -EINVAL, "shutdown_how_minus_1_einval");
	close2(sv);
	int p[2];
	pipe(p);
	check(raw(shutdown(p[0], SHUT_RD)) == -ENOTSOCK, "shutdown_pipe_enotsock");
	check(raw(recv(p[0], buf, 1, 0)) == -ENOTSOCK, "recv_pipe_enotsock");
	check(raw(send(p[1], buf, 1, 0)) == -ENOTSOCK, "send_pipe_enotsock");
	close2(p);
	check(raw(shutdown(999, SHUT_RD)) == -EBADF, "shutdown_bad_fd_ebadf");
	check(raw(recv(999, buf, 1, 0)) == -EBADF, "recv_bad_fd_ebadf");
}

static void error_checks(void)
{
	int sv[2] = { -1, -1 };
	int low = lowest_free();
	check(raw(socketpair(46, SOCK_STREAM, 0, sv)) == -EAFNOSUPPORT &&
	      sv[0] == low && sv[1] == low + 1 && lowest_free() == low,
	      "family_46_eafnosupport_fds_written_not_kept");
	check(raw(socketpair(AF_INET, SOCK_STREAM, 0, sv)) == -EOPNOTSUPP, "af_inet_eopnotsupp");
	check(raw(socketpair(AF_UNIX, SOCK_STREAM, 2, sv)) == -EPROTONOSUPPORT,
	      "protocol_2_eprotonosupport");
	check(raw(socketpair(AF_UNIX, SOCK_STREAM, AF_UNIX, sv)) == 0, "protocol_pf_unix_ok");
	close2(sv);
	check(raw(socketpair(AF_UNIX, SOCK_RDM, 0, sv)) == -ESOCKTNOSUPPORT, "rdm_esocktnosupport");
	check(raw(socketpair(AF_UNIX, SOCK_RDM, 2, sv)) == -EPROTONOSUPPORT,
	      "protocol_checked_before_type");
	check(raw(socketpair(AF_UNIX, 11, 0, sv)) == -EINVAL, "type_11_einval");
	check(raw(socketpair(AF_UNIX, SOCK_STREAM | O_APPEND, 0, sv)) == -EINVAL, "flag_o_append_einval");
	check(raw(socketpair(AF_UNIX, SOCK_STREAM | O_APPEND, 0, NULL)) == -EINVAL,
	      "flags_checked_before_pointer");
	check(raw(socketpair(AF_UNIX, SOCK_STREAM, 0, NULL)) == -EFAULT && lowest_free() == low,
	      "null_pointer_efault_no_fd_left");
	check(raw(socketpair(AF_UNIX, SOCK_STREAM, 0, bad)) == -EFAULT && lowest_free() == low,
	      "bad_pointer_efault_no_fd_left");
	check(raw(socketpair(46, SOCK_STREAM, 0, NULL)) == -EFAULT, "pointer_checked_before_family");
	struct rlimit old, r;
	getrlimit(RLIMIT_NOFILE, &old);
	r = old;
	r.rlim_cur = low + 1;
	setrlimit(RLIMIT_NOFILE, &r);
	check(raw(socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) == -EMFILE && lowest_free() == low,
	      "one_fd_free_emfile_none_left");
	check(raw(socketpair(46, SOCK_STREAM, 0, sv)) == -EMFILE, "emfile_checked_before_family");
	setrlimit(RLIMIT_NOFILE, &old);
}

/* i386's two ways in: socketcall (102) with an argument block, as glibc
 * calls, and the direct calls of Linux 4.3 and later. */
static void call_checks(void)
{
	int sv[2];
	char buf[8];
	unsigned long args[6] = { AF_UNIX, SOCK_STREAM, 0, (unsigned long)sv };
	check(syscall(SYS_socketcall, 8, args) == 0, "socketcall_socketpair");
	unsigned long sargs[6] = { sv[0], (unsigned long)"sc", 2, 0 };
	check(syscall(SYS_socketcall, 9, sargs) == 2 && read(sv[1], buf, 8) == 2, "socketcall_send");
	check(raw(syscall(SYS_socketcall, 0, args)) == -EINVAL, "socketcall_0_einval");
	check(raw(syscall(SYS_socketcall, 21, args)) == -EINVAL, "socketcall_21_einval");
	check(raw(syscall(SYS_socketcall, 8, bad)) == -EFAULT, "socketcall_bad_args_efault");
	close2(sv);
	check(syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, sv) == 0, "direct_socketpair");
	check(syscall(SYS_sendto, sv[0], "dc", 2, 0, NULL, 0) == 2 &&
	      syscall(SYS_recvfrom, sv[1], buf, 8, 0, NULL, NULL) == 2, "direct_sendto_recvfrom");
	check(syscall(SYS_shutdown, sv[1], SHUT_WR) == 0 && read(sv[0], buf, 8) == 0,
	      "direct_shutdown");
	close2(sv);
}

/* A process's voluntary_ctxt_switches (/proc/PID/status), or -1. */
static long switches(pid_t pid)
{
	char path[64], line[128];
	long v = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* Wait (up to 2 s) until process pid sleeps: state S in /proc/PID/stat. */
static void wait_asleep(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int tries = 0; tries < 200; tries++) {
		FILE *f = fopen(path, "r");
		char *paren = f && fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		if (f)
			fclose(f);
		if (paren && paren[1] == ' ' && paren[2] == 'S')
			return;
		usleep(10000);
	}
}

/* Four writers blocked on a full pipe or socket sleep until a reader
 * makes room: none of them runs meanwhile (its voluntary switches stay
 * as they were), as Linux's writers wake only readers. This kernel's
 * writers once woke each other on a full pipe, and twenty of hackbench's
 * senders ran without end while its one reader starved. */
static void full_writers(int rd, int wr, const char *name)
{
	static char buf[4096];
	pid_t kids[4];
	long before[4];
	int quiet = 1, left = 4;
	fcntl(wr, F_SETFL, O_NONBLOCK);
	while (write(wr, buf, sizeof(buf)) > 0 || write(wr, buf, 1) > 0)
		;
	fcntl(wr, F_SETFL, 0);
	for (int i = 0; i < 4; i++)
		if ((kids[i] = fork()) == 0)
			_exit(write(wr, "w", 1) == 1 ? 0 : 1);
	for (int i = 0; i < 4; i++)
		wait_asleep(kids[i]);	/* a loaded host may start them late */
	for (int i = 0; i < 4; i++)
		before[i] = switches(kids[i]);
	usleep(200000);
	for (int i = 0; i < 4; i++)
		quiet &= before[i] >= 0 && switches(kids[i]) == before[i];
	check(quiet, name);
	fcntl(rd, F_SETFL, O_NONBLOCK);
	while (left > 0) {
		while (read(rd, buf, sizeof(buf)) > 0)
			;
		for (int i = 0; i < 4; i++)
			if (kids[i] > 0 && waitpid(kids[i], NULL, WNOHANG) == kids[i]) {
				kids[i] = 0;
				left--;
			}
		usleep(1000);
	}
}

static void herd_checks(void)
{
	int fds[2], sv[2];
	if (pipe(fds) == 0) {
		full_writers(fds[0], fds[1], "pipe_full_writers_sleep_until_read");
		close2(fds);
	}
	pair(SOCK_STREAM, sv);
	full_writers(sv[0], sv[1], "socket_full_writers_sleep_until_read");
	close2(sv);
}

/* 100,003 bytes of a pattern through a pipe or socket, written in pieces
 * of 997 and read in pieces of 613, so that both ends wrap the kernel's
 * ring at every offset: each byte arrives, in order. */
static void pattern_through(int rd, int wr, const char *name)
{
	enum { TOTAL = 100003 };
	static unsigned char out[TOTAL], in[TOTAL];
	for (int i = 0; i < TOTAL; i++)
		out[i] = (unsigned char)(i * 7 % 251);
	pid_t pid = fork();
	if (pid == 0) {
		close(rd);
		for (int at = 0; at < TOTAL;) {
			int k = TOTAL - at < 997 ? TOTAL - at : 997;
			long w = write(wr, out + at, k);
			if (w <= 0)
				_exit(1);
			at += w;
		}
		_exit(0);
	}
	close(wr);
	long got = 0, k;
	while (got < TOTAL && (k = read(rd, in + got, TOTAL - got < 613 ? TOTAL - got : 613)) > 0)
		got += k;
	int st;
	waitpid(pid, &st, 0);
	check(got == TOTAL && memcmp(in, out, TOTAL) == 0 && read(rd, in, 1) == 0 &&
	      WIFEXITED(st) && WEXITSTATUS(st) == 0, name);
	close(rd);
}

static void pattern_checks(void)
{
	int fds[2], sv[2];
	if (pipe(fds) == 0)
		pattern_through(fds[0], fds[1], "pipe_100003_bytes_in_order");
	pair(SOCK_STREAM, sv);
	pattern_through(sv[0], sv[1], "socket_100003_bytes_in_order");
}

int main(void)
{
	printf("KTAP version 1\n1..71\n");
	data_checks();
	flag_checks();
	blocking_checks();
	close_checks();
	shutdown_checks();
	error_checks();
	call_checks();
	herd_checks();
	pattern_checks();
	printf("# %d checks\n", n);
	return failures ? 1 : 0;
}
