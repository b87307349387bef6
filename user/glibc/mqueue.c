/*
 * mqueue - POSIX message queues as glibc's mq_* calls use them, in KTAP,
 * so that tests/linux-diff.sh compares this kernel's answers with Linux
 * 6.1's: open, create, exclusive create and the attributes; messages by
 * priority (highest first, oldest first among equals); EMSGSIZE both
 * ways, EINVAL for a priority past MQ_PRIO_MAX; O_NONBLOCK's EAGAIN;
 * an absolute timeout (ETIMEDOUT) and a bad one (EINVAL); a receiver
 * asleep woken by another process's send; mq_notify's signal (SI_MESGQ,
 * the value, the sender) once, EBUSY for a second process; the status
 * line read() gives; poll; unlink while open; the names' errors, the
 * attributes checked only for a queue that is made; the
 * limits in /proc/sys/fs/mqueue and who may pass them; EACCES for
 * another user's opening and unlinking.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -O2 -o mqueue user/glibc/mqueue.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

static mqd_t make(const char *name, long maxmsg, long msgsize, int flags)
{
	struct mq_attr a = { .mq_maxmsg = maxmsg, .mq_msgsize = msgsize };
	mq_unlink(name);
	return mq_open(name, O_CREAT | O_EXCL | O_RDWR | flags, 0600, &a);
}

static void basics(void)
{
	char what[200], buf[64];
	mqd_t q = make("/kt-basic", 4, 64, 0);
	struct mq_attr a;
	mq_getattr(q, &a);
	snprintf(what, sizeof(what), "fd %s, maxmsg %ld msgsize %ld curmsgs %ld flags %ld, again %s",
		 q >= 0 ? "yes" : "no", a.mq_maxmsg, a.mq_msgsize, a.mq_curmsgs, a.mq_flags,
		 result_name(raw(mq_open("/kt-basic", O_CREAT | O_EXCL | O_RDWR, 0600, NULL))));
	check_why(q >= 0 && a.mq_maxmsg == 4 && a.mq_msgsize == 64, "open_create_and_attributes", what);

	mq_send(q, "low", 4, 1);
	mq_send(q, "high1", 6, 5);
	mq_send(q, "high2", 6, 5);
	unsigned prio[3];
	char got[3][16];
	for (int i = 0; i < 3; i++)
		mq_receive(q, got[i], sizeof(buf), &prio[i]);
	snprintf(what, sizeof(what), "%s/%u %s/%u %s/%u", got[0], prio[0], got[1], prio[1], got[2], prio[2]);
	check_why(!strcmp(what, "high1/5 high2/5 low/1"), "highest_priority_first_then_oldest", what);

	snprintf(what, sizeof(what), "small buffer %s, too long %s, prio 32768 %s",
		 result_name(raw(mq_receive(q, buf, 63, NULL))), result_name(raw(mq_send(q, buf, 65, 0))),
		 result_name(raw(mq_send(q, buf, 1, 32768))));
	check_why(!strcmp(what, "small buffer EMSGSIZE, too long EMSGSIZE, prio 32768 EINVAL"),
		  "msgsize_and_priority_errors", what);

	struct mq_attr nb = { .mq_flags = O_NONBLOCK }, old;
	mq_setattr(q, &nb, &old);
	long empty = raw(mq_receive(q, buf, sizeof(buf), NULL));
	for (int i = 0; i < 4; i++)
		mq_send(q, "x", 1, 0);
	long full = raw(mq_send(q, "x", 1, 0));
	mq_getattr(q, &a);
	snprintf(what, sizeof(what), "old flags %ld, empty %s, full %s, curmsgs %ld, flags %ld",
		 old.mq_flags, result_name(empty), result_name(full), a.mq_curmsgs, a.mq_flags);
	check_why(!strcmp(what, "old flags 0, empty EAGAIN, full EAGAIN, curmsgs 4, flags 2048"),
		  "nonblock_gives_eagain", what);
	mq_close(q);
	mq_unlink("/kt-basic");
}

static void timeouts(void)
{
	char what[160], buf[64];
	mqd_t q = make("/kt-time", 2, 64, 0);
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += 50000000;
	if (t.tv_nsec >= 1000000000)
		t.tv_sec++, t.tv_nsec -= 1000000000;
	long late = raw(mq_timedreceive(q, buf, sizeof(buf), NULL, &t));
	struct timespec bad = { 0, 1000000000 };
	long badts = raw(mq_timedreceive(q, buf, sizeof(buf), NULL, &bad));
	long badsend = raw(mq_timedsend(q, "x", 1, 0, &bad));
	snprintf(what, sizeof(what), "timeout %s, bad timespec %s and %s", result_name(late), result_name(badts),
		 result_name(badsend));
	check_why(!strcmp(what, "timeout ETIMEDOUT, bad timespec EINVAL and EINVAL"),
		  "absolute_timeout_and_bad_timespec", what);

	pid_t c = fork();
	if (c == 0) {
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_sec += 5;
		ssize_t n = mq_timedreceive(q, buf, sizeof(buf), NULL, &t);
		_exit(n == 5 && !strcmp(buf, "wake") ? 0 : 1);
	}
	usleep(50000);
	mq_send(q, "wake", 5, 0);
	int st;
	waitpid(c, &st, 0);
	check_why(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a_sleeping_receiver_gets_another_process_send",
		  WIFEXITED(st) && !WEXITSTATUS(st) ? "yes" : "no");
	mq_close(q);
	mq_unlink("/kt-time");
}

static volatile int got_sig, got_code, got_value, got_pid;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_value = si->si_value.sival_int;
	got_pid = si->si_pid;
}

static void notifications(void)
{
	char what[200], buf[64];
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO };
	sigaction(SIGUSR1, &sa, NULL);
	mqd_t q = make("/kt-note", 4, 64, 0);
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1,
			       .sigev_value.sival_int = 42 };
	long reg = raw(mq_notify(q, &ev));
	pid_t c = fork();
	if (c == 0) {
		long busy = raw(mq_notify(q, &ev));	/* another process: EBUSY */
		mq_send(q, "n", 2, 0);
		_exit(busy == -EBUSY ? 0 : 1);
	}
	int st;
	while (waitpid(c, &st, 0) < 0 && errno == EINTR)
		;			/* the signal may land while we wait */
	for (int i = 0; i < 100 && !got_sig; i++)
		usleep(1000);
	snprintf(what, sizeof(what), "register %s, child's EBUSY %s, signal %d code %s value %d from %s",
		 result_name(reg), WIFEXITED(st) && !WEXITSTATUS(st) ? "yes" : "no", got_sig,
		 got_code == SI_MESGQ ? "SI_MESGQ" : "?", got_value, got_pid == c ? "the sender" : "?");
	check_why(!strcmp(what, "register 0, child's EBUSY yes, signal 10 code SI_MESGQ value 42 from the sender"),
		  "notify_sends_its_signal_once", what);

	got_sig = 0;
	mq_receive(q, buf, sizeof(buf), NULL);
	mq_send(q, "m", 2, 0);			/* registration used up: no signal */
	usleep(20000);
	int fd = (int)q;
	char line[128] = "";
	lseek(fd, 0, SEEK_SET);
	ssize_t n = read(fd, line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = 0;
	line[strcspn(line, "\n")] = 0;
	struct pollfd p = { fd, POLLIN | POLLOUT, 0 };
	poll(&p, 1, 0);
	snprintf(what, sizeof(what), "again %d; \"%s\"; poll %s%s", got_sig, line,
		 p.revents & POLLIN ? "IN" : "", p.revents & POLLOUT ? " OUT" : "");
	check_why(!strcmp(what, "again 0; \"QSIZE:2          NOTIFY:0     SIGNO:0     NOTIFY_PID:0     \"; poll IN OUT"),
		  "status_line_and_poll", what);
	reg = raw(mq_notify(q, &ev));
	long off = raw(mq_notify(q, NULL));
	long none = raw(mq_notify(q, &(struct sigevent){ .sigev_notify = 7 }));
	long badsig = raw(mq_notify(q, &(struct sigevent){ .sigev_notify = SIGEV_SIGNAL, .sigev_signo = 65 }));
	snprintf(what, sizeof(what), "%s %s, bad notify %s, bad signal %s", result_name(reg), result_name(off),
		 result_name(none), result_name(badsig));
	check_why(!strcmp(what, "0 0, bad notify EINVAL, bad signal EINVAL"), "notify_off_and_errors", what);
	mq_close(q);
	mq_unlink("/kt-note");
}

