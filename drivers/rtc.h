/*
 * rtc.h - the PC's battery clock (MC146818 CMOS RTC), read once at boot
 * for the wall clock (kernel/time/systime.c).
 */
#ifndef DRIVERS_RTC_H
#define DRIVERS_RTC_H

#include <stdint.h>

/* Seconds since 1970-01-01 00:00 UTC (the RTC keeps UTC, as QEMU's
 * default -rtc base=utc and Linux assume), or 0 if it reads as nonsense. */
int64_t rtc_read_unix(void);

#endif
