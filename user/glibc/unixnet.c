/*
 * unixnet - AF_UNIX sockets beyond socketpair, in KTAP, so that
 * tests/linux-diff.sh compares this kernel's answers with Linux 6.1's:
 * a server and a client process over a path socket (a socket file in
 * /tmp) and an abstract one; bind, listen, connect, accept4,
 * getsockname/getpeername, SO_PEERCRED, poll on a listener; datagrams
 * (a socketpair, and bound sockets with sendto/recvfrom: boundaries kept,
 * the sender's name); sendmsg/recvmsg with iovecs, MSG_PEEK, MSG_TRUNC;
 * SCM_RIGHTS over streams and datagrams (MSG_CMSG_CLOEXEC, MSG_CTRUNC, a
 * stream read that stops where the files' bytes end, dropped files
 * closed, EBADF and EINVAL);
 * the errors (EADDRINUSE, ECONNREFUSED, ENOENT, EINVAL, ENOTCONN,
 * EISCONN, EOPNOTSUPP, EPROTOTYPE, ENXIO); and (this kernel only: call
 * 505 counts free frames; Linux SKIPs it) that rounds of sockets and
 * epolls closed in awkward orders keep no frame.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o unixnet user/glibc/unixnet.c
 * unixnet.linux.ktap beside it is its transcript on Debian's Linux 6.1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int n, failures;

static void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

#define NR_FREE_FRAMES	505		/* this kernel's own (include/uapi/unistd.h) */

/* A check of what only this kernel has: Linux SKIPs it. */
static void check_ours(int here, int ok, const char *name)
{
	if (!here) {
		printf("ok %d - %s # SKIP kernel-specific\n", ++n, name);
		return;
	}
	printf("%sok %d - %s # kernel-specific\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

static long raw(long r)
{
	return r < 0 ? -errno : r;
}

/* An address: a path, or (abstract) "@name"; *len its length. */
static struct sockaddr_un addr(const char *name, socklen_t *len)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	if (name[0] == '@') {
		memcpy(a.sun_path + 1, name + 1, strlen(name + 1));
		*len = offsetof(struct sockaddr_un, sun_path) + strlen(name);
	} else {
		strcpy(a.sun_path, name);
		*len = offsetof(struct sockaddr_un, sun_path) + strlen(name) + 1;
	}
	return a;
}

static int do_bind(int fd, const char *name)
{
	socklen_t len;
	struct sockaddr_un a = addr(name, &len);
	return (int)raw(bind(fd, (struct sockaddr *)&a, len));
}

static int do_connect(int fd, const char *name)
{
	socklen_t len;
	struct sockaddr_un a = addr(name, &len);
	return (int)raw(connect(fd, (struct sockaddr *)&a, len));
}

/* A server on name, a client process that connects, writes "ping",
 * reads the answer and checks its peer's name; the server's view. */
static void server_client(const char *name, const char *tag)
{
	char t[80];
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	check(do_bind(l, name) == 0, (snprintf(t, sizeof t, "%s_bind", tag), t));
	check(raw(listen(l, 4)) == 0, (snprintf(t, sizeof t, "%s_listen", tag), t));
	struct pollfd p = { .fd = l, .events = POLLIN };
	check(poll(&p, 1, 0) == 0, (snprintf(t, sizeof t, "%s_listener_not_readable", tag), t));
	pid_t pid = fork();
	if (pid == 0) {
		int c = socket(AF_UNIX, SOCK_STREAM, 0);
		char buf[8] = "";
		struct sockaddr_un peer;
		socklen_t plen = sizeof(peer), want;
		struct sockaddr_un w = addr(name, &want);
		int ok = do_connect(c, name) == 0 && write(c, "ping", 4) == 4 &&
			 read(c, buf, sizeof buf) == 4 && memcmp(buf, "pong", 4) == 0 &&
			 getpeername(c, (struct sockaddr *)&peer, &plen) == 0 && plen == want &&
			 memcmp(&peer, &w, want) == 0;
		_exit(ok ? 0 : 1);
	}
	check(poll(&p, 1, 5000) == 1 && p.revents == POLLIN,
	      (snprintf(t, sizeof t, "%s_listener_POLLIN_when_one_waits", tag), t));
	struct sockaddr_un from;
	socklen_t flen = sizeof(from);
	int s = (int)raw(accept4(l, (struct sockaddr *)&from, &flen, SOCK_CLOEXEC));
	check(s >= 0 && flen == offsetof(struct sockaddr_un, sun_path) && fcntl(s, F_GETFD) == FD_CLOEXEC,
	      (snprintf(t, sizeof t, "%s_accept4_unnamed_peer_cloexec", tag), t));
	char buf[8] = "";
	check(read(s, buf, sizeof buf) == 4 && memcmp(buf, "ping", 4) == 0 && write(s, "pong", 4) == 4,
	      (snprintf(t, sizeof t, "%s_data_both_ways", tag), t));
	struct ucred cr;
	socklen_t crlen = sizeof(cr);
	check(getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) == 0 && cr.pid == pid &&
	      cr.uid == getuid() && crlen == sizeof(cr), (snprintf(t, sizeof t, "%s_SO_PEERCRED_client", tag), t));
	int st;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, (snprintf(t, sizeof t, "%s_client_saw_server_name", tag), t));
	check(read(s, buf, 1) == 0, (snprintf(t, sizeof t, "%s_client_gone_EOF", tag), t));
	close(s);
	close(l);
}

