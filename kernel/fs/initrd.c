/*
 * initrd.c - the boot modules as a read-only file tree (kernel/fs/initrd.h).
 *
 * Nodes live in chunks of NODE_CHUNK, allocated as the archives need
 * them, so the table grows to any size the memory allows and a node never
 * moves. Paths and link targets are copied into string blocks of their
 * own (the archive's fields need not be NUL-terminated).
 */
#include "initrd.h"
#include "ustar.h"
#include "kernel/init/bootinfo.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/debug/panic.h"
#include "kernel/debug/printk.h"
#include "kernel/fs/proc/procfs.h"
#include "mount.h"
#include "tmpfs.h"
#include "lib/string.h"
#include "kernel/mm/vm.h"

#define NODE_CHUNK	256
#define MAX_CHUNKS	1024		/* 262,144 nodes: Debian's libc6 alone has 300 */

static struct initrd_file *chunks[MAX_CHUNKS];
static int nfiles;

/* Paths hashed to their nodes: chains of index + 1 (0 ends a chain) through
 * each node's hash_next. A scan of the whole table with strcmp cost every
 * exec about 9,000 instructions once /proc and Debian's packages grew it
 * (make profile ARGS="exec 50": 304 strcmp calls an exec). */
#define HASH_SIZE 4096
static int32_t hash_head[HASH_SIZE];

/* Strings: cut from blocks of STR_BLOCK bytes, never freed (the tree
 * lives as long as the kernel). */
#define STR_BLOCK	2000		/* a kmalloc block of 2 KiB, with its header */
static char *str_block;
static uint32_t str_left;

static struct initrd_file *node_at(int i)
{
	return &chunks[i / NODE_CHUNK][i % NODE_CHUNK];
}

static uint32_t path_hash(const char *path)
{
	uint32_t h = 2166136261u;		/* FNV-1a */
	while (*path)
		h = (h ^ (uint8_t)*path++) * 16777619u;
	return h % HASH_SIZE;
}

static const char *str_copy(const char *s)
{
	size_t n = strlen(s) + 1;
	if (n > STR_BLOCK)
		return NULL;
	if (n > str_left) {
		str_block = kmalloc(STR_BLOCK);
		if (!str_block)
			return NULL;
		str_left = STR_BLOCK;
	}
	char *p = str_block;
	memcpy(p, s, n);
	str_block += n;
	str_left -= (uint32_t)n;
	return p;
}

/* A fresh node for path (absolute, normalised), put in the hash; NULL
 * when memory is out. Its parent is set by the caller. */
static struct initrd_file *new_node(const char *path)
{
	if (nfiles == MAX_CHUNKS * NODE_CHUNK)
		return NULL;
	if (nfiles % NODE_CHUNK == 0 && !chunks[nfiles / NODE_CHUNK]) {
		chunks[nfiles / NODE_CHUNK] = kmalloc(NODE_CHUNK * sizeof(struct initrd_file));
		if (!chunks[nfiles / NODE_CHUNK])
			return NULL;
	}
	const char *copy = str_copy(path);
	if (!copy)
		return NULL;
	struct initrd_file *f = node_at(nfiles);
	*f = (struct initrd_file){ .path = copy, .owner = NODE_INITRD, .index = nfiles,
				   .nlink = 1 };
	uint32_t h = path_hash(copy);
	f->hash_next = hash_head[h];
	hash_head[h] = ++nfiles;		/* index + 1 */
	return f;
}

/* "bin/./x", "./bin//x/", "/bin/x" -> "/bin/x" in out (size bytes);
 * false for a ".." component or a path too long: the entry is skipped. */
