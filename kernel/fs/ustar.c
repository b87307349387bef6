/*
 * ustar.c - a tar archive's entries, one at a time (kernel/fs/ustar.h).
 *
 * ustar is 512-byte blocks: a header block (name, octal mode, size and
 * mtime, a type, the "ustar" magic at offset 257, a 155-byte prefix for
 * long paths), the entry's data rounded up to 512, repeat; two zero
 * blocks end the archive. The header's checksum is the sum of its bytes
 * with the checksum field itself read as spaces.
 */
#include "ustar.h"
#include "lib/format.h"
#include "lib/string.h"
#include "kernel/debug/printk.h"

/* Header fields (POSIX.1-1988's offsets and widths). */
#define H_NAME		0
#define H_MODE		100
#define H_SIZE		124
#define H_MTIME		136
#define H_CHKSUM	148
#define H_TYPE		156
#define H_LINKNAME	157
#define H_MAGIC		257
#define H_PREFIX	345

/* The next entry's long name and link target, from a GNU 'L'/'K' entry
 * or a pax 'x' header; empty when none came. Boot runs this on one CPU. */
static char long_name[USTAR_NAME_MAX], long_link[USTAR_NAME_MAX];

uint32_t ustar_octal(const char *field, int len)
{
	uint32_t v = 0;
	int i = 0;
	while (i < len && field[i] == ' ')
		i++;
	for (; i < len && field[i] >= '0' && field[i] <= '7'; i++)
		v = v * 8 + (uint32_t)(field[i] - '0');
	return v;
}

bool ustar_header_ok(const uint8_t *block)
{
	return memcmp(block + H_MAGIC, "ustar", 5) == 0;
}

bool ustar_checksum_ok(const uint8_t *block)
{
	uint32_t sum = 0;
	for (int i = 0; i < USTAR_BLOCK; i++)
		sum += i >= H_CHKSUM && i < H_CHKSUM + 8 ? ' ' : block[i];
	return sum == ustar_octal((const char *)block + H_CHKSUM, 8);
}

/* A field of at most len bytes, NUL-terminated only when shorter. */
static void field_copy(char *dst, const uint8_t *src, size_t len)
{
	size_t n = 0;
	while (n < len && src[n])
		n++;
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* GNU's 'L' or 'K': the data is the next entry's name or link target. */
static bool take_long(char *dst, const uint8_t *data, uint32_t size)
{
	if (size >= USTAR_NAME_MAX)
		return false;
	field_copy(dst, data, size);
	return true;
}

/* pax's 'x': records "LEN key=value\n"; path and linkpath are kept. */
static void take_pax(const uint8_t *data, uint32_t size)
{
	uint32_t off = 0;
	while (off < size) {
		uint32_t len = 0, i = off;
		while (i < size && data[i] >= '0' && data[i] <= '9')
			len = len * 10 + (uint32_t)(data[i++] - '0');
		if (len == 0 || i >= size || data[i] != ' ' || off + len > size)
			return;			/* malformed: the rest is not read */
		const char *kv = (const char *)data + i + 1;
		uint32_t kvlen = off + len - (i + 1) - 1;	/* without the '\n' */
		char *dst = kvlen > 5 && memcmp(kv, "path=", 5) == 0 ? long_name :
			    kvlen > 9 && memcmp(kv, "linkpath=", 9) == 0 ? long_link : NULL;
		uint32_t skip = dst == long_name ? 5 : 9;
		if (dst && kvlen - skip < USTAR_NAME_MAX) {
			memcpy(dst, kv + skip, kvlen - skip);
			dst[kvlen - skip] = 0;
		}
		off += len;
	}
}

/* The entry's name: a long one if given, else prefix "/" name. */
static void entry_name(const uint8_t *h, char *name)
{
	if (long_name[0]) {
		strlcpy(name, long_name, USTAR_NAME_MAX);
		return;
	}
	size_t n = 0;
	if (h[H_PREFIX]) {
		field_copy(name, h + H_PREFIX, 155);
		n = strlen(name);
		name[n++] = '/';
	}
	field_copy(name + n, h + H_NAME, 100);
}

/* One header at offset off: its entry handed to add, or the meta entries
 * kept for the next. Returns the bytes it spans, or 0: end the archive. */
static uint32_t one_entry(const uint8_t *p, uint32_t off, uint32_t len, const char *module,
			  void (*add)(const struct ustar_entry *e))
{
	static char name[USTAR_NAME_MAX], link[USTAR_NAME_MAX];
	const uint8_t *h = p + off;
	if (!ustar_header_ok(h) || !ustar_checksum_ok(h)) {
		pr_warn("initrd: %s: bad tar header at offset %u, the rest skipped\n", module, off);
		return 0;
	}
	uint32_t size = ustar_octal((const char *)h + H_SIZE, 12);
	if ((h[H_SIZE] & 0x80) || size > len - off - USTAR_BLOCK) {
		field_copy(name, h, 100);
		pr_warn("initrd: %s: %s runs past the archive end\n", module, name);
		return 0;
	}
	uint32_t span = USTAR_BLOCK + ((size + USTAR_BLOCK - 1) & ~(uint32_t)(USTAR_BLOCK - 1));
	char type = (char)h[H_TYPE];
	const uint8_t *data = h + USTAR_BLOCK;
	if (type == 'L' || type == 'K') {
		if (!take_long(type == 'L' ? long_name : long_link, data, size))
			pr_warn("initrd: %s: a name of %u bytes at offset %u, skipped\n",
				module, size, off);
		return span;
	}
	if (type == 'x') {
		take_pax(data, size);
		return span;
	}
	if (type == 'g')			/* pax global header: nothing we keep */
		return span;
	entry_name(h, name);
	if (long_link[0])
		strlcpy(link, long_link, sizeof(link));
	else
		field_copy(link, h + H_LINKNAME, 100);
	long_name[0] = long_link[0] = 0;	/* they were this entry's */
	if (type == 0 || type == '7')
		type = '0';			/* old tar's file; contiguous file */
	if (type != '0' && type != '1' && type != '2' && type != '5') {
		pr_warn("initrd: %s: %s: tar type '%c' is not kept\n", module, name, type);
		return span;
	}
	struct ustar_entry e = {
		.name = name, .link = link, .type = type, .data = data,
		.size = type == '0' ? size : 0,
		.perm = (uint16_t)(ustar_octal((const char *)h + H_MODE, 8) & 07777),
		.mtime = ustar_octal((const char *)h + H_MTIME, 12),
	};
	add(&e);
	return span;
}

void ustar_unpack(const uint8_t *p, uint32_t len, const char *module,
		  void (*add)(const struct ustar_entry *e))
{
	uint32_t off = 0;
	long_name[0] = long_link[0] = 0;
	while (off + USTAR_BLOCK <= len && p[off] != 0) {
		uint32_t span = one_entry(p, off, len, module, add);
		if (span == 0)
			return;
		off += span;
	}
}
