/*
 * dmesg - print or control the kernel log (util-linux's dmesg, through
 * syslog(2) as its fallback does when /dev/kmsg is absent).
 *
 *   dmesg [-r] [-c | -C] [-n LEVEL] [-s SIZE]
 *
 * Prints the log as util-linux does, "[    1.234567] message", one line
 * per message; -r keeps the raw "<6>" level prefix; -c prints, then
 * clears; -C clears only; -n LEVEL sets the console's level (1..8: which
 * messages also reach the console); -s SIZE reads at most SIZE bytes (the
 * last ones). Root only, as on Debian (kernel.dmesg_restrict). -h for this.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syscall.h"
#include "tool.h"
#include <uapi/syslog.h>

static int klogctl(int type, char *buf, int len)
{
	return (int)__syscall_ret(syscall3(__NR_syslog, type, (long)buf, len));
}

static int usage(void)
{
	printf("\nUsage:\n dmesg [options]\n\nDisplay or control the kernel ring buffer.\n\n"
	       "Options:\n"
	       " -C, --clear                 clear the kernel ring buffer\n"
	       " -c, --read-clear            read and clear all messages\n"
	       " -n, --console-level <level> set level of messages printed to console\n"
	       " -r, --raw                   print the raw message buffer\n"
	       " -s, --buffer-size <size>    buffer size to query the kernel ring buffer\n"
	       " -h, --help                  display this help\n");
	return 0;
}

/* Each line without its "<N>" prefix, unless raw. */
static void print_log(const char *buf, int n, int raw)
{
	for (int i = 0; i < n;) {
		int start = i;
		if (!raw && buf[i] == '<') {
			int j = i + 1;
			while (j < n && buf[j] >= '0' && buf[j] <= '9')
				j++;
			if (j < n && buf[j] == '>')
				start = j + 1;
		}
		while (i < n && buf[i] != '\n')
			i++;
		printf("%.*s\n", i - start, buf + start);
		i++;
	}
}

static int fail(const char *what)
{
	fprintf(stderr, "dmesg: %s failed: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	static const struct tool_opt opts[] = {
		{ "clear", 'C', 0 }, { "read-clear", 'c', 0 }, { "console-level", 'n', 1 },
		{ "raw", 'r', 0 }, { "buffer-size", 's', 1 }, { "help", 'h', 0 }, { 0 } };
	struct tool_opts o = { .prog = "dmesg", .opts = opts, .argc = argc, .argv = argv, .ind = 1 };
	int key, raw = 0, clear = 0, read_clear = 0, level = 0, size = 0;
	char *end;

	while ((key = tool_next_opt(&o)) != TOOL_OPTS_END) {
		switch (key) {
		case 'h': return usage();
		case 'r': raw = 1; break;
		case 'C': clear = 1; break;
		case 'c': read_clear = 1; break;
		case 'n':
			level = (int)strtol(o.arg, &end, 10);
			if (*o.arg == '\0' || *end || level < 1 || level > 8) {
				fprintf(stderr, "dmesg: unknown level '%s'\n", o.arg);
				return tool_try_help("dmesg");
			}
			break;
		case 's':
			size = (int)strtol(o.arg, &end, 10);
			if (*o.arg == '\0' || *end || size <= 0) {
				fprintf(stderr, "dmesg: invalid buffer size argument: '%s'\n", o.arg);
				return 1;
			}
			break;
		default:
			return tool_try_help("dmesg");
		}
	}
	if (o.ind < argc) {
		fprintf(stderr, "dmesg: bad usage\n");
		return tool_try_help("dmesg");
	}
	if (clear + read_clear + (level > 0) > 1) {
		fprintf(stderr, "dmesg: mutually exclusive arguments: --clear --read-clear --console-level\n");
		return tool_try_help("dmesg");
	}
	if (clear)
		return klogctl(SYSLOG_ACTION_CLEAR, NULL, 0) < 0 ? fail("klogctl") : 0;
	if (level)
		return klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, level) < 0 ? fail("klogctl") : 0;
	if (!size && (size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0)) < 0)
		return fail("klogctl");
	char *buf = malloc((size_t)size);
	if (!buf)
		return fail("malloc");
	int n = klogctl(read_clear ? SYSLOG_ACTION_READ_CLEAR : SYSLOG_ACTION_READ_ALL, buf, size);
	if (n < 0)
		return fail("read kernel buffer");
	print_log(buf, n, raw);
	free(buf);
	return 0;
}
