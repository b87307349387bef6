/*
 * ksyms.c - address-to-name lookup for backtraces.
 *
 * The table itself is generated: the Makefile links the kernel once,
 * lists its functions with nm, turns the list into build/ksyms.asm (section
 * .ksyms) and links again. linker.ld puts .ksyms after .text/.rodata/.data,
 * so the second link moves no function and the table stays true.
 */
#include <stdint.h>
#include <stddef.h>
#include "panic.h"

struct ksym {
	uint32_t addr;
	const char *name;
};

extern const uint32_t ksyms_count;
extern const struct ksym ksyms_table[];	/* sorted by address */

const char *ksym_lookup(uint32_t addr, uint32_t *offset)
{
	uint32_t lo = 0, hi = ksyms_count;

	/* Binary search for the last symbol at or below addr. */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (ksyms_table[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*offset = 0;
	if (lo == 0)
		return NULL;
	*offset = addr - ksyms_table[lo - 1].addr;
	return ksyms_table[lo - 1].name;
}
