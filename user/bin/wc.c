/*
 * wc - count lines, words and bytes (GNU wc's output).
 *
 *   wc [-l] [-w] [-c] [FILE...]      no flag: all three; no FILE, or -: stdin
 *
 * Counts come in the order lines, words, bytes whatever the flags' order;
 * a word is a run of characters that are not space, \t \n \v \f \r.  With
 * several inputs a "total" line follows.  The column width is GNU's: 1 for
 * one count of one input; else the digits of the files' total size, at
 * least 7 if standard input is among them (GNU asks fstat whether stdin is
 * a regular file; there is no fstat here, so stdin is taken for a pipe or
 * a terminal).  Every input is counted before anything is printed, since
 * the width depends on all of them.  Exit status 1 if a file could not be
 * read or the command line is bad.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct counts {
	unsigned long long lines, words, bytes;
	int failed, is_stdin;
};

static int space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int count_fd(int fd, struct counts *c)
{
	char buf[4096];
	ssize_t n;
	int in_word = 0;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		c->bytes += n;
		for (ssize_t i = 0; i < n; i++) {
			c->lines += buf[i] == '\n';
			if (space(buf[i]))
				in_word = 0;
			else if (!in_word)
				in_word = 1, c->words++;
		}
	}
	return n < 0 ? -1 : 0;
}

static void count_input(const char *name, struct counts *c)
{
	int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY);

	c->is_stdin = fd == 0;
	if (fd < 0 || count_fd(fd, c) < 0) {
		fprintf(stderr, "wc: %s: %s\n", name, strerror(errno));
		c->failed = 1;
	}
	if (fd > 0)
		close(fd);
}

static int digits(unsigned long long v)
{
	int n = 1;
	while (v >= 10)
		v /= 10, n++;
	return n;
}

/* GNU's compute_number_width, without fstat (see the top). */
static int width_of(const struct counts *c, int n, int ncounts)
{
	unsigned long long regular = 0;
	int min = 1;

	if (ncounts == 1 && n == 1)
		return 1;
	if (c[0].failed)
		return 1;
	for (int i = 0; i < n; i++) {
		if (c[i].failed)
			continue;
		if (c[i].is_stdin)
			min = 7;
		else
			regular += c[i].bytes;
	}
	return digits(regular) > min ? digits(regular) : min;
}

static int show_l, show_w, show_c;

static void print_counts(const struct counts *c, int width, const char *name)
{
	const char *sep = "";

	if (show_l)
		printf("%*llu", width, c->lines), sep = " ";
	if (show_w)
		printf("%s%*llu", sep, width, c->words), sep = " ";
	if (show_c)
		printf("%s%*llu", sep, width, c->bytes);
	printf(name ? " %s\n" : "\n", name);
}

static int usage(void)
{
	printf("usage: wc [-l] [-w] [-c] [FILE...]   lines, words, bytes (no flag: all);\n"
	       "  no FILE, or -: standard input; several inputs get a total line\n");
	return 0;
}

static int flags(const char *w)
{
	for (; *w; w++) {
		switch (*w) {
		case 'l': show_l = 1; break;
		case 'w': show_w = 1; break;
		case 'c': show_c = 1; break;
		case 'h': return -1;
		default:
			fprintf(stderr, "wc: invalid option -- '%c'\n", *w);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char *stdin_only[] = { "-" };
	struct counts *c, total = { 0 };
	char **names;
	int i, n, r, status = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "--help") == 0)
			return usage();
		if (argv[i][1] == '-') {
			fprintf(stderr, "wc: unrecognized option '%s'\n", argv[i]);
			return 1;
		}
		if ((r = flags(argv[i] + 1)) != 0)
			return r < 0 ? usage() : r;
	}
	if (!show_l && !show_w && !show_c)
		show_l = show_w = show_c = 1;
	names = i < argc ? argv + i : stdin_only;
	n = i < argc ? argc - i : 1;
	c = calloc(n, sizeof(*c));
	if (!c)
		return fprintf(stderr, "wc: out of memory\n"), 1;
	for (int k = 0; k < n; k++) {
		count_input(names[k], &c[k]);
		status |= c[k].failed;
		total.lines += c[k].lines, total.words += c[k].words, total.bytes += c[k].bytes;
	}
	int width = width_of(c, n, show_l + show_w + show_c);
	for (int k = 0; k < n; k++)
		if (!c[k].failed)
			print_counts(&c[k], width, i < argc ? names[k] : NULL);
	if (n > 1)
		print_counts(&total, width, "total");
	return status;
}
