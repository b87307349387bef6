/*
 * sysvipc - System V message queues and semaphores as Linux 6.1 has them,
 * and what the three kinds share, in KTAP, so that tests/linux-diff.sh
 * compares this kernel's answers with Linux's (shared memory is
 * user/glibc/sysvshm.c):
 *   - message queues: msgget's keys and flags, msgsnd and msgrcv by type
 *     (0, > 0, < 0, MSG_EXCEPT, MSG_COPY), MSG_NOERROR and E2BIG,
 *     IPC_NOWAIT, sleepers woken by the other side, by IPC_RMID (EIDRM)
 *     and by a signal (EINTR), msgctl's IPC_STAT, IPC_SET, IPC_INFO,
 *     MSG_INFO;
 *   - semaphores: semop's all-or-nothing lists, IPC_NOWAIT, SEM_UNDO at
 *     exit, semtimedop's timeout, GETNCNT and GETZCNT of sleepers, EIDRM
 *     and EINTR, and semctl's commands and range checks;
 *   - the limits: 32000 queues, 32000 arrays, 4096 segments, then ENOSPC;
 *     /proc/sys/kernel's msgmni, sem and msg_next_id written by root;
 *   - permissions (an ordinary user: EACCES, EPERM), /proc/sysvipc's
 *     headers and rows, the ipc multiplexer's old structs (no IPC_64) and
 *     the direct calls beside glibc's way (ipc, 117).
 * Only this kernel counts its free frames (call 505): that check says
 * "kernel-specific" and Linux prints SKIP there.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -O2 -o sysvipc user/glibc/sysvipc.c
 * With --make it leaves one object of each kind for util-linux's ipcs to
 * show (tests/debian/procps.sh): queue 0x1234 with two messages (16
 * bytes), array 0x2345 of 3 semaphores (#1 at 2), segment 0x3456 of 5000
 * bytes (its two pages touched, then detached).
 */
#include "sysvipc.h"

#define NTESTS		45

/* ---- message queues --------------------------------------------------------- */

static int snd(int q, long type, const char *text, int flg)
{
	struct msgb m = { type, "" };
	strncpy(m.mtext, text, sizeof(m.mtext) - 1);
	return msgsnd(q, &m, strlen(text) + 1, flg);
}

/* The type of the message msgrcv(type, flg) takes, or -errno. */
static long rcv(int q, long type, int flg)
{
	struct msgb m;
	return msgrcv(q, &m, sizeof(m.mtext), type, flg | IPC_NOWAIT) < 0 ? -errno : m.mtype;
}

static void msg_gets(void)
{
	int key = KEY_BASE + 1;
	int q = msgget(key, IPC_CREAT | IPC_EXCL | 0600);
	int again = msgget(key, 0);
	int excl = msgget(key, IPC_CREAT | IPC_EXCL | 0600);
	const char *e_excl = en(excl);
	int none = msgget(KEY_BASE + 2, 0600);
	check(q >= 0 && again == q && excl == -1 && none == -1 && errno == ENOENT,
	      "msgget_keys_creat_and_excl", "again: %s, IPC_EXCL: %s, no key: %s",
	      again == q ? "same id" : "other", e_excl, en(none));
	int p1 = msgget(IPC_PRIVATE, 0600), p2 = msgget(IPC_PRIVATE, IPC_CREAT | IPC_EXCL | 0600);
	check(p1 >= 0 && p2 >= 0 && p1 != p2, "msgget_ipc_private_always_makes_a_new_queue",
	      "%s", p1 != p2 ? "two ids" : "one id");
	msgctl(p1, IPC_RMID, NULL);
	msgctl(p2, IPC_RMID, NULL);
	msgctl(q, IPC_RMID, NULL);
	int gone = msgctl(q, IPC_STAT, &(struct msqid_ds){ 0 });
	check(gone == -1 && errno == EINVAL, "msgctl_on_a_removed_queue_is_einval", "%s", en(gone));
}

