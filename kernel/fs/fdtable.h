/*
 * fdtable.h - a process's descriptors (Linux's files_struct) and their
 * table (Linux's struct fdtable): the file in each slot and its
 * close-on-exec bit. The table starts at NR_OPEN_DEFAULT slots and
 * doubles when a descriptor past its end is asked for, up to
 * RLIMIT_NOFILE (1,024 by default, as Linux).
 */
#ifndef FDTABLE_H
#define FDTABLE_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/spinlock.h"

struct file;

/* Linux's first table on i386: BITS_PER_LONG slots (include/linux/fdtable.h). */
#define NR_OPEN_DEFAULT	32
/* The most a hard RLIMIT_NOFILE may be (fs.nr_open, Linux's default). */
#define NR_OPEN		(1024 * 1024)

struct fdtable {
	uint32_t max_fds;	/* slots in fd[] (/proc/PID/status's FDSize) */
	struct file **fd;
	uint32_t *cloexec;	/* bit per slot: close at exec (FD_CLOEXEC) */
	struct fdtable *old;	/* the table it grew from, freed with it */
};

/*
 * What the tasks that clone(CLONE_FILES) made use together: the threads
 * of a process, and other processes (count); fork copies it, and exec
 * makes a copy of its own of a shared one (kernel/fs/fdtable.c). Its
 * first table is in the same heap block (fdtab, its slots after the
 * struct), as Linux's; a grown one keeps the tables it grew from
 * (fdtable.c says why).
 */
struct files_struct {
	int count;			/* tasks using it; changed atomically */
	struct spinlock file_lock;	/* the slots change under it (kernel/fs/file.c) */
	struct fdtable *fdt;		/* the table now: fdtab, or one grown from it */
	struct fdtable fdtab;
};

/* Zeroed, with room for max_fds, count 1; NULL if no memory. */
struct files_struct *files_alloc(uint32_t max_fds);
/* Its tables and itself; the files in them are the caller's to close. */
void files_free(struct files_struct *files);
struct fdtable *fdtable_grow(struct fdtable *t, uint32_t fd);
bool fdtable_cloexec(const struct fdtable *t, uint32_t fd);
void fdtable_set_cloexec(struct fdtable *t, uint32_t fd, bool on);

#endif
