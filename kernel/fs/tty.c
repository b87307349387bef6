/*
 * tty.c - the console as a terminal: a line discipline, job control and
 * the termios modes, as Linux's n_tty does them (docs/kernel.md "The
 * terminal").
 *
 * Input bytes are processed when they arrive, in the serial or keyboard
 * interrupt (tty_receive): that is what lets Ctrl-C stop a program that
 * never reads. With ISIG, Ctrl-C, Ctrl-\ and Ctrl-Z send SIGINT, SIGQUIT
 * and SIGTSTP to the foreground process group and flush the input. In
 * canonical mode (ICANON) a line is edited (Backspace, Ctrl-U, Ctrl-W)
 * until Enter or Ctrl-D makes it readable; otherwise each byte is
 * readable at once. A background process (not in the foreground group of
 * the console's session) that reads gets SIGTTIN, one that changes the
 * modes or the foreground group gets SIGTTOU, unless it ignores or blocks
 * them; writing is always allowed (TOSTOP is not supported).
 *
 * Locking: tty_lock guards the buffer and the modes; it is never held
 * while a signal is sent (signal_lock) or a reader is woken.
 */
#include "kernel/debug/console.h"
#include "lib/errno.h"
#include "file.h"
#include "kernel/task/pgrp.h"
#include "kernel/task/proc.h"
#include <uapi/ioctls.h>
#include "kernel/task/signal.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sync/waitq.h"
#include <uapi/termios.h>
#include <uapi/poll.h>
#include "kernel/debug/trace.h"	/* TRACE_WAKE */

#define TTY_BUF 1024		/* readable + being edited */
#define LINE_MAX 256		/* one canonical line, '\n' included */

/* Linux's struct termios (TCGETS) and its flags: uapi/termios.h. */

/* Linux's defaults for a console (stty sane). */
static const struct termios tio_default = {
	.c_iflag = ICRNL | IXON,
	.c_oflag = OPOST | ONLCR,
	.c_cflag = B38400 | CS8 | CREAD | HUPCL,
	.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
	.c_cc = { [VINTR] = 3, [VQUIT] = 0x1c, [VERASE] = 0x7f, [VKILL] = 0x15,
		[VEOF] = 4, [VTIME] = 0, [VMIN] = 1, [VSTART] = 0x11, [VSTOP] = 0x13,
		[VSUSP] = 0x1a, [VREPRINT] = 0x12, [VDISCARD] = 0x0f, [VWERASE] = 0x17,
		[VLNEXT] = 0x16 },
};

static struct spinlock tty_lock = SPINLOCK_INIT("tty");
static struct waitq tty_wait;
static struct termios tio;
static char buf[TTY_BUF];
static uint32_t head, commit, tail;	/* [head, commit) readable, [commit, tail) the line being edited */
static int eof_pending;			/* Ctrl-D on empty lines, not yet read as 0 */
static int fg_pgrp;			/* the foreground process group, 0 none */
static int tty_sid;			/* the console's session: init's */
/* Set at the end of tty_init() (kmain, after the boot self-tests): until
 * then tty_receive() leaves the console's bytes to test=echo. */
static volatile bool tty_ready;

static void echo(const char *s, int n)
{
	if (tio.c_lflag & ECHO)
		console_write(s, n);
}

/* Erase the last byte of the line being edited, on screen too. */
static bool erase_one(void)
{
	if (tail == commit)
		return false;
	tail--;
	if (tio.c_lflag & ECHOE)
		echo("\b \b", 3);
	return true;
}

static void erase_word(void)
{
	while (tail != commit && buf[(tail - 1) % TTY_BUF] == ' ')
		erase_one();
	while (tail != commit && buf[(tail - 1) % TTY_BUF] != ' ')
		erase_one();
}

static void store(char c)
{
	buf[tail++ % TTY_BUF] = c;
}

static void echo_char(char c)
{
	if ((unsigned char)c < ' ' && c != '\n' && c != '\t' && (tio.c_lflag & ECHOCTL)) {
		char two[2] = { '^', (char)(c + '@') };
		echo(two, 2);
	} else {
		echo(&c, 1);
	}
}

