/*
 * chrt - run a command with a scheduling policy, or show/set a task's;
 * util-linux's chrt, with our SCHED_ISO.
 *
 *   chrt [options] [PRIO] COMMAND [ARG...]   run COMMAND with that policy
 *   chrt [options] -p PID                    show a task's policy
 *   chrt [options] -p PRIO PID               set it
 *   chrt -m                                  each policy's priority range
 *
 * -f FIFO, -r RR (the default, as util-linux), -b BATCH, -o OTHER, -i ISO
 * (this project's letter: util-linux's -i is --idle, SCHED_IDLE 5, which
 * this kernel does not have), --idle, --iso.  FIFO and RR need PRIO 1..99;
 * for the others it may be left out (0), as in recent util-linux.
 *
 * After setting, chrt reads the policy back and prints what was granted:
 * on this kernel an unprivileged FIFO/RR request is granted as SCHED_ISO
 * (docs/staircase.md §7.5), not refused.  The same binary runs on Linux
 * (3 is SCHED_BATCH there too; Linux has no SCHED_ISO: EINVAL).
 * Errors: one line on stderr, status 1 (127/126 if COMMAND cannot run).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "kernel_calls.h"
#include "proclist.h"
#include "tool.h"

#define SCHED_IDLE 5			/* Linux's; not a policy here */

static const char *policy_name(int policy)
{
	const char *n = sched_policy_linux_name(policy);
	return n[0] == '?' ? "unknown" : n;
}

static int is_rt(int policy) { return policy == SCHED_FIFO || policy == SCHED_RR; }

static int usage(void)
{
	printf("Show or change the scheduling policy of a process.\n\n"
	       "Set policy:\n"
	       " chrt [options] [<priority>] <command> [<arg>...]\n"
	       " chrt [options] --pid <priority> <pid>\n\n"
	       "Get policy:\n"
	       " chrt [options] -p <pid>\n\n"
	       "Policy options:\n"
	       " -b, --batch          set policy to SCHED_BATCH\n"
	       " -f, --fifo           set policy to SCHED_FIFO\n"
	       " -i, --iso            set policy to SCHED_ISO (this kernel's; in\n"
	       "                      util-linux -i is --idle)\n"
	       "     --idle           set policy to SCHED_IDLE (Linux; refused here)\n"
	       " -o, --other          set policy to SCHED_OTHER\n"
	       " -r, --rr             set policy to SCHED_RR (default)\n\n"
	       "Scheduling options:\n"
	       " -R, --reset-on-fork  set SCHED_RESET_ON_FORK: children start as\n"
	       "                      SCHED_OTHER at nice >= 0\n\n"
	       "Other options:\n"
	       " -a, --all-tasks      all the tasks (threads) of the pid: one here\n"
	       " -m, --max            show min and max valid priorities\n"
	       " -p, --pid            operate on existing given pid\n"
	       " -v, --verbose        display status information\n"
	       " -h, --help           display this help\n\n"
	       "FIFO and RR take priority 1..99, the others 0 (may be left out).\n"
	       "Unprivileged FIFO/RR is granted as SCHED_ISO on this kernel.\n");
	return 0;
}

static int bad_usage(void)
{
	fprintf(stderr, "chrt: bad usage\n");
	return tool_try_help("chrt");
}

/* util-linux's show_min_max, with ISO after the Linux policies. */
static int show_min_max(void)
{
	static const int policies[] = { SCHED_OTHER, SCHED_FIFO, SCHED_RR,
					SCHED_BATCH, SCHED_IDLE, SCHED_ISO };

	for (unsigned i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		int p = policies[i];
		int max = sched_get_priority_max(p), min = sched_get_priority_min(p);

		if (max >= 0 && min >= 0)
			printf("%s min/max priority\t: %d/%d\n", policy_name(p),
			       min, max);
		else
			printf("%s not supported?\n", policy_name(p));
	}
	return 0;
}

