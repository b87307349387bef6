/*
 * clonevm - processes that share what clone's flags say (Linux's
 * copy_process: CLONE_VM, CLONE_FILES, CLONE_FS, CLONE_SIGHAND, and
 * vfork), in KTAP, so that tests/linux-diff.sh compares this kernel's
 * answers with Linux 6.1's:
 *   - CLONE_VM: each one's writes are the other's; /proc/PID/maps is one
 *     text for both; an exec gives the child an address space of its own
 *     and leaves the parent's as it was; whichever exits first, the other
 *     goes on in the memory; a private futex is one word for both, and
 *     another word in a forked child; CLONE_CHILD_CLEARTID zeroes and
 *     wakes the parent's word, CLONE_PARENT_SETTID is seen by the child
 *     (LTP's clone08);
 *   - CLONE_FILES: a close and an open in the child are the parent's;
 *     CLONE_FS: so are chdir and umask; CLONE_SIGHAND: so is sigaction
 *     (LTP's clone02); an exec in a child that shares handlers and files
 *     leaves the parent's as they were; with no flag, each is a copy; a
 *     thread made without CLONE_FILES and CLONE_FS has its own (clone08);
 *   - vfork and CLONE_VM|CLONE_VFORK: the child's writes are the parent's,
 *     which waits for its exit (LTP's clone05) or exec;
 *   - unshare in such a child: EINVAL for its memory or handlers, a table
 *     of its own for CLONE_FILES;
 *   - and, this kernel's own check, no frame kept by any of it.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o clonevm user/glibc/clonevm.c
 * With "--exit N" as its arguments it exits N at once (what the children
 * exec).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "asleep.h"
#include "ktap.h"

#define NR_FREE_FRAMES	505		/* this kernel's own (include/uapi/unistd.h) */
#define STACK_SIZE	(64 * 1024)

/* The children's stacks: in the memory a CLONE_VM child shares. */
static char stacks[2][STACK_SIZE] __attribute__((aligned(16)));
static const char *self;		/* argv[0]: what the children exec */

static pid_t spawn(int (*fn)(void *), void *arg, int flags, int stack, pid_t *ptid, pid_t *ctid)
{
	fflush(stdout);			/* a copied buffer would print twice */
	return clone(fn, stacks[stack] + STACK_SIZE, flags, arg, ptid, NULL, ctid);
}

/* The child's exit status; 128 + its signal if one ended it; -1 if none. */
static int reap(pid_t pid)
{
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Until *w holds value, for up to 5 s; whether it came. */
static int wait_for(volatile int *w, int value)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (*w == value)
			return 1;
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 5);
	return *w == value;
}

static long futex(volatile int *uaddr, int op, int val, const struct timespec *t)
{
	return raw(syscall(SYS_futex, uaddr, op, val, t, NULL, 0));
}

/* The child execs this program, which exits code. */
static void exec_exit(const char *code)
{
	char *argv[] = { (char *)self, "--exit", (char *)code, NULL };
	execv(self, argv);
	_exit(127);
}

/* A heap block the parent fills before a child runs and checks after. */
#define PATTERN_BYTES	(3 * 4096)
static unsigned char *pattern_new(void)
{
	unsigned char *p = malloc(PATTERN_BYTES);
	for (int i = 0; p && i < PATTERN_BYTES; i++)
		p[i] = (unsigned char)(i * 7);
	return p;
}

static int pattern_intact(unsigned char *p)
{
	int ok = p != NULL;
	for (int i = 0; ok && i < PATTERN_BYTES; i++)
		ok = p[i] == (unsigned char)(i * 7);
	free(p);
	return ok;
}

/* New memory touched page by page: the address space still works. */
static int memory_works(void)
{
	size_t len = 256 * 1024;
	char *p = malloc(len);
	if (!p)
		return 0;
	memset(p, 'm', len);
	int ok = p[0] == 'm' && p[len - 1] == 'm';
	free(p);
	return ok;
}

/* ---- CLONE_VM ------------------------------------------------------------ */

static volatile int parent_word, child_word;

