/*
 * random.c - getrandom (355), with Linux's flags and errors.
 *
 * Not cryptographic: there is no entropy pool. Each call seeds a
 * splitmix64 stream from the time-stamp counter and a count of calls,
 * so calls and CPUs get different bytes; a program that
 * needs real secrets must not trust this kernel's. Linux blocks (or says
 * EAGAIN with GRND_NONBLOCK) until its pool is ready; this "pool" is
 * always ready, so no flag ever waits.
 */
#include "random.h"
#include "lib/errno.h"
#include "kernel/task/proc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/arch/x86.h"

#define GRND_NONBLOCK	0x1
#define GRND_RANDOM	0x2
#define GRND_INSECURE	0x4
#define CHUNK		256
#define INT_MAX_COUNT	0x7FFFFFFFu

static uint32_t calls;		/* 32-bit: i386 has no plain 64-bit atomic add */

/* splitmix64's step (Steele, Lea, Flood 2014): a cheap, well-mixed stream. */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void fill(uint8_t *buf, uint32_t n, uint64_t *s)
{
	for (uint32_t i = 0; i < n; i += 8) {
		uint64_t r = splitmix64(s);
		for (uint32_t j = 0; j < 8 && i + j < n; j++)
			buf[i + j] = (uint8_t)(r >> (8 * j));
	}
}

/* Copied out a chunk at a time; like Linux, a pending signal between
 * pages ends the call early with what was written, and a bad buffer
 * gives EFAULT only if nothing was. */
int sys_getrandom(void *ubuf, uint32_t count, uint32_t flags)
{
	if (flags & ~(uint32_t)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & (GRND_RANDOM | GRND_INSECURE)) == (GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if (count > INT_MAX_COUNT)
		count = INT_MAX_COUNT;
	uint64_t s = rdtsc() ^ (uint64_t)__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) << 40;
	uint8_t chunk[CHUNK];
	uint32_t done = 0;
	while (done < count) {
		uint32_t n = count - done < CHUNK ? count - done : CHUNK;
		fill(chunk, n, &s);
		if (copy_to_user((uint8_t *)ubuf + done, chunk, n) < 0)
			return done ? (int)done : -EFAULT;
		done += n;
		if (done % PAGE_SIZE == 0 && done < count && signal_pending(current()))
			break;
	}
	return (int)done;
}
