/*
 * kill - send a signal to processes, as util-linux's kill(1).
 *
 *   kill [-s SIG | -SIG] [--] PID|NAME...   send SIG (default TERM)
 *   kill -l [SIG]        the signal names; with SIG, its name (kill -l $?:
 *                        143 is TERM, 128 + 15)
 *   kill -L              the names with their numbers
 *   kill -p NAME...      print the pids a name stands for, signal nothing
 *   kill --verbose ...   say each pid before signalling it
 *
 * SIG: a name in any case, with or without SIG (TERM, term, SIGTERM), a
 * number 0..64 (0 sends nothing: it only asks whether the target exists
 * and may be signalled), or RT<N>, RTMIN+<N>, RTMAX-<N> for 34..64 (glibc's
 * SIGRTMIN is 34: it keeps 32 and 33 for its threads).  The names are the
 * user library's one table (sig_abbrev, sig_from_name in user/lib/signal.c),
 * which pkill and the shell use too: one name per number, so 29 is IO
 * (util-linux also lists the aliases IOT and POLL).
 *
 * PID: n > 0 that process; 0 the caller's process group; -1 every process
 * it may signal but init and itself; -n the process group n.  A negative
 * pid must follow a signal or "--" (kill -TERM -7, kill -- -7): before
 * them -7 is read as signal 7, as POSIX says.  What the signal then does
 * is up to the target: its handler, or the default action (terminate,
 * stop, continue or nothing: docs/kernel.md, "Signals"); the kernel refuses
 * a target we may not signal (EPERM) or that does not exist (ESRCH).
 *
 * NAME (anything that is not a number): every process whose name (its
 * /proc/PID/stat comm) is exactly NAME, kill itself excepted, found with
 * the /proc walker ps and pgrep use (user/lib/proclist.c).  util-linux's
 * -a (every user's processes, not only ours) is accepted and changes
 * nothing: the kernel refuses the ones we may not signal.
 *
 * Errors are one line on stderr naming the bad signal or pid.  Exit
 * status as util-linux: 0 every target was signalled, 1 none was (or a bad
 * command line), 64 some were.  Not here: -q (sigqueue), --timeout, -r and
 * -d, which need sigqueue, pidfds or /proc.  Typed at the shell, `kill` is
 * the shell's builtin (which also takes %N); /bin/kill is this program.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "proclist.h"

#define RTMIN 34		/* glibc's SIGRTMIN; strsignal counts from it too */
#define RTMAX (NSIG - 1)	/* 64 */
#define OUTPUT_WIDTH 72		/* util-linux's KILL_OUTPUT_WIDTH */
#define FIELD_WIDTH 11		/* "%2d %-8s" */
#define EXIT_SOMEOK 64		/* util-linux: some targets signalled, not all */

struct opts {
	int sig, have_sig, print_pid, verbose;
};

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* util-linux's warnx: "kill: ..." on stderr, one line; status 1. */
static int fail(const char *fmt, ...)
{
	char buf[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "kill: %s\n", buf);
	return 1;
}

static int usage(void)
{
	printf("Usage:\n"
	       " kill [options] <pid>|<name>...\n\n"
	       "Send a signal to processes (default TERM).\n\n"
	       "Options:\n"
	       " -s, --signal <signal>  send this <signal> instead of SIGTERM\n"
	       " -<signal>              the same: -9, -KILL, -SIGKILL, -kill\n"
	       " -p, --pid              print pids without signaling them\n"
	       " -l, --list [<signal>]  list signal names, or convert a number to a name\n"
	       " -L, --table            list signal names and numbers\n"
	       " -a, --all              accepted: names match every user's tasks here\n"
	       "     --verbose          print pids that will be signaled\n"
	       " -h, --help             display this help\n\n"
	       "<pid>: n > 0 a process, 0 our process group, -1 every process we may\n"
	       "signal, -n process group n (after a signal or --: kill -- -n).\n"
	       "<name>: every task of that name (not on Linux).\n");
	return 0;
}