static void stream_checks(void)
{
	mkdir("/tmp", 0777);
	unlink("/tmp/unixnet.sock");
	server_client("/tmp/unixnet.sock", "path");
	struct stat st;
	check(stat("/tmp/unixnet.sock", &st) == 0 && S_ISSOCK(st.st_mode), "path_is_a_socket_file");
	check(raw(open("/tmp/unixnet.sock", O_RDWR)) == -ENXIO, "open_socket_file_ENXIO");
	int c = socket(AF_UNIX, SOCK_STREAM, 0);
	check(do_connect(c, "/tmp/unixnet.sock") == -ECONNREFUSED, "connect_closed_listener_ECONNREFUSED");
	int b = socket(AF_UNIX, SOCK_STREAM, 0);
	check(do_bind(b, "/tmp/unixnet.sock") == -EADDRINUSE, "bind_existing_path_EADDRINUSE");
	unlink("/tmp/unixnet.sock");
	check(do_connect(c, "/tmp/unixnet.sock") == -ENOENT, "connect_no_path_ENOENT");
	check(do_connect(c, "/bin/unixnet") == -ECONNREFUSED, "connect_not_a_socket_ECONNREFUSED");
	close(b);
	close(c);
	server_client("@unixnet", "abstract");
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	check(do_connect(c, "@unixnet") == -ECONNREFUSED, "abstract_gone_with_socket_ECONNREFUSED");
	close(c);
}

