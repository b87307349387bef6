/*
 * sockfuzz - random AF_UNIX socket, epoll and SCM_RIGHTS calls from four
 * processes (and their forked children) on a shared handful of
 * descriptors and names: streams and datagrams, bind/listen/connect/
 * accept4 on four path and four abstract names, sends and receives with
 * MSG_PEEK/MSG_TRUNC/MSG_WAITALL, descriptors passed with bad lengths,
 * shutdown, close, dup, epoll_ctl/epoll_wait, FIONBIO/FIONREAD, socket
 * options and names. Every descriptor stays non-blocking, so each call
 * returns; what is checked is that they all do, on both kernels (a KTAP
 * line, compared by tests/linux-diff.sh), with no panic here. Seeds are
 * fixed, so a run repeats its calls (not their interleaving).
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o sockfuzz user/glibc/sockfuzz.c
 * sockfuzz.linux.ktap beside it is its transcript on Debian's Linux 6.1.
 * It found, and finds again when they are put back: a send to a name of
 * another type (EPROTOTYPE) that gave the socket back twice, leaving a
 * freed socket in the name table (a page fault walking it); and a
 * receive that took files still queued (a page fault closing them twice).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned rnd(void) { return (unsigned)random(); }

/* A descriptor of the handful the calls share (0-2 are the console's). */
static int fd(void) { return 3 + rnd() % 40; }

static void name(struct sockaddr_un *a, socklen_t *len)
{
	a->sun_family = AF_UNIX;
	int k = rnd() % 4;
	if (rnd() & 1) {
		a->sun_path[0] = 0;
		snprintf(a->sun_path + 1, 20, "fz%d", k);
		*len = 2 + 1 + strlen(a->sun_path + 1);
	} else {
		snprintf(a->sun_path, 20, "/tmp/fz%d", k);
		*len = 2 + strlen(a->sun_path) + 1;
	}
	if (rnd() % 16 == 0)
		*len = rnd() % 140;
}

static void op(void)
{
	struct sockaddr_un a;
	socklen_t len;
	char buf[300];
	int fds[4] = { fd(), fd(), fd(), fd() };
	char ctl[CMSG_SPACE(sizeof(fds))];
	struct iovec iov[2] = { { buf, rnd() % 300 }, { buf, rnd() % 50 } };
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = 1 + rnd() % 2 };
	int flags = (rnd() & 1 ? MSG_DONTWAIT : MSG_DONTWAIT) | (rnd() % 4 == 0 ? MSG_PEEK : 0) |
		    (rnd() % 4 == 0 ? MSG_TRUNC : 0) | (rnd() % 8 == 0 ? MSG_WAITALL : 0) | MSG_NOSIGNAL;
	struct epoll_event ev = { .events = rnd(), .data.u64 = rnd() };
	switch (rnd() % 22) {
	case 0: socket(AF_UNIX, (rnd() & 1 ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK, 0); break;
	case 1: { int sv[2]; socketpair(AF_UNIX, (rnd() & 1 ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK, 0, sv); break; }
	case 2: name(&a, &len); bind(fd(), (void *)&a, len); break;
	case 3: listen(fd(), rnd() % 4 - 1); break;
	case 4: name(&a, &len); connect(fd(), (void *)&a, len); break;
	case 5: accept4(fd(), (void *)&a, &len, rnd() & 1 ? SOCK_NONBLOCK : SOCK_NONBLOCK | SOCK_CLOEXEC); break;
	case 6: send(fd(), buf, rnd() % 300, flags); break;
	case 7: recv(fd(), buf, rnd() % 300, flags); break;
	case 8: name(&a, &len); sendto(fd(), buf, rnd() % 300, flags, (void *)&a, len); break;
	case 9: len = sizeof(a); recvfrom(fd(), buf, rnd() % 300, flags, (void *)&a, &len); break;
	case 10: {
		m.msg_control = ctl;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * (1 + rnd() % 4));
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET; c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = m.msg_controllen - (rnd() % 3 == 0 ? rnd() % 8 : 0);
		memcpy(CMSG_DATA(c), fds, sizeof(fds));
		sendmsg(fd(), &m, flags);
		break;
	}
	case 11: m.msg_control = ctl; m.msg_controllen = rnd() % sizeof(ctl); m.msg_name = &a; m.msg_namelen = sizeof(a);
		if (recvmsg(fd(), &m, flags | (rnd() & 1 ? MSG_CMSG_CLOEXEC : 0)) >= 0) {
			struct cmsghdr *c = CMSG_FIRSTHDR(&m);
			if (c && c->cmsg_type == SCM_RIGHTS) { /* keep or close them */ if (rnd() & 1) for (int *p = (int *)CMSG_DATA(c); (char *)p < (char *)c + c->cmsg_len; p++) close(*p); }
		}
		break;
	case 12: shutdown(fd(), rnd() % 4); break;
	case 13: close(fd()); break;
	case 14: epoll_create1(0); break;
	case 15: epoll_ctl(fd(), 1 + rnd() % 3, fd(), &ev); break;
	case 16: { struct epoll_event evs[4]; epoll_wait(fd(), evs, 4, 0); break; }
	case 17: dup(fd()); break;
	case 18: { int v = 1; ioctl(fd(), rnd() & 1 ? FIONBIO : FIONREAD, &v); break; }
	case 19: name(&a, &len); if (a.sun_path[0]) unlink(a.sun_path); break;
	case 20: { int v; socklen_t l = sizeof(v); getsockopt(fd(), SOL_SOCKET, rnd() % 40, &v, &l); break; }
	case 21: len = sizeof(a); (rnd() & 1 ? getsockname : getpeername)(fd(), (void *)&a, &len); break;
	}
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..1\n");
	int procs = 4, ops = argc > 1 ? atoi(argv[1]) : 20000, failed = 0;
	pid_t kids[4];
	for (int p = 0; p < procs; p++) {
		if ((kids[p] = fork()) == 0) {
			srandom(p * 7919 + 1 + (argc > 2 ? atoi(argv[2]) : 0));
			for (int i = 0; i < ops; i++) {
				op();
				if (i % 5000 == 4999 && fork() == 0) { for (int j = 0; j < 2000; j++) op(); _exit(0); }
				while (waitpid(-1, NULL, WNOHANG) > 0) ;
			}
			while (wait(NULL) > 0) ;
			_exit(0);
		}
	}
	for (int p = 0; p < procs; p++) {
		int st;
		failed += waitpid(kids[p], &st, 0) != kids[p] || !WIFEXITED(st) || WEXITSTATUS(st);
	}
	for (int k = 0; k < 4; k++) {		/* the path names it made */
		char path[20];
		snprintf(path, sizeof path, "/tmp/fz%d", k);
		unlink(path);
	}
	printf("%sok 1 - random_socket_calls_from_4_processes_all_return\n", failed ? "not " : "");
	return failed ? 1 : 0;
}
