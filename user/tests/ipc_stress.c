/*
 * ipc_stress - a System V IPC load for make stress: WORKERS processes for
 * SECONDS seconds at random IPC calls on shared objects, and on private
 * ones made, raced and removed under sleepers, each checking every
 * answer it can know.
 *
 *	/bin/ipc_stress SECONDS SEED WORKERS
 *
 * Shared by all: a queue (messages of type w + 1 whose bytes follow from
 * their sender and sequence number: every one received is checked), a
 * semaphore used as a mutex with SEM_UNDO around a counter in a shared
 * segment (each worker counts its own increments there), and the
 * segment. A worker also: forks a child that takes the mutex with
 * SEM_UNDO and is killed holding it (the undo must give it back, or
 * every worker hangs); makes a private queue, array and segment, forks a
 * child that checks the segment and sleeps in msgrcv or semop, and
 * removes them under it (EIDRM) or kills it; attaches private segments
 * twice, forks, unmaps a page, removes one while attached; sends bytes
 * through a Unix stream socket pair to a forked child that echoes them
 * and a datagram back; and has two threads write numbered records into
 * one pipe that it reads (each record whole, each thread's in order).
 * Half the System V calls go through ipc (117), half through the direct
 * calls. At the end:
 * the counter is every increment, the mutex is free, sent = received +
 * left in the queue, /proc/sysvipc lists nothing, and the free frames
 * are what they were before (call 505; after a warm-up round).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uapi/ipc.h>
#include <uapi/mman.h>
#include <uapi/socket.h>
#include <uapi/unistd.h>

#include "syscall.h"
#include "testlib.h"
#include "thread.h"

#define MAX_WORKERS	8
#define TEXT_MAX	200
#define PAGE		4096

struct msg {
	long type;
	int from, seq, len;
	unsigned char text[TEXT_MAX];
};

/* The shared segment's layout. */
struct stats {
	int counter;			/* under the mutex */
	int incs[MAX_WORKERS];		/* each worker's own increments */
	int sent[MAX_WORKERS], received[MAX_WORKERS];
	int doing[MAX_WORKERS];		/* the kind of call each is in, for a hang's report */
};

static int Q, S, M, workers;
static struct stats *st;
static unsigned rng;
static long ops;
static int last_op;

static unsigned next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* ---- the calls, by either way in ------------------------------------------ */

static int msgsnd_(int q, const struct msg *m, int flg)
{
	int n = (int)(3 * sizeof(int) + m->len);
	return next() % 2 ? (int)syscall4(__NR_msgsnd, q, (long)m, n, flg)
			  : (int)syscall5(__NR_ipc, MSGSND, q, n, flg, (long)m);
}

static int msgrcv_(int q, struct msg *m, long type, int flg)
{
	long k[2] = { (long)m, type };
	int n = (int)(3 * sizeof(int) + TEXT_MAX);
	return next() % 2 ? (int)syscall5(__NR_msgrcv, q, (long)m, n, type, flg)
			  : (int)syscall5(__NR_ipc, MSGRCV, q, n, flg, (long)k);
}

static int semop_(int s, unsigned short num, short op, short flg)
{
	struct sembuf b = { num, op, flg };
	return (int)syscall5(__NR_ipc, SEMOP, s, 1, 0, (long)&b);
}

static int semval(int s, int num)
{
	return (int)syscall4(__NR_semctl, s, num, GETVAL, 0);
}

static void *shmat_(int id)
{
	long r = syscall3(__NR_shmat, id, 0, 0);
	return r < 0 && r > -4096 ? NULL : (void *)r;
}

static void rmid(int kind, int id)
{
	if (kind == 0)
		syscall3(__NR_msgctl, id, IPC_RMID, 0);
	else if (kind == 1)
		syscall4(__NR_semctl, id, 0, IPC_RMID, 0);
	else
		syscall3(__NR_shmctl, id, IPC_RMID, 0);
}

/* ---- the shared queue --------------------------------------------------------- */

static unsigned char byte_of(int from, int seq, int i)
{
	return (unsigned char)(from * 31 + seq * 7 + i);
}

static int send_one(int w)
{
	struct msg m = { w + 1, w, st->sent[w], (int)(next() % TEXT_MAX), { 0 } };
	for (int i = 0; i < m.len; i++)
		m.text[i] = byte_of(w, m.seq, i);
	int r = msgsnd_(Q, &m, IPC_NOWAIT);
	if (r == 0)
		st->sent[w]++;
	return r == 0 || r == -EAGAIN;
}

/* A message's bytes are its sender's, its size what the call said. */
static int good(const struct msg *m, int got)
{
	if (m->from < 0 || m->from >= workers || m->type != m->from + 1 ||
	    got != (int)(3 * sizeof(int)) + m->len)
		return 0;
	for (int i = 0; i < m->len; i++)
		if (m->text[i] != byte_of(m->from, m->seq, i))
			return 0;
	return 1;
}