static void error_checks(void)
{
	int s = socket(AF_UNIX, SOCK_STREAM, 0), d = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un a;
	socklen_t len = sizeof(a);
	check(getsockname(s, (struct sockaddr *)&a, &len) == 0 && len == 2, "unbound_name_family_only");
	len = sizeof(a);
	check(raw(getpeername(s, (struct sockaddr *)&a, &len)) == -ENOTCONN, "getpeername_ENOTCONN");
	check(raw(listen(s, 1)) == -EINVAL, "listen_unbound_EINVAL");
	check(raw(listen(d, 1)) == -EOPNOTSUPP, "listen_dgram_EOPNOTSUPP");
	check(raw(accept(s, NULL, NULL)) == -EINVAL, "accept_not_listening_EINVAL");
	check(raw(write(s, "x", 1)) == -ENOTCONN, "write_unconnected_ENOTCONN");
	char c;
	check(raw(read(s, &c, 1)) == -EINVAL, "read_unconnected_EINVAL");
	struct pollfd p = { .fd = s, .events = POLLIN | POLLOUT };
	check(poll(&p, 1, 0) == 1 && p.revents == (POLLOUT | POLLHUP), "unconnected_stream_POLLOUT_POLLHUP");
	check(raw(accept4(s, NULL, NULL, 0x10)) == -EINVAL, "accept4_bad_flags_EINVAL");
	check(raw(socket(AF_UNIX, SOCK_STREAM, 7)) == -EPROTONOSUPPORT, "socket_protocol_EPROTONOSUPPORT");
	check(raw(socket(99, SOCK_STREAM, 0)) == -EAFNOSUPPORT, "socket_family_EAFNOSUPPORT");
	check(raw(socket(AF_UNIX, 99, 0)) == -EINVAL, "socket_type_EINVAL");
	struct sockaddr_un bad = { .sun_family = AF_INET };
	check(raw(bind(s, (struct sockaddr *)&bad, sizeof(bad))) == -EINVAL, "bind_wrong_family_EINVAL");
	check(do_bind(s, "@unixnet.err") == 0 && do_bind(s, "@unixnet.err2") == -EINVAL, "bind_twice_EINVAL");
	int s2 = socket(AF_UNIX, SOCK_STREAM, 0);
	check(do_bind(s2, "@unixnet.err") == -EADDRINUSE, "abstract_taken_EADDRINUSE");
	check(raw(bind(s2, (struct sockaddr *)&a, 2)) == 0 && getsockname(s2, (struct sockaddr *)&a, &len) == 0 &&
	      len == 8 && a.sun_path[0] == 0, "autobind_five_hex_digits");
	check(do_bind(d, "@unixnet.dg") == 0 && do_connect(s2, "@unixnet.dg") == -ECONNREFUSED,
	      "abstract_names_are_per_type_ECONNREFUSED");
	int s3 = socket(AF_UNIX, SOCK_STREAM, 0);
	check(do_bind(s3, "@unixnet.dg") == 0, "abstract_same_name_other_type_binds");
	close(s3);
	unlink("/tmp/unixnet.dgp");
	int d2 = socket(AF_UNIX, SOCK_DGRAM, 0);
	check(do_bind(d2, "/tmp/unixnet.dgp") == 0 && do_connect(s2, "/tmp/unixnet.dgp") == -EPROTOTYPE,
	      "path_of_other_type_EPROTOTYPE");
	close(d2);
	unlink("/tmp/unixnet.dgp");
	int bl = socket(AF_UNIX, SOCK_STREAM, 0);
	do_bind(bl, "@unixnet.backlog");
	listen(bl, 0);			/* room for one waiting connection */
	int q1 = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0), q2 = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	struct pollfd qp = { .fd = q2, .events = POLLIN | POLLOUT };
	check(do_connect(q1, "@unixnet.backlog") == 0 && do_connect(q2, "@unixnet.backlog") == -EAGAIN &&
	      poll(&qp, 1, 0) == 1 && qp.revents == (POLLOUT | POLLHUP), "backlog_full_nonblocking_EAGAIN_unconnected");
	close(accept(bl, NULL, NULL));
	check(do_connect(q2, "@unixnet.backlog") == 0, "backlog_room_again_connects");
	close(q1);
	close(q2);
	close(bl);
	int v = 0;
	socklen_t vl = sizeof(v);
	check(getsockopt(d, SOL_SOCKET, SO_TYPE, &v, &vl) == 0 && v == SOCK_DGRAM, "SO_TYPE");
	check(raw(getsockopt(d, SOL_SOCKET, 9999, &v, &vl)) == -ENOPROTOOPT, "getsockopt_unknown_ENOPROTOOPT");
	close(s);
	close(s2);
	close(d);
}

