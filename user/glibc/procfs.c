/*
 * procfs - /proc as Linux's tools read it, in KTAP, so that
 * tests/linux-diff.sh compares this kernel's /proc with Linux 6.1's: the
 * tree (/proc's PIDs, /proc/self as a link to the caller's directory),
 * the formats of /proc/PID/{stat,status,statm,cmdline,comm,sched} and of
 * /proc/{stat,uptime,loadavg,meminfo,version,cpuinfo,filesystems},
 * /proc/sys/kernel, and the errors (a pid that exited, writes, seeks,
 * getdents with a tiny buffer), and /proc/PID/task/TID: a process of
 * three threads, each with its own stat (its comm, its own CPU time:
 * a busy thread's grows, a blocked one's stays near 0) where /proc/PID/stat
 * sums the group's. Formats and field counts are compared,
 * not the values that differ between two kernels (times, sizes, names).
 * The staircase's tunables in /proc/sys/kernel exist only here: those
 * checks say "kernel-specific" (Linux prints SKIP there).
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o procfs user/glibc/procfs.c
 * procfs.linux.ktap beside it is its transcript on Debian's Linux 6.1 in
 * QEMU with the project's init, as tests/linux-diff.sh boots it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"	/* n, failures, check(), check_ours(), raw() */

static char text[16384];

/* The whole of a file into text[]: its length, or -errno. */
static long slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	long len = 0, k;
	if (fd < 0)
		return -errno;
	while ((k = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
		len += k;
	close(fd);
	text[len] = 0;
	return k < 0 ? -errno : len;
}

/* The value after "key:" on its line of text, or NULL. */
static const char *field(const char *key)
{
	static char val[256];
	size_t kl = strlen(key);
	for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		if (strncmp(l, key, kl) == 0 && l[kl] == ':') {
			const char *v = l + kl + 1, *e = strchr(v, '\n');
			size_t len = e ? (size_t)(e - v) : strlen(v);
			if (len >= sizeof(val))
				len = sizeof(val) - 1;
			memcpy(val, v, len);
			val[len] = 0;
			return val;
		}
	}
	return NULL;
}