static int receive_one(int w)
{
	struct msg m;
	long type = next() % 3 == 0 ? -(long)workers : next() % 2 ? 0 : (long)(next() % workers) + 1;
	int r = msgrcv_(Q, &m, type, IPC_NOWAIT);
	if (r == -ENOMSG)
		return 1;
	if (r < 0 || !good(&m, r))
		return 0;
	st->received[w]++;
	return 1;
}

/* ---- the mutex and the counter ------------------------------------------------ */

static int increment(int w)
{
	if (semop_(S, 0, -1, SEM_UNDO) != 0)
		return 0;
	int c = st->counter;
	for (volatile int spin = 0; spin < 50; spin++)
		;
	st->counter = c + 1;
	st->incs[w]++;
	return semop_(S, 0, 1, SEM_UNDO) == 0;
}

/* A child takes the mutex with SEM_UNDO and dies holding it. */
static int killed_holder(void)
{
	int p[2];
	char c;
	if (pipe(p) < 0)
		return 0;
	pid_t pid = fork();
	if (pid == 0) {
		if (semop_(S, 0, -1, SEM_UNDO) == 0)
			write(p[1], "h", 1);
		pause();
		_exit(0);
	}
	int ok = read(p[0], &c, 1) == 1;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
	return ok;
}

/* ---- private objects removed under a sleeper ------------------------------------ */

