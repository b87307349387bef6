/*
 * initrd.c - unpacks ustar archives and ELF modules into a file table.
 *
 * ustar (POSIX.1-1988) is 512-byte blocks: a header block (name, octal
 * size, type, "ustar" magic at offset 257), the file's data rounded up to
 * 512, repeat; two zero blocks end the archive.
 */
#include "initrd.h"
#include "kernel/init/bootinfo.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/debug/printk.h"
#include "kernel/fs/proc/procfs.h"
#include "lib/string.h"
#include "kernel/mm/vm.h"

#define MAX_FILES 1024		/* Debian's libc6 alone has 300 */

static struct initrd_file files[MAX_FILES];
static int nfiles;

/* Paths hashed to their files: chains of index + 1 (0 ends a chain),
 * newest first, so that a later module's file is found before the one it
 * replaces. A scan of the whole table with strcmp cost every exec about
 * 9,000 instructions once /proc and Debian's packages grew it (make
 * profile ARGS="exec 50": 304 strcmp calls an exec). */
#define HASH_SIZE 1024
static uint16_t hash_head[HASH_SIZE], hash_next[MAX_FILES];

static uint32_t path_hash(const char *path)
{
	uint32_t h = 2166136261u;		/* FNV-1a */
	while (*path)
		h = (h ^ (uint8_t)*path++) * 16777619u;
	return h % HASH_SIZE;
}

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

static void add_file(const char *path, const uint8_t *data, uint32_t size, bool dir,
		     uint16_t perm, uint32_t mtime)
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
	f->perm = perm & 07777;
	f->mtime = mtime;
	f->parent = 0;
	f->rdev = 0;
	uint32_t h = path_hash(f->path);
	hash_next[nfiles - 1] = hash_head[h];
	hash_head[h] = (uint16_t)nfiles;	/* index + 1 */
	f->magic = 0;
	f->symlink = NULL;
	f->procfs = 0;
	f->arg = 0;
}

/* ustar's symbolic link (typeflag '2'): the target is the header's
 * linkname field, up to 100 bytes (NUL-terminated when shorter), kept
 * where it is: the module's memory stays reserved. */
