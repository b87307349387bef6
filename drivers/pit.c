/*
 * pit.c - PIT channel 2 as a one-shot stopwatch for calibration.
 *
 * Channel 2 is the one wired to the PC speaker; its gate is bit 0 of port
 * 0x61 and its output can be read back in bit 5 of the same port, so we
 * can time an interval by polling, with interrupts off and no IRQ 0.
 * Mode 0 ("interrupt on terminal count"): the output goes low when the
 * count is written and high when it reaches zero.
 */
#include "pit.h"
#include "kernel/debug/panic.h"
#include "kernel/arch/x86.h"

#define PIT_CH2     0x42
#define PIT_CMD     0x43
#define PORT_B      0x61	/* bit 0: ch2 gate, bit 1: speaker, bit 5: ch2 output */
#define CMD_CH2_LOHI_MODE0 0xB0	/* channel 2, lobyte/hibyte, mode 0, binary */

void pit_countdown_start(uint32_t us)
{
	KASSERT(us <= PIT_MAX_US);
	uint32_t count = (uint64_t)PIT_HZ * us / 1000000;
	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01);	/* gate on, speaker off */
	outb(PIT_CMD, CMD_CH2_LOHI_MODE0);
	outb(PIT_CH2, count & 0xFF);
	outb(PIT_CH2, count >> 8);			/* counting starts now */
}

bool pit_countdown_done(void)
{
	return inb(PORT_B) & 0x20;
}
