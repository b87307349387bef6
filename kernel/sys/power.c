/*
 * power.c - power-off, in order of preference:
 *  1. QEMU's isa-debug-exit device (port 0xF4): carries an exit status to
 *     the host, which is how the test harness learns init's status.
 *  2. ACPI S5 from the FADT (drivers/acpi.c), as real machines want.
 *  3. QEMU's PIIX4 PM control at 0x604 (docs/hardware-notes.md §6), then halt.
 */
#include "power.h"
#include <uapi/reboot.h>
#include "lib/errno.h"
#include "kernel/debug/printk.h"
#include "kernel/task/proc.h"
#include "kernel/arch/x86.h"
#include "drivers/acpi.h"

#define DEBUG_EXIT_PORT 0xF4

void power_off(int status)
{
	printk("power: off (status %d)\n", status);
	outl(DEBUG_EXIT_PORT, (uint32_t)status);
	acpi_power_off();		/* returns if the FADT gave no way */
	outw(0x604, 0x2000);
	for (;;) {
		cli();
		hlt();
	}
}

/* reboot(2) (call 88), Linux's magic numbers (uapi/reboot.h): only
 * power-off and halt are done here, both as power_off(0), for root. */

int sys_reboot(uint32_t magic1, uint32_t magic2, uint32_t cmd)
{
	if (magic1 != LINUX_REBOOT_MAGIC1 || magic2 != LINUX_REBOOT_MAGIC2)
		return -EINVAL;
	if (!capable(CAP_SYS_BOOT))
		return -EPERM;
	if (cmd == LINUX_REBOOT_CMD_POWER_OFF || cmd == LINUX_REBOOT_CMD_HALT)
		power_off(0);
	return -EINVAL;
}