static void add_symlink(const char *name, const char *target, uint32_t mtime)
{
	size_t n = 0;
	while (n < 100 && target[n])
		n++;
	if (n == 0 || n == 100) {
		pr_warn("initrd: symlink %s: empty or 100-byte target, dropped\n", name);
		return;
	}
	add_file(name, NULL, 0, false, 0777, mtime);
	if (nfiles > 0 && files[nfiles - 1].symlink == NULL)
		files[nfiles - 1].symlink = target;
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
		uint16_t perm = (uint16_t)ustar_octal((const char *)h + 100, 8);
		uint32_t mtime = ustar_octal((const char *)h + 136, 12);
		if (off + 512 + size > len) {
			pr_warn("initrd: %s runs past the archive end\n", name);
			return;
		}
		if (type == '0' || type == 0)
			add_file(name, h + 512, size, false, perm, mtime);
		else if (type == '5')
			add_file(name, NULL, 0, true, perm, mtime);
		else if (type == '2')
			add_symlink(name, (const char *)h + 157, mtime);
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

static char *last_slash(const char *s)
{
	const char *last = NULL;
	for (; *s; s++)
		if (*s == '/')
			last = s;
	return (char *)last;
}

/*
 * Give every node its directory, making the directories the archives only
 * imply ("bin/x" without "bin/") and "/"; nodes made here are linked when
 * the loop reaches them.
 */
static void link_node(int i)
{
	char dir[INITRD_PATH_MAX];
	strlcpy(dir, files[i].path, sizeof(dir));
	char *slash = last_slash(dir);
	if (slash == dir)
		slash++;			/* "/bin": its directory is "/" */
	*slash = 0;
	if (!dir[0]) {				/* "/" itself */
		files[i].parent = i;
		return;
	}
	if (!initrd_lookup(dir))
		add_file(dir, NULL, 0, true, 0755, files[i].mtime);
	const struct initrd_file *d = initrd_lookup(dir);
	files[i].parent = d ? (int)(d - files) : i;	/* NULL: the table is full */
}

static void link_tree(void)
{
	if (!initrd_lookup("/"))
		add_file("/", NULL, 0, true, 0755, 0);
	for (int i = 0; i < nfiles; i++)
		link_node(i);
}

/* A node the kernel makes after the archives (kernel/fs/dev.c, kernel/fs/proc/procfs.c):
 * linked at once, its directories made if need be. NULL when the path is
 * taken (an archive's own file wins) or the table is full. */
static struct initrd_file *add_kernel_node(const char *path, bool dir, uint16_t perm)
{
	if (initrd_lookup(path) || nfiles == MAX_FILES)
		return NULL;
	int first = nfiles;
	add_file(path, NULL, 0, dir, perm, 0);
	for (int i = first; i < nfiles; i++)	/* and the directories it needed */
		link_node(i);
	return &files[first];
}

void initrd_add_device(const char *path, uint16_t rdev, uint16_t perm)
{
	struct initrd_file *f = add_kernel_node(path, false, perm);
	if (f)
		f->rdev = rdev;
}

void initrd_add_dir(const char *path)
{
	add_kernel_node(path, true, 0555);
}

void initrd_add_magic(const char *path, uint8_t magic)
{
	struct initrd_file *f = add_kernel_node(path, false, 0777);
	if (f)
		f->magic = magic;
}

void initrd_add_proc(const char *path, uint8_t kind, int32_t arg, uint16_t perm, bool dir)
{
	struct initrd_file *f = add_kernel_node(path, dir, perm);
	if (f) {
		f->procfs = kind;
		f->arg = arg;
	}
}

void initrd_init(void)
{
	nfiles = 0;
	memset(hash_head, 0, sizeof(hash_head));
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
			add_file(path, p, len, false, 0755, 0);
		} else {
			pr_warn("initrd: module %s is neither ustar nor ELF, skipped\n", m->name);
		}
	}
	link_tree();
	printk("initrd: %d files from %d modules\n", nfiles, boot_nmodules);
}

/* Nodes outside the table are /proc's per-process ones (kernel/fs/proc/procfs_pid.c),
 * made when a walk or a listing reaches them. */
static bool in_table(const struct initrd_file *n)
{
	return n >= files && n < files + MAX_FILES;
}

uint32_t initrd_index(const struct initrd_file *n)
{
	return in_table(n) ? (uint32_t)(n - files) : procfs_ino(n);
}

const struct initrd_file *initrd_lookup(const char *path)
{
	for (int i = hash_head[path_hash(path)]; i; i = hash_next[i - 1])
		if (strcmp(files[i - 1].path, path) == 0)	/* the newest: later modules win */
			return &files[i - 1];
	return NULL;
}


const struct initrd_file *initrd_root(void)
{
	return initrd_lookup("/");
}

const struct initrd_file *initrd_parent(const struct initrd_file *f)
{
	return in_table(f) ? &files[f->parent] : procfs_parent(f);
}

uint32_t initrd_ino(const struct initrd_file *f)
{
	return in_table(f) ? (uint32_t)(f - files) + 1 : procfs_ino(f);
}

const char *initrd_name(const struct initrd_file *f)
{
	const char *slash = last_slash(f->path);
	return slash[1] ? slash + 1 : f->path;
}

/* A listing of /proc goes on past the table with the live PIDs: positions
 * from nfiles up are procfs's (procfs_next_child). */
