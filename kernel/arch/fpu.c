/*
 * fpu.c - saving and loading the floating-point registers.
 *
 * With FXSR (every CPU since the Pentium III, and QEMU's) fxsave/fxrstor
 * move the x87, MMX and SSE registers as one 512-byte image; without it
 * fnsave/frstor move the x87 ones (108 bytes). CR0: MP and NE set, EM and
 * TS clear, so FPU instructions run and report errors as exception 16.
 */
#include "fpu.h"
#include "lib/string.h"
#include "x86.h"

#define CR0_MP		0x00000002u
#define CR0_EM		0x00000004u
#define CR0_TS		0x00000008u
#define CR0_NE		0x00000020u
#define CR4_OSFXSR	0x00000200u
#define CR4_OSXMMEXCPT	0x00000400u
#define CPUID1_EDX_FXSR	(1u << 24)
#define MXCSR_OFFSET	24
#define MXCSR_SAFE_MASK	0x0000FFBFu	/* the bits every FXSR CPU accepts */

bool fpu_have_fxsr;
static struct fpu_state clean;
static bool clean_saved;

static inline void write_cr0(uint32_t v)
{
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

void fpu_cpu_init(void)
{
	uint32_t a, b, c, d;
	cpuid(1, 0, &a, &b, &c, &d);
	fpu_have_fxsr = d & CPUID1_EDX_FXSR;
	write_cr0((read_cr0() | CR0_MP | CR0_NE) & ~(CR0_EM | CR0_TS));
	if (fpu_have_fxsr)
		write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	__asm__ volatile("fninit");
	if (!clean_saved) {
		fpu_save(&clean);
		clean_saved = true;
	}
}

void fpu_clean(struct fpu_state *s)
{
	memcpy(s, &clean, sizeof(*s));
}

void fpu_sanitize(struct fpu_state *s)
{
	if (fpu_have_fxsr) {
		uint32_t mxcsr;
		memcpy(&mxcsr, s->bytes + MXCSR_OFFSET, 4);
		mxcsr &= MXCSR_SAFE_MASK;
		memcpy(s->bytes + MXCSR_OFFSET, &mxcsr, 4);
	}
}
