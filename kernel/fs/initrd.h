/*
 * initrd.h - the read-only in-memory file tree built from boot modules.
 *
 * Every module that is a tar archive is unpacked into the tree
 * (kernel/fs/ustar.c reads it); every module that is an ELF file becomes
 * /bin/<basename of its module string> (docs/abi.md §8). Files are never
 * copied: a node points into the module's memory, which the frame
 * allocator keeps reserved.
 *
 * The tree is a table of nodes that grows a chunk at a time (nodes never
 * move, so a pointer to one stays good), each naming its directory
 * (parent); "/" is made first and every directory a path implies ("bin/x"
 * without "bin/") before the path itself, so a node's directory is always
 * there. A hard link (tar's type '1') is a name for a file already in the
 * tree: the walk goes on to that file, which counts its names (nlink).
 *
 * struct initrd_file is the node every path walk returns (kernel/fs/fs.h):
 * the initrd's own, /proc's (kernel/fs/proc/) and tmpfs's (owner says
 * whose).
 */
#ifndef KERNEL_INITRD_H
#define KERNEL_INITRD_H

#include <stdint.h>
#include <stdbool.h>

#define INITRD_PATH_MAX 100		/* /proc's node paths; a symbolic link's text in stat */
#define INITRD_NAME_MAX 255		/* Linux's NAME_MAX: a longer component is skipped */
#define INITRD_MAX_LINKS 40		/* Linux's MAXSYMLINKS: then ELOOP */

/* Who made a node, and so who answers for it beyond these fields. */
enum node_owner {
	NODE_INITRD = 1,		/* the table here: initrd, /dev, /proc's fixed files */
	NODE_PROC_PID,			/* /proc/PID's (kernel/fs/proc/procfs_pid.c) */
	NODE_TMPFS,			/* in a struct tmpfs_node (kernel/fs/tmpfs.h) */
};

struct initrd_file {
	const char *path;		/* absolute, e.g. "/bin/sh" (never renamed) */
	const uint8_t *data;
	uint32_t size;
	bool is_dir;
	uint8_t owner;			/* enum node_owner */
	uint16_t perm;			/* permission bits (ustar's mode field) */
	uint32_t mtime;			/* seconds since 1970 (ustar's mtime) */
	uint16_t rdev;			/* a character device (kernel/fs/dev.c): major << 8 | minor; 0 else */
	uint8_t magic;			/* a magic link (kernel/fs/proc/procfs.c): initrd_magic_target() */
	uint8_t procfs;			/* a /proc node (kernel/fs/proc/procfs.h's PROCFS_*); 0 else */
	uint8_t mounted;		/* a directory something is mounted on (kernel/fs/mount.c) */
	const char *symlink;		/* a symbolic link's target (a tar's typeflag '2'); NULL else */
	int32_t arg;			/* /proc: the pid of a /proc/PID node, a tunable's id */
	/* The initrd's own (NODE_INITRD): */
	uint32_t nlink;			/* a file's names; a directory's 2 + its subdirectories */
	int32_t index;			/* its place in the table: inode number - 1 */
	int32_t parent;			/* index of its directory; "/" is its own */
	int32_t hash_next;		/* the next node of its hash chain: index + 1; 0 ends */
	const struct initrd_file *hardlink;	/* a hard link: the file it names; NULL else */
};

void initrd_init(void);
/* The node of an absolute, normalised path ("/bin/sh"), or NULL. */
const struct initrd_file *initrd_lookup(const char *path);
const struct initrd_file *initrd_root(void);
const struct initrd_file *initrd_parent(const struct initrd_file *f);
uint32_t initrd_ino(const struct initrd_file *f);	/* 1, 2, ...: its index + 1 */
/* A file's names (a hard link's: its file's); a directory's 2 + subdirs. */
uint32_t initrd_nlink(const struct initrd_file *f);
const char *initrd_name(const struct initrd_file *f);	/* last component; "/" for the root */
/* Directory listing: the next node of dir at or after index *pos (start
 * at 0), *pos moved past it; NULL at the end. */
const struct initrd_file *initrd_next_child(const struct initrd_file *dir, uint32_t *pos);
/* Walk path from cwd (or from "/" when path starts with '/'), component
 * by component as Linux's path walk does: ".", "..", repeated '/',
 * -ENOENT for a missing name or "", -ENOTDIR where a file is used as a
 * directory (also "file/"), -ENAMETOOLONG. 0 and *out on success. */
int initrd_resolve(const struct initrd_file *cwd, const char *path,
		   const struct initrd_file **out);
/* The same, following a magic link in the last component or not (lstat,
 * readlink: the link itself). */
int initrd_resolve_at(const struct initrd_file *cwd, const char *path,
		      const struct initrd_file **out, bool follow_last);
/* Boot, after initrd_init: nodes the kernel makes, their directories made
 * if need be; an archive's own file of that path wins. A character device
 * (kernel/fs/dev.c); a directory; a magic link (kernel/fs/proc/procfs.c), which the
 * walk replaces by initrd_magic_target(node), as Linux's /proc/self/exe. */
void initrd_add_device(const char *path, uint16_t rdev, uint16_t perm);
void initrd_add_dir(const char *path);
void initrd_add_magic(const char *path, uint8_t magic);
/* A symbolic link the kernel makes (/proc/mounts -> self/mounts). */
void initrd_add_symlink(const char *path, const char *target);
/* A /proc node (kernel/fs/proc/procfs.c): a file whose text procfs makes at read,
 * or a directory whose other children procfs makes (the PIDs of /proc). */
void initrd_add_proc(const char *path, uint8_t kind, int32_t arg, uint16_t perm, bool dir);
/* The text of a magic link for readlink and lstat's size (its target's
 * path, or for /proc/self the caller's pid): its length, or -ENOENT. */
int initrd_magic_text(const struct initrd_file *link, char *buf, uint32_t size);
/* The kernel's answer for a magic link, for the current process: the node
 * it stands for, or NULL (ENOENT). kernel/fs/proc/procfs.c. */
const struct initrd_file *initrd_magic_target(const struct initrd_file *link);
/* Keep a node past its walk, while a file is open on it or it is a
 * working directory (a /proc/PID node, a tmpfs node): 0, or -ENOENT
 * when it is gone. Any node may be passed. drop gives it back. */
int node_hold(const struct initrd_file *n);
void node_drop(const struct initrd_file *n);
/* The same for a program (exec, /proc/PID/exe): a tmpfs file is also
 * kept from writers while held so (-ETXTBSY when one has it open). */
int node_hold_exe(const struct initrd_file *n);
void node_drop_exe(const struct initrd_file *n);
/* Up to count bytes of file n from off into kernel memory (exec's
 * headers): the initrd's where they lie, tmpfs's from its pages. The
 * bytes read (fewer at the end), or -errno. */
int node_read(const struct initrd_file *n, void *buf, uint32_t count, uint32_t off);
/* Its place in the archive: a stable inode number for stat (kernel/fs/stat.c). */
uint32_t initrd_index(const struct initrd_file *n);

#endif
