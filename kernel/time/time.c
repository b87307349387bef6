/*
 * time.c - nanoseconds from the time-stamp counter.
 */
#include "time.h"
#include "kernel/arch/x86.h"

static uint64_t tsc_khz;	/* TSC ticks per millisecond */
static uint64_t tsc_at_calibration;
/*
 * ns = cycles * mult >> shift, mult < 2^32: the conversion in multiplies
 * only. A 64-bit division on i386 is a libgcc call of a few hundred
 * instructions, and clock_ns() runs several times in every schedule() and
 * system call (make profile: about 1,200 instructions of each yield).
 */
static uint32_t mult, shift;

void clock_set_tsc_khz(uint64_t khz)
{
	tsc_at_calibration = rdtsc();
	tsc_khz = khz;
	for (shift = 32; shift > 0; shift--) {
		uint64_t m = (1000000ull << shift) / khz;
		if (m <= 0xFFFFFFFFull) {
			mult = (uint32_t)m;
			break;
		}
	}
}

uint64_t clock_tsc_khz(void)
{
	return tsc_khz;
}

/* The 96-bit product cycles * mult, shifted, from two 32 x 32 multiplies. */
uint64_t clock_cycles_to_ns(uint64_t cycles)
{
	uint64_t lo = (cycles & 0xFFFFFFFFu) * mult, hi = (cycles >> 32) * mult;
	return (hi << (32 - shift)) + (lo >> shift);
}

/* 0 until clock_set_tsc_khz(): mult is 0 until then. (No early return for
 * that: it would let gcc run it before clock_ns's frame is set up, where an
 * interrupt's backtrace loses the caller, kernel/debug/panic.c.) */
uint64_t clock_ns(void)
{
	return clock_cycles_to_ns(rdtsc() - tsc_at_calibration);
}

/* One pause per hundred loops, not per loop: QEMU leaves its CPU loop at
 * each pause, and under -icount, where only instructions advance the
 * clock, a pause per loop made AP start-up's 10 ms last 0.25 s. */
void udelay(uint32_t us)
{
	uint64_t end = rdtsc() + tsc_khz * us / 1000;
	while (rdtsc() < end) {
		pause();
		for (volatile int i = 0; i < 100; i++)
			;
	}
}
