/*
 * head - the first lines of files or of standard input (GNU head's habits).
 *
 *   head [-n N | -N] [FILE...]       N 0.. (default 10); no FILE, or -: stdin
 *
 * With several files each starts with "==> FILE <==" and a blank line
 * separates them, as GNU head prints it.  It reads no further than the
 * N-th newline of stdin and then exits, so `ps | head -n 2` ends the
 * pipeline early (ps then gets EPIPE or SIGPIPE on its next write).  Not
 * here: GNU's -n -N (all but the last N) and -c.  Exit status 1 if a file
 * could not be read or the command line is bad.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "args.h"

/* Copy the first `lines` lines of fd to stdout: 0, or -1 on a read error. */
static int head_fd(int fd, int lines)
{
	char buf[4096];
	ssize_t n = 0;

	while (lines > 0 && (n = read(fd, buf, sizeof(buf))) > 0) {
		ssize_t upto = 0;
		while (upto < n && lines > 0)
			if (buf[upto++] == '\n')
				lines--;
		fflush(stdout);		/* the headers are printf'd */
		if (write(1, buf, upto) != upto)
			return 0;	/* the reader went away: nothing to say */
	}
	return n < 0 ? -1 : 0;
}

static int head_file(const char *name, int lines, int header, int first)
{
	int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "head: cannot open '%s' for reading: %s\n", name, strerror(errno));
		return 1;
	}
	if (header)
		printf("%s==> %s <==\n", first ? "" : "\n",
		       fd == 0 ? "standard input" : name);
	int r = head_fd(fd, lines);
	if (r < 0)
		fprintf(stderr, "head: error reading '%s': %s\n", name, strerror(errno));
	if (fd != 0)
		close(fd);
	return r < 0;
}

static int usage(void)
{
	printf("usage: head [-n N | -N] [FILE...]   the first N lines (default 10);\n"
	       "  no FILE, or -: standard input; several files get ==> FILE <== headers\n");
	return 0;
}

static int lines_arg(const char *s, int *lines)
{
	if (!parse_int_arg(s, 0, 2147483647L, lines)) {
		fprintf(stderr, "head: invalid number of lines: '%s'\n", s);
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	int lines = 10, i, status = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			return usage();
		if (strncmp(a, "-n", 2) == 0) {		/* -n N or -nN */
			const char *v = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
			if (!v) {
				fprintf(stderr, "head: option requires an argument -- 'n'\n");
				return 1;
			}
			if (!lines_arg(v, &lines))
				return 1;
		} else if (a[1] >= '0' && a[1] <= '9') {	/* -N, the old form */
			if (!lines_arg(a + 1, &lines))
				return 1;
		} else if (a[1] == '-') {
			fprintf(stderr, "head: unrecognized option '%s'\n", a);
			return 1;
		} else {
			fprintf(stderr, "head: invalid option -- '%c'\n", a[1]);
			return 1;
		}
	}
	if (i == argc)
		return head_file("-", lines, 0, 1);
	for (int first = i; i < argc; i++)
		status |= head_file(argv[i], lines, argc - first > 1, i == first);
	return status;
}