/* Whitespace-separated words of s. */
static int words(const char *s)
{
	int w = 0;
	for (int in = 0; *s; s++) {
		if (isspace((unsigned char)*s))
			in = 0;
		else if (!in)
			in = 1, w++;
	}
	return w;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static void stat_checks(void)
{
	char want[64];
	long len = slurp("/proc/self/stat");
	check(len > 0 && text[len - 1] == '\n', "pid_stat_is_one_line");
	char *close_paren = strrchr(text, ')');
	check(close_paren && words(close_paren + 1) == 50, "pid_stat_has_52_fields");
	snprintf(want, sizeof(want), "%d (procfs) R %d ", getpid(), getppid());
	check(strncmp(text, want, strlen(want)) == 0, "pid_stat_pid_comm_state_ppid");
	int pid, ppid, pgrp, session, tty, tpgid;
	unsigned flags;
	check(close_paren && sscanf(close_paren + 2, "%*c %d %d %d %d %d %u", &ppid, &pgrp,
				    &session, &tty, &tpgid, &flags) == 6 &&
	      pgrp == getpgrp() && session == getsid(0), "pid_stat_pgrp_and_session");
	long prio = 0, nice = 99, threads = 0;
	check(close_paren && sscanf(close_paren + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
				    "%*u %*u %*d %*d %ld %ld %ld", &prio, &nice, &threads) == 3 &&
	      nice == 0 && threads == 1 && prio >= 0 && prio < 40, "pid_stat_priority_nice_threads");
	(void)pid;
	len = slurp("/proc/self/statm");
	check(len > 0 && words(text) == 7 && text[len - 1] == '\n', "pid_statm_has_7_fields");
	len = slurp("/proc/self/comm");
	check(len > 0 && strcmp(text, "procfs\n") == 0, "pid_comm_is_the_name");
	len = slurp("/proc/self/cmdline");
	check(len > 0 && text[len - 1] == 0 && strstr(text, "procfs"), "pid_cmdline_nul_ended_argv0");
}

static void status_checks(void)
{
	char want[32];
	check(slurp("/proc/self/status") > 0, "pid_status_reads");
	const char *v = field("Name");
	check(v && strcmp(v, "\tprocfs") == 0, "status_name");
	v = field("State");
	check(v && strcmp(v, "\tR (running)") == 0, "status_state_running");
	snprintf(want, sizeof(want), "\t%d", getpid());
	v = field("Pid");
	check(v && strcmp(v, want) == 0, "status_pid");
	snprintf(want, sizeof(want), "\t%d", getppid());
	v = field("PPid");
	check(v && strcmp(v, want) == 0, "status_ppid");
	v = field("Uid");
	check(v && strcmp(v, "\t0\t0\t0\t0") == 0, "status_uid_four_ids");
	v = field("Gid");
	check(v && words(v) == 4, "status_gid_four_ids");
	v = field("VmSize");
	check(v && v[0] == '\t' && strlen(v) == 12 && strcmp(v + 9, " kB") == 0,
	      "status_vmsize_in_kb_width_8");
	v = field("Threads");
	check(v && strcmp(v, "\t1") == 0, "status_threads_1");
	v = field("SigBlk");
	check(v && strlen(v) == 17, "status_sigblk_16_hex_digits");
	v = field("Cpus_allowed_list");
	check(v && (strcmp(v, "\t0-1") == 0 || strcmp(v, "\t0") == 0), "status_cpus_allowed_list");
	check(field("voluntary_ctxt_switches") && field("nonvoluntary_ctxt_switches"),
	      "status_ctxt_switches");
}

static void sched_checks(void)
{
	char want[64];
	check(slurp("/proc/self/sched") > 0, "pid_sched_reads");
	snprintf(want, sizeof(want), "procfs (%d, #threads: 1)\n", getpid());
	check(strncmp(text, want, strlen(want)) == 0, "pid_sched_header");
	char *l = strstr(text, "\npolicy ");
	check(l && l[46] == ':' && l[67] == '0' && l[68] == '\n', "pid_sched_policy_line_format");
	l = strstr(text, "\nprio ");
	check(l && l[46] == ':' && strchr(l + 1, '\n') - (l + 1) == 67, "pid_sched_prio_line_format");
	int here = access("/proc/sys/kernel/rr_interval", F_OK) == 0;
	check_ours(here, here && strstr(text, "\nburst ") && strstr(text, "\ntime_slice ") &&
		   strstr(text, "\nquantum "), "pid_sched_staircase_fields");
}

/* One row of /proc/PID/limits as Linux's proc_pid_limits prints it. */
static void limits_row(char *row, size_t n, const char *name, const char *unit, struct rlimit l)
{
	char soft[32], hard[32];
	if (l.rlim_cur == RLIM_INFINITY)
		snprintf(soft, sizeof(soft), "%-20s ", "unlimited");
	else
		snprintf(soft, sizeof(soft), "%-20lu ", (unsigned long)l.rlim_cur);
	if (l.rlim_max == RLIM_INFINITY)
		snprintf(hard, sizeof(hard), "%-20s ", "unlimited");
	else
		snprintf(hard, sizeof(hard), "%-20lu ", (unsigned long)l.rlim_max);
	snprintf(row, n, "%-25s %s%s%-10s\n", name, soft, hard, unit ? unit : "");
	if (!unit)		/* no unit: the line ends after the hard limit */
		snprintf(row, n, "%-25s %s%s\n", name, soft, hard);
}

/* /proc/self/limits: Linux's header, then each limit's row as getrlimit
 * gives it, in RLIMIT_* order; a changed soft limit shows at once. */
static void limits_checks(void)
{
	static const char *const names[16][2] = {
		{ "Max cpu time", "seconds" }, { "Max file size", "bytes" },
		{ "Max data size", "bytes" }, { "Max stack size", "bytes" },
		{ "Max core file size", "bytes" }, { "Max resident set", "bytes" },
		{ "Max processes", "processes" }, { "Max open files", "files" },
		{ "Max locked memory", "bytes" }, { "Max address space", "bytes" },
		{ "Max file locks", "locks" }, { "Max pending signals", "signals" },
		{ "Max msgqueue size", "bytes" }, { "Max nice priority", NULL },
		{ "Max realtime priority", NULL }, { "Max realtime timeout", "us" },
	};
	long len = slurp("/proc/self/limits");
	const char *head = "Limit                     Soft Limit           Hard Limit           Units     \n";
	check(len > 0 && strncmp(text, head, strlen(head)) == 0, "pid_limits_header");
	int lines = 0;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	check(lines == 17, "pid_limits_17_lines");
	char want[4096] = "", row[128];
	strcpy(want, head);
	for (int r = 0; r < 16; r++) {
		struct rlimit l;
		getrlimit(r, &l);
		limits_row(row, sizeof(row), names[r][0], names[r][1], l);
		strcat(want, row);
	}
	check(strcmp(text, want) == 0, "pid_limits_rows_are_getrlimit");
	struct rlimit old, l;
	getrlimit(RLIMIT_NOFILE, &old);
	l = old;
	l.rlim_cur = 512;
	setrlimit(RLIMIT_NOFILE, &l);
	slurp("/proc/self/limits");
	limits_row(row, sizeof(row), "Max open files", "files", l);
	check(strstr(text, row) != NULL, "pid_limits_follow_setrlimit");
	setrlimit(RLIMIT_NOFILE, &old);
}

static unsigned long long cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* /proc/self/schedstat: run ns, wait ns, times run; 50 ms of spinning
 * adds at least 30 ms of run time (this kernel counts it by the tick). */
static void schedstat_checks(void)
{
	unsigned long long run0 = 0, wait0 = 0, runs0 = 0, run1 = 0, wait1 = 0, runs1 = 0;
	long len = slurp("/proc/self/schedstat");
	check(len > 0 && text[len - 1] == '\n' && words(text) == 3 &&
	      sscanf(text, "%llu %llu %llu", &run0, &wait0, &runs0) == 3 && runs0 >= 1,
	      "pid_schedstat_three_numbers");
	unsigned long long t0 = cpu_ns();
	while (cpu_ns() - t0 < 50000000ull)
		;
	slurp("/proc/self/schedstat");
	check(sscanf(text, "%llu %llu %llu", &run1, &wait1, &runs1) == 3 &&
	      run1 >= run0 + 30000000ull && wait1 >= wait0 && runs1 >= runs0,
	      "pid_schedstat_run_time_grows_by_the_spin");
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", getpid());
	check(slurp(path) > 0 && words(text) == 3, "task_schedstat_reads");
}

/* A byte string of n bytes (NULs inside) equal to text's first n. */
static int text_is(const char *want, long n, long len)
{
	return len == n && memcmp(text, want, n) == 0;
}

/* cmdline and environ are read from the process's memory, as Linux's:
 * the whole argument list (past any fixed size), the environment exec
 * gave, and argv as the program has rewritten it since. */
static void args_checks(char **argv)
{
	extern char **environ;
	char want[2048];
	long n = 0;
	for (char **e = environ; *e && n + (long)strlen(*e) + 1 < (long)sizeof(want); e++) {
		memcpy(want + n, *e, strlen(*e) + 1);
		n += strlen(*e) + 1;
	}
	check(text_is(want, n, slurp("/proc/self/environ")), "pid_environ_is_the_environment");
	char *a0 = argv[0];
	char saved = a0[0];
	a0[0] = 'P';
	long len = slurp("/proc/self/cmdline");
	a0[0] = saved;
	check(len > 0 && text[0] == 'P' && strstr(text + 1, "rocfs"), "pid_cmdline_shows_a_rewritten_argv");

	/* A child whose arguments pass 128 bytes: all of them, and its environment. */
	int fd[2];
	char big[301], path[64];
	memset(big, 'x', 300);
	big[300] = 0;
	pipe(fd);
	pid_t pid = fork();
	if (pid == 0) {
		char *args[] = { "procfs", "--hold", big, NULL };
		char *env[] = { "PROCFS_TEST=1", "X=y", NULL };
		dup2(fd[1], 1);
		execve("/bin/procfs", args, env);
		_exit(127);
	}
	char c;
	close(fd[1]);
	read(fd[0], &c, 1);		/* the child is running its new program */
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	len = slurp(path);
	memcpy(want, "procfs\0--hold\0", 14);
	memcpy(want + 14, big, 301);
	check(text_is(want, 315, len), "pid_cmdline_of_315_bytes_whole");
	snprintf(path, sizeof(path), "/proc/%d/environ", pid);
	check(text_is("PROCFS_TEST=1\0X=y\0", 18, slurp(path)), "pid_environ_as_execve_gave_it");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fd[0]);
}

