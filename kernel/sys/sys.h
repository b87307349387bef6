/*
 * kernel/sys/ - system-wide calls that belong to no other room: uname,
 * sysinfo and the load averages, getrandom, and reboot/power-off.
 *
 * Locks: none of its own. The load averages are written by one CPU's
 * tick; counting tasks walks the task list without a lock.
 *
 * Face of this folder. May call: lib, drivers, kernel/arch, kernel/debug, kernel/mm, kernel/task, kernel/time.
 */
#ifndef KERNEL_SYS_SYS_H
#define KERNEL_SYS_SYS_H

#include "power.h"
#include "random.h"
#include "sysinfo.h"
#include "uname.h"

#endif
