/*
 * bootinfo.c - reads the Multiboot 1 information structure.
 *
 * Memory: every "usable" range of the memory map goes to the frame
 * allocator, then what is already in use is taken back out: the first
 * MiB (BIOS data, the AP start-up trampoline), the kernel image and the
 * modules. A machine whose RAM ends before the kernel, its modules and
 * MIN_FREE_KIB of working memory fit gets a clear panic, not a mystery.
 */
#include "bootinfo.h"
#include "bootparam.h"
#include "multiboot.h"
#include "kernel/debug/panic.h"
#include "kernel/mm/pmm.h"
#include "kernel/debug/printk.h"
#include "lib/string.h"
#include "kernel/mm/vm.h"

#define MIN_FREE_KIB (8 * 1024)		/* heap, stacks, page tables, processes */

struct boot_module boot_modules[BOOT_MODULES_MAX];
int boot_nmodules;
uint32_t boot_mem_kib;
const char *boot_loader_name = "unknown";

static char cmdline_copy[BOOTPARAM_LINE_MAX];
static char loader_copy[64];

static void read_modules(const struct multiboot_info *mbi, uint32_t *highest)
{
	if (!(mbi->flags & MBI_MODS))
		return;
	const struct multiboot_module *m = P2V(mbi->mods_addr);
	for (uint32_t i = 0; i < mbi->mods_count && i < BOOT_MODULES_MAX; i++) {
		struct boot_module *b = &boot_modules[boot_nmodules++];
		b->start = m[i].start;
		b->end = m[i].end;
		strlcpy(b->name, m[i].string ? (const char *)P2V(m[i].string) : "",
			sizeof(b->name));
		if (b->end > *highest)
			*highest = b->end;
	}
}

static void read_memory_map(const struct multiboot_info *mbi)
{
	uint64_t usable = 0;

	if (mbi->flags & MBI_MMAP) {
		uint32_t p = mbi->mmap_addr, end = mbi->mmap_addr + mbi->mmap_length;
		while (p < end) {
			const struct multiboot_mmap_entry *e = P2V(p);
			if (e->type == 1) {
				pmm_add_free(e->addr, e->len);
				usable += e->len;
			}
			p += e->size + sizeof(e->size);
		}
	} else if (mbi->flags & MBI_MEM) {
		pmm_add_free(0x100000, (uint64_t)mbi->mem_upper * 1024);
		usable = (uint64_t)(mbi->mem_lower + mbi->mem_upper) * 1024;
	} else {
		panic("boot loader gave no memory information");
	}
	boot_mem_kib = (uint32_t)(usable / 1024);
}

const char *bootinfo_init(uint32_t magic, uint32_t mbi_pa)
{
	extern char kernel_end[];
	uint32_t highest = V2P(kernel_end);

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		panic("not started by a Multiboot loader (magic 0x%x)", magic);
	const struct multiboot_info *mbi = P2V(mbi_pa);
	if (mbi->flags & MBI_CMDLINE) {
		size_t len = strlcpy(cmdline_copy, P2V(mbi->cmdline), sizeof(cmdline_copy));
		if (len >= sizeof(cmdline_copy))	/* said, not silently cut */
			pr_warn("bootparam: the command line is %u bytes; only the first %u are read\n",
				(unsigned)len, (unsigned)sizeof(cmdline_copy) - 1);
	}
	if (mbi->flags & MBI_LOADER_NAME) {
		strlcpy(loader_copy, P2V(mbi->boot_loader_name), sizeof(loader_copy));
		boot_loader_name = loader_copy;
	}
	read_modules(mbi, &highest);
	read_memory_map(mbi);

	uint32_t need_kib = PAGE_ROUND_UP(highest) / 1024 + MIN_FREE_KIB;
	if (boot_mem_kib + 1024 < need_kib)	/* +1 MiB: the map omits low memory holes */
		panic("not enough memory (have %u KiB, need %u KiB)", boot_mem_kib, need_kib);

	pmm_reserve(0, 0x100000);
	pmm_reserve(0x100000, V2P(kernel_end) - 0x100000);
	for (int i = 0; i < boot_nmodules; i++)
		pmm_reserve(boot_modules[i].start, boot_modules[i].end - boot_modules[i].start);
	return cmdline_copy;
}