const struct initrd_file *initrd_next_child(const struct initrd_file *dir, uint32_t *pos)
{
	if (!in_table(dir) || (dir->procfs && *pos >= (uint32_t)nfiles))
		return procfs_next_child(dir, pos, (uint32_t)nfiles);
	int d = (int)(dir - files);
	if (*pos > (uint32_t)nfiles)	/* lseek far past the end: an int would go negative */
		*pos = (uint32_t)nfiles;
	for (int i = (int)*pos; i < nfiles; i++) {
		/* Not "/" in itself, and not a node a later module replaced. */
		if (files[i].parent == d && i != d && initrd_lookup(files[i].path) == &files[i]) {
			*pos = (uint32_t)i + 1;
			return &files[i];
		}
	}
	*pos = (uint32_t)nfiles;
	return dir->procfs ? procfs_next_child(dir, pos, (uint32_t)nfiles) : NULL;
}

/* One step of the walk: name (len bytes) inside directory at. Not inlined:
 * its path buffer must not sit in every frame of a symbolic link's nested
 * walk (resolve -> follow -> resolve, up to 40 deep on an 8 KiB stack). */
static __attribute__((noinline)) int walk_step(const struct initrd_file **at, const char *name, size_t len)
{
	if (!(*at)->is_dir)
		return -ENOTDIR;
	if (len == 1 && name[0] == '.')
		return 0;
	if (len == 2 && name[0] == '.' && name[1] == '.') {
		*at = initrd_parent(*at);
		return 0;
	}
	if (!in_table(*at))			/* /proc/PID: procfs names its children */
		return procfs_lookup(at, name, len);
	char path[INITRD_PATH_MAX];
	size_t base = strlen((*at)->path);
	if (base == 1)
		base = 0;			/* "/" + name, not "//" + name */
	if (base + 1 + len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, (*at)->path, base);
	path[base] = '/';
	memcpy(path + base + 1, name, len);
	path[base + 1 + len] = 0;
	const struct initrd_file *next = initrd_lookup(path);
	if (!next && (*at)->procfs)		/* /proc/PID */
		return procfs_lookup(at, name, len);
	if (!next)
		return -ENOENT;
	*at = next;
	return 0;
}

static int resolve(const struct initrd_file *cwd, const char *path,
		   const struct initrd_file **out, bool follow_last, int depth);

/* A link stands for what it names: a magic link (/proc/self/exe) the node
 * the kernel says, a symbolic link its target, walked from the link's own
 * directory (or from "/"). Linux gives up after 40 links: ELOOP. */
static int follow(const struct initrd_file **at, int depth)
{
	if ((*at)->magic) {
		const struct initrd_file *t = initrd_magic_target(*at);
		if (!t)
			return -ENOENT;
		*at = t;
		return 0;
	}
	if (!(*at)->symlink)
		return 0;
	if (depth >= INITRD_MAX_LINKS)
		return -ELOOP;
	return resolve(initrd_parent(*at), (*at)->symlink, at, true, depth + 1);
}

int initrd_resolve(const struct initrd_file *cwd, const char *path,
		   const struct initrd_file **out)
{
	return resolve(cwd, path, out, true, 0);
}

int initrd_resolve_at(const struct initrd_file *cwd, const char *path,
		      const struct initrd_file **out, bool follow_last)
{
	return resolve(cwd, path, out, follow_last, 0);
}

static int resolve(const struct initrd_file *cwd, const char *path,
		   const struct initrd_file **out, bool follow_last, int depth)
{
	const struct initrd_file *at = path[0] == '/' || !cwd ? initrd_root() : cwd;
	const char *s = path;

	if (!path[0])
		return -ENOENT;			/* Linux: "" names nothing */
	if (!at)
		return -ENOENT;			/* no initrd at all */
	while (*s) {
		while (*s == '/')
			s++;
		const char *end = s;
		while (*end && *end != '/')
			end++;
		if (end == s)
			break;			/* trailing '/' */
		int err = walk_step(&at, s, (size_t)(end - s));
		const char *rest = end;
		while (*rest == '/')
			rest++;
		if (!err && (*rest || follow_last))	/* lstat, readlink: not the last */
			err = follow(&at, depth);
		if (err < 0)
			return err;
		s = end;
	}
	if (s > path && s[-1] == '/' && !at->is_dir)
		return -ENOTDIR;		/* "file/" */
	*out = at;
	return 0;
}
