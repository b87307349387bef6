/*
 * uapi/ldt.h - modify_ldt (123), and set_thread_area's (243) and
 * get_thread_area's (244) segment description: Linux i386's asm/ldt.h,
 * defined here once for the kernel (kernel/arch/ldt.c, tls.c) and the
 * project's tests.
 */
#ifndef UAPI_LDT_H
#define UAPI_LDT_H

#include <stdint.h>

/* The most entries a process's LDT may have, and each one's size. */
#define LDT_ENTRIES	8192
#define LDT_ENTRY_SIZE	8

/* A segment as a program asks for it; the kernel makes the CPU's
 * 8-byte descriptor of it (kernel/arch/desc.h). */
struct user_desc {
	uint32_t entry_number;		/* TLS: -1, the kernel picks a free one */
	uint32_t base_addr;
	uint32_t limit;
	uint32_t seg_32bit:1;
	uint32_t contents:2;		/* MODIFY_LDT_CONTENTS_*, or 3: conforming code */
	uint32_t read_exec_only:1;
	uint32_t limit_in_pages:1;
	uint32_t seg_not_present:1;
	uint32_t useable:1;
};

#define MODIFY_LDT_CONTENTS_DATA	0
#define MODIFY_LDT_CONTENTS_STACK	1	/* data, expand-down */
#define MODIFY_LDT_CONTENTS_CODE	2

#endif