/* As user 1000: opening root's 0600 queue, unlinking it, and a queue
 * past msg_max. */
static int other_user(void)
{
	setresuid(1000, 1000, 1000);
	struct mq_attr big = { .mq_maxmsg = 11, .mq_msgsize = 64 };
	long acc = raw(mq_open("/kt-root", O_RDONLY));
	long perm = raw(mq_unlink("/kt-root"));	/* Linux: EACCES, not the sticky rule's EPERM */
	long past = raw(mq_open("/kt-user", O_CREAT | O_RDWR, 0600, &big));
	printf("# open %s unlink %s past msg_max %s\n", result_name(acc), result_name(perm), result_name(past));
	return acc == -EACCES && perm == -EACCES && past == -EINVAL ? 0 : 1;
}

static void names_and_limits(void)
{
	char what[240], longname[300];
	memset(longname, 'n', sizeof(longname));
	longname[0] = '/';
	longname[sizeof(longname) - 1] = 0;
	snprintf(what, sizeof(what), "inner slash %s, empty %s, too long %s, bad mode %s, maxmsg 0 %s, "
		 "missing %s",
		 result_name(raw(mq_open("/a/b", O_CREAT | O_RDWR, 0600, NULL))),
		 result_name(raw(mq_open("/", O_CREAT | O_RDWR, 0600, NULL))),
		 result_name(raw(mq_open(longname, O_CREAT | O_RDWR, 0600, NULL))),
		 result_name(raw(mq_open("/kt-basic2", O_CREAT | O_EXCL | O_RDWR | O_WRONLY, 0600, NULL) >= 0 ?
			   mq_open("/kt-basic2", O_RDWR | O_WRONLY) : -1)),
		 result_name(raw(mq_open("/kt-x", O_CREAT | O_RDWR, 0600, &(struct mq_attr){ .mq_msgsize = 8 }))),
		 result_name(raw(mq_open("/kt-none", O_RDONLY))));
	check_why(!strcmp(what, "inner slash EACCES, empty ENOENT, too long ENAMETOOLONG, bad mode EINVAL, "
			  "maxmsg 0 EINVAL, missing ENOENT"), "names_and_modes_errors", what);
	mq_close(mq_open("/kt-x", O_CREAT | O_RDWR, 0600, NULL));	/* then it exists */
	long existing = raw(mq_open("/kt-x", O_CREAT | O_RDWR, 0600, &(struct mq_attr){ .mq_msgsize = 8 }));
	check_why(existing >= 0, "attributes_are_checked_only_when_created", existing >= 0 ? "opened" : result_name(existing));
	if (existing >= 0)
		mq_close((mqd_t)existing);
	mq_unlink("/kt-x");
	mq_unlink("/kt-basic2");

	mqd_t q = make("/kt-root", 2, 16, 0);
	mqd_t ro = mq_open("/kt-root", O_RDONLY);
	int pfd[2];
	pipe(pfd);
	snprintf(what, sizeof(what), "send on read-only %s, receive on a pipe %s",
		 result_name(raw(mq_send(ro, "x", 1, 0))), result_name(raw(mq_receive(pfd[0], what, 16, NULL))));
	check_why(!strcmp(what, "send on read-only EBADF, receive on a pipe EBADF"), "descriptor_errors", what);
	close(pfd[0]), close(pfd[1]);

	char vals[5][16] = { "", "", "", "", "" };
	const char *names[5] = { "msg_max", "msgsize_max", "queues_max", "msg_default", "msgsize_default" };
	for (int i = 0; i < 5; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/sys/fs/mqueue/%s", names[i]);
		int fd = open(path, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, vals[i], sizeof(vals[i]) - 1) : 0;
		vals[i][n > 0 ? n - 1 : 0] = 0;
		if (fd >= 0)
			close(fd);
	}
	snprintf(what, sizeof(what), "%s %s %s %s %s", vals[0], vals[1], vals[2], vals[3], vals[4]);
	check_why(!strcmp(what, "10 8192 256 10 8192"), "proc_sys_fs_mqueue_limits", what);

	struct mq_attr big = { .mq_maxmsg = 100, .mq_msgsize = 64 };
	mq_unlink("/kt-big");
	mqd_t rootbig = mq_open("/kt-big", O_CREAT | O_RDWR, 0600, &big);
	pid_t c = fork();
	if (c == 0)
		_exit(other_user());
	int st;
	waitpid(c, &st, 0);
	snprintf(what, sizeof(what), "root past msg_max %s, a user's EACCES, EACCES, EINVAL %s",
		 rootbig >= 0 ? "yes" : result_name(-errno), WIFEXITED(st) && !WEXITSTATUS(st) ? "yes" : "no");
	check_why(!strcmp(what, "root past msg_max yes, a user's EACCES, EACCES, EINVAL yes"),
		  "another_users_queue_and_the_limits", what);

	mq_send(q, "kept", 5, 0);
	long un = raw(mq_unlink("/kt-root"));
	long again = raw(mq_open("/kt-root", O_RDONLY));
	char buf[16] = "";
	long n = raw(mq_receive(q, buf, sizeof(buf), NULL));
	snprintf(what, sizeof(what), "unlink %s, reopen %s, the open one still gives %s \"%s\"",
		 result_name(un), result_name(again), result_name(n), buf);
	check_why(!strcmp(what, "unlink 0, reopen ENOENT, the open one still gives 5 \"kept\""),
		  "an_unlinked_queue_lives_while_open", what);
	mq_close(q), mq_close(ro), mq_close(rootbig);
	mq_unlink("/kt-big");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..15\n");
	basics();
	timeouts();
	notifications();
	names_and_limits();
	return failures != 0;
}
