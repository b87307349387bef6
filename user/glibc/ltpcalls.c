/*
 * ltpcalls - more of what LTP's tests (make ltp, bench/results/ltp.md)
 * found missing or different here, in KTAP, so that tests/linux-diff.sh
 * compares this kernel's answers with Linux 6.1's (ltpfound has the
 * first part):
 *   - the scheduler's calls find a zombie until it is reaped
 *     (sched_setscheduler04): its policy and priority read and set, and
 *     ESRCH once reaped; /proc shows it until then (state Z, an empty
 *     cmdline, no exe), and lists it; /bin/ps shows "[name] <defunct>";
 *   - capabilities: capset's rules (permitted only shrinks, effective
 *     inside it, inheritable inside the bounding set, only the caller's
 *     own), what the privileged calls ask of the effective set (nice,
 *     kill, mlock past RLIMIT_MEMLOCK, file permissions, reboot), what
 *     setuid and exec do to the sets, PR_SET_KEEPCAPS, the bounding set
 *     (PR_CAPBSET_DROP), ambient capabilities across exec, securebits,
 *     and /proc/PID/status's Cap lines;
 *   - prctl02's list: each option's errno with CAP_SYS_ADMIN and
 *     CAP_SETPCAP dropped; PR_SET_NO_NEW_PRIVS and PR_SET_THP_DISABLE
 *     (read back, inherited, kept by exec, in status);
 *   - ioprio_set/ioprio_get (ionice): the default, a level read back,
 *     RT only with CAP_SYS_NICE or CAP_SYS_ADMIN, Linux's EINVALs, a
 *     fork inheriting it, EPERM on another user's task, a process
 *     group's best, ESRCH;
 *   - getrusage's switches and faults (GNU time's figures): a child that
 *     sleeps 5 times has 5 voluntary switches or more, two that yield to
 *     each other on one CPU 10 involuntary ones, a child touching 64 pages
 *     64 minor faults, and the parent sees them in RUSAGE_CHILDREN and
 *     wait4's rusage; /proc/PID/status counts the same; the resident
 *     size: 4 MiB untouched is not resident (VmRSS, statm), touched is,
 *     VmPeak keeps the mapped peak after munmap, Umask is the umask,
 *     munmap gives it back while VmHWM and ru_maxrss keep the peak, seen
 *     by the parent in RUSAGE_CHILDREN and wait4's ru_maxrss;
 *   - waitid (284): WNOWAIT leaving a zombie waitable, then the reap with
 *     its siginfo (CLD_EXITED, CLD_KILLED, CLD_STOPPED, CLD_CONTINUED),
 *     WNOHANG with nothing to report, P_PGID, the rusage argument, and
 *     Linux's EINVALs and ECHILD;
 *   - pipe limits (pipe15): /proc/sys/fs/pipe-max-size and
 *     pipe-user-pages-soft/-hard, F_SETPIPE_SZ past the maximum, a user
 *     past the soft limit getting 2-page pipes and past the hard one
 *     ENFILE, root held to neither, and 1,024 pipes of 64 KiB that write
 *     a whole buffer without blocking.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -O2 -o ltpcalls user/glibc/ltpcalls.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

/* ---- zombies ------------------------------------------------------------ */

/* What fn, run in a child, writes to its standard output, to its end
 * (at most len - 1 bytes); the child reaped. */