static void msg_types(int q)
{
	snd(q, 5, "five", 0);
	snd(q, 2, "two", 0);
	snd(q, 7, "seven", 0);
	snd(q, 2, "two again", 0);
	long a = rcv(q, -6, 0);		/* the lowest type <= 6: 2 */
	long b = rcv(q, 7, 0);
	long c = rcv(q, 2, MSG_EXCEPT);	/* the first not 2: 5 */
	long d = rcv(q, 0, 0);
	long e = rcv(q, 0, 0);
	check(a == 2 && b == 7 && c == 5 && d == 2 && e == -ENOMSG,
	      "msgrcv_by_type_less_or_equal_exact_except_and_any",
	      "-6: %ld, 7: %ld, except 2: %ld, 0: %ld, then %s", a, b, c, d,
	      e == -ENOMSG ? "ENOMSG" : "other");
	snd(q, 1, "0123456789", 0);
	struct msgb m;
	int big = msgrcv(q, &m, 4, 0, IPC_NOWAIT);
	const char *e_big = en(big);
	struct msqid_ds ds;
	msgctl(q, IPC_STAT, &ds);
	int cut = msgrcv(q, &m, 4, 0, IPC_NOWAIT | MSG_NOERROR);
	check(big == -1 && ds.msg_qnum == 1 && cut == 4 && !memcmp(m.mtext, "0123", 4),
	      "msgrcv_too_small_is_e2big_and_msg_noerror_truncates",
	      "4-byte buffer: %s (still queued: %lu), MSG_NOERROR: %d bytes", e_big,
	      (unsigned long)ds.msg_qnum, cut);
}

/* MSG_COPY (CONFIG_CHECKPOINT_RESTORE): msgtyp is the message's place;
 * the message stays. */
static void msg_copy(int q)
{
	struct msgb m;
	snd(q, 3, "first", 0);
	snd(q, 4, "second", 0);
	int a = msgrcv(q, &m, sizeof(m.mtext), 1, MSG_COPY | IPC_NOWAIT);
	long type = m.mtype;
	int past = msgrcv(q, &m, sizeof(m.mtext), 2, MSG_COPY | IPC_NOWAIT);
	const char *e_past = en(past);
	int wait = msgrcv(q, &m, sizeof(m.mtext), 0, MSG_COPY);
	const char *e_wait = en(wait);
	int except = msgrcv(q, &m, sizeof(m.mtext), 0, MSG_COPY | MSG_EXCEPT | IPC_NOWAIT);
	const char *e_except = en(except);
	struct msqid_ds ds;
	msgctl(q, IPC_STAT, &ds);
	check(a == 7 && type == 4 && past == -1 && wait == -1 && except == -1 && ds.msg_qnum == 2,
	      "msgrcv_msg_copy_copies_the_nth_and_leaves_it",
	      "#1: %d bytes of type %ld, #2: %s, without IPC_NOWAIT: %s, with MSG_EXCEPT: %s, "
	      "still queued %lu", a, type, e_past, e_wait, e_except, (unsigned long)ds.msg_qnum);
	rcv(q, 0, 0);
	rcv(q, 0, 0);
}

static void msg_args(int q)
{
	struct msgb m = { 0, "x" };
	int t0 = msgsnd(q, &m, 2, 0);
	const char *e0 = en(t0);
	m.mtype = 1;
	int big = msgsnd(q, &m, 8193, 0);
	const char *e1 = en(big);
	int neg = msgsnd(-1, &m, 2, 0);
	const char *e2 = en(neg);
	int bad = msgsnd(q, (void *)16, 2, 0);
	check(t0 == -1 && big == -1 && neg == -1 && bad == -1 && errno == EFAULT,
	      "msgsnd_bad_type_size_id_and_pointer", "mtype 0: %s, 8193 bytes: %s, id -1: %s, "
	      "bad pointer: %s", e0, e1, e2, en(bad));
	int cmd = msgctl(q, 1234, NULL);
	check(cmd == -1 && errno == EINVAL, "msgctl_unknown_command_is_einval", "%s", en(cmd));
}