static void dgram_checks(void)
{
	int sv[2];
	check(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0, "socketpair_dgram");
	char buf[16];
	write(sv[0], "one", 3);
	write(sv[0], "two!", 4);
	check(read(sv[1], buf, sizeof buf) == 3 && read(sv[1], buf, sizeof buf) == 4, "dgram_boundaries_kept");
	write(sv[0], "truncated", 9);
	check(recv(sv[1], buf, 4, MSG_PEEK) == 4 && recv(sv[1], buf, 4, MSG_TRUNC) == 9 &&
	      recv(sv[1], buf, 1, MSG_DONTWAIT) == -1 && errno == EAGAIN, "dgram_peek_then_trunc_discards_rest");
	close(sv[0]);
	close(sv[1]);
	unlink("/tmp/unixnet.dg");
	int r = socket(AF_UNIX, SOCK_DGRAM, 0), w = socket(AF_UNIX, SOCK_DGRAM, 0);
	do_bind(r, "/tmp/unixnet.dg");
	do_bind(w, "@unixnet.w");
	socklen_t len;
	struct sockaddr_un to = addr("/tmp/unixnet.dg", &len), from;
	check(sendto(w, "hello", 5, 0, (struct sockaddr *)&to, len) == 5, "sendto_path");
	socklen_t flen = sizeof(from);
	check(recvfrom(r, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen) == 5 && flen == 2 + 1 + 9 &&
	      from.sun_path[0] == 0 && memcmp(from.sun_path + 1, "unixnet.w", 9) == 0, "recvfrom_sender_name");
	check(raw(send(w, "x", 1, 0)) == -ENOTCONN, "dgram_send_unconnected_ENOTCONN");
	check(do_connect(w, "/tmp/unixnet.dg") == 0 && send(w, "y", 1, 0) == 1, "dgram_connect_then_send");
	char a[3], b[4];
	struct iovec iov[2] = { { a, 3 }, { b, 4 } };
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = 2 };
	struct iovec out[2] = { { "abc", 3 }, { "defg", 4 } };
	struct msghdr mo = { .msg_iov = out, .msg_iovlen = 2 };
	recv(r, buf, sizeof buf, 0);
	check(sendmsg(w, &mo, 0) == 7 && recvmsg(r, &m, 0) == 7 && memcmp(a, "abc", 3) == 0 &&
	      memcmp(b, "defg", 4) == 0, "sendmsg_recvmsg_iovecs");
	static char low[16];		/* in .bss, low: 2 GiB past it is still user space */
	char high[16];			/* on the stack: 2 GiB past it is not */
	struct iovec huge[3] = { { low, 0x7fffffff }, { low, 0x7fffffff }, { low, 16 } };
	struct msghdr mh = { .msg_iov = huge, .msg_iovlen = 3 };
	check(raw(sendmsg(w, &mh, 0)) == -EMSGSIZE, "sendmsg_pieces_summing_past_4G_EMSGSIZE");
	huge[1].iov_base = high;
	check(raw(sendmsg(w, &mh, 0)) == -EFAULT, "sendmsg_piece_into_kernel_EFAULT");
	huge[2].iov_len = 0x80000000u;
	check(raw(sendmsg(w, &mh, 0)) == -EINVAL, "sendmsg_negative_piece_EINVAL_first");
	sendmsg(w, &mo, 0);
	iov[1].iov_len = 2;
	check(recvmsg(r, &m, 0) == 5 && (m.msg_flags & MSG_TRUNC), "recvmsg_MSG_TRUNC");
	close(r);
	check(raw(send(w, "z", 1, 0)) == -ECONNREFUSED, "dgram_peer_closed_ECONNREFUSED");
	check(raw(send(w, "z", 1, 0)) == -ENOTCONN, "dgram_refused_peer_forgotten_ENOTCONN");
	close(w);
	unlink("/tmp/unixnet.dg");
}

/* sendmsg of data with the descriptors fds (n of them) at SOL_SOCKET,
 * type (SCM_RIGHTS), cmsg_len made len (0: the right one). */
static long send_fds(int sock, const char *data, const int *fds, int n, int type, size_t len)
{
	char ctl[CMSG_SPACE(sizeof(int) * 256)];
	struct iovec iov = { (void *)data, strlen(data) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = CMSG_SPACE(sizeof(int) * n) };
	memset(ctl, 0, sizeof(ctl));
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = type;
	c->cmsg_len = len ? len : CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	return raw(sendmsg(sock, &m, 0));
}