static bool normalise(const char *in, char *out, size_t size)
{
	size_t n = 0;
	while (*in) {
		while (*in == '/')
			in++;
		const char *end = in;
		while (*end && *end != '/')
			end++;
		size_t len = (size_t)(end - in);
		if ((len == 2 && in[0] == '.' && in[1] == '.') || len > INITRD_NAME_MAX)
			return false;
		if (len && !(len == 1 && in[0] == '.')) {
			if (n + 1 + len + 1 > size)
				return false;
			out[n++] = '/';
			memcpy(out + n, in, len);
			n += len;
		}
		in = end;
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = 0;
	return true;
}

static char *last_slash(const char *s)
{
	const char *last = NULL;
	for (; *s; s++)
		if (*s == '/')
			last = s;
	return (char *)last;
}

/* The directory of normalised path, made (with the ones above it) if the
 * archives only imply it; NULL when memory is out or a file has its name. */
static struct initrd_file *dir_for(const char *path, uint32_t mtime);

static struct initrd_file *make_node(const char *path, bool dir, uint32_t mtime)
{
	struct initrd_file *parent = dir_for(path, mtime);
	if (!parent)
		return NULL;
	struct initrd_file *f = new_node(path);
	if (!f)
		return NULL;
	f->parent = parent->index;
	f->is_dir = dir;
	f->perm = dir ? 0755 : 0644;
	f->mtime = mtime;
	if (dir) {
		f->nlink = 2;			/* its name and its "." */
		parent->nlink++;		/* its ".." */
	}
	return f;
}

static struct initrd_file *dir_for(const char *path, uint32_t mtime)
{
	char dir[USTAR_NAME_MAX];
	strlcpy(dir, path, sizeof(dir));
	char *slash = last_slash(dir);
	if (slash == dir)
		slash++;			/* "/bin": its directory is "/" */
	*slash = 0;
	struct initrd_file *d = (struct initrd_file *)initrd_lookup(dir);
	if (!d)
		d = make_node(dir, true, mtime);	/* implied: as tar makes it */
	return d && d->is_dir ? d : NULL;
}

/* The node for path: the one there (the later archive's entry replaces a
 * file's contents, or a directory's mode), or a new one. NULL, reported,
 * when it cannot be kept. */
static struct initrd_file *node_for(const char *path, bool dir, uint32_t mtime)
{
	struct initrd_file *f = (struct initrd_file *)initrd_lookup(path);
	if (f && f->is_dir != dir) {
		pr_warn("initrd: %s: a file and a directory of one name, the first kept\n", path);
		return NULL;
	}
	if (f && f->procfs) {
		pr_warn("initrd: %s: the kernel's, kept\n", path);
		return NULL;
	}
	if (!f)
		f = make_node(path, dir, mtime);
	if (!f)
		pr_warn("initrd: %s: no memory or no directory for it, dropped\n", path);
	return f;
}

/* A hard link: a second name for target's file (which must be in the
 * tree already, as tar writes them). The name is a node of its own with
 * the file's bytes and mode (the initrd never changes after boot), so
 * that what is found by it, and /proc/PID/exe of a program run by it,
 * is that name, as a Linux dentry; hardlink keeps the file's inode
 * number and its count of names (initrd_ino, initrd_nlink). */
static void add_hardlink(const char *path, const char *target)
{
	char t[USTAR_NAME_MAX];
	const struct initrd_file *file = normalise(target, t, sizeof(t)) ? initrd_lookup(t) : NULL;
	if (file && file->hardlink)
		file = file->hardlink;
	if (!file || file->is_dir || initrd_lookup(path)) {
		pr_warn("initrd: %s: hard link to %s not kept\n", path, target);
		return;
	}
	struct initrd_file *f = node_for(path, false, file->mtime);
	if (f) {
		f->hardlink = file;
		f->data = file->data;
		f->size = file->size;
		f->perm = file->perm;
		((struct initrd_file *)file)->nlink++;
	}
}

/* One tar entry (kernel/fs/ustar.c). */
static void add_entry(const struct ustar_entry *e)
{
	char path[USTAR_NAME_MAX];
	if (!normalise(e->name, path, sizeof(path))) {
		pr_warn("initrd: %s: a \"..\" or a name too long, skipped\n", e->name);
		return;
	}
	if (e->type == '1') {
		add_hardlink(path, e->link);
		return;
	}
	struct initrd_file *f = node_for(path, e->type == '5', e->mtime);
	if (!f)
		return;
	f->perm = e->perm;
	f->mtime = e->mtime;
	f->hardlink = NULL;		/* a later entry's own file now */
	if (e->type == '0') {
		f->data = e->data;
		f->size = e->size;
		f->symlink = NULL;
	} else if (e->type == '2') {
		f->symlink = e->link[0] ? str_copy(e->link) : NULL;
		f->perm = 0777;
		f->size = 0;
		if (!f->symlink)
			pr_warn("initrd: symlink %s: empty target or no memory\n", path);
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

/* A node the kernel makes after the archives (kernel/fs/dev.c, kernel/fs/proc/procfs.c),
 * its directories made if need be. NULL when the path is taken (an
 * archive's own file wins) or memory is out. */
static struct initrd_file *add_kernel_node(const char *path, bool dir, uint16_t perm)
{
	if (initrd_lookup(path))
		return NULL;
	struct initrd_file *f = make_node(path, dir, 0);
	if (f)
		f->perm = perm;
	return f;
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

void initrd_add_symlink(const char *path, const char *target)
{
	struct initrd_file *f = add_kernel_node(path, false, 0777);
	if (f)
		f->symlink = target;		/* the kernel's own string: it lives */
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

/* An ELF module: /bin/<its module string's basename, up to a space>. */
static void add_elf_module(const struct boot_module *m, const uint8_t *p, uint32_t len)
{
	char path[INITRD_PATH_MAX] = "/bin/";
	const char *b = basename(m->name);
	size_t k = 0;
	while (b[k] && b[k] != ' ' && k + 6 < sizeof(path))
		path[5 + k] = b[k], k++;
	path[5 + k] = 0;
	struct initrd_file *f = node_for(path, false, 0);
	if (f) {
		f->data = p;
		f->size = len;
		f->perm = 0755;
	}
}

/* The tree starts empty but for "/", made before anything else so that no
 * archive, however large, can leave the boot without a root. The chunks
 * of an earlier call (tests/host) are forgotten with their memory. */
void initrd_init(void)
{
	nfiles = 0;
	memset(chunks, 0, sizeof(chunks));
	memset(hash_head, 0, sizeof(hash_head));
	str_left = 0;
	struct initrd_file *root = new_node("/");
	if (!root)
		panic("initrd: no memory for /");
	root->is_dir = true;
	root->perm = 0755;
	root->nlink = 2;
	for (int i = 0; i < boot_nmodules; i++) {
		const struct boot_module *m = &boot_modules[i];
		const uint8_t *p = P2V(m->start);
		uint32_t len = m->end - m->start;
		if (m->end > DIRECT_MAP_SIZE) {
			pr_warn("initrd: module %s is above the direct map, skipped\n", m->name);
			continue;
		}
		if (len >= USTAR_BLOCK && ustar_header_ok(p))
			ustar_unpack(p, len, m->name, add_entry);
		else if (len >= 4 && memcmp(p, "\177ELF", 4) == 0)
			add_elf_module(m, p, len);
		else
			pr_warn("initrd: module %s is neither ustar nor ELF, skipped\n", m->name);
	}
	printk("initrd: %d files from %d modules\n", nfiles, boot_nmodules);
}

/* Nodes outside the table are /proc's per-process ones (kernel/fs/proc/procfs_pid.c),
 * made when a walk or a listing reaches them. */
static bool in_table(const struct initrd_file *n)
{
	return n->owner == NODE_INITRD;
}

/* A hard link's name stands for its file. */
static const struct initrd_file *file_of(const struct initrd_file *n)
{
	return n->hardlink ? n->hardlink : n;
}

uint32_t initrd_nlink(const struct initrd_file *n)
{
	return file_of(n)->nlink;
}

uint32_t initrd_index(const struct initrd_file *n)
{
	return in_table(n) ? (uint32_t)file_of(n)->index : procfs_ino(n);
}

const struct initrd_file *initrd_lookup(const char *path)
{
	for (int i = hash_head[path_hash(path)]; i; i = node_at(i - 1)->hash_next)
		if (strcmp(node_at(i - 1)->path, path) == 0)
			return node_at(i - 1);
	return NULL;
}

const struct initrd_file *initrd_root(void)
{
	return nfiles ? node_at(0) : NULL;
}

/* ".." of a mount's root is its mount point's. */
const struct initrd_file *initrd_parent(const struct initrd_file *f)
{
	if (tmpfs_of(f)) {
		const struct initrd_file *up = tmpfs_parent(f), *point;
		if (up)
			return up;
		point = mount_point_of(f);
		return point ? initrd_parent(point) : f;
	}
	return in_table(f) ? node_at(f->parent) : procfs_parent(f);
}

uint32_t initrd_ino(const struct initrd_file *f)
{
	if (tmpfs_of(f))
		return tmpfs_of(f)->ino;
	return in_table(f) ? (uint32_t)file_of(f)->index + 1 : procfs_ino(f);
}

int node_hold(const struct initrd_file *n)
{
	return tmpfs_of(n) ? tmpfs_hold(n) : procfs_node_hold(n);
}

void node_drop(const struct initrd_file *n)
{
	if (tmpfs_of(n))
		tmpfs_drop(n);
	else
		procfs_node_drop(n);
}

int node_read(const struct initrd_file *n, void *buf, uint32_t count, uint32_t off)
{
	if (tmpfs_of(n))
		return tmpfs_read_kernel(tmpfs_of(n), buf, count, off);
	if (off >= n->size || !n->data)
		return 0;
	if (count > n->size - off)
		count = n->size - off;
	memcpy(buf, n->data + off, count);
	return (int)count;
}

int node_hold_exe(const struct initrd_file *n)
{
	int err = node_hold(n);
	if (!err && tmpfs_of(n) && (err = tmpfs_deny_write(tmpfs_of(n))) < 0)
		node_drop(n);
	return err;
}

void node_drop_exe(const struct initrd_file *n)
{
	if (tmpfs_of(n))
		tmpfs_allow_write(tmpfs_of(n));
	node_drop(n);
}

const char *initrd_name(const struct initrd_file *f)
{
	const char *slash = last_slash(f->path);
	return slash[1] ? slash + 1 : f->path;
}

/* A listing of /proc goes on past the table with the live PIDs: positions
 * from nfiles up are procfs's (procfs_next_child). A hard link is listed
 * under its own name (the caller asks initrd_ino for its file's number). */
const struct initrd_file *initrd_next_child(const struct initrd_file *dir, uint32_t *pos)
{
	if (!in_table(dir) || (dir->procfs && *pos >= (uint32_t)nfiles))
		return procfs_next_child(dir, pos, (uint32_t)nfiles);
	int d = dir->index;
	if (*pos > (uint32_t)nfiles)	/* lseek far past the end: an int would go negative */
		*pos = (uint32_t)nfiles;
	for (int i = (int)*pos; i < nfiles; i++) {
		if (node_at(i)->parent == d && i != d) {	/* not "/" in itself */
			*pos = (uint32_t)i + 1;
			return node_at(i);
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
	if (tmpfs_of(*at))
		return tmpfs_lookup(at, name, len);
	if (!in_table(*at))			/* /proc/PID: procfs names its children */
		return procfs_lookup(at, name, len);
	char path[USTAR_NAME_MAX];
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
 * the kernel says, a symbolic link its target, walked from dir, the
 * directory the link was found in (or from "/"). Linux gives up after 40
 * links: ELOOP. */
static int follow(const struct initrd_file **at, const struct initrd_file *dir, int depth)
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
	return resolve(dir, (*at)->symlink, at, true, depth + 1);
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
		const struct initrd_file *dir = at;
		int err = walk_step(&at, s, (size_t)(end - s));
		if (!err && at->mounted)		/* a mount point: its mount's root */
			at = mount_cross(at);
		const char *rest = end;
		while (*rest == '/')
			rest++;
		/* lstat, readlink: not the last, unless a '/' follows it
		 * ("/proc/self/" is the directory, as Linux) */
		if (!err && (*rest || follow_last || *end == '/'))
			err = follow(&at, dir, depth);
		if (err < 0)
			return err;
		s = end;
	}
	if (s > path && s[-1] == '/' && !at->is_dir)
		return -ENOTDIR;		/* "file/" */
	*out = at;
	return 0;
}
