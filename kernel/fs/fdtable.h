/*
 * fdtable.h - a thread group's descriptor table (Linux's struct fdtable):
 * the file in each slot and its close-on-exec bit. It starts at
 * NR_OPEN_DEFAULT slots and doubles when a descriptor past its end is
 * asked for, up to RLIMIT_NOFILE (1,024 by default, as Linux).
 */
#ifndef FDTABLE_H
#define FDTABLE_H

#include <stdbool.h>
#include <stdint.h>

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

struct fdtable *fdtable_alloc(uint32_t max_fds);
void fdtable_free(struct fdtable *t);
struct fdtable *fdtable_grow(struct fdtable *t, uint32_t fd);
bool fdtable_cloexec(const struct fdtable *t, uint32_t fd);
void fdtable_set_cloexec(struct fdtable *t, uint32_t fd, bool on);

#endif
