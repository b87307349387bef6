/*
 * printf.c - the one formatter behind printf, fprintf and snprintf.
 *
 * Supports %d %i %u %x %X %p %s %c %% with the l and ll length modifiers,
 * flags '-', '0' and '+', a width and a precision (both may be '*').  Output goes
 * through a small "sink" so the same code fills a buffer or a FILE.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct sink {
	void (*put)(struct sink *s, char c);
	char *buf;		/* snprintf: where to write */
	size_t cap, len;	/* len counts every char, even ones cut off */
	FILE *file;		/* fprintf */
};

static void put_buf(struct sink *s, char c)
{
	if (s->len + 1 < s->cap)
		s->buf[s->len] = c;
	s->len++;
}

void __file_putc(FILE *f, char c);	/* stdio.c */
void __file_done(FILE *f);

static void put_file(struct sink *s, char c)
{
	__file_putc(s->file, c);
	s->len++;
}

static void pad(struct sink *s, char c, int n)
{
	while (n-- > 0)
		s->put(s, c);
}

/* Print one converted field: sign/prefix, zero or space padding, digits. */
static void field(struct sink *s, const char *prefix, const char *body,
		  int blen, int width, int prec, int left, int zero)
{
	int plen = strlen(prefix);
	int zeros = prec > blen ? prec - blen : 0;
	int fill = width - plen - zeros - blen;

	if (zero && !left && prec < 0) {
		zeros += fill > 0 ? fill : 0;
		fill = 0;
	}
	if (!left)
		pad(s, ' ', fill);
	while (*prefix)
		s->put(s, *prefix++);
	pad(s, '0', zeros);
	for (int i = 0; i < blen; i++)
		s->put(s, body[i]);
	if (left)
		pad(s, ' ', fill);
}

static int utoa(unsigned long long v, unsigned base, int upper, char *out)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, i = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	while (n)
		out[i++] = tmp[--n];
	return i;
}

static void format(struct sink *s, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		int left = 0, zero = 0, plus = 0, width = 0, prec = -1, lng = 0;
		char num[24];
		const char *prefix = "";
		unsigned long long u;
		long long v;
		int n;

		if (*fmt != '%') {
			s->put(s, *fmt);
			continue;
		}
		for (fmt++; *fmt == '-' || *fmt == '0' || *fmt == '+'; fmt++) {
			if (*fmt == '-')
				left = 1;
			else if (*fmt == '0')
				zero = 1;
			else
				plus = 1;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0)
				left = 1, width = -width;
			fmt++;
		}
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10 + *fmt - '0';
		if (*fmt == '.') {
			prec = 0;
			if (*++fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			}
			for (; *fmt >= '0' && *fmt <= '9'; fmt++)
				prec = prec * 10 + *fmt - '0';
		}
		for (; *fmt == 'l'; fmt++)
			lng++;
		if (*fmt == 'z')	/* size_t is unsigned int on i386 */
			fmt++;

		switch (*fmt) {
		case 'd':
		case 'i':
			v = lng >= 2 ? va_arg(ap, long long)
			    : lng ? va_arg(ap, long) : va_arg(ap, int);
			u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
			prefix = v < 0 ? "-" : plus ? "+" : "";
			n = (prec == 0 && v == 0) ? 0 : utoa(u, 10, 0, num);
			field(s, prefix, num, n, width, prec, left, zero);
			break;
		case 'u':
		case 'x':
		case 'X':
			u = lng >= 2 ? va_arg(ap, unsigned long long)
			    : lng ? va_arg(ap, unsigned long)
				  : va_arg(ap, unsigned int);
			n = (prec == 0 && u == 0) ? 0
			    : utoa(u, *fmt == 'u' ? 10 : 16, *fmt == 'X', num);
			field(s, "", num, n, width, prec, left, zero);
			break;
		case 'p':
			u = (unsigned long)va_arg(ap, void *);
			n = utoa(u, 16, 0, num);
			field(s, "0x", num, n, width, prec, left, zero);
			break;
		case 's': {
			const char *str = va_arg(ap, const char *);

			if (!str)
				str = "(null)";
			n = strlen(str);
			if (prec >= 0 && prec < n)
				n = prec;
			field(s, "", str, n, width, -1, left, 0);
			break;
		}
		case 'c':
			num[0] = (char)va_arg(ap, int);
			field(s, "", num, 1, width, -1, left, 0);
			break;
		case '%':
			s->put(s, '%');
			break;
		default:	/* unknown: print it as written */
			s->put(s, '%');
			if (!*fmt)
				return;
			s->put(s, *fmt);
		}
	}
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
	struct sink s = { .put = put_buf, .buf = buf, .cap = n };

	format(&s, fmt, ap);
	if (n)
		buf[s.len < n ? s.len : n - 1] = '\0';
	return s.len;
}

int snprintf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r;
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	struct sink s = { .put = put_file, .file = f };

	format(&s, fmt, ap);
	__file_done(f);
	return s.len;
}

int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfprintf(f, fmt, ap);
	va_end(ap);
	return r;
}

int vprintf(const char *fmt, va_list ap)
{
	return vfprintf(stdout, fmt, ap);
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return r;
}
