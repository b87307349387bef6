/*
 * time.c - nanoseconds from the time-stamp counter.
 */
#include "time.h"
#include "x86.h"

static uint64_t tsc_khz;	/* TSC ticks per millisecond */
static uint64_t tsc_at_calibration;

void clock_set_tsc_khz(uint64_t khz)
{
	tsc_at_calibration = rdtsc();
	tsc_khz = khz;
}

uint64_t clock_tsc_khz(void)
{
	return tsc_khz;
}

uint64_t clock_ns(void)
{
	if (!tsc_khz)
		return 0;
	uint64_t d = rdtsc() - tsc_at_calibration;
	/* Split the division so d * 1e6 cannot overflow 64 bits. */
	return d / tsc_khz * 1000000 + d % tsc_khz * 1000000 / tsc_khz;
}

void udelay(uint32_t us)
{
	uint64_t end = rdtsc() + tsc_khz * us / 1000;
	while (rdtsc() < end)
		pause();
}
