/*
 * sysinfo.h - sysinfo(2) and the load averages it reports (kernel/sys/sysinfo.c).
 */
#ifndef KERNEL_SYSINFO_H
#define KERNEL_SYSINFO_H

#include <stdint.h>

/* From one CPU's timer tick (drivers/timer.c: CPU 0's), jiffies = its
 * tick count: samples the runnable count every LOAD_FREQ ticks. */
void loadavg_tick(uint64_t jiffies);
int sys_sysinfo(void *uinfo);
/* The 1, 5 and 15 minute averages, fixed point with LOADAVG_FSHIFT
 * fraction bits (/proc/loadavg). */
#define LOADAVG_FSHIFT	11
void loadavg_get(uint32_t loads[3]);

#endif