/* A task's policy (SCHED_RESET_ON_FORK in *reset) and priority; 1 after
 * printing why not. */
static int get_policy(int pid, int *policy, int *prio, int *reset)
{
	struct sched_param sp;

	*policy = sched_getscheduler(pid);
	if (*policy < 0) {
		fprintf(stderr, "chrt: failed to get pid %d's policy: %s\n", pid,
			strerror(errno));
		return 1;
	}
	*reset = (*policy & SCHED_RESET_ON_FORK) != 0;
	*policy &= ~SCHED_RESET_ON_FORK;
	if (sched_getparam(pid, &sp) < 0) {
		fprintf(stderr, "chrt: failed to get pid %d's attributes: %s\n",
			pid, strerror(errno));
		return 1;
	}
	*prio = sp.sched_priority;
	return 0;
}

/* The stair line from /proc/PID/sched (docs/staircase.md, "/proc/PID/sched"):
 * only this kernel's file has a burst; Linux's has none, and no line. */
static void show_stair(int pid)
{
	char path[32], text[2048];
	long long burst;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	if (proc_read_text(path, text, sizeof(text)) <= 0 ||
	    (burst = proc_sched_field(text, "burst", -1)) < 0)
		return;
	printf("pid %d's stair (prio): %lld, nice %lld, burst %lld of %lld\n", pid,
	       proc_sched_field(text, "prio", 0), proc_sched_field(text, "static_prio", 120) - 120,
	       burst, proc_sched_field(text, "max_burst", 0));
}

/* util-linux's two lines ("current" or "new"), then what only this kernel
 * tells: the quantum or slice, and the stair. */