static int vm_child(void *arg)
{
	(void)arg;
	child_word = 1;				/* the parent waits for this */
	return wait_for(&parent_word, 2) ? 0 : 1;	/* and writes this */
}

static void vm_checks(void)
{
	char what[128];
	parent_word = 1;
	child_word = 0;
	pid_t pid = spawn(vm_child, NULL, CLONE_VM | SIGCHLD, 0, NULL, NULL);
	int saw = wait_for(&child_word, 1);
	parent_word = 2;
	int st = reap(pid);
	snprintf(what, sizeof(what), "the parent saw the child's write: %s, the child exited %d",
		 saw ? "yes" : "no", st);
	check_why(pid > 0 && saw && st == 0, "clone_vm_parent_and_child_see_each_others_writes",
		  what);
	check(memory_works(), "clone_vm_parent_goes_on_after_its_child_exits");
}

static int blocked_child(void *arg)
{
	char c;
	return read(*(int *)arg, &c, 1) == 1 ? 0 : 1;	/* until the parent writes */
}

/* /proc/PID/NAME's text, NUL-ended, in buf; its length or -1. */
static int read_text(pid_t pid, const char *name, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	int fd = open(path, O_RDONLY), n = 0, got;
	if (fd < 0)
		return -1;
	while ((got = read(fd, buf + n, len - 1 - n)) > 0)
		n += got;
	close(fd);
	buf[n] = 0;
	return n;
}

static char maps_parent[8192], maps_child[8192];

static void maps_checks(void)
{
	int p[2];
	if (pipe(p) < 0)
		p[0] = p[1] = -1;
	pid_t pid = spawn(blocked_child, &p[0], CLONE_VM | SIGCHLD, 0, NULL, NULL);
	char stat[64];
	snprintf(stat, sizeof(stat), "/proc/%d/stat", (int)pid);
	wait_stat_asleep(stat);
	/* a region made after the clone is the child's too */
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int a = read_text(getpid(), "maps", maps_parent, sizeof(maps_parent));
	int b = read_text(pid, "maps", maps_child, sizeof(maps_child));
	write(p[1], "x", 1);
	int st = reap(pid);
	close(p[0]);
	close(p[1]);
	munmap(m, 4096);
	check(m != MAP_FAILED && a > 0 && a == b && strcmp(maps_parent, maps_child) == 0 && st == 0,
	      "proc_maps_of_a_clone_vm_child_are_its_parents");
}

static int exec_child(void *arg)
{
	(void)arg;
	child_word = 5;
	exec_exit("5");
	return 1;
}

static void exec_checks(void)
{
	char what[128];
	unsigned char *kept = pattern_new();
	child_word = 0;
	pid_t pid = spawn(exec_child, NULL, CLONE_VM | SIGCHLD, 0, NULL, NULL);
	int st = reap(pid);
	int intact = pattern_intact(kept), works = memory_works();
	snprintf(what, sizeof(what), "exit %d, the child's write seen: %s, the parent's memory %s",
		 st, child_word == 5 ? "yes" : "no", intact && works ? "intact" : "broken");
	check_why(st == 5 && child_word == 5 && intact && works,
		  "clone_vm_child_exec_leaves_the_parents_memory", what);
}

/* The process that clone(CLONE_VM) made goes on after its parent's exit:
 * a subreaper (run in a child of ours) adopts and reaps it. */
static volatile int left_by_parent;

static int orphan_child(void *arg)
{
	pid_t subreaper = (pid_t)(intptr_t)arg;
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (getppid() != subreaper) {		/* until the parent is gone */
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= 5)
			return 1;
	}
	return left_by_parent == 7 && memory_works() ? 0 : 2;
}

/* In a child of ours, a subreaper: its child clones and exits at once;
 * the orphan's exit status, as the subreaper saw it. */