/* recvmsg into buf (size bytes) with ctllen bytes of control: the bytes,
 * the first descriptor received in *fd (-1: none), the flags. */
static long recv_fds(int sock, char *buf, size_t size, size_t ctllen, int flags, int *fd,
		     int *mflags)
{
	char ctl[CMSG_SPACE(sizeof(int) * 4)];
	struct iovec iov = { buf, size };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = ctllen };
	long got = raw(recvmsg(sock, &m, flags));
	struct cmsghdr *c = got >= 0 ? CMSG_FIRSTHDR(&m) : NULL;
	*fd = c && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)) ?
	      *(int *)CMSG_DATA(c) : -1;
	*mflags = m.msg_flags;
	return got;
}

static int lowest_free(void)
{
	int fd = dup(0);
	close(fd);
	return fd;
}

static void scm_checks(int type, const char *tag)
{
	char t[80], buf[16] = "";
	int sv[2], p[2], fd, fl;
	socketpair(AF_UNIX, type, 0, sv);
	pipe(p);
	write(p[1], "via", 3);
	check(send_fds(sv[0], "ab", &p[0], 1, SCM_RIGHTS, 0) == 2, (snprintf(t, sizeof t, "%s_sendmsg_SCM_RIGHTS", tag), t));
	long got = recv_fds(sv[1], buf, sizeof buf, CMSG_SPACE(sizeof(int) * 4), MSG_CMSG_CLOEXEC, &fd, &fl);
	char via[4] = "";
	check(got == 2 && fd >= 0 && fd != p[0] && read(fd, via, 3) == 3 && memcmp(via, "via", 3) == 0 &&
	      fcntl(fd, F_GETFD) == FD_CLOEXEC, (snprintf(t, sizeof t, "%s_recvmsg_gets_a_working_fd", tag), t));
	close(fd);
	int before = lowest_free();
	send_fds(sv[0], "cd", &p[0], 1, SCM_RIGHTS, 0);
	got = recv_fds(sv[1], buf, sizeof buf, sizeof(struct cmsghdr), 0, &fd, &fl);
	check(got == 2 && fd == -1 && (fl & MSG_CTRUNC) && lowest_free() == before,
	      (snprintf(t, sizeof t, "%s_no_room_MSG_CTRUNC_closed", tag), t));
	check(send_fds(sv[0], "e", (int[]){ 99 }, 1, SCM_RIGHTS, 0) == -EBADF,
	      (snprintf(t, sizeof t, "%s_bad_fd_EBADF", tag), t));
	check(send_fds(sv[0], "e", &p[0], 1, SCM_RIGHTS, 1000) == -EINVAL,
	      (snprintf(t, sizeof t, "%s_cmsg_len_past_buffer_EINVAL", tag), t));
	check(send_fds(sv[0], "e", &p[0], 1, 77, 0) == -EINVAL, (snprintf(t, sizeof t, "%s_unknown_type_EINVAL", tag), t));
	int many[254];
	for (int i = 0; i < 254; i++)
		many[i] = p[0];
	check(send_fds(sv[0], "e", many, 254, SCM_RIGHTS, 0) == -EINVAL,
	      (snprintf(t, sizeof t, "%s_254_fds_EINVAL", tag), t));
	send_fds(sv[0], "g", &p[0], 1, SCM_RIGHTS, 0);
	close(p[0]);			/* the only read end is in flight */
	close(sv[1]);			/* the receiver goes: so does what it held */
	signal(SIGPIPE, SIG_IGN);
	check(raw(write(p[1], "y", 1)) == -EPIPE, (snprintf(t, sizeof t, "%s_receiver_closed_drops_fds", tag), t));
	close(sv[0]);
	close(p[1]);
}

/* A stream keeps the bytes a descriptor came with together with it: a
 * read goes on into them and stops at their end. */
