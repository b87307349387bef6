/*
 * kernel/init/ - what the boot loader handed over: the Multiboot
 * information (bootinfo: memory map, modules, command line) and the
 * key=value boot parameters (bootparam). Read-only after boot.
 *
 * Locks: none (filled on the boot CPU before any other starts).
 *
 * Face of this folder. May call: lib, kernel/debug, kernel/mm.
 */
#ifndef KERNEL_INIT_INIT_H
#define KERNEL_INIT_INIT_H

#include "bootinfo.h"
#include "bootparam.h"
#include "multiboot.h"

#endif
