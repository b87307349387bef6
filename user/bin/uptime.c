/*
 * uptime - how long the system has been running (procps-ng's uptime).
 *
 *   uptime [-p | -s]
 *
 * One line, as procps prints it: the time of day, how long since boot,
 * the number of users (0: no login records here) and the load averages of
 * 1, 5 and 15 minutes, all from sysinfo():
 *    00:05:12 up 5 min,  0 user,  load average: 1.00, 0.52, 0.20
 * -p: "up 5 minutes"; -s: the time it booted, "1970-01-01 00:00:00" (the
 * clock here starts at 0 on each boot). -h for this text.
 */
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>

#include "tool.h"

/* "1.00": a load average of 16 fraction bits with two decimals, rounded. */
static void load_string(unsigned long load, char *buf, size_t len)
{
	unsigned long hundredths = (load * 100 + (1 << (SI_LOAD_SHIFT - 1))) >> SI_LOAD_SHIFT;
	snprintf(buf, len, "%lu.%02lu", hundredths / 100, hundredths % 100);
}

static void plural(char *buf, size_t len, int n, const char *unit, int *first)
{
	if (!n)
		return;
	size_t used = strlen(buf);
	snprintf(buf + used, len - used, "%s%d %s%s", *first ? " " : ", ", n, unit, n > 1 ? "s" : "");
	*first = 0;
}

int main(int argc, char **argv)
{
	static const struct tool_opt opts[] = {
		{ "pretty", 'p', 0 }, { "since", 's', 0 }, { "help", 'h', 0 }, { 0 } };
	struct tool_opts o = { .prog = "uptime", .opts = opts, .argc = argc, .argv = argv, .ind = 1 };
	int key, mode = 0;
	struct sysinfo si;
	struct timespec now;
	char l[3][16], buf[128];

	while ((key = tool_next_opt(&o)) != TOOL_OPTS_END) {
		if (key == 'h') {
			printf("\nUsage:\n uptime [options]\n\nOptions:\n"
			       " -p, --pretty   show uptime in pretty format\n"
			       " -h, --help     display this help and exit\n"
			       " -s, --since    system up since\n");
			return 0;
		}
		if (key != 'p' && key != 's')
			return tool_try_help("uptime");
		mode = key;
	}
	if (o.ind < argc) {
		fprintf(stderr, "uptime: unexpected argument '%s'\n", argv[o.ind]);
		return tool_try_help("uptime");
	}
	if (sysinfo(&si) < 0 || clock_gettime(CLOCK_REALTIME, &now) < 0) {
		perror("uptime: sysinfo");
		return 1;
	}
	long up = si.uptime, t = now.tv_sec % 86400;
	if (mode == 's') {
		long boot = now.tv_sec - up < 0 ? 0 : now.tv_sec - up;
		printf("1970-01-01 %02ld:%02ld:%02ld\n", boot / 3600 % 24, boot / 60 % 60, boot % 60);
		return 0;
	}
	if (mode == 'p') {
		int first = 1;
		strcpy(buf, "up");
		plural(buf, sizeof(buf), (int)(up / 604800), "week", &first);
		plural(buf, sizeof(buf), (int)(up / 86400 % 7), "day", &first);
		plural(buf, sizeof(buf), (int)(up / 3600 % 24), "hour", &first);
		plural(buf, sizeof(buf), (int)(up / 60 % 60), "minute", &first);
		if (first)
			strcat(buf, " 0 minutes");
		printf("%s\n", buf);
		return 0;
	}
	for (int i = 0; i < 3; i++)
		load_string(si.loads[i], l[i], sizeof(l[i]));
	printf(" %02ld:%02ld:%02ld up ", t / 3600, t / 60 % 60, t % 60);
	if (up >= 86400)
		printf("%ld day%s, ", up / 86400, up >= 2 * 86400 ? "s" : "");
	if (up / 3600 % 24)
		printf("%2ld:%02ld, ", up / 3600 % 24, up / 60 % 60);
	else
		printf("%ld min, ", up / 60 % 60);
	printf(" 0 user,  load average: %s, %s, %s\n", l[0], l[1], l[2]);
	return 0;
}
