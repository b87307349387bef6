/*
 * format.c - the kernel's printf engine, used by printk and by anything
 * that builds a string (panic messages, /proc-like text).
 */
#include <stdint.h>
#include <stdbool.h>
#include "format.h"
#include "errno.h"

struct out {
	char *buf;
	size_t n;	/* capacity */
	size_t len;	/* chars produced so far (may exceed n) */
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->n)
		o->buf[o->len] = c;
	o->len++;
}

static void put_padded(struct out *o, const char *s, size_t len, int width,
		       bool left, char pad)
{
	int fill = width > (int)len ? width - (int)len : 0;
	if (!left)
		while (fill-- > 0)
			put(o, pad);
	while (len--)
		put(o, *s++);
	if (left)
		while (fill-- > 0)
			put(o, ' ');
}

static void put_number(struct out *o, unsigned long long v, bool negative,
		       unsigned base, bool upper, int width, bool left, char pad)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = digits[v % base];
		v /= base;
	} while (v);
	if (negative) {
		if (pad == '0') {	/* sign goes before the zeros: -0042 */
			put(o, '-');
			width--;
		} else {
			tmp[--i] = '-';
		}
	}
	put_padded(o, tmp + i, sizeof(tmp) - i, width, left, pad);
}

/* One conversion, "%-08.3lld" say, taken apart. */
struct spec {
	bool left;	/* '-' */
	char pad;	/* '0' or ' ' */
	int width, prec, lng;
	char conv;	/* the conversion letter, or 0 at the end of the string */
};

/* Read the flags, width, precision and length of a conversion; fmt points
 * just past the '%'. Returns where the conversion letter is. */
static const char *parse_spec(const char *fmt, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){ .pad = ' ', .prec = -1 };
	for (; *fmt == '-' || *fmt == '0'; fmt++) {
		if (*fmt == '-')
			sp->left = true;
		else
			sp->pad = '0';
	}
	if (*fmt == '*') {
		sp->width = va_arg(*ap, int);
		fmt++;
	}
	for (; *fmt >= '0' && *fmt <= '9'; fmt++)
		sp->width = sp->width * 10 + (*fmt - '0');
	if (*fmt == '.') {
		sp->prec = 0;
		for (fmt++; *fmt >= '0' && *fmt <= '9'; fmt++)
			sp->prec = sp->prec * 10 + (*fmt - '0');
	}
	for (; *fmt == 'l'; fmt++)
		sp->lng++;
	if (sp->left)
		sp->pad = ' ';	/* C: '-' overrides '0' */
	sp->conv = *fmt;
	return fmt;
}

static void convert(struct out *o, const struct spec *sp, va_list *ap)
{
	switch (sp->conv) {
	case 'd':
	case 'i': {
		long long v = sp->lng >= 2 ? va_arg(*ap, long long)
			    : sp->lng ? va_arg(*ap, long) : va_arg(*ap, int);
		unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
		put_number(o, u, v < 0, 10, false, sp->width, sp->left, sp->pad);
		break;
	}
	case 'u':
	case 'x':
	case 'X':
	case 'o': {
		unsigned long long v = sp->lng >= 2 ? va_arg(*ap, unsigned long long)
				     : sp->lng ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned);
		unsigned base = sp->conv == 'u' ? 10 : sp->conv == 'o' ? 8 : 16;
		put_number(o, v, false, base, sp->conv == 'X', sp->width, sp->left, sp->pad);
		break;
	}
	case 'p':
		put(o, '0');
		put(o, 'x');
		put_number(o, (uintptr_t)va_arg(*ap, void *), false, 16, false, 8, false, '0');
		break;
	case 'c': {
		char c = (char)va_arg(*ap, int);
		put_padded(o, &c, 1, sp->width, sp->left, ' ');
		break;
	}
	case 's': {
		const char *s = va_arg(*ap, const char *);
		size_t len = 0;
		if (!s)
			s = "(null)";
		while (s[len] && (sp->prec < 0 || (int)len < sp->prec))
			len++;
		put_padded(o, s, len, sp->width, sp->left, ' ');
		break;
	}
	case '%':
		put(o, '%');
		break;
	default:	/* unknown conversion: show it as written */
		put(o, '%');
		put(o, sp->conv);
	}
}

int kvsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
	struct out o = { buf, n, 0 };
	struct spec sp;
	va_list args;

	va_copy(args, ap);	/* so helpers can take arguments through a pointer */
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &args);
		if (!sp.conv) {	/* a lone '%' at the end */
			fmt--;
			continue;
		}
		convert(&o, &sp, &args);
	}
	va_end(args);
	if (n)
		o.buf[o.len < n ? o.len : n - 1] = 0;
	return (int)o.len;
}

int ksnprintf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = kvsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int parse_decimals(const char *s, uint32_t len, int64_t *out, int max)
{
	uint32_t i = 0;
	int n = 0;

	for (;;) {
		while (i < len && blank(s[i]))
			i++;
		if (i == len || n == max)
			return n && i == len ? n : -EINVAL;
		bool neg = s[i] == '-', digits = false;
		int64_t v = 0;
		for (i += neg; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits = true)
			if ((v = v * 10 + (s[i] - '0')) > (1ll << 33))
				return -EINVAL;
		if (!digits || (i < len && !blank(s[i])))
			return -EINVAL;
		out[n++] = neg ? -v : v;
	}
}