/* /proc/PID/cwd and root: magic links to the working and root directory. */
static void cwd_root_checks(void)
{
	char buf[64];
	long k;
	check(chdir("/bin") == 0 && (k = readlink("/proc/self/cwd", buf, sizeof(buf))) == 4 &&
	      memcmp(buf, "/bin", 4) == 0, "readlink_cwd_after_chdir");
	check((k = readlink("/proc/self/root", buf, sizeof(buf))) == 1 && buf[0] == '/',
	      "readlink_root_is_slash");
	check(access("/proc/self/cwd/procfs", X_OK) == 0, "cwd_link_leads_into_the_directory");
	chdir("/");
}

static int listed(const char *dirpath, const char *name)
{
	DIR *d = opendir(dirpath);
	struct dirent *e;
	int found = 0;
	while (d && (e = readdir(d)) != NULL)
		found |= strcmp(e->d_name, name) == 0;
	if (d)
		closedir(d);
	return found;
}

static void tree_checks(void)
{
	char me[32], buf[64];
	struct stat st;
	snprintf(me, sizeof(me), "%d", getpid());
	check(listed("/proc", me) && listed("/proc", "self") && listed("/proc", "uptime"),
	      "proc_lists_my_pid_self_and_files");
	check(listed("/proc/self", "stat") && listed("/proc/self", "status") &&
	      listed("/proc/self", "exe"), "pid_dir_lists_stat_status_exe");
	long k = readlink("/proc/self", buf, sizeof(buf) - 1);
	check(k == (long)strlen(me) && memcmp(buf, me, k) == 0, "readlink_self_is_my_pid");
	check(lstat("/proc/self", &st) == 0 && S_ISLNK(st.st_mode), "lstat_self_is_a_link");
	check(stat("/proc/self", &st) == 0 && S_ISDIR(st.st_mode), "stat_self_is_a_directory");
	check(stat("/proc/self/stat", &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0 &&
	      (st.st_mode & 07777) == 0444, "stat_of_a_proc_file_regular_0444_size_0");
	snprintf(buf, sizeof(buf), "/proc/%s/stat", me);
	check(access(buf, R_OK) == 0, "proc_pid_stat_by_number");
	check(access("/proc//self/../self/./stat", R_OK) == 0, "dotdot_and_double_slash_in_proc");
	check(raw(open("/proc/999999/stat", O_RDONLY)) == -ENOENT, "no_such_pid_enoent");
	check(raw(open("/proc/self/nosuch", O_RDONLY)) == -ENOENT, "no_such_pid_file_enoent");
	snprintf(buf, sizeof(buf), "/proc/0%s", me);
	check(raw(open(buf, O_RDONLY)) == -ENOENT, "leading_zero_pid_enoent");
	check(raw(open("/proc/self/stat/", O_RDONLY)) == -ENOTDIR, "proc_file_with_slash_enotdir");
	char cwd[64];
	snprintf(buf, sizeof(buf), "/proc/%s", me);
	check(chdir("/proc/self") == 0 && getcwd(cwd, sizeof(cwd)) && strcmp(cwd, buf) == 0 &&
	      chdir("/") == 0, "cwd_in_proc_self_is_proc_pid");
	k = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	check(k == 11 && memcmp(buf, "/bin/procfs", 11) == 0, "readlink_exe");
}

static void exited_checks(void)
{
	char path[64];
	int p[2];
	if (pipe(p) < 0)
		return;
	pid_t child = fork();
	if (child == 0) {
		char c;
		close(p[1]);
		read(p[0], &c, 1);	/* until the parent closes its end */
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/wchan", child);
	for (int tries = 0; tries < 200 && slurp(path) == 1; tries++)
		usleep(10000);	/* "0" until it sleeps in read (a loaded host is slow) */
	check(slurp(path) == 9 && strcmp(text, "pipe_read") == 0, "wchan_of_a_pipe_reader");
	check(slurp("/proc/self/wchan") == 1 && strcmp(text, "0") == 0, "wchan_of_self_running_0");
	snprintf(path, sizeof(path), "/proc/%d/stat", child);
	int fd = open(path, O_RDONLY);
	char buf[64];
	check(fd >= 0 && read(fd, buf, sizeof(buf)) > 0, "child_stat_reads");
	close(p[1]);
	close(p[0]);
	waitpid(child, NULL, 0);
	check(raw(lseek(fd, 0, SEEK_SET)) == 0 && raw(read(fd, buf, sizeof(buf))) == -ESRCH,
	      "read_after_the_pid_exited_esrch");
	close(fd);
	check(raw(open(path, O_RDONLY)) == -ENOENT, "open_after_the_pid_exited_enoent");
}

static void global_checks(void)
{
	unsigned a, b, c, d;
	char x;
	check(slurp("/proc/uptime") > 0 && sscanf(text, "%u.%2u %u.%2u%c", &a, &b, &c, &d, &x) == 5 &&
	      x == '\n' && words(text) == 2, "uptime_two_numbers_hundredths");
	unsigned run, total, last;
	check(slurp("/proc/loadavg") > 0 && sscanf(text, "%u.%2u %*u.%*2u %*u.%*2u %u/%u %u%c",
						   &a, &b, &run, &total, &last, &x) == 6 &&
	      x == '\n' && run <= total, "loadavg_format");
	check(slurp("/proc/stat") > 0 && strncmp(text, "cpu  ", 5) == 0, "stat_cpu_line_first");
	char *e = strchr(text, '\n');
	if (e)
		*e = 0;
	check(words(text) == 11, "stat_cpu_line_has_10_numbers");
	if (e)
		*e = '\n';
	check(strstr(text, "\ncpu0 ") && strstr(text, "\nctxt ") && strstr(text, "\nbtime ") &&
	      strstr(text, "\nprocesses ") && strstr(text, "\nprocs_running ") &&
	      strstr(text, "\nprocs_blocked "), "stat_has_cpu0_ctxt_btime_processes");
	check(slurp("/proc/meminfo") > 0 && strncmp(text, "MemTotal:", 9) == 0 &&
	      strchr(text, '\n') - text == 27 && strncmp(text + 24, " kB", 3) == 0,
	      "meminfo_memtotal_line_format");
	check(field("MemFree") && field("MemAvailable") && field("SwapTotal") && field("Cached"),
	      "meminfo_free_available_swap_cached");
	struct utsname u;
	uname(&u);
	char want[200];
	snprintf(want, sizeof(want), "%s version %s ", u.sysname, u.release);
	check(slurp("/proc/version") > 0 && strncmp(text, want, strlen(want)) == 0,
	      "version_names_sysname_and_release");
	check(slurp("/proc/cpuinfo") > 0 && strncmp(text, "processor\t: 0\n", 14) == 0,
	      "cpuinfo_processor_0_first");
	check(slurp("/proc/filesystems") > 0 && strstr(text, "nodev\tproc\n"),
	      "filesystems_lists_proc");
}

static void sys_checks(void)
{
	struct utsname u;
	char want[200];
	uname(&u);
	snprintf(want, sizeof(want), "%s\n", u.sysname);
	check(slurp("/proc/sys/kernel/ostype") > 0 && strcmp(text, want) == 0, "ostype_is_sysname");
	snprintf(want, sizeof(want), "%s\n", u.release);
	check(slurp("/proc/sys/kernel/osrelease") > 0 && strcmp(text, want) == 0,
	      "osrelease_is_release");
	snprintf(want, sizeof(want), "%s\n", u.nodename);
	check(slurp("/proc/sys/kernel/hostname") > 0 && strcmp(text, want) == 0,
	      "hostname_is_nodename");
	long len = slurp("/proc/sys/kernel/pid_max");
	if (len > 0)
		text[len - 1] = 0;
	check(len > 0 && all_digits(text), "pid_max_is_a_number");
	check(raw(open("/proc/sys/kernel/ostype", O_WRONLY)) == -EACCES,
	      "root_opening_a_read_only_sysctl_for_writing_eacces");
}

static long write_to(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	long r = raw(write(fd, s, strlen(s)));
	close(fd);
	return r;
}

static void write_checks(void)
{
	check(write_to("/proc/uptime", "1\n") == -EIO, "root_writing_proc_uptime_eio");
	check(write_to("/proc/self/stat", "1\n") == -EINVAL, "root_writing_pid_stat_einval");
	int fd = open("/proc/uptime", O_RDONLY);
	check(raw(write(fd, "1", 1)) == -EBADF, "writing_a_read_only_fd_ebadf");
	check(raw(lseek(fd, 0, SEEK_END)) == -EINVAL, "seek_end_einval");
	char buf[32];
	check(raw(lseek(fd, 100000, SEEK_SET)) == 100000 && read(fd, buf, sizeof(buf)) == 0,
	      "read_far_past_the_end_is_0");
	close(fd);
	fd = open("/proc", O_RDONLY | O_DIRECTORY);
	check(raw(syscall(SYS_getdents64, fd, buf, 8)) == -EINVAL, "getdents64_tiny_buffer_einval");
	close(fd);
	static char big[4096];
	fd = open("/bin", O_RDONLY | O_DIRECTORY);
	check(lseek64(fd, 0x80000002ll, SEEK_SET) == 0x80000002ll &&
	      syscall(SYS_getdents64, fd, big, sizeof(big)) == 0, "getdents64_after_a_far_seek_is_empty");
	close(fd);
	fd = open("/proc", O_RDONLY | O_DIRECTORY);
	check(raw(lseek64(fd, 0x80000002ll, SEEK_SET)) == -EINVAL && lseek(fd, 100000, SEEK_SET) == 100000 &&
	      syscall(SYS_getdents64, fd, big, sizeof(big)) == 0, "proc_dir_seek_past_2g_einval_far_seek_empty");
	close(fd);
	pid_t child = fork();
	if (child == 0) {
		if (setuid(1000) < 0)
			_exit(9);
		int a = raw(open("/proc/sys/kernel/hostname", O_WRONLY)) == -EACCES;
		int b = raw(open("/proc/uptime", O_WRONLY)) == -EACCES;
		_exit(a && b ? 0 : 1);
	}
	int st;
	waitpid(child, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "user_opening_proc_files_for_writing_eacces");
}

static void tunable_checks(void)
{
	const char *rr = "/proc/sys/kernel/rr_interval";
	int here = access(rr, F_OK) == 0;
	check_ours(here, here && write_to(rr, "20\n") == 3 && slurp(rr) == 3 &&
		   strcmp(text, "20\n") == 0, "write_rr_interval_20_reads_20");
	check_ours(here, here && write_to(rr, "abc\n") == -EINVAL &&
		   write_to(rr, "5000\n") == -EINVAL && slurp(rr) == 3 && strcmp(text, "20\n") == 0,
		   "bad_rr_interval_einval_unchanged");
	check_ours(here, here && write_to(rr, "10") == 2, "rr_interval_back_to_10");
	pid_t child = here ? fork() : -1;
	if (child == 0) {
		if (setuid(1000) < 0)
			_exit(9);
		_exit(raw(open(rr, O_WRONLY)) == -EACCES && slurp(rr) == 3 ? 0 : 1);
	}
	int st = 0;
	if (child > 0)
		waitpid(child, &st, 0);
	check_ours(here, child > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		   "user_reads_a_tunable_but_may_not_write_it");
}

/* ---- /proc/PID/task: three threads --------------------------------------- */

static volatile int busy_stop;
static pid_t busy_tid, idle_tid;
static int idle_pipe[2];

static void *busy_thread(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "busy");
	busy_tid = gettid();
	while (!busy_stop)
		;			/* on a CPU: its utime grows */
	return NULL;
}

static void *idle_thread(void *arg)
{
	char c;
	(void)arg;
	prctl(PR_SET_NAME, "idle");
	idle_tid = gettid();
	read(idle_pipe[0], &c, 1);	/* asleep until the main thread closes the pipe */
	return NULL;
}

/* utime + 100000 * stime of task TID's own stat (fields 14, 15), or -1;
 * its "TID (comm) " start checked against want_comm. */
static long tid_times(pid_t tid, const char *want_comm, unsigned *utime, unsigned *stime)
{
	char path[64], want[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	snprintf(want, sizeof(want), "%d (%s) ", tid, want_comm);
	if (slurp(path) <= 0 || strncmp(text, want, strlen(want)) != 0)
		return -1;
	const char *close_paren = strrchr(text, ')');
	return sscanf(close_paren + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %u %u",
		      utime, stime) == 2 ? 0 : -1;
}

static int count_entries(const char *dirpath, pid_t *first3)
{
	DIR *d = opendir(dirpath);
	struct dirent *e;
	int k = 0;
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (k < 3)
			first3[k] = atoi(e->d_name);
		k++;
	}
	if (d)
		closedir(d);
	return k;
}

static int same_dir(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISDIR(sa.st_mode) &&
	       sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev;
}

/* The whole group's times (/proc/self/stat) and its num_threads (field 20). */
static int group_stat(unsigned *utime, unsigned *threads)
{
	const char *close_paren = slurp("/proc/self/stat") > 0 ? strrchr(text, ')') : NULL;
	return close_paren && sscanf(close_paren + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
				     "%*u %u %*u %*d %*d %*d %*d %u", utime, threads) == 2;
}

static void task_files_checks(pid_t me)
{
	static const char *const files[] = { "stat", "status", "sched", "comm", "cmdline",
					     "environ", "statm", "maps" };
	char path[96], want[64];
	int all = 1;
	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", me, idle_tid, files[i]);
		all &= slurp(path) >= 0;
	}
	check(all, "task_tid_files_read");
	snprintf(path, sizeof(path), "/proc/self/task/%d/exe", idle_tid);
	long k = readlink(path, want, sizeof(want));
	check(k == 11 && memcmp(want, "/bin/procfs", 11) == 0, "task_tid_exe_is_the_program");
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", idle_tid);
	check(slurp(path) == 5 && strcmp(text, "idle\n") == 0, "task_tid_comm_is_the_threads");
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", idle_tid);
	snprintf(want, sizeof(want), "\t%d", me);
	const char *tgid = slurp(path) > 0 ? field("Tgid") : NULL;
	int tgid_ok = tgid && strcmp(tgid, want) == 0;
	snprintf(want, sizeof(want), "\t%d", idle_tid);
	const char *pid = field("Pid");
	check(tgid_ok && pid && strcmp(pid, want) == 0 && field("Threads") &&
	      strcmp(field("Threads"), "\t3") == 0, "task_tid_status_tgid_pid_threads");
	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", idle_tid);
	snprintf(want, sizeof(want), "idle (%d, #threads: 3)\n", idle_tid);
	check(slurp(path) > 0 && strncmp(text, want, strlen(want)) == 0, "task_tid_sched_header");
	snprintf(path, sizeof(path), "/proc/self/task/%d/task", idle_tid);
	check(raw(open(path, O_RDONLY)) == -ENOENT, "task_tid_has_no_task_dir");
	check(raw(open("/proc/self/task/1/stat", O_RDONLY)) == -ENOENT,
	      "task_of_another_group_enoent");
	snprintf(want, sizeof(want), "%d", idle_tid);
	snprintf(path, sizeof(path), "/proc/%d/stat", idle_tid);
	check(!listed("/proc", want) && access(path, R_OK) == 0, "proc_tid_found_not_listed");
}