static int show(int pid, const char *when)
{
	struct timespec ts;
	int policy, prio, reset;

	if (get_policy(pid, &policy, &prio, &reset))
		return 1;
	printf("pid %d's %s scheduling policy: %s%s\n", pid, when, policy_name(policy),
	       reset ? "|SCHED_RESET_ON_FORK" : "");
	printf("pid %d's %s scheduling priority: %d\n", pid, when, prio);
	if (sched_rr_get_interval(pid, &ts) == 0)
		printf("pid %d's sched_rr_get_interval: %ld ms\n", pid,
		       (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	show_stair(pid);
	return 0;
}

/* The priority must be in the policy's range, and the kernel must have
 * the policy at all (no SCHED_IDLE here, no SCHED_ISO on Linux). */
static int check_prio(int policy, int prio)
{
	int min = sched_get_priority_min(policy), max = sched_get_priority_max(policy);

	if (min < 0 || max < 0) {
		fprintf(stderr, "chrt: %s not supported by this kernel (policy %d: "
			"%s)\n", policy_name(policy), policy, strerror(errno));
		return 1;
	}
	if (prio < min || prio > max) {
		fprintf(stderr, "chrt: unsupported priority value for the policy: "
			"%d: see --max for valid range\n", prio);
		return 1;
	}
	return 0;
}

/* Set, read back and say what was granted ("chrt: WHO: granted ...").
 * reset: or SCHED_RESET_ON_FORK into the policy (-R). */
static int set(int pid, int policy, int prio, int reset, const char *who)
{
	struct sched_param sp = { .sched_priority = prio };
	int granted, got, granted_reset;

	if (sched_setscheduler(pid, policy | (reset ? SCHED_RESET_ON_FORK : 0), &sp) < 0) {
		int e = errno;
		fprintf(stderr, "chrt: failed to set pid %d's policy: %s%s\n",
			pid ? pid : getpid(), strerror(e),
			e == EPERM ? " (needs root)" : "");
		return 1;
	}
	if (get_policy(pid, &granted, &got, &granted_reset))
		return 1;
	printf("chrt: %s: granted %s%s priority %d", who, policy_name(granted),
	       granted_reset ? "|SCHED_RESET_ON_FORK" : "", got);
	if (granted != policy)
		printf(" (asked for %s %d%s)", policy_name(policy), prio,
		       granted == SCHED_ISO && is_rt(policy) ?
		       ": unprivileged FIFO/RR is granted as ISO here" : "");
	printf("\n");
	return 0;
}

/* chrt [-p] PRIO PID: 0 or the status after the message. */
static int pid_mode(int argc, char **argv, int policy, int reset, int verbose)
{
	char who[32];
	int pid, prio;

	if (argc < 1 || argc > 2)
		return bad_usage();
	if (!parse_int_arg(argv[argc - 1], 0, 2147483647L, &pid)) {
		fprintf(stderr, "chrt: invalid PID argument: '%s'\n", argv[argc - 1]);
		return 1;
	}
	if (!pid)
		pid = getpid();		/* util-linux never says "pid 0" */
	if (argc == 1)
		return show(pid, "current");
	if (verbose && show(pid, "current"))
		return 1;
	if (!parse_int_arg(argv[0], -2147483647L, 2147483647L, &prio)) {
		fprintf(stderr, "chrt: invalid priority argument: '%s'\n", argv[0]);
		return 1;
	}
	if (check_prio(policy, prio))
		return 1;
	snprintf(who, sizeof(who), "pid %d", pid);
	if (set(pid, policy, prio, reset, who))
		return 1;
	return verbose ? show(pid, "new") : 0;
}

/* chrt [PRIO] COMMAND...: the priority may be left out where it is 0. */
static int command_mode(int argc, char **argv, int policy, int reset, int verbose,
			const char *self)
{
	int prio = 0;

	if (argc < 1)
		return bad_usage();
	if (parse_int_arg(argv[0], -2147483647L, 2147483647L, &prio))
		argc--, argv++;
	else if (is_rt(policy) || (argv[0][0] >= '0' && argv[0][0] <= '9') ||
		 argv[0][0] == '-') {
		fprintf(stderr, "chrt: invalid priority argument: '%s'\n", argv[0]);
		return 1;
	}
	if (argc < 1)
		return bad_usage();
	if (check_prio(policy, prio) || set(0, policy, prio, reset, argv[0]))
		return 1;
	if (verbose && show(getpid(), "new"))
		return 1;
	return tool_exec("chrt", self, argv);
}

int main(int argc, char **argv)
{
	enum { OPT_IDLE = 256 };
	static const struct tool_opt opts[] = {
		{ "all-tasks", 'a', 0 }, { "batch", 'b', 0 }, { "fifo", 'f', 0 },
		{ "iso", 'i', 0 }, { "idle", OPT_IDLE, 0 }, { "other", 'o', 0 },
		{ "rr", 'r', 0 }, { "pid", 'p', 0 }, { "max", 'm', 0 },
		{ "verbose", 'v', 0 }, { "reset-on-fork", 'R', 0 }, { "help", 'h', 0 }, { 0 },
	};
	struct tool_opts o = { "chrt", opts, argc, argv, 1, NULL, NULL };
	int policy = SCHED_RR, pflag = 0, verbose = 0, reset = 0, c;

	while ((c = tool_next_opt(&o)) != TOOL_OPTS_END) {
		switch (c) {
		case 'a': break;	/* one thread per process here */
		case 'b': policy = SCHED_BATCH; break;
		case 'f': policy = SCHED_FIFO; break;
		case 'i': policy = SCHED_ISO; break;
		case OPT_IDLE: policy = SCHED_IDLE; break;
		case 'o': policy = SCHED_OTHER; break;
		case 'r': policy = SCHED_RR; break;
		case 'p': pflag = 1; break;
		case 'v': verbose = 1; break;
		case 'R': reset = 1; break;
		case 'm': return show_min_max();
		case 'h': return usage();
		default: return tool_try_help("chrt");
		}
	}
	argc -= o.ind, argv += o.ind;	/* the operands */
	if (pflag)
		return pid_mode(argc, argv, policy, reset, verbose);
	return command_mode(argc, argv, policy, reset, verbose, o.argv[0]);
}