static int orphan_status(void)
{
	fflush(stdout);
	pid_t reaper = fork();
	if (reaper == 0) {
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		pid_t me = getpid(), parent = fork();
		if (parent == 0) {
			left_by_parent = 0;
			pid_t c = spawn(orphan_child, (void *)(intptr_t)me, CLONE_VM | SIGCHLD, 1,
					NULL, NULL);
			left_by_parent = 7;	/* the orphan reads it once we are gone */
			_exit(c > 0 ? 0 : 1);
		}
		int pst = reap(parent), st;
		int cst = wait(&st) > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : 99;
		_exit(pst == 0 ? cst : 98);
	}
	return reap(reaper);
}

static void orphan_checks(void)
{
	char what[64];
	int st = orphan_status();
	snprintf(what, sizeof(what), "the orphan exited %d", st);
	check_why(st == 0, "clone_vm_child_goes_on_after_its_parent_exits", what);
}

/* ---- futexes --------------------------------------------------------------- */

static volatile int futex_word;

static int futex_child(void *arg)
{
	struct timespec t = { (long)(intptr_t)arg, 300 * 1000 * 1000 };
	long r = futex(&futex_word, FUTEX_WAIT_PRIVATE, 0, &t);
	return r == 0 ? 0 : r == -ETIMEDOUT ? 1 : 2;
}

/* A child that sleeps on futex_word (private); how many a wake woke, and
 * how it ended. */
static void futex_round(int flags, long secs, long *woke, int *st)
{
	char stat[64];
	futex_word = 0;
	pid_t pid = spawn(futex_child, (void *)(intptr_t)secs, flags, 0, NULL, NULL);
	snprintf(stat, sizeof(stat), "/proc/%d/stat", (int)pid);
	wait_stat_asleep(stat);
	if (flags & CLONE_VM)
		futex_word = 1;
	*woke = futex(&futex_word, FUTEX_WAKE_PRIVATE, 1, NULL);
	*st = reap(pid);
}

static void futex_checks(void)
{
	char what[64];
	long woke;
	int st;
	futex_round(CLONE_VM | SIGCHLD, 5, &woke, &st);
	snprintf(what, sizeof(what), "woke %ld, the child's wait %s", woke,
		 st == 0 ? "returned 0" : st == 1 ? "timed out" : "failed");
	check_why(woke == 1 && st == 0, "private_futex_wake_reaches_a_clone_vm_child", what);
	futex_round(SIGCHLD, 0, &woke, &st);
	snprintf(what, sizeof(what), "woke %ld, the child's wait %s", woke,
		 st == 0 ? "returned 0" : st == 1 ? "timed out" : "failed");
	check_why(woke == 0 && st == 1, "private_futex_of_a_forked_child_is_another_word", what);
}

static int quick_child(void *arg)
{
	(void)arg;
	return 0;
}

static pid_t ptid;

static int settid_child(void *arg)
{
	(void)arg;
	return ptid == syscall(SYS_getpid) ? 0 : 1;
}

static void tid_checks(void)
{
	char what[96];
	volatile pid_t ctid = 77;
	pid_t pid = spawn(quick_child, NULL, CLONE_VM | CLONE_CHILD_CLEARTID | SIGCHLD, 0, NULL,
			  (pid_t *)&ctid);
	struct timespec t = { 5, 0 };
	long r = futex((volatile int *)&ctid, FUTEX_WAIT, 77, &t);
	int cleared = ctid == 0;
	int st = reap(pid);
	snprintf(what, sizeof(what), "the wait %s, the word %s",
		 r == 0 || r == -EAGAIN ? "ended" : "timed out", cleared ? "0" : "kept");
	check_why(pid > 0 && (r == 0 || r == -EAGAIN) && cleared && st == 0,
		  "clone_vm_child_cleartid_zeroes_and_wakes_the_parents_word", what);
	ptid = 0;
	pid = spawn(settid_child, NULL, CLONE_PARENT_SETTID | CLONE_VM | SIGCHLD, 0, &ptid, NULL);
	st = reap(pid);
	check(pid > 0 && st == 0 && ptid == pid, "clone_vm_parent_settid_is_seen_by_the_child");
}

/* ---- CLONE_FILES, CLONE_FS, CLONE_SIGHAND ----------------------------------- */

