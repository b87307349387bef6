/*
 * initrd.c - unpacks ustar archives and ELF modules into a file table.
 *
 * ustar (POSIX.1-1988) is 512-byte blocks: a header block (name, octal
 * size, type, "ustar" magic at offset 257), the file's data rounded up to
 * 512, repeat; two zero blocks end the archive.
 */
#include "initrd.h"
#include "bootinfo.h"
#include "format.h"
#include "kmalloc.h"
#include "printk.h"
#include "string.h"
#include "vm.h"

#define MAX_FILES 256

static struct initrd_file files[MAX_FILES];
static int nfiles;

uint32_t ustar_octal(const char *field, int len)
{
	uint32_t v = 0;
	for (int i = 0; i < len && field[i] >= '0' && field[i] <= '7'; i++)
		v = v * 8 + (field[i] - '0');
	return v;
}

bool ustar_header_ok(const uint8_t *block)
{
	return memcmp(block + 257, "ustar", 5) == 0;
}

static void add_file(const char *path, const uint8_t *data, uint32_t size, bool dir)
{
	if (nfiles == MAX_FILES) {
		pr_warn("initrd: too many files, %s dropped\n", path);
		return;
	}
	struct initrd_file *f = &files[nfiles++];
	f->path[0] = '/';
	/* Normalise "./bin/x" and "bin/x" to "/bin/x"; drop a trailing '/'. */
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (*path == '/')
		path++;
	strlcpy(f->path + 1, path, sizeof(f->path) - 1);
	size_t n = strlen(f->path);
	if (n > 1 && f->path[n - 1] == '/')
		f->path[n - 1] = 0;
	f->data = data;
	f->size = size;
	f->is_dir = dir;
}

static void unpack_ustar(const uint8_t *p, uint32_t len)
{
	uint32_t off = 0;
	while (off + 512 <= len && p[off] != 0) {
		const uint8_t *h = p + off;
		if (!ustar_header_ok(h)) {
			pr_warn("initrd: bad ustar header at offset %u\n", off);
			return;
		}
		char name[260];
		const char *prefix = (const char *)h + 345;	/* ustar: long names */
		if (prefix[0])
			ksnprintf(name, sizeof(name), "%.155s/%.100s", prefix, (const char *)h);
		else
			ksnprintf(name, sizeof(name), "%.100s", (const char *)h);
		uint32_t size = ustar_octal((const char *)h + 124, 12);
		char type = h[156];
		if (off + 512 + size > len) {
			pr_warn("initrd: %s runs past the archive end\n", name);
			return;
		}
		if (type == '0' || type == 0)
			add_file(name, h + 512, size, false);
		else if (type == '5')
			add_file(name, NULL, 0, true);
		off += 512 + ((size + 511) & ~511u);
	}
}

static const char *basename(const char *s)
{
	const char *b = s;
	for (; *s; s++)
		if (*s == '/' && s[1] && s[1] != ' ')
			b = s + 1;
	return b;
}

void initrd_init(void)
{
	for (int i = 0; i < boot_nmodules; i++) {
		const struct boot_module *m = &boot_modules[i];
		const uint8_t *p = P2V(m->start);
		uint32_t len = m->end - m->start;
		if (m->end > DIRECT_MAP_SIZE) {
			pr_warn("initrd: module %s is above the direct map, skipped\n", m->name);
			continue;
		}
		if (len >= 512 && ustar_header_ok(p)) {
			unpack_ustar(p, len);
		} else if (len >= 4 && memcmp(p, "\177ELF", 4) == 0) {
			char path[INITRD_PATH_MAX] = "bin/";
			const char *b = basename(m->name);
			size_t k = 0;
			while (b[k] && b[k] != ' ' && k + 5 < sizeof(path))
				path[4 + k] = b[k], k++;
			path[4 + k] = 0;
			add_file(path, p, len, false);
		} else {
			pr_warn("initrd: module %s is neither ustar nor ELF, skipped\n", m->name);
		}
	}
	printk("initrd: %d files from %d modules\n", nfiles, boot_nmodules);
}

uint32_t initrd_index(const struct initrd_file *n)
{
	return (uint32_t)(n - files);
}

const struct initrd_file *initrd_lookup(const char *path)
{
	for (int i = nfiles - 1; i >= 0; i--)	/* later modules win */
		if (strcmp(files[i].path, path) == 0)
			return &files[i];
	return NULL;
}

