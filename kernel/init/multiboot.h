/*
 * multiboot.h - the Multiboot 1 information structure (spec 0.6.96 §3.3).
 * All addresses in it are physical.
 */
#ifndef KERNEL_MULTIBOOT_H
#define KERNEL_MULTIBOOT_H

#include <stdint.h>

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002

enum {
	MBI_MEM = 1 << 0, MBI_CMDLINE = 1 << 2, MBI_MODS = 1 << 3,
	MBI_MMAP = 1 << 6, MBI_LOADER_NAME = 1 << 9,
};

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;	/* KiB below 1 MiB / above 1 MiB */
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
} __attribute__((packed));

struct multiboot_mmap_entry {
	uint32_t size;			/* of the rest of this entry */
	uint64_t addr, len;
	uint32_t type;			/* 1 = usable RAM */
} __attribute__((packed));

struct multiboot_module {
	uint32_t start, end;		/* [start, end) */
	uint32_t string;		/* the module's command line */
	uint32_t reserved;
} __attribute__((packed));

#endif