/* The signal a byte stands for under ISIG, or 0. */
static int isig_signal(char c)
{
	if (!(tio.c_lflag & ISIG) || c == 0)
		return 0;
	if (c == (char)tio.c_cc[VINTR])
		return SIGINT;
	if (c == (char)tio.c_cc[VQUIT])
		return SIGQUIT;
	if (c == (char)tio.c_cc[VSUSP])
		return SIGTSTP;
	return 0;
}

/* Canonical editing of one byte; returns true if a line became readable. */
static bool canonical(char c)
{
	if (c == (char)tio.c_cc[VERASE] || c == '\b') {
		erase_one();
	} else if (c == (char)tio.c_cc[VKILL]) {
		while (erase_one())
			;
	} else if (c == (char)tio.c_cc[VWERASE]) {
		erase_word();
	} else if (c == (char)tio.c_cc[VEOF]) {
		if (tail == commit)
			eof_pending++;
		commit = tail;
		return true;
	} else if (c == '\n') {
		store(c);
		echo("\n", 1);
		commit = tail;
		return true;
	} else if (tail - commit < LINE_MAX - 1 && tail - head < TTY_BUF) {
		store(c);
		echo_char(c);
	}
	return false;
}

/* One byte from the keyboard or the serial line (interrupt context).
 * Returns the signal to send to the foreground group, or 0. */
static int receive_byte(char c, bool *readable)
{
	if (c == '\r' && (tio.c_iflag & ICRNL))
		c = '\n';
	int sig = isig_signal(c);
	if (sig) {
		head = commit = tail;		/* flush, as Linux without NOFLSH */
		eof_pending = 0;
		echo_char(c);
		return sig;
	}
	if (tio.c_lflag & ICANON) {
		*readable |= canonical(c);
	} else if (tail - head < TTY_BUF) {
		store(c);
		echo_char(c);
		commit = tail;
		*readable = true;
	}
	return 0;
}

void tty_receive(void)
{
	int c;
	if (!tty_ready)
		return;
	while ((c = console_getc_nowait()) >= 0) {
		bool readable = false;
		spin_lock(&tty_lock);
		int sig = receive_byte((char)c, &readable);
		int pgrp = fg_pgrp;
		spin_unlock(&tty_lock);
		if (sig && pgrp > 0)
			signal_send_group(pgrp, sig);
		if (readable)
			TRACE_WAKE(WAKE_IO, waitq_wake_all(&tty_wait));
	}
}

void tty_init(void)
{
	waitq_init(&tty_wait, "tty");
	tio = tio_default;
	tty_sid = fg_pgrp = 1;		/* init's session and group (pid 1) */
	__sync_synchronize();		/* the state above, then the flag */
	tty_ready = true;
	tty_receive();			/* what was typed during boot */
}

/* ---- job control ------------------------------------------------------------ */

/* A background process of the console's session touches the terminal:
 * stop its group with sig, or fail with EIO if it ignores or blocks sig
 * (read), or let it (modes and foreground changes, when sig is SIGTTOU). */
static int job_check(struct proc *p, int sig)
{
	if (p->sid != tty_sid || fg_pgrp <= 0 || p->pgid == fg_pgrp)
		return 0;
	if (signal_ignored_or_blocked(p, sig))
		return sig == SIGTTIN ? -EIO : 0;
	signal_send_group(p->pgid, sig);
	return -ERESTARTSYS;
}

/* ---- read and write --------------------------------------------------------- */

static bool has_input(void)
{
	return head != commit || eof_pending > 0;
}

/* Take up to n readable bytes (a canonical read stops after one line);
 * tty_lock held. */
static uint32_t take(char *out, uint32_t n)
{
	uint32_t k = 0;
	while (k < n && head != commit) {
		char c = buf[head++ % TTY_BUF];
		out[k++] = c;
		if (c == '\n' && (tio.c_lflag & ICANON))
			break;
	}
	return k;
}

/* poll: input to read (a line, in canonical mode); output never waits. */
uint32_t tty_poll(void)
{
	spin_lock(&tty_lock);
	uint32_t mask = POLLOUT | POLLWRNORM;
	if (has_input() || eof_pending > 0)
		mask |= POLLIN | POLLRDNORM;
	spin_unlock(&tty_lock);
	return mask;
}

