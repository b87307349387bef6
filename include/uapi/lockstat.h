/*
 * uapi/lockstat.h - lock statistics, system call 509 (__NR_lock_stat in
 * uapi/unistd.h; kernel/sync/lockstat.c, user/bin/lockstat.c): defined here
 * once, for the kernel and user space.
 * include/uapi/ holds what both sides of the ABI must agree on.
 */
#ifndef UAPI_LOCKSTAT_H
#define UAPI_LOCKSTAT_H

#include <stdint.h>

/* op */
#define LOCK_STAT_READ	0	/* (op, struct lock_stat_info *buf, n): classes there are */
#define LOCK_STAT_RESET	1	/* root only */
#define LOCK_STAT_SET	2	/* (op, 1 on / 0 off): root only; off at boot */
#define LOCK_STAT_STATE	3	/* 1 counting, 0 not */

#define LOCK_STAT_NAME	24

/* One lock class (every lock of one name), summed over the CPUs. Times in
 * ns; a min of 0 means never measured. kind: 0 spinlock, 1 mutex. */
struct lock_stat_info {
	char name[LOCK_STAT_NAME];
	uint32_t kind;
	uint32_t pad;
	uint64_t acquisitions;
	uint64_t contentions;
	uint64_t acq_bounces;
	uint64_t con_bounces;
	uint64_t wait_min_ns, wait_max_ns, wait_total_ns;
	uint64_t hold_min_ns, hold_max_ns, hold_total_ns;
};

#endif