static int fd_parent;
static volatile int handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

/* What clone02's child does: open a descriptor, close the parent's,
 * chdir, umask, a handler; its exit status: the descriptor it opened. */
static int changes_child(void *arg)
{
	(void)arg;
	struct sigaction sa = { .sa_handler = on_usr1 };
	int fd = open("/", O_RDONLY);
	if (fd < 0 || close(fd_parent) != 0 || chdir("/tmp") != 0 ||
	    sigaction(SIGUSR1, &sa, NULL) != 0)
		return 255;
	umask(027);
	return fd;
}

/* What the parent sees of the child's changes: 4 bits, FILES (its
 * descriptor closed and the child's open), FS (cwd and umask), SIGHAND. */
static int changes_seen(int flags, char *what, size_t len)
{
	char cwd[64] = "";
	struct sigaction sa;
	handled = 0;
	fd_parent = open("/", O_RDONLY);
	mode_t old = umask(022);
	pid_t pid = spawn(changes_child, NULL, flags | SIGCHLD, 0, NULL, NULL);
	int newfd = reap(pid);
	int closed = fcntl(fd_parent, F_GETFD) < 0 && errno == EBADF;
	int opened = newfd >= 0 && newfd < 255 && fcntl(newfd, F_GETFD) >= 0;
	getcwd(cwd, sizeof(cwd));
	mode_t mask = umask(old);
	sigaction(SIGUSR1, NULL, &sa);
	int caught = sa.sa_handler == on_usr1 && raise(SIGUSR1) == 0 && handled == 1;
	snprintf(what, len, "descriptor %s, child's open %s, cwd %s, umask %03o, handler %s",
		 closed ? "closed" : "open", opened ? "seen" : "not seen", cwd, (unsigned)mask,
		 caught ? "the child's" : "the parent's");
	if (opened)
		close(newfd);
	if (!closed)
		close(fd_parent);
	chdir("/");
	signal(SIGUSR1, SIG_DFL);
	return (closed && opened) | (!strcmp(cwd, "/tmp") && mask == 027) << 1 | caught << 2;
}

static void sharing_checks(void)
{
	char what[160];
	int seen = changes_seen(CLONE_FILES, what, sizeof(what));
	check_why(seen == 1, "clone_files_close_and_open_are_the_parents", what);
	seen = changes_seen(CLONE_FS, what, sizeof(what));
	check_why(seen == 2, "clone_fs_chdir_and_umask_are_the_parents", what);
	seen = changes_seen(CLONE_VM | CLONE_SIGHAND, what, sizeof(what));
	check_why(seen == 4, "clone_sighand_sigaction_is_the_parents", what);
	seen = changes_seen(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND, what, sizeof(what));
	check_why(seen == 7, "clone_vm_fs_files_sighand_share_all_four", what);
	seen = changes_seen(0, what, sizeof(what));
	check_why(seen == 0, "clone_with_no_flag_copies_each", what);
	long r = raw(syscall(SYS_clone, CLONE_SIGHAND | SIGCHLD, 0, NULL, NULL, NULL));
	if (r == 0)
		_exit(0);
	check_why(r == -EINVAL, "clone_sighand_without_vm_is_einval", r == -EINVAL ? "EINVAL" : "taken");
}

static volatile int cloexec_fd;

static void on_usr2(int sig)
{
	(void)sig;
}

static int exec_shared_child(void *arg)
{
	(void)arg;
	exec_exit("6");
	return 1;
}

/* A child sharing handlers and files execs: its handlers are reset and
 * its close-on-exec descriptors closed in copies of its own. */
