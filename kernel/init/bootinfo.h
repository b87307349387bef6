/*
 * bootinfo.h - what the boot loader told us, copied out of the Multiboot
 * information before that memory can be reused.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include <stdint.h>

#define BOOT_MODULES_MAX 16

struct boot_module {
	uint32_t start, end;		/* physical [start, end) */
	char name[64];			/* the module's command line */
};

extern struct boot_module boot_modules[BOOT_MODULES_MAX];
extern int boot_nmodules;
extern uint32_t boot_mem_kib;		/* usable RAM the loader reported */
extern const char *boot_loader_name;

/* Check the Multiboot magic, copy the command line and module list, and
 * give the usable RAM to the frame allocator. Returns the command line. */
const char *bootinfo_init(uint32_t magic, uint32_t mbi_pa);

#endif