static void msg_stat(int q)
{
	struct msqid_ds ds;
	snd(q, 9, "abc", 0);
	int r = msgctl(q, IPC_STAT, &ds);
	check(r == 0 && ds.msg_qnum == 1 && ds.msg_cbytes == 4 && ds.msg_qbytes == 16384 &&
	      ds.msg_lspid == getpid() && ds.msg_lrpid == getpid() && ds.msg_stime &&
	      (ds.msg_perm.mode & 0777) == 0600 && ds.msg_perm.uid == 0,
	      "msgctl_ipc_stat_counts_bytes_messages_and_pids",
	      "qnum %lu, cbytes %lu, qbytes %lu, pids ours: %s, mode %o",
	      (unsigned long)ds.msg_qnum, (unsigned long)ds.msg_cbytes,
	      (unsigned long)ds.msg_qbytes,
	      ds.msg_lspid == getpid() && ds.msg_lrpid == getpid() ? "yes" : "no",
	      ds.msg_perm.mode);
	rcv(q, 0, 0);
	ds.msg_qbytes = 10;
	ds.msg_perm.mode = 0640;
	r = msgctl(q, IPC_SET, &ds);
	int full = snd(q, 1, "0123456789", IPC_NOWAIT);	/* 11 bytes > 10 */
	const char *e_full = en(full);
	struct msqid_ds after;
	msgctl(q, IPC_STAT, &after);
	check(r == 0 && full == -1 && after.msg_qbytes == 10 && (after.msg_perm.mode & 0777) == 0640,
	      "msgctl_ipc_set_then_a_full_queue_is_eagain", "set %s, qbytes %lu, mode %o, "
	      "11 bytes: %s", en(r), (unsigned long)after.msg_qbytes, after.msg_perm.mode, e_full);
	after.msg_qbytes = 16384;
	msgctl(q, IPC_SET, &after);
	struct msginfo mi;
	int i1 = msgctl(0, IPC_INFO, (struct msqid_ds *)&mi);
	check(i1 >= 0 && mi.msgmax == 8192 && mi.msgmnb == 16384 && mi.msgmni == 32000 &&
	      mi.msgssz == 16 && mi.msgseg == 65535 && mi.msgpool == 512000 && mi.msgtql == 16384,
	      "msgctl_ipc_info_has_linux_defaults", "msgmax %d msgmnb %d msgmni %d msgssz %d "
	      "msgseg %d msgpool %d msgmap %d msgtql %d", mi.msgmax, mi.msgmnb, mi.msgmni,
	      mi.msgssz, mi.msgseg, mi.msgpool, mi.msgmap, mi.msgtql);
	snd(q, 1, "12345", 0);
	int i2 = msgctl(0, MSG_INFO, (struct msqid_ds *)&mi);
	check(i2 >= 0 && mi.msgpool == 1 && mi.msgmap == 1 && mi.msgtql == 6,
	      "msgctl_msg_info_counts_queues_messages_and_bytes", "queues %d, messages %d, bytes %d",
	      mi.msgpool, mi.msgmap, mi.msgtql);
	rcv(q, 0, 0);
}

/* A child sends (or receives) once the parent sleeps in msgrcv (msgsnd). */
static void msg_sleepers(int q)
{
	struct msgb m;
	pid_t pid = fork();
	if (pid == 0) {
		wait_asleep(getppid());
		_exit(snd(q, 4, "wake", 0) == 0 ? 0 : 1);
	}
	int r = msgrcv(q, &m, sizeof(m.mtext), 4, 0);
	check(r == 5 && m.mtype == 4 && reap(pid) == 0, "msgrcv_sleeps_until_a_message_comes",
	      "%d bytes of type %ld", r, m.mtype);
	struct msqid_ds ds;
	msgctl(q, IPC_STAT, &ds);
	ds.msg_qbytes = 8;
	msgctl(q, IPC_SET, &ds);
	snd(q, 1, "1234567", 0);	/* 8 bytes: full */
	pid = fork();
	if (pid == 0) {
		wait_asleep(getppid());
		_exit(rcv(q, 1, 0) == 1 ? 0 : 1);
	}
	r = snd(q, 2, "x", 0);
	check(r == 0 && reap(pid) == 0, "msgsnd_sleeps_until_there_is_room", "%s", en(r));
	while (snd(q, 9, "z", IPC_NOWAIT) == 0)
		;			/* full again */
	pid_t k0 = signal_me_when_asleep();
	r = snd(q, 3, "y", 0);
	check(r == -1 && errno == EINTR && reap(k0) == 0, "msgsnd_interrupted_by_a_handler_is_eintr",
	      "%s", en(r));
	while (rcv(q, 0, 0) > 0)
		;
	ds.msg_qbytes = 16384;
	msgctl(q, IPC_SET, &ds);
	pid_t k = signal_me_when_asleep();
	r = msgrcv(q, &m, sizeof(m.mtext), 0, 0);
	check(r == -1 && errno == EINTR && reap(k) == 0, "msgrcv_interrupted_by_a_handler_is_eintr",
	      "%s", en(r));
}

static int msg_as_user(int q)
{
	struct msqid_ds ds;
	int a = snd(q, 1, "x", IPC_NOWAIT) == -1 && errno == EACCES;
	int b = msgctl(q, IPC_STAT, &ds) == -1 && errno == EACCES;
	int c = msgctl(q, IPC_RMID, NULL) == -1 && errno == EPERM;
	int own = msgget(IPC_PRIVATE, 0600);
	msgctl(own, IPC_STAT, &ds);
	ds.msg_qbytes = 16385;
	int d = msgctl(own, IPC_SET, &ds) == -1 && errno == EPERM;
	msgctl(own, IPC_RMID, NULL);
	return a | b << 1 | c << 2 | d << 3;
}

