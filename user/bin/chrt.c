/*
 * chrt - run a command with a scheduling policy, or show/set a task's.
 *
 *   chrt -f|-r|-b|-i|-o [PRIO] COMMAND [ARG...]   run COMMAND with that policy
 *   chrt -p PID                                   show a task's policy
 *   chrt -p [-f|-r|-b|-i|-o] PRIO PID             set it
 *
 * -f FIFO, -r RR (the default, as util-linux), -b BATCH, -i ISO, -o NORMAL
 * (OTHER).  FIFO and RR need PRIO 1..99; the others take 0 (optional).
 * After setting, chrt reads the policy back and prints what was granted:
 * on this kernel an unprivileged FIFO/RR request is granted as SCHED_ISO
 * (docs/staircase.md §7.5), not refused.  Runs on Linux too (3 is SCHED_BATCH
 * there as well; Linux has no SCHED_ISO and refuses 4 with EINVAL).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"

#include "kernel_calls.h"

static const char *policy_name(int policy)
{
	static const char *names[] = { "SCHED_NORMAL", "SCHED_FIFO", "SCHED_RR",
				       "SCHED_BATCH", "SCHED_ISO" };
	if (policy == 5)
		return "SCHED_IDLE";	/* Linux */
	return policy >= 0 && policy < 5 ? names[policy] : "SCHED_?";
}

static int usage(void)
{
	fprintf(stderr,
		"usage: chrt [-f|-r|-b|-i|-o] [PRIO] COMMAND [ARG...]\n"
		"       chrt -p PID\n"
		"       chrt -p [-f|-r|-b|-i|-o] PRIO PID\n"
		"  -f FIFO  -r RR (default)  -b BATCH  -i ISO  -o NORMAL;"
		" FIFO/RR need PRIO 1..99, the others 0\n");
	return 2;
}

static int parse_int(const char *s, int *out)
{
	return parse_int_arg(s, -2147483647L, 2147483647L, out);
}

static int is_rt(int policy) { return policy == SCHED_FIFO || policy == SCHED_RR; }

static void show(int pid)
{
	struct sched_param sp;
	struct sched_task_info t;
	struct timespec ts;
	int policy = sched_getscheduler(pid);

	if (policy >= 0)
		policy &= ~0x40000000;	/* Linux's SCHED_RESET_ON_FORK */
	if (policy < 0 || sched_getparam(pid, &sp) < 0) {
		printf("chrt: pid %d: %s\n", pid, strerror(errno));
		exit(1);
	}
	printf("pid %d's current scheduling policy: %s\n", pid,
	       policy_name(policy));
	printf("pid %d's current scheduling priority: %d\n", pid,
	       sp.sched_priority);
	if (sched_rr_get_interval(pid, &ts) == 0)
		printf("pid %d's sched_rr_get_interval: %ld ms\n", pid,
		       (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	if (sched_stat(pid, &t) == 0)
		printf("pid %d's stair (prio): %d, nice %d, burst %d of %d\n",
		       pid, t.prio, t.nice, t.burst, t.max_burst);
}

/* Set and read back; returns 0 or 1 after printing why. */
static int set(int pid, int policy, int prio, const char *who)
{
	struct sched_param sp = { .sched_priority = prio };
	int granted;

	if (sched_setscheduler(pid, policy, &sp) < 0) {
		int e = errno;
		printf("chrt: cannot set %s priority %d for %s: %s",
		       policy_name(policy), prio, who, strerror(e));
		if (e == EINVAL) {
			int lo = sched_get_priority_min(policy);
			int hi = sched_get_priority_max(policy);
			if (lo < 0 || hi < 0)
				printf(" (this kernel has no %s)", policy_name(policy));
			else
				printf(" (%s takes priority %d..%d)",
				       policy_name(policy), lo, hi);
		} else if (e == EPERM) {
			printf(" (needs root)");
		}
		printf("\n");
		return 1;
	}
	granted = sched_getscheduler(pid);
	if (granted >= 0)
		granted &= ~0x40000000;
	if (granted < 0 || sched_getparam(pid, &sp) < 0) {
		printf("chrt: reading back %s: %s\n", who, strerror(errno));
		return 1;
	}
	printf("chrt: %s: granted %s priority %d", who, policy_name(granted),
	       sp.sched_priority);
	if (granted != policy)
		printf(" (asked for %s %d%s)", policy_name(policy), prio,
		       granted == SCHED_ISO && is_rt(policy) ?
		       ": unprivileged FIFO/RR is granted as ISO here" : "");
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	int policy = -1, pflag = 0, prio = 0, i;
	char path[256], who[32];
	const char *self = argv[0], *slash = strrchr(argv[0], '/'), *name;
	size_t bindir_len = slash && slash != self ? (size_t)(slash - self) : 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (const char *o = argv[i] + 1; *o; o++) {
			switch (*o) {
			case 'f': policy = SCHED_FIFO; break;
			case 'r': policy = SCHED_RR; break;
			case 'b': policy = SCHED_BATCH; break;
			case 'i': policy = SCHED_ISO; break;
			case 'o': policy = SCHED_NORMAL; break;
			case 'p': pflag = 1; break;
			default:
				fprintf(stderr, "chrt: unknown option -%c\n", *o);
				return usage();
			}
		}
	}
	argc -= i, argv += i;	/* argv: what follows the options */
	if (argc == 0)
		return usage();

	if (pflag) {
		int pid;
		if (argc == 1 && policy < 0) {
			if (!parse_int(argv[0], &pid) || pid < 0) {
				fprintf(stderr, "chrt: bad pid '%s'\n", argv[0]);
				return usage();
			}
			show(pid);
			return 0;
		}
		if (policy < 0)
			policy = SCHED_RR;
		if (argc == 1 && !is_rt(policy))
			argc = 2, argv[1] = argv[0], argv[0] = "0";
		if (argc != 2) {
			fprintf(stderr, "chrt: -p %s\n", argc < 2 ?
				"needs PRIO and PID" : "takes one PID");
			return usage();
		}
		if (!parse_int(argv[0], &prio)) {
			fprintf(stderr, "chrt: bad priority '%s'\n", argv[0]);
			return usage();
		}
		if (!parse_int(argv[1], &pid) || pid < 0) {
			fprintf(stderr, "chrt: bad pid '%s'\n", argv[1]);
			return usage();
		}
		snprintf(who, sizeof(who), "pid %d", pid);
		return set(pid, policy, prio, who);
	}

	if (policy < 0)
		policy = SCHED_RR;
	if (argc > 0 && parse_int(argv[0], &prio))
		argc--, argv++;
	else if (is_rt(policy)) {
		fprintf(stderr, "chrt: %s needs a priority 1..99\n",
			policy_name(policy));
		return usage();
	}
	if (argc == 0) {
		fprintf(stderr, "chrt: no command given\n");
		return usage();
	}
	if (set(0, policy, prio, argv[0]))
		return 1;

	/* Programs live beside us (docs/userland.md): dirname of argv[0]. */
	if (strchr(argv[0], '/'))
		snprintf(path, sizeof(path), "%s", argv[0]);
	else
		snprintf(path, sizeof(path), "%.*s/%s", (int)(bindir_len ? bindir_len : 4),
			 bindir_len ? self : "/bin", argv[0]);
	name = argv[0];
	argv[0] = path;		/* so it finds its siblings too */
	fflush(stdout);
	execve(path, argv, environ);
	printf("chrt: %s: %s\n", name, strerror(errno));
	return 127;
}
