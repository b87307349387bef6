/*
 * uapi/tls.h - set_thread_area (243) and get_thread_area (244): Linux
 * i386's struct user_desc (asm/ldt.h), defined here once for the kernel
 * (kernel/arch/tls.c) and the project's tests.
 */
#ifndef UAPI_TLS_H
#define UAPI_TLS_H

#include <stdint.h>

/* GDT slots a thread may fill, as Linux i386 (GDT_ENTRY_TLS_MIN..MAX):
 * glibc loads %gs with (6 << 3) | 3 = 0x33 after asking for entry -1. */
#define GDT_ENTRY_TLS_MIN	6
#define GDT_ENTRY_TLS_ENTRIES	3
#define GDT_ENTRY_TLS_MAX	(GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)

struct user_desc {
	uint32_t entry_number;		/* -1: the kernel picks a free one */
	uint32_t base_addr;
	uint32_t limit;
	uint32_t seg_32bit:1;
	uint32_t contents:2;		/* 0 data, 1 data expand-down, 2 code */
	uint32_t read_exec_only:1;
	uint32_t limit_in_pages:1;
	uint32_t seg_not_present:1;
	uint32_t useable:1;
};

#endif
