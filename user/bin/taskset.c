/*
 * taskset - run a command on some CPUs, or show/set a task's CPU affinity;
 * util-linux's taskset.
 *
 *   taskset MASK COMMAND [ARG...]        run COMMAND on the CPUs of MASK
 *   taskset -c LIST COMMAND [ARG...]     the same with a list: 0,2-3
 *   taskset -p PID                       pid N's current affinity mask: 3
 *   taskset -p MASK PID                  set it (prints current and new)
 *   taskset -cp [LIST] PID               the same in list form
 *
 * MASK is hexadecimal (0x optional; commas allowed, as in /sys); a LIST is
 * CPUs and ranges with an optional stride (0-7:2).  -a (all tasks) is the
 * same as without: one thread per process here.  A mask with no online
 * CPU is refused by the kernel (EINVAL, docs/staircase.md §7.8); CPUs
 * beyond the machine beside online ones are dropped, as on Linux.
 * Errors: one line on stderr, status 1 (127/126 if COMMAND cannot run).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "tool.h"

static int usage(void)
{
	printf("Usage: taskset [options] [mask | cpu-list] [pid|cmd [args...]]\n\n"
	       "Show or change the CPU affinity of a process.\n\n"
	       "Options:\n"
	       " -a, --all-tasks         operate on all the tasks (threads) for a given pid\n"
	       " -p, --pid               operate on existing given pid\n"
	       " -c, --cpu-list          display and specify cpus in list format\n"
	       " -h, --help              display this help\n\n"
	       "The default behavior is to run a new command:\n"
	       "    taskset 03 spin 5\n"
	       "You can retrieve the mask of an existing task:\n"
	       "    taskset -p 7\n"
	       "Or set it:\n"
	       "    taskset -p 03 7\n"
	       "List format uses a comma-separated list instead of a mask:\n"
	       "    taskset -pc 0,2-3 7\n"
	       "Ranges in list format can take a stride argument:\n"
	       "    e.g. 0-31:2 is equivalent to mask 0x55555555\n");
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Hex from the last digit up; 0 if junk or a bit beyond CPU_SETSIZE. */
static int parse_mask(const char *s, cpu_set_t *set)
{
	const char *p;
	int cpu = 0;

	CPU_ZERO(set);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s)
		return 0;
	for (p = s + strlen(s); p-- > s;) {
		int v = hexval(*p);
		if (*p == ',')		/* /sys writes masks in 32-bit groups */
			continue;
		if (v < 0)
			return 0;
		for (int b = 0; b < 4; b++, v >>= 1)
			if (v & 1) {
				if (cpu + b >= CPU_SETSIZE)
					return 0;
				CPU_SET(cpu + b, set);
			}
		cpu += 4;
	}
	return 1;
}

/* A CPU number at *s (0..CPU_SETSIZE-1), moving *s past it. */
static int take_num(const char **s, int *out)
{
	char buf[8];
	int n = 0;

	while ((*s)[n] >= '0' && (*s)[n] <= '9' && n < 7)
		buf[n] = (*s)[n], n++;
	buf[n] = 0;
	*s += n;
	return parse_int_arg(buf, 0, CPU_SETSIZE - 1, out);
}

/* "0,2-3,8-15:2"; 0 if junk. */
static int parse_list(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (;;) {
		int a, b, stride = 1;

		if (!take_num(&s, &a))
			return 0;
		b = a;
		if (*s == '-' && (s++, !take_num(&s, &b)))
			return 0;
		if (*s == ':' && (s++, !take_num(&s, &stride) || stride == 0))
			return 0;
		if (b < a)
			return 0;
		for (int c = a; c <= b; c += stride)
			CPU_SET(c, set);
		if (!*s)
			return 1;
		if (*s++ != ',')
			return 0;
	}
}

/* As util-linux prints them: hex without leading zeros, or "0-3,5,6". */
static void format_mask(const cpu_set_t *set, char *buf, size_t size)
{
	int top = CPU_SETSIZE / 4 - 1, n = 0;

	while (top > 0 && !((set->bits[top / 8] >> (top % 8 * 4)) & 15))
		top--;
	for (; top >= 0 && n < (int)size - 1; top--)
		buf[n++] = "0123456789abcdef"[(set->bits[top / 8] >> (top % 8 * 4)) & 15];
	buf[n] = 0;
}

