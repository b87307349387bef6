/*
 * cat - concatenate files to standard output (GNU coreutils' cat).
 *
 *   cat [-n] [FILE...]      no FILE, or -: standard input
 *
 * -n numbers every output line as GNU does ("%6d\t"). Errors name the
 * file as GNU cat words them ("cat: x: No such file or directory",
 * "cat: bin: Is a directory"); the other files are still copied and the
 * exit status is 1. --help for this text.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

static bool number;
static int line_no;
static bool at_line_start = true;

/* Write n bytes, numbering lines with -n; false when the reader is gone. */
static bool put(const char *buf, ssize_t n)
{
	if (!number)
		return write(1, buf, (size_t)n) == n;
	for (ssize_t i = 0; i < n; i++) {
		if (at_line_start)
			printf("%6d\t", ++line_no);
		putchar(buf[i]);
		at_line_start = buf[i] == '\n';
	}
	return fflush(stdout) == 0;
}

static int cat_file(const char *name)
{
	int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY);
	char buf[4096];
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "cat: %s: %s\n", name, strerror(errno));
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (!put(buf, n))
			break;
	if (n < 0)
		fprintf(stderr, "cat: %s: %s\n", name, strerror(errno));
	if (fd != 0)
		close(fd);
	return n < 0;
}

static int usage(void)
{
	printf("Usage: cat [OPTION]... [FILE]...\n"
	       "Concatenate FILE(s) to standard output.\n"
	       "With no FILE, or when FILE is -, read standard input.\n"
	       "  -n, --number   number all output lines\n"
	       "      --help     display this help and exit\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct tool_opt opts[] = {
		{ "number", 'n', 0 }, { "help", 256, 0 }, { 0 } };
	struct tool_opts o = { .prog = "cat", .opts = opts, .argc = argc, .argv = argv, .ind = 1 };
	int key, status = 0;

	while ((key = tool_next_opt(&o)) != TOOL_OPTS_END) {
		if (key == 'n')
			number = true;
		else if (key == 256)
			return usage();
		else
			return tool_try_help("cat");
	}
	if (o.ind == argc)
		return cat_file("-");
	for (int i = o.ind; i < argc; i++)
		status |= cat_file(argv[i]);
	return status;
}