static void task_checks(void)
{
	pthread_t busy, idle;
	pid_t me = getpid(), tids[3] = { 0 };
	unsigned u0, s0, u1, s1, iu, is, gu, threads;
	char path[96];

	check(listed("/proc/self", "task") && same_dir("/proc/self/task/..", "/proc/self"),
	      "pid_dir_lists_task_dotdot_is_pid_dir");
	if (pipe(idle_pipe) < 0 || pthread_create(&busy, NULL, busy_thread, NULL) ||
	    pthread_create(&idle, NULL, idle_thread, NULL))
		return;
	while (!busy_tid || !idle_tid)
		usleep(1000);
	check(count_entries("/proc/self/task", tids) == 3 && tids[0] == me &&
	      tids[1] == busy_tid && tids[2] == idle_tid, "task_lists_3_tids_in_order");
	check(tid_times(me, "procfs", &iu, &is) == 0 && tid_times(busy_tid, "busy", &u0, &s0) == 0 &&
	      tid_times(idle_tid, "idle", &iu, &is) == 0, "task_tid_stat_tid_and_comm");
	usleep(500000);
	check(tid_times(busy_tid, "busy", &u1, &s1) == 0 && u1 + s1 >= u0 + s0 + 10 &&
	      tid_times(idle_tid, "idle", &iu, &is) == 0 && iu + is <= 2,
	      "task_busy_utime_grows_idle_stays_near_0");
	check(group_stat(&gu, &threads) && threads == 3 && gu >= u1,
	      "pid_stat_sums_the_groups_times_3_threads");
	snprintf(path, sizeof(path), "/proc/self/task/%d/..", busy_tid);
	check(same_dir(path, "/proc/self/task"), "task_tid_dotdot_is_task");
	task_files_checks(me);
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", busy_tid);
	int fd = open(path, O_RDONLY);
	busy_stop = 1;
	pthread_join(busy, NULL);
	/* pthread_join returns at the thread's clear_child_tid, a little
	 * before Linux unhashes it: wait up to 1 s for the directory to go. */
	long err = 0;
	for (int i = 0; i < 100 && (err = raw(open(path, O_RDONLY))) >= 0; i++) {
		close((int)err);
		usleep(10000);
	}
	char buf[64];
	check(err == -ENOENT && raw(read(fd, buf, sizeof(buf))) == -ESRCH,
	      "joined_thread_task_dir_enoent_open_file_esrch");
	close(fd);
	close(idle_pipe[1]);
	pthread_join(idle, NULL);
	int left = 0;
	for (int i = 0; i < 100 && (left = count_entries("/proc/self/task", tids)) != 1; i++)
		usleep(10000);		/* the same unhashing as above */
	check(left == 1 && tids[0] == me, "task_lists_1_after_joins");
}