static void msg_removed(void)
{
	int q = msgget(IPC_PRIVATE, 0600);
	int bits = as_user(msg_as_user, q);
	check(bits == 15, "msg_permissions_for_an_ordinary_user",
	      "send EACCES %d, stat EACCES %d, rmid EPERM %d, qbytes past msgmnb EPERM %d",
	      bits & 1, bits >> 1 & 1, bits >> 2 & 1, bits >> 3 & 1);
	pid_t pid = fork();
	if (pid == 0) {
		struct msgb m;
		int r = msgrcv(q, &m, sizeof(m.mtext), 0, 0);
		_exit(r == -1 && errno == EIDRM ? 0 : 1);
	}
	wait_asleep(pid);
	msgctl(q, IPC_RMID, NULL);
	int st = reap(pid);
	check(st == 0, "msgrcv_sleeper_gets_eidrm_when_the_queue_is_removed", "child %s",
	      st == 0 ? "EIDRM" : "other");
}

static void msgs(void)
{
	msg_gets();
	int q = msgget(IPC_PRIVATE, 0600);
	msg_types(q);
	msg_copy(q);
	msg_args(q);
	msg_stat(q);
	msg_sleepers(q);
	msgctl(q, IPC_RMID, NULL);
	msg_removed();
}

static void msgs_quiet(void)
{
	int q = msgget(IPC_PRIVATE, 0600);
	for (int i = 1; i <= 20; i++)
		snd(q, i, "leak check", 0);
	rcv(q, 3, 0);
	msgctl(q, IPC_RMID, NULL);	/* with 19 messages in it */
}

/* ---- semaphores ------------------------------------------------------------- */

static int op(int s, unsigned short num, short sop, short flg)
{
	struct sembuf b = { num, sop, flg };
	return semop(s, &b, 1);
}

static void sem_gets(void)
{
	int big = semget(IPC_PRIVATE, 32001, 0600);
	const char *e_big = en(big);
	int zero = semget(IPC_PRIVATE, 0, 0600);
	const char *e_zero = en(zero);
	int key = KEY_BASE + 10, s = semget(key, 2, IPC_CREAT | 0600);
	int more = semget(key, 3, 0600);
	const char *e_more = en(more);
	int fewer = semget(key, 1, 0600), any = semget(key, 0, 0600);
	check(big == -1 && zero == -1 && more == -1 && fewer == s && any == s,
	      "semget_counts_checked", "32001: %s, 0 new: %s, more than it has: %s, "
	      "fewer or 0: %s", e_big, e_zero, e_more, fewer == s && any == s ? "same id" : "other");
	semctl(s, 0, IPC_RMID);
}

static void sem_values(int s)
{
	int a = semctl(s, 0, SETVAL, 32768);
	const char *e_a = en(a);
	int b = semctl(s, 0, SETVAL, -1);
	const char *e_b = en(b);
	int c = semctl(s, 3, GETVAL);
	const char *e_c = en(c);
	int d = semctl(s, 0, 1234);
	check(a == -1 && b == -1 && c == -1 && d == -1 && errno == EINVAL,
	      "semctl_range_and_argument_checks", "SETVAL 32768: %s, -1: %s, GETVAL of #3: %s, "
	      "cmd 1234: %s", e_a, e_b, e_c, en(d));
	unsigned short all[3] = { 1, 2, 3 }, got[3] = { 0, 0, 0 };
	int set = semctl(s, 0, SETALL, all);
	int get = semctl(s, 0, GETALL, got);
	int v1 = semctl(s, 1, GETVAL), pid = semctl(s, 2, GETPID);
	check(set == 0 && get == 0 && got[0] == 1 && got[1] == 2 && got[2] == 3 && v1 == 2 &&
	      pid == getpid(), "semctl_setall_getall_getval_getpid",
	      "values %d %d %d, GETVAL #1 %d, GETPID ours: %s", got[0], got[1], got[2], v1,
	      pid == getpid() ? "yes" : "no");
	all[1] = 32768;
	set = semctl(s, 0, SETALL, all);
	check(set == -1 && errno == ERANGE && semctl(s, 1, GETVAL) == 2,
	      "semctl_setall_past_semvmx_is_erange_and_sets_nothing", "%s", en(set));
}

