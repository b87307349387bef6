/*
 * sysinfo.h - sysinfo(2) and the load averages it reports (kernel/sysinfo.c).
 */
#ifndef KERNEL_SYSINFO_H
#define KERNEL_SYSINFO_H

#include <stdint.h>

/* From one CPU's timer tick (drivers/timer.c: CPU 0's), jiffies = its
 * tick count: samples the runnable count every LOAD_FREQ ticks. */
void loadavg_tick(uint64_t jiffies);
int sys_sysinfo(void *uinfo);

#endif
