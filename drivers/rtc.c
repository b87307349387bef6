/*
 * rtc.c - the MC146818 CMOS clock: index port 0x70, data port 0x71.
 *
 * Read as Linux's mc146818_get_time does: wait while an update is in
 * progress (status A bit 7), read the fields, and read again until two
 * reads agree (an update may start between the check and the reads);
 * BCD unless status B bit 2 says binary, 12-hour unless bit 1 says 24.
 */
#include "rtc.h"
#include <stdbool.h>
#include "kernel/arch/x86.h"

#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71
#define NMI_OFF		0x80	/* keep NMIs off while an index is selected */

enum { SEC = 0x00, MIN = 0x02, HOUR = 0x04, DAY = 0x07, MON = 0x08, YEAR = 0x09,
       STATUS_A = 0x0a, STATUS_B = 0x0b, CENTURY = 0x32 };

static uint8_t cmos(uint8_t reg)
{
	outb(CMOS_INDEX, NMI_OFF | reg);
	return inb(CMOS_DATA);
}

struct rtc_time { uint8_t sec, min, hour, day, mon, year, century; };

static void read_once(struct rtc_time *t)
{
	while (cmos(STATUS_A) & 0x80)
		;
	*t = (struct rtc_time){ cmos(SEC), cmos(MIN), cmos(HOUR), cmos(DAY),
				cmos(MON), cmos(YEAR), cmos(CENTURY) };
}

static unsigned bcd(uint8_t v)
{
	return (v & 0x0f) + (v >> 4) * 10;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian): Linux's mktime64. */
static int64_t days_from_epoch(unsigned y, unsigned m, unsigned d)
{
	if (m <= 2) {		/* March first: the leap day ends the year */
		m += 12;
		y -= 1;
	}
	return (int64_t)(y / 4 - y / 100 + y / 400 + 367 * (m - 2) / 12 + d) +
	       (int64_t)y * 365 - 719499;
}

int64_t rtc_read_unix(void)
{
	struct rtc_time a, b;
	int tries = 0;
	read_once(&a);
	do {
		b = a;
		read_once(&a);
	} while (__builtin_memcmp(&a, &b, sizeof(a)) != 0 && ++tries < 10);

	uint8_t status_b = cmos(STATUS_B);
	bool pm = !(status_b & 0x02) && (a.hour & 0x80);
	a.hour &= 0x7f;
	unsigned sec = a.sec, min = a.min, hour = a.hour, day = a.day, mon = a.mon,
		 year = a.year, century = a.century;
	if (!(status_b & 0x04)) {
		sec = bcd(a.sec), min = bcd(a.min), hour = bcd(a.hour);
		day = bcd(a.day), mon = bcd(a.mon), year = bcd(a.year);
		century = bcd(a.century);
	}
	if (!(status_b & 0x02))
		hour = hour % 12 + (pm ? 12 : 0);
	year += (century >= 19 && century <= 99) ? century * 100 : (year < 70 ? 2000 : 1900);
	if (sec > 59 || min > 59 || hour > 23 || day < 1 || day > 31 || mon < 1 || mon > 12)
		return 0;
	return ((days_from_epoch(year, mon, day) * 24 + hour) * 60 + min) * 60 + sec;
}