static void exec_shared_checks(void)
{
	char what[128];
	struct sigaction sa = { .sa_handler = on_usr2 }, now;
	sigaction(SIGUSR2, &sa, NULL);
	int fd = open("/", O_RDONLY | O_CLOEXEC);
	pid_t pid = spawn(exec_shared_child, NULL,
			  CLONE_VM | CLONE_FILES | CLONE_SIGHAND | SIGCHLD, 0, NULL, NULL);
	int st = reap(pid);
	sigaction(SIGUSR2, NULL, &now);
	int kept = now.sa_handler == on_usr2, open_still = fcntl(fd, F_GETFD) == FD_CLOEXEC;
	snprintf(what, sizeof(what), "exit %d, the parent's handler %s, its descriptor %s", st,
		 kept ? "kept" : "reset", open_still ? "open" : "closed");
	check_why(st == 6 && kept && open_still,
		  "exec_in_a_child_sharing_handlers_and_files_leaves_the_parents", what);
	close(fd);
	signal(SIGUSR2, SIG_DFL);
}

/* A thread made without CLONE_FILES and CLONE_FS (LTP's clone08): its
 * close and chdir are its own; it is of the caller's process; its exit
 * clears and wakes the caller's word. */
static volatile int thread_tgid_ok;

static int own_files_thread(void *arg)
{
	thread_tgid_ok = syscall(SYS_getpid) == (long)(intptr_t)arg;
	if (syscall(SYS_close, fd_parent) != 0 || syscall(SYS_chdir, "/tmp") != 0)
		thread_tgid_ok = 0;
	syscall(SYS_exit, 0);			/* the thread only */
	return 0;
}

/* One such thread, until its exit; whether all was so, and what was seen. */
static int thread_round(char *what, size_t len)
{
	char cwd[64] = "";
	volatile pid_t ctid = -1;
	fd_parent = open("/", O_RDONLY);
	thread_tgid_ok = 0;
	long r = spawn(own_files_thread, (void *)(intptr_t)getpid(),
		       CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_CHILD_CLEARTID | SIGCHLD, 0,
		       NULL, (pid_t *)&ctid) > 0 ? 0 : -1;
	struct timespec t = { 5, 0 };
	while (r == 0 && ctid != 0 && (r = futex((volatile int *)&ctid, FUTEX_WAIT, ctid, &t)) != -ETIMEDOUT)
		r = 0;
	int open_still = fcntl(fd_parent, F_GETFD) >= 0;
	getcwd(cwd, sizeof(cwd));
	snprintf(what, len, "descriptor %s, cwd %s, same process: %s, exit %s",
		 open_still ? "open" : "closed", cwd, thread_tgid_ok ? "yes" : "no",
		 ctid == 0 ? "woke the word" : "not seen");
	close(fd_parent);
	chdir("/");
	return open_still && !strcmp(cwd, "/") && thread_tgid_ok && ctid == 0;
}

static void thread_checks(void)
{
	char what[160];
	int ok = thread_round(what, sizeof(what));
	check_why(ok, "thread_without_clone_files_or_fs_has_its_own", what);
}

/* ---- vfork ---------------------------------------------------------------- */

static volatile int vfork_word, clone05_exited;

static int clone05_child(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10; i++) {
		sched_yield();
		usleep(1000);
	}
	clone05_exited = 1;
	_exit(0);
}

static void vfork_checks(void)
{
	char what[128];
	vfork_word = 0;
	fflush(stdout);
	pid_t pid = vfork();
	if (pid == 0) {
		vfork_word = 42;		/* the parent's memory, lent */
		_exit(3);
	}
	int st = reap(pid);
	snprintf(what, sizeof(what), "exit %d, the word %d", st, vfork_word);
	check_why(st == 3 && vfork_word == 42, "vfork_child_writes_are_the_parents", what);

	unsigned char *kept = pattern_new();
	vfork_word = 0;
	fflush(stdout);
	pid = vfork();
	if (pid == 0) {
		vfork_word = 43;		/* as posix_spawn reports a failed exec */
		exec_exit("4");
	}
	st = reap(pid);
	int intact = pattern_intact(kept);
	snprintf(what, sizeof(what), "exit %d, the word %d, the parent's memory %s", st,
		 vfork_word, intact && memory_works() ? "intact" : "broken");
	check_why(st == 4 && vfork_word == 43 && intact, "vfork_child_write_then_exec_leaves_the_parent",
		  what);

	clone05_exited = 0;
	pid = spawn(clone05_child, NULL, CLONE_VM | CLONE_VFORK | SIGCHLD, 0, NULL, NULL);
	int waited = clone05_exited;		/* read before any wait */
	st = reap(pid);
	snprintf(what, sizeof(what), "the child had exited when clone returned: %s, exit %d",
		 waited ? "yes" : "no", st);
	check_why(pid > 0 && waited && st == 0, "clone_vm_vfork_parent_waits_for_the_child", what);
}