static void format_list(const cpu_set_t *set, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (int c = 0; c < CPU_SETSIZE && n < size; c++) {
		int e = c;
		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		if (e == c + 1)		/* util-linux writes a pair as "0,1" */
			e = c;
		n += snprintf(buf + n, size - n, e > c ? "%s%d-%d" : "%s%d",
			      n ? "," : "", c, e);
		c = e;
	}
}

static void print_affinity(int pid, const char *when, const cpu_set_t *set,
			   int list)
{
	char buf[400];

	if (list)
		format_list(set, buf, sizeof(buf));
	else
		format_mask(set, buf, sizeof(buf));
	printf("pid %d's %s affinity %s: %s\n", pid, when, list ? "list" : "mask",
	       buf);
}

static int get(int pid, cpu_set_t *set)
{
	if (sched_getaffinity(pid, sizeof(*set), set) == 0)
		return 0;
	fprintf(stderr, "taskset: failed to get pid %d's affinity: %s\n", pid,
		strerror(errno));
	return 1;
}

/* EINVAL here means no CPU of the set is online (the length is fine):
 * name the CPUs asked for, as a list whichever way they were given. */
static int set_affinity(int pid, const cpu_set_t *set)
{
	char cpus[400] = "";
	int e;

	if (sched_setaffinity(pid, sizeof(*set), set) == 0)
		return 0;
	e = errno;
	if (e == EINVAL && CPU_COUNT(set) == 0)
		snprintf(cpus, sizeof(cpus), " (no CPU in it)");
	else if (e == EINVAL) {
		snprintf(cpus, sizeof(cpus), " (none of CPUs ");
		format_list(set, cpus + 15, sizeof(cpus) - 30);
		strcat(cpus, " is online)");
	}
	fprintf(stderr, "taskset: failed to set pid %d's affinity: %s%s\n",
		pid ? pid : getpid(), strerror(e), cpus);
	return 1;
}

static int parse_spec(const char *s, int list, cpu_set_t *set)
{
	if (list ? parse_list(s, set) : parse_mask(s, set))
		return 0;
	fprintf(stderr, "taskset: failed to parse CPU %s: %s\n",
		list ? "list" : "mask", s);
	return 1;
}

/* taskset -p [SPEC] PID */
static int pid_mode(int argc, char **argv, int list)
{
	cpu_set_t cur, want;
	int pid;

	if (argc < 1 || argc > 2) {
		fprintf(stderr, "taskset: bad usage\n");
		return tool_try_help("taskset");
	}
	if (!parse_int_arg(argv[argc - 1], 0, 2147483647L, &pid)) {
		fprintf(stderr, "taskset: invalid PID argument: '%s'\n", argv[argc - 1]);
		return 1;
	}
	if (!pid)
		pid = getpid();
	if (argc == 2 && parse_spec(argv[0], list, &want))
		return 1;
	if (get(pid, &cur))
		return 1;
	print_affinity(pid, "current", &cur, list);
	if (argc == 1)
		return 0;
	if (set_affinity(pid, &want) || get(pid, &cur))
		return 1;
	print_affinity(pid, "new", &cur, list);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct tool_opt opts[] = {
		{ "all-tasks", 'a', 0 }, { "pid", 'p', 0 }, { "cpu-list", 'c', 0 },
		{ "help", 'h', 0 }, { 0 },
	};
	struct tool_opts o = { "taskset", opts, argc, argv, 1, NULL, NULL };
	int pflag = 0, list = 0, c;
	cpu_set_t want;

	while ((c = tool_next_opt(&o)) != TOOL_OPTS_END) {
		switch (c) {
		case 'a': break;	/* one thread per process here */
		case 'p': pflag = 1; break;
		case 'c': list = 1; break;
		case 'h': return usage();
		default: return tool_try_help("taskset");
		}
	}
	argc -= o.ind, argv += o.ind;
	if (pflag)
		return pid_mode(argc, argv, list);
	if (argc < 2) {
		fprintf(stderr, "taskset: bad usage\n");
		return tool_try_help("taskset");
	}
	if (parse_spec(argv[0], list, &want) || set_affinity(0, &want))
		return 1;
	return tool_exec("taskset", o.argv[0], argv + 1);
}
