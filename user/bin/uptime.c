/*
 * uptime - how long the system has been running (procps-ng's uptime).
 *
 *   uptime [-p | -s]
 *
 * One line, as procps prints it: the time of day, how long since boot,
 * the number of users (0: no login records here) and the load averages of
 * 1, 5 and 15 minutes, from /proc/uptime and /proc/loadavg as procps
 * reads them (man 5 proc):
 *    00:05:12 up 5 min,  0 user,  load average: 1.00, 0.52, 0.20
 * -p: "up 5 minutes"; -s: the time it booted, "1970-01-01 00:00:00" (the
 * clock here starts at 0 on each boot). -h for this text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proclist.h"	/* proc_read_text */
#include "tool.h"

/* The seconds since boot, and the three load averages as /proc/loadavg
 * writes them ("1.00 0.52 0.20 1/5 42"): 0, or -1 with the message. */
static int read_proc(long *up, char l[3][16])
{
	char text[128], *w;

	if (proc_read_text("/proc/uptime", text, sizeof(text)) <= 0) {
		fprintf(stderr, "uptime: cannot read /proc/uptime: %s\n", strerror(errno));
		return -1;
	}
	*up = strtol(text, NULL, 10);
	if (proc_read_text("/proc/loadavg", text, sizeof(text)) <= 0) {
		fprintf(stderr, "uptime: cannot read /proc/loadavg: %s\n", strerror(errno));
		return -1;
	}
	w = text;
	for (int i = 0; i < 3; i++) {
		size_t n = strcspn(w, " \n");
		snprintf(l[i], sizeof(l[i]), "%.*s", (int)n, w);
		w += n + (w[n] != 0);
	}
	return 0;
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
	struct timespec now;
	long up;
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
	if (read_proc(&up, l) < 0)
		return 1;
	clock_gettime(CLOCK_REALTIME, &now);
	long t = now.tv_sec % 86400;
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