static void sem_ops(int s)
{
	unsigned short zero[3] = { 0, 0, 0 };
	semctl(s, 0, SETALL, zero);
	struct semid_ds ds;
	semctl(s, 0, IPC_STAT, &ds);
	time_t otime0 = ds.sem_otime;
	struct sembuf two[2] = { { 0, 1, 0 }, { 1, -1, IPC_NOWAIT } };
	int r = semop(s, two, 2);
	const char *e_r = en(r);
	int v0 = semctl(s, 0, GETVAL);
	check(r == -1 && v0 == 0 && otime0 == 0, "semop_all_or_nothing_nowait_is_eagain",
	      "%s, #0 still %d, sem_otime before any semop %ld", e_r, v0, (long)otime0);
	two[1].sem_op = 0;
	r = semop(s, two, 2);
	semctl(s, 0, IPC_STAT, &ds);
	check(r == 0 && semctl(s, 0, GETVAL) == 1 && ds.sem_otime != 0 && ds.sem_nsems == 3,
	      "semop_list_applies_and_sets_sem_otime", "%s, #0 now %d, nsems %lu", en(r),
	      semctl(s, 0, GETVAL), (unsigned long)ds.sem_nsems);
	int fbig = op(s, 3, 1, 0);
	const char *e_fbig = en(fbig);
	semctl(s, 2, SETVAL, 32767);
	int range = op(s, 2, 1, 0);
	const char *e_range = en(range);
	int none = semop(s, two, 0);
	const char *e_none = en(none);
	static struct sembuf many[501];
	int e2big = semop(s, many, 501);
	check(fbig == -1 && range == -1 && none == -1 && e2big == -1 && errno == E2BIG,
	      "semop_argument_checks", "sem_num 3 of 3: %s, past 32767: %s, nsops 0: %s, "
	      "nsops 501: %s", e_fbig, e_range, e_none, en(e2big));
}

