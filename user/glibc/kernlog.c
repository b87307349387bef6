/*
 * kernlog - the kernel log through syslog(2) (glibc's klogctl), and
 * sched_rr_get_interval_time64, in KTAP, so that tests/linux-diff.sh
 * compares this kernel's answers with Linux 6.1's (issue 45):
 *   - the log's size, its lines in Linux's syslog form "<level>[secs.us] ",
 *     a message that is there after boot, reading the last bytes only;
 *   - the errors: a bad action, a NULL buffer, a negative length, a bad
 *     console level, a user's call (EPERM: Debian's dmesg_restrict);
 *   - sched_rr_get_interval with a 64-bit timespec (423), as glibc's
 *     own wrapper calls it first.
 * What the log says differs between the kernels; only its form is printed.
 *
 * Built by make with Debian's glibc (user/user.mk).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_sched_rr_get_interval_time64
#define SYS_sched_rr_get_interval_time64 423
#endif

static int n, failures;

static void check(int ok, const char *name, const char *what)
{
	printf("%sok %d - %s # %s\n", ok ? "" : "not ", ++n, name, what);
	failures += !ok;
}

static const char *errname(int e)
{
	switch (e) {
	case 0:      return "0";
	case EINVAL: return "EINVAL";
	case EPERM:  return "EPERM";
	case EFAULT: return "EFAULT";
	case ESRCH:  return "ESRCH";
	case ENOSYS: return "ENOSYS";
	default:     return "other";
	}
}

static void check_errno(const char *name, int r, int want)
{
	char what[64];
	int got = r < 0 ? errno : 0;
	snprintf(what, sizeof(what), "returned %s", r < 0 ? errname(got) : "ok");
	check(r < 0 && got == want, name, what);
}

/* "<d>[ddddd.dddddd] " */
static int linux_prefix(const char *s)
{
	int level, sec, us, len = 0;
	return sscanf(s, "<%d>[%d.%6d]%n", &level, &sec, &us, &len) == 3 && len > 0 &&
	       level >= 0 && level < 192 && s[len] == ' ';	/* facility * 8 + level */
}

static void log_form(void)
{
	int size = klogctl(10, NULL, 0);		/* SYSLOG_ACTION_SIZE_BUFFER */
	check(size >= 4096, "size_buffer_is_a_few_kib_or_more", size > 0 ? "yes" : "no");
	char *buf = calloc(1, size + 1);
	int got = klogctl(3, buf, size);		/* SYSLOG_ACTION_READ_ALL */
	check(got > 0 && got <= size, "read_all_returns_the_log", got > 0 ? "some bytes" : "none");
	int lines = 0, good = 0;
	for (char *line = buf, *end; got > 0 && *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		lines++;
		good += linux_prefix(line);
	}
	check(lines > 0 && good == lines, "every_line_has_linuxs_level_and_time",
	      lines > 0 && good == lines ? "all of them" : "not all");
	char tail[1024];		/* more than one line: a line longer than the
				 * buffer would give 0 bytes, on Linux too */
	int t = klogctl(3, tail, sizeof(tail));
	check(t > 0 && t <= (int)sizeof(tail) && (t == 0 || tail[t - 1] == '\n'),
	      "a_short_read_all_gives_the_last_whole_lines", t > 0 ? "yes" : "none");
	int unread = klogctl(9, NULL, 0);		/* SYSLOG_ACTION_SIZE_UNREAD */
	check(unread >= 0 && unread <= size, "size_unread_is_within_the_buffer", "yes");
	free(buf);
}

static void log_errors(void)
{
	char b[16];
	check_errno("bad_action_is_einval", klogctl(99, b, sizeof(b)), EINVAL);
	check_errno("read_all_null_buffer_is_einval", klogctl(3, NULL, 16), EINVAL);
	check_errno("read_all_negative_length_is_einval", klogctl(3, b, -1), EINVAL);
	check_errno("console_level_0_is_einval", klogctl(8, NULL, 0), EINVAL);
	check_errno("console_level_9_is_einval", klogctl(8, NULL, 9), EINVAL);
	check(klogctl(3, b, 0) == 0, "read_all_of_0_bytes_is_0", "yes");
	check(klogctl(0, NULL, 0) == 0 && klogctl(1, NULL, 0) == 0, "open_and_close_are_0", "yes");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (setuid(1000) < 0)
			_exit(2);
		char c[16];
		int r1 = klogctl(3, c, sizeof(c)), e1 = errno;
		int r2 = klogctl(10, NULL, 0), e2 = errno;
		_exit(r1 < 0 && e1 == EPERM && r2 < 0 && e2 == EPERM ? 0 : 1);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a_users_syslog_is_eperm",
	      WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "EPERM" : "not EPERM");
}

static void rr_time64(void)
{
	long long ts[2] = { -1, -1 };
	struct sched_param p = { 10 };
	sched_setscheduler(0, SCHED_RR, &p);
	long r = syscall(SYS_sched_rr_get_interval_time64, 0, ts);
	check(r == 0 && ts[0] == 0 && ts[1] > 0 && ts[1] < 1000000000,
	      "rr_get_interval_time64_gives_the_quantum", r == 0 ? "a quantum under 1 s" : errname(errno));
	p.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &p);
	check_errno("rr_get_interval_time64_negative_pid_is_einval",
		    syscall(SYS_sched_rr_get_interval_time64, -1, ts), EINVAL);
	check_errno("rr_get_interval_time64_bad_buffer_is_efault",
		    syscall(SYS_sched_rr_get_interval_time64, 0, (void *)1), EFAULT);
}

int main(void)
{
	printf("KTAP version 1\n");
	log_form();
	log_errors();
	rr_time64();
	printf("1..%d\n", n);
	return failures != 0;
}
