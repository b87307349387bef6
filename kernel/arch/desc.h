/*
 * desc.h - a program's struct user_desc (uapi/ldt.h) as the CPU's 8-byte
 * segment descriptor and back: Linux's fill_ldt(), fill_user_desc() and
 * LDT_empty(), shared by the TLS slots (tls.c) and the LDT (ldt.c).
 *
 * Every descriptor made here is a code or data segment (S = 1) of
 * privilege 3: never a system segment, a gate or a kernel segment,
 * whatever the program asked. Which of those a caller may install is its
 * own rule (tls.c's desc_okay, ldt.c's write_ldt).
 */
#ifndef KERNEL_DESC_H
#define KERNEL_DESC_H

#include <stdbool.h>
#include <stdint.h>
#include <uapi/ldt.h>

#define DESC_S		0x10	/* access byte: code or data, not a system segment */
#define DESC_DPL3	0x60
#define DESC_P		0x80
#define DESC_AVL	(1ull << 52)	/* the descriptor's bit for the system's use: useable */

/* "No segment", as Linux's LDT_empty() spells it. */
static inline bool desc_empty(const struct user_desc *u)
{
	return u->base_addr == 0 && u->limit == 0 && u->contents == 0 &&
	       u->read_exec_only == 1 && u->seg_32bit == 0 && u->limit_in_pages == 0 &&
	       u->seg_not_present == 1 && u->useable == 0;
}

/* Linux's fill_ldt(): the accessed bit set (the CPU never writes the
 * table), useable in the AVL bit. */
static inline uint64_t desc_encode(const struct user_desc *u)
{
	uint32_t type = ((u->read_exec_only ^ 1) << 1) | (u->contents << 2) | 1;
	uint32_t access = type | DESC_S | DESC_DPL3 | (u->seg_not_present ^ 1) << 7;
	uint32_t flags = u->useable | u->seg_32bit << 2 | u->limit_in_pages << 3;
	uint64_t d = u->limit & 0xFFFF;
	d |= (uint64_t)(u->base_addr & 0xFFFFFF) << 16;
	d |= (uint64_t)access << 40;
	d |= (uint64_t)((u->limit >> 16) & 0xF) << 48;
	d |= (uint64_t)flags << 52;
	d |= (uint64_t)(u->base_addr >> 24) << 56;
	return d;
}

/* Back to struct user_desc for entry idx (Linux's fill_user_desc()). */
static inline void desc_decode(uint64_t d, uint32_t idx, struct user_desc *u)
{
	uint32_t access = (uint32_t)(d >> 40) & 0xFF, flags = (uint32_t)(d >> 52) & 0xF;
	*u = (struct user_desc){ .entry_number = idx };
	u->base_addr = (uint32_t)((d >> 16) & 0xFFFFFF) | (uint32_t)(d >> 56) << 24;
	u->limit = (uint32_t)(d & 0xFFFF) | (uint32_t)((d >> 48) & 0xF) << 16;
	u->seg_32bit = (flags >> 2) & 1;
	u->contents = (access >> 2) & 3;
	u->read_exec_only = !(access & 2);
	u->limit_in_pages = (flags >> 3) & 1;
	u->seg_not_present = !(access & DESC_P);
	u->useable = flags & 1;
}

#endif