static void scm_stream_checks(void)
{
	int sv[2], p[2], fd, fl;
	char buf[16] = "";
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pipe(p);
	write(sv[0], "ab", 2);
	send_fds(sv[0], "cd", &p[0], 1, SCM_RIGHTS, 0);
	write(sv[0], "ef", 2);
	long got = recv_fds(sv[1], buf, sizeof buf, CMSG_SPACE(sizeof(int) * 4), 0, &fd, &fl);
	check(got == 4 && memcmp(buf, "abcd", 4) == 0 && fd >= 0, "stream_read_stops_after_the_fds_bytes");
	close(fd);
	got = recv_fds(sv[1], buf, sizeof buf, CMSG_SPACE(sizeof(int) * 4), 0, &fd, &fl);
	check(got == 2 && memcmp(buf, "ef", 2) == 0 && fd == -1, "stream_next_read_without_fds");
	send_fds(sv[0], "gh", &p[1], 1, SCM_RIGHTS, 0);	/* the only write end, in flight */
	close(p[1]);
	check(read(sv[1], buf, sizeof buf) == 2 && read(p[0], buf, 1) == 0,
	      "stream_plain_read_drops_the_fds_EOF");
	close(p[0]);
	close(sv[0]);
	close(sv[1]);
	signal(SIGPIPE, SIG_IGN);
	pipe(p);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	send_fds(sv[0], "x", &p[0], 1, SCM_RIGHTS, 0);
	close(p[0]);
	read(sv[1], buf, 1);		/* the read end arrives and is dropped */
	check(raw(write(p[1], "y", 1)) == -EPIPE, "dropped_fd_is_closed_EPIPE");
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
}

/* The ioctls every descriptor answers, and a socket's FIONREAD. */
static void ioctl_checks(void)
{
	int sv[2], d[2], p[2], v = 1;
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	socketpair(AF_UNIX, SOCK_DGRAM, 0, d);
	pipe(p);
	char c;
	check(ioctl(sv[0], FIONBIO, &v) == 0 && (fcntl(sv[0], F_GETFL) & O_NONBLOCK) &&
	      raw(read(sv[0], &c, 1)) == -EAGAIN, "FIONBIO_on");
	v = 0;
	check(ioctl(sv[0], FIONBIO, &v) == 0 && !(fcntl(sv[0], F_GETFL) & O_NONBLOCK), "FIONBIO_off");
	check(ioctl(p[0], FIOCLEX) == 0 && fcntl(p[0], F_GETFD) == FD_CLOEXEC &&
	      ioctl(p[0], FIONCLEX) == 0 && fcntl(p[0], F_GETFD) == 0, "FIOCLEX_FIONCLEX");
	write(sv[1], "hello", 5);
	write(sv[1], "!", 1);
	check(ioctl(sv[0], FIONREAD, &v) == 0 && v == 6, "stream_FIONREAD_bytes");
	send(d[1], "abc", 3, 0);
	send(d[1], "defgh", 5, 0);
	check(ioctl(d[0], FIONREAD, &v) == 0 && v == 3, "dgram_FIONREAD_next_message");
	write(p[1], "xy", 2);
	check(ioctl(p[0], FIONREAD, &v) == 0 && v == 2, "pipe_FIONREAD");
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	do_bind(l, "@unixnet.ioctl");
	listen(l, 1);
	check(raw(ioctl(l, FIONREAD, &v)) == -EINVAL, "listener_FIONREAD_EINVAL");
	check(raw(ioctl(sv[0], TCGETS, &v)) == -ENOTTY, "socket_TCGETS_ENOTTY");
	close(l);
	close(sv[0]);
	close(sv[1]);
	close(d[0]);
	close(d[1]);
	close(p[0]);
	close(p[1]);
}

