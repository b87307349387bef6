/*
 * tty.c - the console as a file: cooked-mode line input and output.
 *
 * Reading collects a line with echo and simple editing (backspace,
 * Ctrl-U erases the line, Ctrl-D at the start of a line is end of file)
 * and returns it, '\n' included, as a terminal in canonical mode does.
 * Bytes arrive from the serial and keyboard interrupt handlers through
 * console_input_byte(); a reader with nothing to read sleeps on tty_wait.
 */
#include "console.h"
#include "errno.h"
#include "file.h"
#include "proc.h"
#include "uaccess.h"
#include "waitq.h"

#define LINE_MAX 256

static struct waitq tty_wait;
static char line[LINE_MAX];
static int line_len;		/* bytes collected */
static bool line_ready;		/* a whole line (or EOF) is waiting */
static bool eof_pending;

static void tty_wakeup(void)
{
	waitq_wake_all(&tty_wait);
}

void tty_init(void)
{
	waitq_init(&tty_wait, "tty");
	console_input_wakeup = tty_wakeup;
}

static void echo(const char *s, int n)
{
	console_write(s, n);
}

/* Feed one input byte to the line editor. */
static void tty_input(char c)
{
	if (c == '\r')
		c = '\n';
	if (c == 4) {				/* Ctrl-D */
		if (line_len == 0)
			eof_pending = true;
		line_ready = true;
	} else if (c == '\b' || c == 0x7F) {
		if (line_len > 0) {
			line_len--;
			echo("\b \b", 3);
		}
	} else if (c == 0x15) {			/* Ctrl-U */
		while (line_len > 0) {
			line_len--;
			echo("\b \b", 3);
		}
	} else if (c == '\n' || line_len < LINE_MAX - 1) {
		line[line_len++] = c;
		echo(&c, 1);
		if (c == '\n')
			line_ready = true;
	}
}

int tty_read(void *ubuf, uint32_t n)
{
	struct waiter w;

	while (!line_ready) {
		waitq_prepare(&tty_wait, &w, TASK_INTERRUPTIBLE);
		int c = console_getc_nowait();
		if (c < 0 && !current()->killed)
			schedule();
		waitq_finish(&tty_wait, &w);
		if (current()->killed)
			return -EINTR;
		if (c >= 0)
			tty_input((char)c);
	}
	if (eof_pending) {
		eof_pending = line_ready = false;
		return 0;
	}
	uint32_t k = (uint32_t)line_len < n ? (uint32_t)line_len : n;
	if (copy_to_user(ubuf, line, k) < 0)
		return -EFAULT;
	/* Keep whatever the reader did not take for the next read. */
	for (int i = k; i < line_len; i++)
		line[i - k] = line[i];
	line_len -= k;
	if (line_len == 0)
		line_ready = false;
	return (int)k;
}

int tty_write(const void *ubuf, uint32_t n)
{
	char buf[256];
	uint32_t done = 0;
	while (done < n) {
		uint32_t k = n - done < sizeof(buf) ? n - done : sizeof(buf);
		if (copy_from_user(buf, (const char *)ubuf + done, k) < 0)
			return done ? (int)done : -EFAULT;
		console_write(buf, k);
		done += k;
	}
	return (int)done;
}
