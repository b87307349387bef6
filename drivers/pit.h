/*
 * pit.h - the 8254 programmable interval timer, used only as a stopwatch.
 */
#ifndef DRIVERS_PIT_H
#define DRIVERS_PIT_H

#include <stdint.h>
#include <stdbool.h>

#define PIT_HZ 1193182u		/* the PIT's input clock */
#define PIT_MAX_US 50000u	/* the longest interval one countdown can time */

/* Start channel 2 counting down us microseconds (at most PIT_MAX_US). */
void pit_countdown_start(uint32_t us);
/* True once the countdown has reached zero. */
bool pit_countdown_done(void);

#endif