static void stream_extra_checks(void)
{
	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	char buf[8] = "";
	write(sv[0], "peek", 4);
	check(recv(sv[1], buf, 2, MSG_PEEK) == 2 && read(sv[1], buf, 8) == 4, "stream_MSG_PEEK_leaves_data");
	socklen_t len = sizeof(struct sockaddr_un);
	struct sockaddr_un a;
	check(getpeername(sv[0], (struct sockaddr *)&a, &len) == 0 && len == 2, "pair_peer_unnamed");
	struct ucred cr;
	socklen_t crlen = sizeof(cr);
	check(getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cr, &crlen) == 0 && cr.pid == getpid(),
	      "pair_SO_PEERCRED_self");
	check(raw(sendto(sv[0], "x", 1, 0, (struct sockaddr *)&a, 2 + 3)) == -EISCONN, "stream_sendto_EISCONN");
	close(sv[0]);
	close(sv[1]);
}

/* One round of everything a socket or an epoll holds, closed in the
 * awkward orders: a listener with connections never accepted, a peer
 * closed with data unread, datagrams left queued, epolls watching
 * sockets, each other and a pipe, closed before and after them. */
static void churn(void)
{
	char buf[64];
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	do_bind(l, "@unixnet.churn");
	listen(l, 8);
	for (int i = 0; i < 20; i++) {
		int c = socket(AF_UNIX, SOCK_STREAM, 0), c2 = socket(AF_UNIX, SOCK_STREAM, 0);
		do_connect(c, "@unixnet.churn");
		int s = accept(l, NULL, NULL);
		do_connect(c2, "@unixnet.churn");	/* closed before it is accepted */
		write(c2, "gone", 4);
		close(c2);
		close(accept(l, NULL, NULL));
		int ep = epoll_create1(0), inner = epoll_create1(0);
		struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT };
		epoll_ctl(ep, EPOLL_CTL_ADD, s, &ev);
		epoll_ctl(ep, EPOLL_CTL_ADD, l, &ev);
		epoll_ctl(inner, EPOLL_CTL_ADD, c, &ev);
		epoll_ctl(ep, EPOLL_CTL_ADD, inner, &ev);
		write(c, "unread", 6);
		write(s, "read", 4);
		read(c, buf, sizeof buf);
		close(i & 1 ? ep : s);
		close(c);
		close(i & 1 ? s : ep);
		close(inner);
		int d[2];
		socketpair(AF_UNIX, SOCK_DGRAM, 0, d);
		send_fds(d[0], "in flight", &l, 1, SCM_RIGHTS, 0);
		send_fds(d[1], "itself", &d[1], 1, SCM_RIGHTS, 0);	/* a cycle the close breaks */
		send_fds(c2 = socket(AF_UNIX, SOCK_STREAM, 0), "x", &l, 1, SCM_RIGHTS, 0);
		close(c2);
		send(d[0], buf, 40, 0);
		send(d[0], buf, 40, 0);
		close(d[1]);
		close(d[0]);
		unlink("/tmp/unixnet.churn");
		int r = socket(AF_UNIX, SOCK_DGRAM, 0);
		do_bind(r, "/tmp/unixnet.churn");
		close(r);
	}
	for (int i = 0; i < 3; i++)
		do_connect(socket(AF_UNIX, SOCK_STREAM, 0), "@unixnet.churn");
	for (int fd = l + 1; fd < l + 8; fd++)
		close(fd);
	close(l);
	unlink("/tmp/unixnet.churn");
}

static void leak_checks(void)
{
	signal(SIGPIPE, SIG_IGN);
	int here = syscall(NR_FREE_FRAMES) > 0;
	long before = 0, after = 0;
	for (int round = 0; round < 3; round++) {
		if (here)
			before = syscall(NR_FREE_FRAMES);
		churn();
		if (here)
			after = syscall(NR_FREE_FRAMES);
	}
	check_ours(here, before == after, "sockets_and_epolls_keep_no_frame");
	if (here && after != before)
		printf("# free frames before %ld, after %ld\n", before, after);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..95\n");
	stream_checks();
	error_checks();
	dgram_checks();
	stream_extra_checks();
	ioctl_checks();
	scm_checks(SOCK_STREAM, "stream");
	scm_checks(SOCK_DGRAM, "dgram");
	scm_stream_checks();
	leak_checks();
	printf("# %d checks\n", n);
	return failures ? 1 : 0;
}