static void sem_sleepers(int s)
{
	semctl(s, 0, SETVAL, 0);
	semctl(s, 1, SETVAL, 1);
	pid_t down = fork();
	if (down == 0)
		_exit(op(s, 0, -1, 0) == 0 ? 0 : 1);
	pid_t zero = fork();
	if (zero == 0)
		_exit(op(s, 1, 0, 0) == 0 ? 0 : 1);
	wait_asleep(down);
	wait_asleep(zero);
	int ncnt = semctl(s, 0, GETNCNT), zcnt = semctl(s, 1, GETZCNT);
	int ncnt1 = semctl(s, 1, GETNCNT);
	op(s, 0, 1, 0);
	op(s, 1, -1, 0);
	int a = reap(down), b = reap(zero);
	check(ncnt == 1 && zcnt == 1 && ncnt1 == 0 && a == 0 && b == 0 &&
	      semctl(s, 0, GETVAL) == 0, "sem_sleepers_counted_and_woken",
	      "GETNCNT #0 %d, GETZCNT #1 %d, GETNCNT #1 %d, both done: %s", ncnt, zcnt, ncnt1,
	      a == 0 && b == 0 ? "yes" : "no");
	struct timespec t0, t1, to = { 0, 100000000 };
	struct sembuf down1 = { 0, -1, 0 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int r = semtimedop(s, &down1, 1, &to);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	const char *e_r = en(r);
	struct timespec bad = { 0, 1000000000 };
	int inval = semtimedop(s, &down1, 1, &bad);
	check(r == -1 && ms >= 100 && inval == -1 && errno == EINVAL,
	      "semtimedop_times_out_with_eagain", "%s after 100 ms or more: %s, nsec 1e9: %s", e_r,
	      ms >= 100 ? "yes" : "no", en(inval));
	pid_t k = signal_me_when_asleep();
	r = op(s, 0, -1, 0);
	check(r == -1 && errno == EINTR && reap(k) == 0, "semop_interrupted_by_a_handler_is_eintr",
	      "%s", en(r));
}

static void sem_undo(int s)
{
	semctl(s, 0, SETVAL, 5);
	pid_t pid = fork();
	if (pid == 0) {
		struct sembuf b[2] = { { 0, -2, SEM_UNDO }, { 1, 3, SEM_UNDO } };
		semop(s, b, 2);
		_exit(semctl(s, 0, GETVAL));
	}
	int in_child = reap(pid);
	int v0 = semctl(s, 0, GETVAL), v1 = semctl(s, 1, GETVAL);
	check(in_child == 3 && v0 == 5 && v1 == 0, "sem_undo_is_undone_at_exit",
	      "child saw %d, after its exit %d and %d", in_child, v0, v1);
	pid = fork();
	if (pid == 0) {
		op(s, 0, -1, SEM_UNDO);
		semctl(s, 0, SETVAL, 2);	/* forgets the adjustment */
		_exit(0);
	}
	reap(pid);
	check(semctl(s, 0, GETVAL) == 2, "semctl_setval_clears_the_undo_adjustment", "value %d",
	      semctl(s, 0, GETVAL));
}

static int sem_as_user(int s)
{
	struct semid_ds ds;
	int a = op(s, 0, 1, IPC_NOWAIT) == -1 && errno == EACCES;
	int b = semctl(s, 0, GETVAL) == -1 && errno == EACCES;
	int c = semctl(s, 0, IPC_RMID) == -1 && errno == EPERM;
	int d = semctl(s, 0, IPC_SET, &ds) == -1 && errno == EPERM;
	return a | b << 1 | c << 2 | d << 3;
}

static void sem_removed(int s)
{
	int bits = as_user(sem_as_user, s);
	check(bits == 15, "sem_permissions_for_an_ordinary_user",
	      "semop EACCES %d, GETVAL EACCES %d, rmid EPERM %d, set EPERM %d",
	      bits & 1, bits >> 1 & 1, bits >> 2 & 1, bits >> 3 & 1);
	semctl(s, 0, SETVAL, 0);
	pid_t pid = fork();
	if (pid == 0)
		_exit(op(s, 0, -1, 0) == -1 && errno == EIDRM ? 0 : 1);
	wait_asleep(pid);
	semctl(s, 0, IPC_RMID);
	int st = reap(pid);
	check(st == 0, "semop_sleeper_gets_eidrm_when_the_array_is_removed", "child %s",
	      st == 0 ? "EIDRM" : "other");
}

static void sems(void)
{
	sem_gets();
	int s = semget(IPC_PRIVATE, 3, 0600);
	sem_values(s);
	sem_ops(s);
	sem_sleepers(s);
	sem_undo(s);
	sem_removed(s);
}

static void sems_quiet(void)
{
	int s = semget(IPC_PRIVATE, 40, 0600);
	pid_t pid = fork();
	if (pid == 0)
		_exit(op(s, 7, 2, SEM_UNDO));
	reap(pid);
	op(s, 1, 1, SEM_UNDO);
	semctl(s, 0, IPC_RMID);		/* with our undo list on it */
}

/* ---- the multiplexer's old structs and the direct calls --------------------- */

struct old_ipc_perm { int key; unsigned short uid, gid, cuid, cgid, mode, seq; };
struct old_msqid_ds {
	struct old_ipc_perm msg_perm;
	unsigned msg_first, msg_last;
	int msg_stime, msg_rtime, msg_ctime;
	unsigned msg_lcbytes, msg_lqbytes;
	unsigned short msg_cbytes, msg_qnum, msg_qbytes, msg_lspid, msg_lrpid;
};

static void entries(void)
{
	int q = (int)syscall(SYS_msgget, IPC_PRIVATE, 0640);	/* 399, direct */
	struct msgb m = { 3, "direct" };
	int s = (int)syscall(SYS_msgsnd, q, &m, 7, 0);
	memset(&m, 0, sizeof(m));
	int r = (int)syscall(SYS_msgrcv, q, &m, sizeof(m.mtext), 0, 0);
	check(q >= 0 && s == 0 && r == 7 && m.mtype == 3 && !strcmp(m.mtext, "direct"),
	      "direct_msgget_msgsnd_msgrcv_work", "send %s, receive %d bytes of type %ld", en(s), r,
	      m.mtype);
	struct old_msqid_ds old;
	memset(&old, 0xff, sizeof(old));
	r = (int)syscall(SYS_ipc, 14 /* MSGCTL */, q, IPC_STAT, 0, &old, 0);
	check(r == 0 && old.msg_qbytes == 16384 && old.msg_lqbytes == 16384 &&
	      old.msg_perm.mode == 0640 && old.msg_qnum == 0 && old.msg_first == 0,
	      "ipc_msgctl_without_ipc_64_fills_the_old_msqid_ds",
	      "%s, qbytes %u (long %u), mode %o, qnum %u", en(r), old.msg_qbytes, old.msg_lqbytes,
	      old.msg_perm.mode, old.msg_qnum);
	r = (int)syscall(SYS_ipc, 0xFF, 0, 0, 0, 0, 0);
	int e = errno;
	check(r == -1 && e == ENOSYS, "ipc_unknown_call_is_enosys", "%s", en(r));
	r = (int)syscall(SYS_msgctl, q, IPC_RMID, NULL);
	check(r == 0, "direct_msgctl_rmid", "%s", en(r));
}

/* 393, 394 (no IPC_64 in cmd: the direct calls always mean it), 420. */
static void direct_sem(void)
{
	int s = (int)syscall(SYS_semget, IPC_PRIVATE, 1, 0600);
	int with64 = (int)syscall(SYS_semctl, s, 0, GETVAL | 0x100, 0);
	const char *e64 = en(with64);
	long long ts[2] = { 0, 20000000 };
	struct sembuf down = { 0, -1, 0 };
	int t = (int)syscall(420, s, &down, 1, ts);
	const char *e_t = en(t);
	int bad = (int)syscall(420, s, &down, 1, (void *)16);
	const char *e_bad = en(bad);
	int set = (int)syscall(SYS_semctl, s, 0, SETVAL, 3);
	int val = (int)syscall(SYS_semctl, s, 0, GETVAL, 0);
	syscall(SYS_semctl, s, 0, IPC_RMID, 0);
	check(s >= 0 && with64 == -1 && t == -1 && bad == -1 && set == 0 && val == 3,
	      "direct_semget_semctl_semtimedop_time64", "cmd with IPC_64: %s, 20 ms timeout: %s, "
	      "bad timeout pointer: %s, SETVAL then GETVAL: %d", e64, e_t, e_bad, val);
}

/* ---- the limits: MSGMNI, SEMMNI, SHMMNI objects, then ENOSPC --------------- */

static int ids[32000];

/* Make objects of key base+i until get fails (at most max + 1 tries):
 * how many, and its errno; then remove them. */
static int fill(int kind, int max, int *err)
{
	int n = 0;
	for (; n < max + 1; n++) {
		int key = KEY_BASE + 0x10000 + n;
		int id = kind == 0 ? msgget(key, IPC_CREAT | IPC_EXCL | 0600)
			 : kind == 1 ? semget(key, 1, IPC_CREAT | IPC_EXCL | 0600)
			 : shmget(key, 1, IPC_CREAT | IPC_EXCL | 0600);
		if (id < 0 || n == max)
			break;
		ids[n] = id;
	}
	*err = errno;
	for (int i = 0; i < n; i++) {
		if (kind == 0)
			msgctl(ids[i], IPC_RMID, NULL);
		else if (kind == 1)
			semctl(ids[i], 0, IPC_RMID);
		else
			shmctl(ids[i], IPC_RMID, NULL);
	}
	return n;
}

static void limits(void)
{
	int em, es, eh;
	int m = fill(0, 32000, &em), s = fill(1, 32000, &es), h = fill(2, 4096, &eh);
	check(m == 32000 && em == ENOSPC && s == 32000 && es == ENOSPC && h == 4096 &&
	      eh == ENOSPC, "get_past_msgmni_semmni_shmmni_is_enospc",
	      "queues %d then %s, arrays %d then %s, segments %d then %s", m,
	      em == ENOSPC ? "ENOSPC" : "other", s, es == ENOSPC ? "ENOSPC" : "other", h,
	      eh == ENOSPC ? "ENOSPC" : "other");
}

/* ---- /proc/sys/kernel: root changes the limits and the next id ---------- */

static int put(const char *name, const char *text)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	FILE *f = fopen(path, "w");
	if (!f)
		return -errno;
	int ok = fputs(text, f) >= 0;
	int closed = fclose(f) == 0;	/* the write happens at the flush */
	return ok && closed ? 0 : -errno;
}