/* "MIN+3", "MAX-2", "5" (after RT): 34..64, or -1. */
static int rt_signum(const char *s)
{
	int n, from_max = 0;

	if (strncmp(s, "MIN+", 4) == 0)
		s += 4;
	else if (strncmp(s, "MAX-", 4) == 0)
		s += 4, from_max = 1;
	if (*s < '0' || *s > '9' || !parse_int_arg(s, 0, RTMAX, &n))
		return -1;
	n = from_max ? RTMAX - n : RTMIN + n;
	return n >= RTMIN && n <= RTMAX ? n : -1;
}

/* A signal as util-linux reads one: a number (with mask_128, 128 + n is
 * n: kill -l $?), else a name from the one table, in any case, with or
 * without SIG.  -1 if it is neither. */
static int signum(const char *arg, int mask_128)
{
	char up[32];
	const char *s = up;
	int n;

	if (*arg >= '0' && *arg <= '9') {
		if (!parse_int_arg(arg, 0, 2147483647L, &n))
			return -1;
		if (mask_128 && n >= NSIG && (n & 128))
			n -= 128;
		return n < NSIG ? n : -1;
	}
	for (n = 0; arg[n]; n++) {
		if (n == (int)sizeof(up) - 1)
			return -1;
		up[n] = arg[n] >= 'a' && arg[n] <= 'z' ? arg[n] - 32 : arg[n];
	}
	up[n] = '\0';
	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	if (strncmp(s, "RT", 2) == 0)
		return rt_signum(s + 2);
	/* sig_from_name also takes digits and a second SIG; util-linux not. */
	if ((*s >= '0' && *s <= '9') || strncmp(s, "SIG", 3) == 0)
		return -1;
	return sig_from_name(s);
}

static void print_name(int sig)
{
	if (sig_abbrev(sig))
		printf("%s\n", sig_abbrev(sig));
	else if (sig >= RTMIN && sig <= RTMAX)
		printf("RT%d\n", sig - RTMIN);
	else
		printf("%d\n", sig);
}

/* kill -l: the names, wrapped at 72 columns on a terminal and one per line
 * otherwise (for a pipe: kill -l | grep), as util-linux 2.40. */
static int list_names(void)
{
	int tty = isatty(1), pos = 0;

	for (int sig = 1; sig_abbrev(sig); sig++) {
		const char *name = sig_abbrev(sig);
		int len = 1 + strlen(name);

		if (!tty) {
			printf("%s\n", name);
			continue;
		}
		if (pos + len > OUTPUT_WIDTH) {
			printf("\n");
			pos = 0;
		} else if (pos) {
			printf(" ");
		}
		pos += len;
		printf("%s", name);
	}
	printf(tty ? " RT<N> RTMIN+<N> RTMAX-<N>\n" : "RT<N>\nRTMIN+<N>\nRTMAX-<N>\n");
	return 0;
}

static void table_entry(int tty, int *pos, int sig, const char *name)
{
	if (tty && *pos + FIELD_WIDTH > OUTPUT_WIDTH) {
		printf("\n");
		*pos = 0;
	}
	*pos += FIELD_WIDTH;
	printf("%2d %-8s%s", sig, name, tty ? "" : "\n");
}

/* kill -L: "%2d %-8s" fields, six to a line on a terminal. */
static int list_table(void)
{
	int tty = isatty(1), pos = 0;

	for (int sig = 1; sig_abbrev(sig); sig++)
		table_entry(tty, &pos, sig, sig_abbrev(sig));
	table_entry(tty, &pos, RTMIN, "RTMIN");
	table_entry(tty, &pos, RTMAX, "RTMAX");
	if (tty)
		printf("\n");
	return 0;
}

/* kill -l SIG (SIG the last argument, or none). */
static int list(int argc, char **argv, int i)
{
	int sig;

	if (i == argc - 1)
		return list_names();
	if (i < argc - 2)
		return fail("too many arguments");
	sig = signum(argv[i + 1], 1);
	if (sig < 0)
		return fail("unknown signal: %s", argv[i + 1]);
	print_name(sig);
	return 0;
}

