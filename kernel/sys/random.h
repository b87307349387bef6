/*
 * random.h - getrandom (355): bytes for user programs (glibc's malloc and
 * stack-protector seeds, hash tables).
 */
#ifndef KERNEL_RANDOM_H
#define KERNEL_RANDOM_H

#include <stdint.h>

int sys_getrandom(void *ubuf, uint32_t count, uint32_t flags);

#endif
