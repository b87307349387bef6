/*
 * lib/ - the freestanding base that the kernel, sched/, the host tests and
 * the simulator all stand on: KASSERT (assert.h), the one lock type
 * (spinlock.h; each builder implements its functions: kernel/sync/spinlock.c,
 * the host tests' and the simulator's fakes), Linux's error numbers
 * (errno.h), the few string functions (string.h), the printf engine
 * (format.h) and a per-CPU cache of same-size objects (objcache.h).
 *
 * Owns no state and no lock: an objcache's lock is its user's.
 *
 * Face of this folder. May call: none (include/uapi/ only).
 */
#ifndef LIB_LIB_H
#define LIB_LIB_H

#include "assert.h"
#include "errno.h"
#include "format.h"
#include "objcache.h"
#include "spinlock.h"
#include "string.h"

#endif