/* One target: 0 signalled (or printed), -1 failed (said so). */
static int send(const struct opts *o, int pid, const char *arg)
{
	if (o->verbose)
		printf("sending signal %d to pid %d\n", o->sig, pid);
	if (o->print_pid) {
		printf("%d\n", pid);
		return 0;
	}
	fflush(stdout);
	if (kill(pid, o->sig) < 0) {
		fprintf(stderr, "kill: sending signal to %s failed: %s\n", arg, strerror(errno));
		return -1;
	}
	return 0;
}

/* A name: every task called exactly that.  Adds to *targets and *errors. */
static void send_by_name(const struct opts *o, const char *name, int *targets, int *errors)
{
	struct proc_walk w;
	struct proc_info p;
	int found = 0, self = getpid();
	char pidbuf[16];

	if (proc_walk_start(&w) < 0) {
		fprintf(stderr, "kill: cannot look up \"%s\": /proc: %s\n", name, strerror(errno));
		++*targets, ++*errors;
		return;
	}
	while (proc_walk_next(&w, &p) == 1) {
		if (p.pid == self || strcmp(p.name, name) != 0)
			continue;
		snprintf(pidbuf, sizeof(pidbuf), "%d", p.pid);
		*errors += send(o, p.pid, pidbuf) < 0;
		++*targets;
		found = 1;
	}
	proc_walk_end(&w);
	if (!found) {
		fail("cannot find process \"%s\"", name);
		++*targets, ++*errors;
	}
}

/* The options, util-linux's way: one at most (and -a, -p, --verbose), a
 * word that is no option is a signal (-9, -KILL), and after a signal the
 * next word starting with '-' is a pid (a process group).  Returns the
 * index of the first target, or -(status + 1) when done or refused. */
static int parse(int argc, char **argv, struct opts *o)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-')
			break;
		if (!strcmp(a, "--"))
			return i + 1;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return -(usage() + 1);
		if (!strcmp(a, "--verbose")) {
			o->verbose = 1;
			continue;
		}
		if (!strcmp(a, "-a") || !strcmp(a, "--all"))
			continue;
		if (!strcmp(a, "-l") || !strcmp(a, "--list"))
			return -(list(argc, argv, i) + 1);
		if (!strcmp(a, "-L") || !strcmp(a, "--table"))
			return -(list_table() + 1);
		if (!strcmp(a, "-p") || !strcmp(a, "--pid")) {
			if (o->have_sig)
				return -(fail("--pid and --signal are mutually exclusive") + 1);
			o->print_pid = 1;
			continue;
		}
		if (!strcmp(a, "-s") || !strcmp(a, "--signal")) {
			if (i + 1 >= argc)
				return -(fail("not enough arguments") + 1);
			if (o->print_pid)
				return -(fail("--pid and --signal are mutually exclusive") + 1);
			o->sig = signum(argv[++i], 0);
			if (o->sig < 0)
				return -(fail("unknown signal: %s", argv[i]) + 1);
			o->have_sig = 1;
			continue;
		}
		/* -9, -KILL; or, once a signal is known, a process group. */
		if (o->have_sig)
			break;
		o->sig = signum(a + 1, 0);
		if (o->sig < 0)
			return -(fail("invalid signal name or number: %s", a + 1) + 1);
		if (o->print_pid)
			return -(fail("--pid and --signal are mutually exclusive") + 1);
		o->have_sig = 1;
	}
	return i;
}

int main(int argc, char **argv)
{
	struct opts o = { .sig = SIGTERM };
	int i = parse(argc, argv, &o), targets = 0, errors = 0;

	if (i < 0)
		return -i - 1;
	if (i >= argc)
		return fail("not enough arguments");
	for (; i < argc; i++) {
		int pid;

		if (parse_int_arg(argv[i], -2147483647L, 2147483647L, &pid)) {
			errors += send(&o, pid, argv[i]) < 0;
			targets++;
		} else {
			send_by_name(&o, argv[i], &targets, &errors);
		}
	}
	if (errors == 0)
		return 0;
	return errors == targets ? 1 : EXIT_SOMEOK;
}
