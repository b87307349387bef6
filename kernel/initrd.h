/*
 * initrd.h - the read-only in-memory file tree built from boot modules.
 *
 * Every module that is a ustar archive is unpacked into the tree; every
 * module that is an ELF file becomes /bin/<basename of its module string>
 * (docs/abi.md §8). Files are never copied: a node points into the module's
 * memory, which the frame allocator keeps reserved.
 */
#ifndef KERNEL_INITRD_H
#define KERNEL_INITRD_H

#include <stdint.h>
#include <stdbool.h>

#define INITRD_PATH_MAX 100

struct initrd_file {
	char path[INITRD_PATH_MAX];	/* absolute, e.g. "/bin/sh" */
	const uint8_t *data;
	uint32_t size;
	bool is_dir;
};

void initrd_init(void);
const struct initrd_file *initrd_lookup(const char *path);
/* Its place in the archive: a stable inode number for stat (kernel/stat.c). */
uint32_t initrd_index(const struct initrd_file *n);

/* Pure helpers, used by the unit tests too. */
uint32_t ustar_octal(const char *field, int len);
bool ustar_header_ok(const uint8_t *block);

#endif