static void output_of(int (*fn)(void), char *out, size_t len)
{
	int p[2];
	pipe(p);
	pid_t c = fork();
	if (c == 0) {
		dup2(p[1], 1);
		_exit(fn());
	}
	close(p[1]);
	size_t got = 0;
	ssize_t n;
	while (got < len - 1 && (n = read(p[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = 0;
	close(p[0]);
	waitpid(c, NULL, 0);
}

/* The same, its first line only. */
static void first_line_of(int (*fn)(void), char *out, size_t len)
{
	output_of(fn, out, len);
	out[strcspn(out, "\n")] = 0;
}

static char ps_pid[16];

static int run_ps(void)
{
	execl("/bin/ps", "ps", "-o", "stat,args", "-p", ps_pid, (char *)NULL);
	return 127;
}

/* What this kernel's ps (/bin/ps, the same program on both kernels) says
 * of pid: "STAT COMMAND". */
static void ps_line(pid_t pid, char *out, size_t len)
{
	char buf[256];
	snprintf(ps_pid, sizeof(ps_pid), "%d", pid);
	output_of(run_ps, buf, sizeof(buf));
	/* past the header: the state's letter (the '+' of a foreground
	 * group depends on the terminal the test runs from) and the command */
	char *line = strchr(buf, '\n'), *cmd = line ? strchr(line + 1, '[') : NULL;
	snprintf(out, len, "%c %s", line ? line[1] : '-', cmd ? cmd : "");
	out[strcspn(out, "\n")] = 0;
}

static void zombies(void)
{
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	siginfo_t si;
	waitid(P_PID, c, &si, WEXITED | WNOWAIT);	/* a zombie now, not reaped */
	usleep(10000);			/* and off its CPU, its exit over */
	struct sched_param sp = { 0 };
	long pol = raw(sched_getscheduler(c)), gp = raw(sched_getparam(c, &sp));
	char what[96];
	snprintf(what, sizeof(what), "getscheduler %s, getparam %s prio %d", result_name(pol), result_name(gp),
		 sp.sched_priority);
	check_why(pol == SCHED_OTHER && gp == 0 && sp.sched_priority == 0,
		  "sched_calls_find_an_unreaped_zombie", what);
	sp.sched_priority = 10;
	long set = raw(sched_setscheduler(c, SCHED_RR, &sp));
	pol = raw(sched_getscheduler(c));
	snprintf(what, sizeof(what), "setscheduler %s, then %s", result_name(set), result_name(pol));
	check_why(set == 0 && pol == SCHED_RR, "setscheduler_of_a_zombie_is_kept", what);
	char path[64], buf[256], exe[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", c);
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	buf[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
	char *paren = strrchr(buf, ')');
	char state = paren ? paren[2] : '-';
	snprintf(path, sizeof(path), "/proc/%d/cmdline", c);
	fd = open(path, O_RDONLY);
	long cmdline = fd >= 0 ? raw(read(fd, buf, sizeof(buf))) : -errno;
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "/proc/%d/exe", c);
	long link = raw(readlink(path, exe, sizeof(exe)));
	bool listed = false;
	DIR *d = opendir("/proc");
	for (struct dirent *e; d && (e = readdir(d));)
		listed |= atoi(e->d_name) == c;
	if (d)
		closedir(d);
	snprintf(what, sizeof(what), "state %c, cmdline %s, exe %s, listed %s", state, result_name(cmdline),
		 result_name(link), listed ? "yes" : "no");
	check_why(!strcmp(what, "state Z, cmdline 0, exe ENOENT, listed yes"),
		  "proc_shows_a_zombie_until_it_is_reaped", what);
	ps_line(c, what, sizeof(what));
	check_why(!strcmp(what, "Z [ltpcalls] <defunct>"), "ps_shows_a_zombie_defunct", what);
	waitpid(c, NULL, 0);
	pol = raw(sched_getscheduler(c));
	snprintf(path, sizeof(path), "/proc/%d/stat", c);
	long gone = raw(access(path, F_OK));
	snprintf(what, sizeof(what), "%s, /proc/PID/stat %s", result_name(pol), result_name(gone));
	check_why(pol == -ESRCH && gone == -ENOENT, "sched_calls_and_proc_after_the_reap_are_gone", what);
}

/* ---- capabilities ------------------------------------------------------- */

struct sets { uint64_t eff, prm, inh; };

static long get_sets(struct sets *s)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	long r = raw(syscall(SYS_capget, &h, d));
	*s = (struct sets){ d[0].effective | (uint64_t)d[1].effective << 32,
			    d[0].permitted | (uint64_t)d[1].permitted << 32,
			    d[0].inheritable | (uint64_t)d[1].inheritable << 32 };
	return r;
}

static long set_sets(int pid, const struct sets *s)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, pid };
	struct __user_cap_data_struct d[2] = {
		{ (uint32_t)s->eff, (uint32_t)s->prm, (uint32_t)s->inh },
		{ (uint32_t)(s->eff >> 32), (uint32_t)(s->prm >> 32), (uint32_t)(s->inh >> 32) } };
	return raw(syscall(SYS_capset, &h, d));
}

/* Drop cap from the effective set (keep it permitted); 0 or -errno. */
static long drop_effective(int cap)
{
	struct sets s;
	get_sets(&s);
	s.eff &= ~(1ull << cap);
	return set_sets(0, &s);
}

/* A line of /proc/self/status, its value as text ("" if none). */
static const char *status(const char *key, char *out, size_t len)
{
	char line[256];
	size_t k = strlen(key);
	FILE *f = fopen("/proc/self/status", "r");
	out[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, k) && line[k] == ':') {
			snprintf(out, len, "%s", line + k + 2);
			out[strcspn(out, "\n")] = 0;
		}
	if (f)
		fclose(f);
	return out;
}

/* Run fn in a child; its exit status 0..255, or 1000 + signal. */
static int in_child(int (*fn)(void))
{
	pid_t c = fork();
	if (c == 0)
		_exit(fn());
	int st;
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

static int capset_rules(void)
{
	struct sets s, all;
	get_sets(&all);
	int bad = 0;
	s = all;
	s.eff = s.prm = all.prm & ~(1ull << CAP_SYS_NICE);
	bad |= (set_sets(0, &s) != 0) << 0;			/* drop it for good */
	s.prm = all.prm;
	bad |= (set_sets(0, &s) != -EPERM) << 1;		/* permitted may not grow */
	s.prm = s.eff = all.prm & ~(1ull << CAP_SYS_NICE);
	s.eff |= 1ull << CAP_SYS_NICE;
	bad |= (set_sets(0, &s) != -EPERM) << 2;		/* effective inside permitted */
	s.eff = s.prm;
	bad |= (set_sets(getppid(), &s) != -EPERM) << 3;	/* only our own */
	bad |= (set_sets(getpid(), &s) != 0) << 4;		/* our own pid is fine */
	bad |= (nice(-1) != -1 || errno != EPERM) << 5;		/* no CAP_SYS_NICE */
	return bad;
}

static int effective_checks(void)
{
	int bad = 0;
	int fd = open("/tmp/ltpcalls.nobody", O_CREAT | O_WRONLY, 0);	/* mode 0 */
	close(fd);
	bad |= (open("/tmp/ltpcalls.nobody", O_RDONLY) < 0) << 0;	/* DAC_OVERRIDE */
	drop_effective(CAP_DAC_OVERRIDE);
	drop_effective(CAP_DAC_READ_SEARCH);
	errno = 0;
	bad |= (open("/tmp/ltpcalls.nobody", O_RDONLY) >= 0 || errno != EACCES) << 1;
	unlink("/tmp/ltpcalls.nobody");
	struct rlimit zero = { 0, 0 };
	setrlimit(RLIMIT_MEMLOCK, &zero);
	char page[4096] __attribute__((aligned(4096)));
	bad |= (mlock(page, sizeof(page)) != 0) << 2;			/* IPC_LOCK */
	munlock(page, sizeof(page));
	drop_effective(CAP_IPC_LOCK);
	bad |= (mlock(page, sizeof(page)) != -1 || errno != EPERM) << 3;
	drop_effective(CAP_SYS_BOOT);
	bad |= (reboot(0) != -1 || errno != EPERM) << 4;		/* any command */
	return bad;
}

static int kill_needs_cap_kill(void)
{
	pid_t c = fork();
	if (c == 0) {
		setresuid(1000, 1000, 1000);
		pause();
		_exit(0);
	}
	usleep(20000);
	drop_effective(CAP_KILL);
	int bad = (kill(c, SIGKILL) != -1 || errno != EPERM) << 0;
	struct sets s;
	get_sets(&s);
	s.eff = s.prm;
	set_sets(0, &s);					/* it is still permitted */
	bad |= (kill(c, SIGKILL) != 0) << 1;
	waitpid(c, NULL, 0);
	return bad;
}

static int keepcaps(void)
{
	int bad = (prctl(PR_GET_KEEPCAPS) != 0) << 0;
	bad |= (prctl(PR_SET_KEEPCAPS, 2) != -1 || errno != EINVAL) << 1;
	bad |= (prctl(PR_SET_KEEPCAPS, 1) != 0 || prctl(PR_GET_KEEPCAPS) != 1) << 2;
	setresuid(1000, 1000, 1000);
	struct sets s;
	get_sets(&s);
	bad |= (s.eff != 0 || !(s.prm & (1ull << CAP_KILL))) << 3;	/* kept, not effective */
	s.eff = 1ull << CAP_KILL;
	bad |= (set_sets(0, &s) != 0) << 4;
	return bad;
}

static void capabilities(void)
{
	char buf[64], what[160];
	struct sets s;
	long r = get_sets(&s);
	snprintf(what, sizeof(what), "%s eff %#llx prm %#llx inh %#llx", result_name(r),
		 (unsigned long long)s.eff, (unsigned long long)s.prm, (unsigned long long)s.inh);
	check_why(r == 0 && s.eff == 0x1ffffffffffull && s.prm == s.eff && !s.inh,
		  "root_starts_with_every_capability", what);
	snprintf(what, sizeof(what), "CapEff %s", status("CapEff", buf, sizeof(buf)));
	snprintf(what + strlen(what), sizeof(what) - strlen(what), " CapBnd %s",
		 status("CapBnd", buf, sizeof(buf)));
	check_why(!strcmp(what, "CapEff 000001ffffffffff CapBnd 000001ffffffffff"),
		  "status_shows_the_sets", what);
	int st = in_child(capset_rules);
	snprintf(what, sizeof(what), "failed rules %#x", st);
	check_why(st == 0, "capset_permitted_shrinks_effective_inside_only_ours", what);
	st = in_child(effective_checks);
	snprintf(what, sizeof(what), "failed checks %#x", st);
	check_why(st == 0, "privileged_calls_read_the_effective_set", what);
	st = in_child(kill_needs_cap_kill);
	snprintf(what, sizeof(what), "failed checks %#x", st);
	check_why(st == 0, "kill_of_another_user_needs_cap_kill", what);
	st = in_child(keepcaps);
	snprintf(what, sizeof(what), "failed checks %#x", st);
	check_why(st == 0, "keepcaps_keeps_permitted_across_setuid", what);
}

/* ---- exec --------------------------------------------------------------- */

static char *self_path;

/* The child's exec of ourselves with "report": what the new program's
 * status says. */
static int report(void)
{
	char a[64], b[64], c[64], d[64], e[64];
	printf("report CapPrm %s CapEff %s CapAmb %s NoNewPrivs %s THP_enabled %s\n",
	       status("CapPrm", a, sizeof(a)), status("CapEff", b, sizeof(b)),
	       status("CapAmb", c, sizeof(c)), status("NoNewPrivs", d, sizeof(d)),
	       status("THP_enabled", e, sizeof(e)));
	return 0;
}

static void (*exec_setup)(void);

static int run_self(void)
{
	exec_setup();
	execl(self_path, "ltpcalls", "report", (char *)NULL);
	return 127;
}

/* Exec ourselves after setup; the report line, read back through a pipe. */
static void exec_report(void (*setup)(void), char *out, size_t len)
{
	exec_setup = setup;
	first_line_of(run_self, out, len);
}

static void nothing(void) { }

static void keepcaps_user(void)
{
	prctl(PR_SET_KEEPCAPS, 1);
	setresuid(1000, 1000, 1000);
}

/* setresuid clears the ambient set: raised after it, from what
 * PR_SET_KEEPCAPS kept permitted. */
static void ambient_user(void)
{
	prctl(PR_SET_KEEPCAPS, 1);
	setresuid(1000, 1000, 1000);
	struct sets s;
	get_sets(&s);
	s.inh = 1ull << CAP_SYS_NICE;
	set_sets(0, &s);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_NICE, 0, 0);
}

static void bounded_root(void)
{
	prctl(PR_CAPBSET_DROP, CAP_SYS_NICE);
}

static void flags(void)
{
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
}

static void execs(void)
{
	char out[256];
	exec_report(nothing, out, sizeof(out));
	check_why(strstr(out, "CapPrm 000001ffffffffff CapEff 000001ffffffffff CapAmb 0000000000000000") != NULL,
		  "exec_as_root_gets_every_capability", out);
	exec_report(keepcaps_user, out, sizeof(out));
	check_why(strstr(out, "CapPrm 0000000000000000 CapEff 0000000000000000") != NULL,
		  "exec_as_a_user_drops_what_keepcaps_kept", out);
	exec_report(ambient_user, out, sizeof(out));
	check_why(strstr(out, "CapPrm 0000000000800000 CapEff 0000000000800000 CapAmb 0000000000800000") != NULL,
		  "an_ambient_capability_survives_a_users_exec", out);
	exec_report(bounded_root, out, sizeof(out));
	check_why(strstr(out, "CapPrm 000001ffff7fffff CapEff 000001ffff7fffff") != NULL,
		  "a_dropped_bounding_capability_is_not_regained_by_exec", out);
	exec_report(flags, out, sizeof(out));
	check_why(strstr(out, "NoNewPrivs 1 THP_enabled 0") != NULL,
		  "exec_keeps_no_new_privs_and_thp_disable", out);
}

/* ---- prctl -------------------------------------------------------------- */

/* prctl02's cases, with CAP_SYS_ADMIN and CAP_SETPCAP dropped: each
 * option's errno, as one line "name errno ..." */
static int prctl02(void)
{
	static const struct { int opt; unsigned long a2, a3; } t[] = {
		{ 999, 1, 0 }, { PR_SET_PDEATHSIG, ~0ul, 0 }, { PR_SET_DUMPABLE, 2, 0 },
		{ PR_SET_NAME, 8, 0 }, { PR_SET_TIMING, 1, 0 },
		{ PR_SET_NO_NEW_PRIVS, 0, 0 }, { PR_SET_NO_NEW_PRIVS, 1, 1 },
		{ PR_GET_NO_NEW_PRIVS, 1, 0 }, { PR_SET_THP_DISABLE, 0, 1 },
		{ PR_GET_THP_DISABLE, 1, 1 }, { PR_CAP_AMBIENT, ~0ul, 0 },
		{ PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 1 },
		{ PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, ~0ul },
		{ PR_SET_SECUREBITS, 0, 0 }, { PR_CAPBSET_DROP, 1, 0 },
		{ PR_CAPBSET_READ, 41, 0 }, { PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_KILL },
	};
	drop_effective(CAP_SYS_ADMIN);
	drop_effective(CAP_SETPCAP);
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		printf("%s%s", i ? " " : "# prctl02 ", result_name(raw(prctl(t[i].opt, t[i].a2, t[i].a3, 0, 0))));
	printf("\n");
	return 0;
}

static void prctls(void)
{
	char out[256];
	first_line_of(prctl02, out, sizeof(out));
	check_why(!strcmp(out, "# prctl02 EINVAL EINVAL EINVAL EFAULT EINVAL EINVAL EINVAL EINVAL "
			  "EINVAL EINVAL EINVAL EINVAL EINVAL EPERM EPERM EINVAL EPERM"),
		  "prctl02_errnos_without_sys_admin_and_setpcap", out + 10);
	long r = raw(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	long thp = raw(prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0));
	long sb = raw(prctl(PR_GET_SECUREBITS)), bs = raw(prctl(PR_CAPBSET_READ, CAP_SYS_NICE));
	char what[128];
	snprintf(what, sizeof(what), "no_new_privs %s thp %s securebits %s capbset %s", result_name(r),
		 result_name(thp), result_name(sb), result_name(bs));
	check_why(r == 0 && thp == 0 && sb == 0 && bs == 1, "prctl_flags_start_clear", what);
}

/* ---- ioprio ------------------------------------------------------------- */

#define IOPRIO(class, data)	((class) << 13 | (data))
enum { WHO_PROCESS = 1, WHO_PGRP, WHO_USER };
enum { CLASS_NONE, CLASS_RT, CLASS_BE, CLASS_IDLE };

static long ioprio_set(int which, int who, int prio)
{
	return raw(syscall(SYS_ioprio_set, which, who, prio));
}

static long ioprio_get(int which, int who)
{
	return raw(syscall(SYS_ioprio_get, which, who));
}

static int rt_without_nice(void)
{
	drop_effective(CAP_SYS_NICE);
	long r1 = ioprio_set(WHO_PROCESS, 0, IOPRIO(CLASS_RT, 0));
	drop_effective(CAP_SYS_ADMIN);
	long r2 = ioprio_set(WHO_PROCESS, 0, IOPRIO(CLASS_RT, 0));
	return (r1 != 0) | (r2 != -EPERM) << 1;
}

static int inherited(void)
{
	return ioprio_get(WHO_PROCESS, 0) == IOPRIO(CLASS_BE, 3) ? 0 : 1;
}

static int other_users(void)
{
	pid_t parent = getppid();
	setresuid(1000, 1000, 1000);
	return ioprio_set(WHO_PROCESS, parent, IOPRIO(CLASS_BE, 1)) == -EPERM ? 0 : 1;
}

/* A member of the caller's group: prio set, policy, and it waits to be
 * killed. */
static pid_t member(int prio, int policy)
{
	pid_t c = fork();
	if (c == 0) {
		ioprio_set(WHO_PROCESS, 0, prio);
		struct sched_param sp = { policy == SCHED_OTHER ? 0 : 1 };
		sched_setscheduler(0, policy, &sp);
		pause();
		_exit(0);
	}
	return c;
}

/* In a group of its own: BE 3 (ours) and BE 1 give BE 1; an unset FIFO
 * member then RT 4; no such pid ESRCH. */
static int group_best(void)
{
	setpgid(0, 0);
	ioprio_set(WHO_PROCESS, 0, IOPRIO(CLASS_BE, 3));
	pid_t a = member(IOPRIO(CLASS_BE, 1), SCHED_OTHER);
	usleep(20000);
	long two = ioprio_get(WHO_PGRP, 0);
	pid_t b = member(IOPRIO(CLASS_NONE, 0), SCHED_FIFO);	/* ours is inherited */
	usleep(20000);
	long three = ioprio_get(WHO_PGRP, getpgrp()), gone = ioprio_get(WHO_PROCESS, 99999);
	long unset = ioprio_get(WHO_PROCESS, b);
	kill(a, SIGKILL), kill(b, SIGKILL);
	waitpid(a, NULL, 0), waitpid(b, NULL, 0);
	return (two != IOPRIO(CLASS_BE, 1)) | (three != IOPRIO(CLASS_RT, 4)) << 1 |
	       (gone != -ESRCH) << 2 | (unset != 0) << 3;
}

static void ioprios(void)
{
	char what[160];
	long first = ioprio_get(WHO_PROCESS, 0);
	long set = ioprio_set(WHO_PROCESS, 0, IOPRIO(CLASS_BE, 3));
	long got = ioprio_get(WHO_PROCESS, getpid());
	snprintf(what, sizeof(what), "first %s, set %s, got %s", result_name(first), result_name(set), result_name(got));
	check_why(set == 0 && got == IOPRIO(CLASS_BE, 3), "ioprio_set_be_3_reads_back", what);
	snprintf(what, sizeof(what), "BE 8 %s, class 4 %s, NONE 1 %s, IDLE 7 %s, which 0 %s, "
		 "which 4 %s", result_name(ioprio_set(WHO_PROCESS, 0, IOPRIO(CLASS_BE, 8))),
		 result_name(ioprio_set(WHO_PROCESS, 0, IOPRIO(4, 0))),
		 result_name(ioprio_set(WHO_PROCESS, 0, IOPRIO(CLASS_NONE, 1))),
		 result_name(ioprio_set(WHO_PROCESS, getpid(), IOPRIO(CLASS_IDLE, 7))),
		 result_name(ioprio_get(0, 0)), result_name(ioprio_get(4, 0)));
	check_why(!strcmp(what, "BE 8 0, class 4 EINVAL, NONE 1 EINVAL, IDLE 7 0, which 0 "
			  "EINVAL, which 4 EINVAL"), "ioprio_errors_as_linux", what);
	ioprio_set(WHO_PROCESS, 0, IOPRIO(CLASS_BE, 3));
	int rt = in_child(rt_without_nice), inh = in_child(inherited), other = in_child(other_users);
	snprintf(what, sizeof(what), "rt %#x, inherited %d, another user's %d", rt, inh, other);
	check_why(!rt && !inh && !other, "ioprio_rt_needs_sys_nice_forks_inherit_users_eperm", what);
	int st = in_child(group_best);
	snprintf(what, sizeof(what), "failed checks %#x", st);
	check_why(st == 0, "ioprio_of_a_group_is_its_best_unset_by_policy", what);
}

/* ---- getrusage ---------------------------------------------------------- */

/* 5 sleeps, 64 pages touched, then: 0, or which of its own figures is
 * short (bits). */
static int sleeper(void)
{
	for (int i = 0; i < 5; i++)
		usleep(2000);
	char *m = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < 64; i++)
		m[i * 4096] = 1;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	char buf[32];
	long vol = strtol(status("voluntary_ctxt_switches", buf, sizeof(buf)), NULL, 10);
	struct rusage th;
	getrusage(RUSAGE_THREAD, &th);
	return (ru.ru_nvcsw < 5) | (ru.ru_minflt < 64) << 1 | (vol < 5) << 2 | (th.ru_nvcsw < 5) << 3;
}