static int removed_under(void)
{
	int q = (int)syscall2(__NR_msgget, IPC_PRIVATE, 0600);
	int s = (int)syscall3(__NR_semget, IPC_PRIVATE, 2, 0600);
	int m = (int)syscall3(__NR_shmget, IPC_PRIVATE, PAGE + 1, 0600);
	unsigned char *p = m >= 0 ? shmat_(m) : NULL;
	if (q < 0 || s < 0 || !p)
		return 0;
	memset(p, 0x5a, PAGE + 1);
	int how = (int)(next() % 3);
	pid_t pid = fork();
	if (pid == 0) {
		int ok = p[0] == 0x5a && p[PAGE] == 0x5a;
		struct msg got;
		int r = next() % 2 ? msgrcv_(q, &got, 0, 0) : semop_(s, 1, -1, 0);
		/* EINVAL: removed before it looked */
		_exit(ok && (r == -EIDRM || r == -EINVAL) ? 0 : 1);
	}
	usleep(next() % 2000);
	if (how == 0)
		kill(pid, SIGKILL);
	rmid(0, q);
	rmid(1, s);
	rmid(2, m);
	int status;
	waitpid(pid, &status, 0);
	int r = syscall1(__NR_shmdt, (long)p) == 0;
	return r && ((WIFSIGNALED(status) && how == 0) || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
}

/* Two attaches of a private segment, a fork, a page unmapped, the
 * segment removed while attached: nattch follows, the bytes are shared. */
static int segments(void)
{
	int m = (int)syscall3(__NR_shmget, IPC_PRIVATE, 3 * PAGE, 0600);
	char *a = m >= 0 ? shmat_(m) : NULL, *b = a ? shmat_(m) : NULL;
	if (!a || !b)
		return 0;
	pid_t pid = fork();
	if (pid == 0) {
		a[2 * PAGE] = 'c';
		_exit(b[2 * PAGE] == 'c' ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	syscall2(__NR_munmap, (long)(a + PAGE), PAGE);
	struct shmid64_ds ds;
	int n = (int)syscall3(__NR_shmctl, m, IPC_STAT, (long)&ds) == 0 ? (int)ds.shm_nattch : -1;
	rmid(2, m);
	int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && b[2 * PAGE] == 'c' && n == 3;
	ok &= syscall1(__NR_shmdt, (long)a) == 0 && syscall1(__NR_shmdt, (long)b) == 0;
	return ok;
}

/* ---- Unix sockets and pipes --------------------------------------------------- */

#define CHUNK		300
#define CHUNKS		10

/* The child of unix_pair: every byte on its stream socket back, until the
 * other end closes; then one datagram. */
static void echo_child(int s, int d)
{
	char buf[CHUNK];
	long n;
	while ((n = syscall3(__NR_read, s, (long)buf, sizeof(buf))) > 0)
		if (syscall3(__NR_write, s, (long)buf, n) != n)
			_exit(1);
	_exit(n == 0 && syscall3(__NR_write, d, (long)"dgram", 5) == 5 ? 0 : 1);
}

/* A stream and a datagram socket pair to a forked child: what it echoes is
 * what was sent, chunk by chunk, and its datagram arrives whole. */
static int unix_pair(int w)
{
	int s[2], d[2];
	if (syscall4(__NR_socketpair, AF_UNIX, SOCK_STREAM, 0, (long)s) < 0)
		return 0;
	if (syscall4(__NR_socketpair, AF_UNIX, SOCK_DGRAM, 0, (long)d) < 0) {
		close(s[0]);
		close(s[1]);
		return 0;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(s[0]);
		close(d[0]);
		echo_child(s[1], d[1]);
	}
	close(s[1]);
	close(d[1]);
	int ok = pid > 0;
	for (int c = 0; ok && c < CHUNKS; c++) {
		unsigned char out[CHUNK], in[CHUNK];
		for (int i = 0; i < CHUNK; i++)
			out[i] = byte_of(w, c, i);
		ok = syscall3(__NR_write, s[0], (long)out, CHUNK) == CHUNK;
		for (int got = 0; ok && got < CHUNK;) {
			long n = syscall3(__NR_read, s[0], (long)(in + got), CHUNK - got);
			ok = n > 0;
			got += n > 0 ? (int)n : 0;
		}
		ok = ok && memcmp(in, out, CHUNK) == 0;
	}
	close(s[0]);			/* the child's read ends: it sends the datagram */
	char dg[16] = { 0 };
	ok = ok && syscall3(__NR_read, d[0], (long)dg, sizeof(dg)) == 5 && !memcmp(dg, "dgram", 5);
	close(d[0]);
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#define RECORD		64
#define RECORDS		200

struct piper {
	int fd, id;
};

/* A thread's records: its id, its sequence number, then a byte of both. */
static int pipe_writer(void *arg)
{
	const struct piper *p = arg;
	unsigned char rec[RECORD];
	for (int i = 0; i < RECORDS; i++) {
		memset(rec, (p->id * 31 + i) & 0xFF, sizeof(rec));
		rec[0] = (unsigned char)p->id;
		rec[1] = (unsigned char)i;
		if (syscall3(__NR_write, p->fd, (long)rec, RECORD) != RECORD)
			return 1;
	}
	return 0;
}

/* Is rec the next record of its writer (next[id])? */
static int record_ok(const unsigned char *rec, int *next)
{
	int id = rec[0];
	if (id < 1 || id > 2 || rec[1] != (unsigned char)next[id])
		return 0;
	for (int i = 2; i < RECORD; i++)
		if (rec[i] != (unsigned char)((id * 31 + next[id]) & 0xFF))
			return 0;
	next[id]++;
	return 1;
}

/* Two threads write RECORDS records each into one pipe (a write of at
 * most PIPE_BUF is atomic), this one reads them all. */
static int thread_pipes(void)
{
	static char stacks[2][16384] __attribute__((aligned(16)));
	struct thread t[2];
	int fd[2], next[3] = { 0, 0, 0 }, ok = 1, started = 0;
	if (syscall1(__NR_pipe, (long)fd) < 0)
		return 0;
	struct piper p[2] = { { fd[1], 1 }, { fd[1], 2 } };
	for (int i = 0; i < 2; i++)
		started += thread_create(&t[i], pipe_writer, &p[i], stacks[i], sizeof(stacks[i])) == 0;
	for (int r = 0; ok && r < started * RECORDS; r++) {
		unsigned char rec[RECORD];
		ok = syscall3(__NR_read, fd[0], (long)rec, RECORD) == RECORD && record_ok(rec, next);
	}
	for (int i = 0; i < started; i++)
		ok &= thread_join(&t[i], 10000) == 0 && t[i].result == 0;
	close(fd[0]);
	close(fd[1]);
	return ok && started == 2;
}

/* ---- a worker ------------------------------------------------------------------ */

static int one_op(int w)
{
	ops++;
	last_op = (int)(next() % 18);
	st->doing[w] = last_op;
	switch (last_op) {
	case 0: case 1: case 2: case 3:	return send_one(w);
	case 4: case 5: case 6: case 7:	return receive_one(w);
	case 8: case 9: case 10: case 11: return increment(w);
	case 12:			return killed_holder();
	case 13:			return removed_under();
	case 16:			return unix_pair(w);
	case 17:			return thread_pipes();
	default:			return segments();
	}
}

static void worker(int w, unsigned seed, long long until_ns)
{
	rng = seed * 2654435761u + (unsigned)w + 1;
	st = shmat_(M);
	if (!st)
		_exit(1);
	while (monotonic_ns() < until_ns)
		if (!one_op(w)) {
			printf("# worker %d: call %ld (kind %d) answered wrong\n", w, ops, last_op);
			_exit(1);
		}
	_exit(0);
}

/* ---- a round ------------------------------------------------------------------ */

/* What is left in the queue, every message checked: how many, or -1. */
static int drain(void)
{
	struct msg m;
	int n = 0, r;
	while ((r = msgrcv_(Q, &m, 0, IPC_NOWAIT)) >= 0) {
		if (!good(&m, r))
			return -1;
		n++;
	}
	return r == -ENOMSG ? n : -1;
}

/* Lines of a /proc/sysvipc file past its header. */
static int proc_rows(const char *path)
{
	char buf[4096];
	int fd = open(path, 0), n = fd < 0 ? -1 : (int)read(fd, buf, sizeof(buf) - 1), rows = 0;
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < n; i++)
		rows += buf[i] == '\n';
	return n < 0 ? -1 : rows - 1;
}

static int check_end(void)
{
	int incs = 0, sent = 0, received = 0, left = drain();
	for (int w = 0; w < workers; w++) {
		incs += st->incs[w];
		sent += st->sent[w];
		received += st->received[w];
	}
	int mutex = semval(S, 0);
	printf("# %d increments, %d sent, %d received, %d left, mutex %d\n", incs, sent, received,
	       left, mutex);
	return st->counter == incs && mutex == 1 && left >= 0 && sent == received + left;
}

/* A worker that is not done SECONDS + 30 s in: what each is in, where its
 * process sleeps, and the mutex; then every worker killed. */
static void report_hang(const pid_t *pids)
{
	for (int w = 0; w < workers; w++) {
		char path[48], where[64] = "";
		snprintf(path, sizeof(path), "/proc/%d/wchan", pids[w]);
		int fd = open(path, 0), n = fd < 0 ? 0 : (int)read(fd, where, sizeof(where) - 1);
		if (fd >= 0)
			close(fd);
		where[n > 0 ? n : 0] = 0;
		printf("# hang: worker %d (pid %d) in call kind %d, asleep in %s\n", w, pids[w],
		       st->doing[w], where);
		kill(pids[w], SIGKILL);
	}
	printf("# hang: mutex %d, GETNCNT %d\n", semval(S, 0),
	       (int)syscall4(__NR_semctl, S, 0, GETNCNT, 0));
}

/* Reap the workers: how many failed (a hang counts them all). */
static int reap_all(const pid_t *pids, long long deadline)
{
	int failed = 0, left = workers, status;
	while (left > 0) {
		pid_t pid = waitpid(-1, &status, WNOHANG);
		if (pid > 0) {
			failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
			left--;
		} else if (monotonic_ns() > deadline) {
			report_hang(pids);
			while (wait(&status) > 0)
				;
			return workers;
		} else {
			usleep(10000);
		}
	}
	return failed;
}

static int round_of(unsigned seed, int ms)
{
	Q = (int)syscall2(__NR_msgget, IPC_PRIVATE, 0600);
	S = (int)syscall3(__NR_semget, IPC_PRIVATE, 1, 0600);
	M = (int)syscall3(__NR_shmget, IPC_PRIVATE, sizeof(struct stats), 0600);
	st = M >= 0 ? shmat_(M) : NULL;
	if (Q < 0 || S < 0 || !st || syscall4(__NR_semctl, S, 0, SETVAL, 1) != 0)
		return 1;
	long long until = monotonic_ns() + (long long)ms * 1000000;
	pid_t pids[MAX_WORKERS];
	for (int w = 0; w < workers; w++)
		if ((pids[w] = fork()) == 0)
			worker(w, seed, until);
	int failed = reap_all(pids, until + 30000000000ll);
	failed += !failed && !check_end();
	rmid(0, Q);
	rmid(1, S);
	rmid(2, M);
	failed += syscall1(__NR_shmdt, (long)st) != 0;
	int rows = proc_rows("/proc/sysvipc/msg") + proc_rows("/proc/sysvipc/sem") +
		   proc_rows("/proc/sysvipc/shm");
	if (rows)
		printf("# %d objects left in /proc/sysvipc\n", rows);
	return failed + (rows != 0);
}

int main(int argc, char **argv)
{
	test_require_our_kernel(argc, argv, 0);
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	unsigned seed = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1;
	workers = argc > 3 ? atoi(argv[3]) : 4;
	rng = seed | 1;
	if (workers < 1 || workers > MAX_WORKERS)
		workers = 4;
	printf("KTAP version 1\n1..2\n");
	int warm = round_of(seed, 500);		/* the heap's caches filled */
	int before = free_frames();
	int failed = round_of(seed + 1, seconds * 1000);
	int after = free_frames();
	ktap_ok(warm == 0 && failed == 0, "ipc_stress_every_answer_checks",
		"%d workers for %d s (seed %u): %d failed", workers, seconds, seed, warm + failed);
	ktap_ok(after == before, "ipc_stress_free_frames_back_to_baseline",
		"free frames before %d, after %d", before, after);
	return warm || failed || after != before;
}