/* ---- SIGKILL to a process reaches every thread at once ------------------ */

static void *spin_forever(void *arg)
{
	(void)arg;
	for (;;)
		;
	return NULL;
}

static void pin_cpu0(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* A child of 4 spinning threads on CPU 0; we, FIFO on CPU 0, kill it and
 * read each thread's SigPnd before any of them can run: Linux's
 * complete_signal marks SIGKILL (bit 9) pending in every thread at once,
 * so a thread that would wait its turn behind the others is already dying. */
static void kill_checks(void)
{
	int ready[2], every = 0, threads = 0;
	char c, dir[64], path[400];
	pthread_t t;
	struct sched_param fifo = { 10 }, other = { 0 };

	pin_cpu0();
	if (pipe(ready) < 0)
		return;
	pid_t child = fork();
	if (child == 0) {
		for (int i = 0; i < 3; i++)
			pthread_create(&t, NULL, spin_forever, NULL);
		write(ready[1], "r", 1);
		spin_forever(NULL);
	}
	read(ready[0], &c, 1);
	int rt = sched_setscheduler(0, SCHED_FIFO, &fifo);
	kill(child, SIGKILL);
	snprintf(dir, sizeof(dir), "/proc/%d/task", child);
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/status", dir, e->d_name);
		threads++;
		if (slurp(path) > 0) {
			const char *v = field("SigPnd");
			every += v && strtoull(v, NULL, 16) & (1ull << (SIGKILL - 1));
		}
	}
	if (d)
		closedir(d);
	sched_setscheduler(0, SCHED_OTHER, &other);
	int status;
	waitpid(child, &status, 0);
	close(ready[0]);
	close(ready[1]);
	check(rt == 0 && threads == 4 && every == 4, "sigkill_pending_in_every_thread_at_once");
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "killed_group_reaped_as_sigkill");
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--hold") == 0) {	/* args_checks' child */
		write(1, "r", 1);
		for (;;)
			pause();
	}
	printf("KTAP version 1\n1..104\n");
	stat_checks();
	status_checks();
	sched_checks();
	limits_checks();
	schedstat_checks();
	args_checks(argv);
	tree_checks();
	cwd_root_checks();
	exited_checks();
	global_checks();
	sys_checks();
	write_checks();
	tunable_checks();
	task_checks();
	kill_checks();
	return failures ? 1 : 0;
}