static void get(const char *name, char *buf, int len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	FILE *f = fopen(path, "r");
	buf[0] = 0;
	if (f && fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = 0;
	if (f)
		fclose(f);
}

static void sysctls(void)
{
	char sem[64], next[16], msgmni[16];
	int e[4] = { put("msgmni", "3"), put("msg_next_id", "-2"), put("msgmni", "32769"),
		     put("sem", "250 x") };
	int q[4];
	for (int i = 0; i < 4; i++)
		q[i] = msgget(KEY_BASE + 40 + i, IPC_CREAT | 0600);
	int e_full = errno;
	for (int i = 0; i < 3; i++)
		msgctl(q[i], IPC_RMID, NULL);
	get("msgmni", msgmni, sizeof(msgmni));
	put("msgmni", "32000");
	check(e[0] == 0 && q[2] >= 0 && q[3] == -1 && e_full == ENOSPC && !strcmp(msgmni, "3") &&
	      e[1] == -EINVAL && e[2] == -EINVAL && e[3] == -EINVAL,
	      "proc_sys_kernel_msgmni_is_the_limit_and_writes_are_checked",
	      "msgmni %s (write %s): the 3rd queue %s, the 4th %s; -2 for msg_next_id, 32769 for "
	      "msgmni, '250 x' for sem: %s %s %s", msgmni, en(e[0]), q[2] >= 0 ? "made" : "not made",
	      e_full == ENOSPC ? "ENOSPC" : "other", e[1] ? "EINVAL" : "taken",
	      e[2] ? "EINVAL" : "taken", e[3] ? "EINVAL" : "taken");
	put("msg_next_id", "12345");
	int id = msgget(IPC_PRIVATE, 0600);
	get("msg_next_id", next, sizeof(next));
	msgctl(id, IPC_RMID, NULL);
	put("sem", "250 32000 2 128");
	get("sem", sem, sizeof(sem));
	int s = semget(IPC_PRIVATE, 1, 0600);
	struct sembuf three[3] = { { 0, 1, 0 }, { 0, 1, 0 }, { 0, 1, 0 } };
	int r = semop(s, three, 3);
	const char *e_r = en(r);
	semctl(s, 0, IPC_RMID);
	put("sem", "250 10 32 128");		/* semmns 10 */
	int s10 = semget(IPC_PRIVATE, 10, 0600), s1 = semget(IPC_PRIVATE, 1, 0600);
	int e_mns = errno;
	semctl(s10, 0, IPC_RMID);
	put("sem", "32000 1024000000 500 32000");
	put("shmall", "2");			/* pages */
	int m2 = shmget(IPC_PRIVATE, 8192, 0600), m1 = shmget(IPC_PRIVATE, 1, 0600);
	int e_all = errno;
	shmctl(m2, IPC_RMID, NULL);
	put("shmall", "4278190079");
	check(s10 >= 0 && s1 == -1 && e_mns == ENOSPC && m2 >= 0 && m1 == -1 && e_all == ENOSPC,
	      "proc_sys_kernel_semmns_and_shmall_are_totals",
	      "semmns 10: 10 made, 1 more %s; shmall 2: 2 pages made, 1 more %s",
	      e_mns == ENOSPC ? "ENOSPC" : "other", e_all == ENOSPC ? "ENOSPC" : "other");
	check(id == 12345 && !strcmp(next, "-1") && !strcmp(sem, "250\t32000\t2\t128") &&
	      r == -1, "proc_sys_kernel_next_id_and_sem_take_effect",
	      "msg_next_id 12345: id %s, then %s; sem reads '%s' (tabs), 3 ops: %s",
	      id == 12345 ? "12345" : "other", next, strcmp(sem, "250\t32000\t2\t128") ? "other" :
	      "250 32000 2 128", e_r);
}

/* ---- /proc/sysvipc ---------------------------------------------------------- */

/* The first line of path, and whether a row has key and mode. */
static int proc_file(const char *path, char *head, size_t len, int key, int mode)
{
	char line[256];
	int found = 0;
	FILE *f = fopen(path, "r");
	head[0] = 0;
	if (!f)
		return -1;
	if (fgets(head, (int)len, f))
		head[strcspn(head, "\n")] = 0;
	while (fgets(line, sizeof(line), f)) {
		int k, id, m;
		if (sscanf(line, "%d %d %o", &k, &id, &m) == 3 && k == key && m == mode)
			found = 1;
	}
	fclose(f);
	return found;
}

static void procfs(void)
{
	static const char *heads[3] = {
		"       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime",
		"       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime",
		"       key      shmid perms       size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime        rss       swap",
	};
	static const char *paths[3] = { "/proc/sysvipc/msg", "/proc/sysvipc/sem", "/proc/sysvipc/shm" };
	int key = KEY_BASE + 90;
	int ids[3] = { msgget(key, IPC_CREAT | 0604), semget(key, 2, IPC_CREAT | 0604),
		       shmget(key, 100, IPC_CREAT | 0604) };
	for (int i = 0; i < 3; i++) {
		char head[256], name[64];
		int found = proc_file(paths[i], head, sizeof(head), key, 0604);
		snprintf(name, sizeof(name), "proc_sysvipc_%s_header_and_row", paths[i] + 14);
		check(found == 1 && !strcmp(head, heads[i]), name, "row %s, header %s",
		      found == 1 ? "found" : "missing", strcmp(head, heads[i]) ? "differs" : "as Linux's");
		if (strcmp(head, heads[i]))
			printf("# header: '%s'\n", head);
	}
	msgctl(ids[0], IPC_RMID, NULL);
	semctl(ids[1], 0, IPC_RMID);
	shmctl(ids[2], IPC_RMID, NULL);
}

/* ---- the leak check: every frame back --------------------------------------- */

static void one_round(void)
{
	msgs_quiet();
	sems_quiet();
}

static int make_objects(void)
{
	int q = msgget(0x1234, IPC_CREAT | 0644);
	int a = snd(q, 1, "hello", 0), b = snd(q, 2, "123456789", 0);
	int s = semget(0x2345, 3, IPC_CREAT | 0640);
	int c = op(s, 1, 2, 0);
	int id = shmget(0x3456, 5000, IPC_CREAT | 0600);
	char *p = shmat(id, NULL, 0);
	if (q < 0 || a || b || s < 0 || c || id < 0 || p == (void *)-1)
		return 1;
	memset(p, 1, 5000);
	return shmdt(p) != 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--make"))
		return make_objects();
	setvbuf(stdout, NULL, _IONBF, 0);
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGUSR1, &sa, NULL);
	printf("KTAP version 1\n1..%d\n", NTESTS);
	msgs();
	sems();
	entries();
	direct_sem();
	limits();
	sysctls();
	procfs();
	leak_check("msg_and_sem_objects_give_every_frame_back", one_round);
	if (n != NTESTS)
		printf("# %d checks, not %d\n", n, NTESTS);
	return failures != 0;
}