/* ---- unshare in a child that shares ------------------------------------------ */

static volatile long unshared_vm, unshared_sighand, unshared_files;

static int unshare_child(void *arg)
{
	(void)arg;
	unshared_vm = raw(syscall(SYS_unshare, CLONE_VM));
	unshared_sighand = raw(syscall(SYS_unshare, CLONE_SIGHAND));
	unshared_files = raw(syscall(SYS_unshare, CLONE_FILES));
	return close(fd_parent) == 0 ? 0 : 1;	/* its own copy's */
}

static const char *ename(long r)
{
	return r == 0 ? "0" : r == -EINVAL ? "EINVAL" : r == -ENOMEM ? "ENOMEM" : "other";
}

static void unshare_checks(void)
{
	char what[160];
	fd_parent = open("/", O_RDONLY);
	pid_t pid = spawn(unshare_child, NULL, CLONE_VM | CLONE_FILES | CLONE_SIGHAND | SIGCHLD, 0,
			  NULL, NULL);
	int st = reap(pid);
	int still = fcntl(fd_parent, F_GETFD) >= 0;
	snprintf(what, sizeof(what), "CLONE_VM %s, CLONE_SIGHAND %s, CLONE_FILES %s, the parent's "
		 "descriptor %s", ename(unshared_vm), ename(unshared_sighand), ename(unshared_files),
		 still ? "open" : "closed");
	check_why(st == 0 && unshared_vm == -EINVAL && unshared_sighand == -EINVAL &&
		  unshared_files == 0 && still, "unshare_in_a_child_that_shares", what);
	close(fd_parent);
}

/* ---- frames ------------------------------------------------------------------ */

/* Each way a process may share or lend its memory, once, in a child of
 * ours: what it shared goes with it too. */
static void leak_round(void)
{
	char what[160];
	fflush(stdout);
	pid_t worker = fork();
	if (worker != 0) {
		reap(worker);
		return;
	}
	parent_word = 2;
	reap(spawn(vm_child, NULL, CLONE_VM | SIGCHLD, 0, NULL, NULL));
	for (int i = 0; i < 128; i++) {		/* a small object kept would fill a page */
		pid_t pid = fork();
		if (pid == 0)
			_exit(reap(spawn(quick_child, NULL, CLONE_VM | CLONE_FS | CLONE_FILES |
					 CLONE_SIGHAND | SIGCHLD, 0, NULL, NULL)));
		reap(pid);
	}
	changes_seen(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND, what, sizeof(what));
	thread_round(what, sizeof(what));
	reap(spawn(exec_child, NULL, CLONE_VM | SIGCHLD, 0, NULL, NULL));
	fflush(stdout);
	pid_t pid = vfork();
	if (pid == 0)
		exec_exit("0");
	reap(pid);
	orphan_status();
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--exit") == 0)
		return atoi(argv[2]);
	self = argv[0];
	printf("KTAP version 1\n1..22\n");
	vm_checks();
	maps_checks();
	exec_checks();
	orphan_checks();
	futex_checks();
	tid_checks();
	sharing_checks();
	exec_shared_checks();
	thread_checks();
	vfork_checks();
	unshare_checks();
	int here = syscall(NR_FREE_FRAMES) > 0;
	leak_round();
	long before = here ? syscall(NR_FREE_FRAMES) : 0;
	leak_round();
	long after = here ? syscall(NR_FREE_FRAMES) : 0;
	check_ours(here, before == after, "sharing_and_lending_keep_no_frame");
	if (here && before != after)
		printf("# free frames before %ld, after %ld\n", before, after);
	return failures != 0;
}