/* Yield on CPU 0 beside another yielder until 10 of its yields have
 * switched to the other, or for 2 s: 0, or 1 when they did not. */
static int yielder(void)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);
	struct rusage ru = { 0 };
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 10; i++)
			sched_yield();
		getrusage(RUSAGE_SELF, &ru);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (ru.ru_nivcsw < 10 && t.tv_sec - t0.tv_sec < 2);
	return ru.ru_nivcsw < 10;
}

/* A kB figure of /proc/self/status, read with no allocation (stdio's
 * buffers would add pages of their own between two readings). */
static char kb_buf[4096];

static long kb(const char *key)
{
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, kb_buf, sizeof(kb_buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	kb_buf[n > 0 ? n : 0] = 0;
	char *at = strstr(kb_buf, key);
	return at ? strtol(at + strlen(key) + 1, NULL, 10) : -1;
}

/* statm's resident field, in kB. */
static long statm_kb(void)
{
	int fd = open("/proc/self/statm", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, kb_buf, sizeof(kb_buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	kb_buf[n > 0 ? n : 0] = 0;
	char *sp = strchr(kb_buf, ' ');
	return sp ? strtol(sp + 1, NULL, 10) * 4 : -1;
}

/* 4 MiB mapped, untouched, then touched, then unmapped: 0, or which
 * figure is wrong (bits). Linux's counts lag by up to 64 pages of each
 * kind (a task's own counts join its process's every 64 faults; 100
 * pages were seen), so the margins are 150 pages (600 kB). */
static int resident(void)
{
	const long all = 4096, slack = 600;	/* kB */
	kb("VmRSS");				/* the buffer's pages in, first */
	long rss0 = kb("VmRSS"), size0 = kb("VmSize");
	char *m = mmap(NULL, all * 1024, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long rss1 = kb("VmRSS"), size1 = kb("VmSize");
	for (long i = 0; i < all / 4; i++)
		m[i * 4096] = 1;
	long rss2 = kb("VmRSS"), rssanon = kb("RssAnon"), statm = statm_kb();
	munmap(m, all * 1024);
	long rss3 = kb("VmRSS"), hwm = kb("VmHWM"), peak = kb("VmPeak"), size3 = kb("VmSize");
	umask(027);
	long mask = kb("Umask");		/* "0027" read as decimal 27 */
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	int bad = (peak < size1) << 10 | (size3 > size1 - all) << 11 | (mask != 27) << 12 |
	       (size1 - size0 < all) | (rss1 - rss0 > slack) << 1 | (rss2 - rss1 < all - slack) << 2 |
	       (rss2 - rss1 > all + slack) << 3 | (rssanon > rss2 + slack) << 4 |
	       (statm < rss2 - slack || statm > rss2 + slack) << 5 | (rss2 - rss3 < all - slack) << 6 |
	       (hwm < rss2 - slack) << 7 | (ru.ru_maxrss < rss2 - slack) << 8 | (rss0 <= 0) << 9;
	return bad < 0x80 ? bad : 0x80 | bad >> 8;	/* an exit status: 8 bits */
}

static void rusages(void)
{
	char what[160];
	struct rusage before, after, w4;
	getrusage(RUSAGE_CHILDREN, &before);
	pid_t c = fork();
	if (c == 0)
		_exit(sleeper());
	int st;
	wait4(c, &st, 0, &w4);
	getrusage(RUSAGE_CHILDREN, &after);
	bool own = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	bool kids = after.ru_nvcsw - before.ru_nvcsw >= 5 && after.ru_minflt - before.ru_minflt >= 64;
	bool waited = w4.ru_nvcsw >= 5 && w4.ru_minflt >= 64;
	snprintf(what, sizeof(what), "its own %s, RUSAGE_CHILDREN %s, wait4's %s",
		 own ? "yes" : "short", kids ? "yes" : "short", waited ? "yes" : "short");
	check_why(own && kids && waited, "getrusage_counts_sleeps_and_faults", what);
	pid_t a = fork();
	if (a == 0)
		_exit(yielder());
	pid_t b = fork();
	if (b == 0)
		_exit(yielder());
	int sa, sb;
	waitpid(a, &sa, 0), waitpid(b, &sb, 0);
	bool both = WIFEXITED(sa) && !WEXITSTATUS(sa) && WIFEXITED(sb) && !WEXITSTATUS(sb);
	check_why(both, "getrusage_counts_yields_to_another_as_involuntary", both ? "yes" : "short");
	getrusage(RUSAGE_CHILDREN, &before);
	pid_t r = fork();
	if (r == 0)
		_exit(resident());
	wait4(r, &st, 0, &w4);
	getrusage(RUSAGE_CHILDREN, &after);
	snprintf(what, sizeof(what), "failed checks %#x, wait4's maxrss %s, RUSAGE_CHILDREN's %s",
		 WIFEXITED(st) ? WEXITSTATUS(st) : 0xfff, w4.ru_maxrss >= 4096 ? "ok" : "short",
		 after.ru_maxrss >= 4096 && after.ru_maxrss >= before.ru_maxrss ? "ok" : "short");
	check_why(!strcmp(what, "failed checks 0, wait4's maxrss ok, RUSAGE_CHILDREN's ok"),
		  "resident_size_counts_touched_pages_and_keeps_the_peak", what);
}

/* ---- waitid ------------------------------------------------------------- */

/* The siginfo as text: "code status pid-is-c". */
static void info_text(const siginfo_t *si, pid_t c, char *out, size_t len)
{
	static const char *codes[] = { "0", "CLD_EXITED", "CLD_KILLED", "CLD_DUMPED", "CLD_TRAPPED",
				       "CLD_STOPPED", "CLD_CONTINUED" };
	snprintf(out, len, "%s %s %d %s", si->si_signo == SIGCHLD ? "SIGCHLD" : "0",
		 si->si_code >= 0 && si->si_code <= 6 ? codes[si->si_code] : "?", si->si_status,
		 si->si_pid == c ? "pid" : si->si_pid ? "other" : "0");
}

static void waitids(void)
{
	char what[200], a[48], b[48];
	siginfo_t si;
	pid_t c = fork();
	if (c == 0)
		_exit(3);
	memset(&si, 0x55, sizeof(si));
	long r1 = raw(waitid(P_PID, c, &si, WEXITED | WNOWAIT));
	info_text(&si, c, a, sizeof(a));
	long alive = raw(kill(c, 0));		/* a zombie until reaped */
	struct rusage ru;
	memset(&si, 0x55, sizeof(si));
	long r2 = raw(syscall(SYS_waitid, P_PID, c, &si, WEXITED, &ru));
	info_text(&si, c, b, sizeof(b));
	snprintf(what, sizeof(what), "%s: %s, kill 0 %s; %s: %s, then %s", result_name(r1), a, result_name(alive),
		 result_name(r2), b, result_name(raw(waitid(P_PID, c, &si, WEXITED))));
	check_why(r1 == 0 && alive == 0 && r2 == 0 && si.si_uid == 0,
		  "waitid_wnowait_leaves_a_zombie_then_reaps_it", what);

	c = fork();
	if (c == 0) {
		for (;;)
			pause();
	}
	memset(&si, 0x55, sizeof(si));
	long nohang = raw(waitid(P_ALL, 0, &si, WEXITED | WNOHANG));
	info_text(&si, c, a, sizeof(a));
	kill(c, SIGSTOP);
	waitid(P_PID, c, &si, WSTOPPED);
	info_text(&si, c, b, sizeof(b));
	snprintf(what, sizeof(what), "nohang %s %s; stopped %s", result_name(nohang), a, b);
	kill(c, SIGCONT);
	waitid(P_PID, c, &si, WCONTINUED);
	info_text(&si, c, a, sizeof(a));
	snprintf(what + strlen(what), sizeof(what) - strlen(what), "; %s", a);
	kill(c, SIGKILL);
	waitid(P_PGID, 0, &si, WEXITED);
	info_text(&si, c, a, sizeof(a));
	snprintf(what + strlen(what), sizeof(what) - strlen(what), "; %s", a);
	check_why(!strcmp(what, "nohang 0 0 0 0 0; stopped SIGCHLD CLD_STOPPED 19 pid; "
			  "SIGCHLD CLD_CONTINUED 18 pid; SIGCHLD CLD_KILLED 9 pid"),
		  "waitid_reports_stops_continues_and_kills", what);

	snprintf(what, sizeof(what), "no options %s, P_PID 0 %s, P_PGID -1 %s, idtype 7 %s, "
		 "unknown option %s, no child %s",
		 result_name(raw(waitid(P_ALL, 0, &si, 0))), result_name(raw(waitid(P_PID, 0, &si, WEXITED))),
		 result_name(raw(waitid(P_PGID, -1, &si, WEXITED))),
		 result_name(raw(syscall(SYS_waitid, 7, 0, &si, WEXITED, NULL))),
		 result_name(raw(waitid(P_ALL, 0, &si, WEXITED | 0x100))),
		 result_name(raw(waitid(P_ALL, 0, &si, WEXITED))));
	check_why(!strcmp(what, "no options EINVAL, P_PID 0 EINVAL, P_PGID -1 EINVAL, idtype 7 EINVAL, "
			  "unknown option EINVAL, no child ECHILD"), "waitid_errors_as_linux", what);
}

/* ---- pipes -------------------------------------------------------------- */

static long sysctl(const char *name, long set)
{
	char path[96], buf[32];
	snprintf(path, sizeof(path), "/proc/sys/fs/%s", name);
	int fd = open(path, set < 0 ? O_RDONLY : O_WRONLY);
	if (fd < 0)
		return -errno;
	long v = 0;
	if (set < 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = 0;
		v = strtol(buf, NULL, 10);
	} else {
		int n = snprintf(buf, sizeof(buf), "%ld\n", set);
		v = write(fd, buf, n) == n ? 0 : -errno;
	}
	close(fd);
	return v;
}

/* As user 1000: the sizes of 4 new pipes, then F_SETPIPE_SZ of the
 * first to 2 MiB and to 128 KiB. */
static int user_pipes(void)
{
	setresuid(1000, 1000, 1000);
	int p[4][2];
	for (int i = 0; i < 4; i++) {
		if (pipe(p[i]) < 0)
			printf("%s%s", i ? " " : "# pipes ", result_name(-errno));
		else
			printf("%s%d", i ? " " : "# pipes ", fcntl(p[i][1], F_GETPIPE_SZ));
	}
	printf(" setpipe %s", result_name(raw(fcntl(p[0][1], F_SETPIPE_SZ, 2 << 20))));
	printf(" %s\n", result_name(raw(fcntl(p[0][1], F_SETPIPE_SZ, 128 << 10))));
	return 0;
}

/* pipe15: as many 64 KiB pipes as the soft limit allows, and the last
 * one takes a whole buffer and one byte more after a read. */
static void many_pipes(void)
{
	long soft = sysctl("pipe-user-pages-soft", -1);
	int count = (int)(soft * 4096 / 65536);
	struct rlimit nfd = { 4096, 4096 };
	setrlimit(RLIMIT_NOFILE, &nfd);
	int *fds = malloc(sizeof(int) * 2 * count), made = 0;
	while (made < count && pipe(fds + 2 * made) == 0)
		made++;
	char *buf = malloc(65536);
	memset(buf, 'p', 65536);
	int *last = fds + 2 * (made - 1), size = fcntl(last[1], F_GETPIPE_SZ);
	fcntl(last[1], F_SETFL, O_NONBLOCK);
	bool ok = write(last[1], buf, size) == size && read(last[0], buf, size - 1) == size - 1 &&
		  write(last[1], buf, 1) == 1;
	char what[96];
	snprintf(what, sizeof(what), "%d of %d pipes, the last of %d bytes", made, count, size);
	check_why(made == count && count == 1024 && size == 65536 && ok,
		  "root_makes_1024_pipes_of_64k_within_the_soft_limit", what);
	for (int i = 0; i < 2 * made; i++)
		close(fds[i]);
	free(fds);
	free(buf);
}

static void pipes(void)
{
	char what[160];
	snprintf(what, sizeof(what), "max %ld hard %ld soft %ld", sysctl("pipe-max-size", -1),
		 sysctl("pipe-user-pages-hard", -1), sysctl("pipe-user-pages-soft", -1));
	check_why(!strcmp(what, "max 1048576 hard 0 soft 16384"), "pipe_sysctls_start_as_linux", what);
	long w1 = sysctl("pipe-max-size", 5000), v1 = sysctl("pipe-max-size", -1);
	sysctl("pipe-max-size", 1048576);
	snprintf(what, sizeof(what), "write 5000 %s reads %ld", result_name(w1), v1);
	check_why(w1 == 0 && v1 == 8192, "pipe_max_size_is_rounded_to_pages_power_of_two", what);
	many_pipes();
	int p[2];
	pipe(p);
	long big = raw(fcntl(p[1], F_SETPIPE_SZ, 2 << 20)), huge = raw(fcntl(p[1], F_SETPIPE_SZ, 0x80000001u));
	snprintf(what, sizeof(what), "2 MiB %s, past 2 GiB %s", result_name(big), result_name(huge));
	check_why(big == 2 << 20 && huge == -EINVAL, "root_may_pass_pipe_max_size", what);
	close(p[0]), close(p[1]);
	sysctl("pipe-user-pages-soft", 20);
	sysctl("pipe-user-pages-hard", 20);
	first_line_of(user_pipes, what, sizeof(what));
	sysctl("pipe-user-pages-soft", 16384);
	sysctl("pipe-user-pages-hard", 0);
	check_why(!strcmp(what, "# pipes 65536 8192 8192 ENFILE setpipe EPERM EPERM"),
		  "a_user_past_the_soft_limit_gets_2_pages_past_the_hard_none", what + 2);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "report"))
		return report();
	self_path = "/proc/self/exe";
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..33\n");
	zombies();
	capabilities();
	execs();
	prctls();
	ioprios();
	rusages();
	waitids();
	pipes();
	return failures != 0;
}
