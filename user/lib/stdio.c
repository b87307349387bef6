/*
 * stdio.c - the two output streams.
 *
 * Each stream collects a line and writes it at '\n' (or when full, or at fflush,
 * exit and fork), so lines from different processes sharing a console do
 * not interleave mid-line.  stderr also writes at the end of every call.  There is no stdin FILE:
 * programs read(0, ...) directly.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct FILE {
	int fd;
	int buffered;
	int error;		/* a write failed since the last fflush (errno says why) */
	size_t len;
	char buf[1024];
};

static FILE out = { .fd = 1, .buffered = 1 };
static FILE err = { .fd = 2, .buffered = 0 };
FILE *stdout = &out;
FILE *stderr = &err;

static void flush(FILE *f)
{
	size_t done = 0;

	while (done < f->len) {
		ssize_t n = write(f->fd, f->buf + done, f->len - done);

		if (n <= 0) {
			f->error = 1;	/* drop the line; fflush reports it */
			break;
		}
		done += n;
	}
	f->len = 0;
}

void __file_putc(FILE *f, char c)
{
	f->buf[f->len++] = c;
	if (c == '\n' || f->len == sizeof(f->buf))
		flush(f);
}

/* End of one printf/fputs call: an unbuffered stream writes it now. */
void __file_done(FILE *f)
{
	if (!f->buffered)
		flush(f);
}

/* EOF when a write failed since the last fflush (the line was dropped;
 * errno from the write), as a shell's echo needs to say "write error". */
int fflush(FILE *f)
{
	f = f ? f : stdout;
	flush(f);
	if (f->error) {
		f->error = 0;
		return EOF;
	}
	return 0;
}

int fputc(int c, FILE *f)
{
	__file_putc(f, (char)c);
	__file_done(f);
	return (unsigned char)c;
}

int putchar(int c) { return fputc(c, stdout); }

int fputs(const char *s, FILE *f)
{
	while (*s)
		__file_putc(f, *s++);
	__file_done(f);
	return 0;
}

int puts(const char *s)
{
	fputs(s, stdout);
	return fputc('\n', stdout) < 0 ? EOF : 0;
}

void perror(const char *what)
{
	int e = errno;

	fflush(stdout);
	if (what && *what)
		fprintf(stderr, "%s: ", what);
	fprintf(stderr, "%s\n", strerror(e));
}