struct waitq *tty_waitq(void)
{
	return &tty_wait;
}

int tty_read(void *ubuf, uint32_t n, bool nonblock)
{
	struct proc *p = current();
	struct waiter w;
	char tmp[LINE_MAX];

	int err = job_check(p, SIGTTIN);
	if (err)
		return err;
	if (n == 0)
		return 0;
	spin_lock(&tty_lock);
	while (!has_input() && ((tio.c_lflag & ICANON) || tio.c_cc[VMIN] > 0)) {
		if (nonblock) {
			spin_unlock(&tty_lock);
			return -EAGAIN;
		}
		waitq_prepare(&tty_wait, &w, TASK_INTERRUPTIBLE);
		spin_unlock(&tty_lock);
		if (!signal_pending(p))		/* checked after the state is set */
			schedule();
		waitq_finish(&tty_wait, &w);
		if (signal_pending(p))
			return -ERESTARTSYS;
		spin_lock(&tty_lock);
	}
	uint32_t k = 0;
	if (head == commit && eof_pending > 0)
		eof_pending--;			/* Ctrl-D: a read of 0 */
	else
		k = take(tmp, n < sizeof(tmp) ? n : sizeof(tmp));
	spin_unlock(&tty_lock);
	if (k && copy_to_user(ubuf, tmp, k) < 0)
		return -EFAULT;
	return (int)k;
}

int tty_write(const void *ubuf, uint32_t n)
{
	char out[256];
	uint32_t done = 0;
	while (done < n) {
		uint32_t k = n - done < sizeof(out) ? n - done : sizeof(out);
		if (copy_from_user(out, (const char *)ubuf + done, k) < 0)
			return done ? (int)done : -EFAULT;
		console_write(out, k);
		done += k;
	}
	return (int)done;
}

/* ---- ioctl ------------------------------------------------------------------ */

static int set_modes(const void *uarg, bool flush)
{
	struct termios t;
	int err = job_check(current(), SIGTTOU);
	if (err)
		return err;
	if (copy_from_user(&t, uarg, sizeof(t)) < 0)
		return -EFAULT;
	spin_lock(&tty_lock);
	bool was_canonical = tio.c_lflag & ICANON;
	tio = t;
	if (flush)
		head = commit = tail;
	else if (was_canonical && !(t.c_lflag & ICANON))
		commit = tail;			/* the half-typed line becomes readable */
	spin_unlock(&tty_lock);
	TRACE_WAKE(WAKE_IO, waitq_wake_all(&tty_wait));
	return 0;
}

static int set_foreground(const void *uarg)
{
	struct proc *p = current();
	int pgrp;
	if (p->sid != tty_sid)
		return -ENOTTY;
	int err = job_check(p, SIGTTOU);
	if (err)
		return err;
	if (copy_from_user(&pgrp, uarg, sizeof(pgrp)) < 0)
		return -EFAULT;
	if (pgrp <= 0)
		return -EINVAL;
	if (!pgrp_in_session(pgrp, tty_sid))
		return -EPERM;
	fg_pgrp = pgrp;
	return 0;
}

int tty_ioctl(uint32_t req, void *uarg)
{
	switch (req) {
	case TCGETS: {
		struct termios t;
		spin_lock(&tty_lock);
		t = tio;
		spin_unlock(&tty_lock);
		return copy_to_user(uarg, &t, sizeof(t));
	}
	case TCSETS:
	case TCSETSW:
		return set_modes(uarg, false);
	case TCSETSF:
		return set_modes(uarg, true);
	case TIOCGPGRP:
		return copy_to_user(uarg, &fg_pgrp, sizeof(fg_pgrp));
	case TIOCSPGRP:
		return set_foreground(uarg);
	case TIOCGWINSZ: {
		struct winsize ws = { .ws_row = 25, .ws_col = 80 };	/* the VGA text screen */
		return copy_to_user(uarg, &ws, sizeof(ws));
	}
	default:
		return -ENOTTY;
	}
}
