/*
 * topology.c - package/core/thread numbers from CPUID and APIC IDs.
 *
 * The field widths come from the first of these that answers (Intel SDM
 * vol. 3 §8.9.4, AMD APM vol. 3 appendix E.4):
 *   1. leaf 0xB (extended topology): each level gives its shift directly;
 *   2. Intel leaf 4 EAX[31:26] (cores per package) with leaf 1 EBX[23:16]
 *      (logical CPUs per package): threads per core = logical / cores;
 *   3. AMD leaf 0x80000008 ECX[15:12] (APIC ID bits per package) with
 *      0x8000001E EBX[15:8] (threads per core), which needs TOPOEXT;
 *   4. otherwise only the package width is known (AMD 0x80000008 without
 *      TOPOEXT, or leaf 1's logical count), not how a package splits into
 *      cores and threads. We then say so instead of guessing.
 */
#include "topology.h"
#include <uapi/ourcalls.h>
#include "lib/errno.h"
#include "kernel/debug/printk.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/arch/x86.h"

bool topology_known;
static int smt_bits, core_bits;		/* widths of the thread and core fields */
static const char *source = "none";
static cpumask_t sibling_mask[MAX_CPUS], core_mask[MAX_CPUS];

/* Bits needed to number n things: ceil(log2(n)). */
static int bits_for(uint32_t n)
{
	int b = 0;
	while ((1u << b) < n)
		b++;
	return b;
}

/* Leaf 0xB: subleaf i describes level type ECX[15:8] (1 = SMT, 2 = core)
 * and EAX[4:0] = how far to shift the x2APIC ID to reach the next level. */
static bool from_leaf_b(void)
{
	uint32_t a, b, c, d, smt_shift = 0, pkg_shift = 0;
	cpuid(0xB, 0, &a, &b, &c, &d);
	if (b == 0)
		return false;
	for (uint32_t i = 0; i < 8; i++) {
		cpuid(0xB, i, &a, &b, &c, &d);
		uint32_t type = (c >> 8) & 0xFF;
		if (type == 0)
			break;
		if (type == 1)
			smt_shift = a & 0x1F;
		pkg_shift = a & 0x1F;
	}
	smt_bits = smt_shift;
	core_bits = pkg_shift - smt_shift;
	source = "cpuid leaf 0xb";
	return true;
}

static uint32_t leaf1_logical(void)
{
	uint32_t a, b, c, d;
	cpuid(1, 0, &a, &b, &c, &d);
	return (d & (1u << 28)) ? (b >> 16) & 0xFF : 1;	/* EDX.HTT */
}

static bool from_intel_leaf_4(uint32_t max_leaf)
{
	uint32_t a, b, c, d;
	if (max_leaf < 4)
		return false;
	cpuid(4, 0, &a, &b, &c, &d);
	if ((a & 0x1F) == 0)		/* cache type 0: no caches described */
		return false;
	uint32_t cores = (a >> 26) + 1, logical = leaf1_logical();
	if (logical < cores)
		logical = cores;
	core_bits = bits_for(cores);
	smt_bits = bits_for(logical / cores);
	source = "cpuid leaves 1 and 4";
	return true;
}

/* Returns false if AMD's leaves are absent; sets topology_known = false
 * when they give the package width but not threads per core. */
static bool from_amd_leaves(void)
{
	uint32_t a, b, c, d, ext_max;
	cpuid(0x80000000, 0, &ext_max, &b, &c, &d);
	if (ext_max < 0x80000008)
		return false;
	cpuid(0x80000008, 0, &a, &b, &c, &d);
	int id_bits = (c >> 12) & 0xF;		/* ApicIdCoreIdSize; 0 = legacy */
	if (id_bits == 0)
		id_bits = bits_for((c & 0xFF) + 1);
	cpuid(0x80000001, 0, &a, &b, &c, &d);
	if (!(c & (1u << 22)) || ext_max < 0x8000001E) {	/* no TOPOEXT */
		topology_known = false;
		smt_bits = 0;
		core_bits = id_bits;
		source = "cpuid leaf 0x80000008 only";
		return true;
	}
	cpuid(0x8000001E, 0, &a, &b, &c, &d);
	smt_bits = bits_for(((b >> 8) & 0xFF) + 1);
	core_bits = id_bits > smt_bits ? id_bits - smt_bits : 0;
	source = "cpuid leaves 0x80000008 and 0x8000001e";
	return true;
}

void topology_detect(void)
{
	uint32_t max_leaf, b, c, d;
	char vendor[13];
	cpuid(0, 0, &max_leaf, &b, &c, &d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;

	topology_known = true;
	if (max_leaf >= 0xB && from_leaf_b())
		return;
	if (strcmp(vendor, "GenuineIntel") == 0 && from_intel_leaf_4(max_leaf))
		return;
	if (strcmp(vendor, "AuthenticAMD") == 0 && from_amd_leaves())
		return;
	/* Last resort: leaf 1 gives the package width only. Each CPU in a
	 * package is counted as its own core, and we admit not knowing. */
	topology_known = false;
	smt_bits = 0;
	core_bits = bits_for(leaf1_logical());
	source = "cpuid leaf 1 only";
}

void topology_assign(struct cpu *c)
{
	c->thread = c->apic_id & ((1u << smt_bits) - 1);
	c->core = (c->apic_id >> smt_bits) & ((1u << core_bits) - 1);
	c->package = c->apic_id >> (smt_bits + core_bits);
}

void topology_report(void)
{
	int packages = 0, cores = 0;
	for (int i = 0; i < ncpus; i++) {
		sibling_mask[i] = core_mask[i] = 0;
		for (int j = 0; j < ncpus; j++) {
			if (cpus[j].package != cpus[i].package)
				continue;
			core_mask[i] |= 1u << j;
			if (cpus[j].core == cpus[i].core)
				sibling_mask[i] |= 1u << j;
		}
		/* The lowest-numbered CPU of a package (core) counts it. */
		if (__builtin_ctz(core_mask[i]) == i)
			packages++;
		if (__builtin_ctz(sibling_mask[i]) == i)
			cores++;
	}
	printk("topology: %s: thread bits %d, core bits %d\n", source, smt_bits, core_bits);
	if (topology_known)
		printk("smp: %d CPUs online: %d packages x %d cores x %d threads\n",
		       ncpus, packages, cores / packages, ncpus / cores);
	else
		printk("smp: %d CPUs online: %d packages x ? cores x ? threads\n",
		       ncpus, packages);
	for (int i = 0; i < ncpus; i++)
		printk("cpu%d: apic %u package %d core %d thread %d\n", i,
		       cpus[i].apic_id, cpus[i].package, cpus[i].core, cpus[i].thread);
}

/* 506: sched_topology(cpu, struct) - where CPU cpu sits in the machine,
 * for tests that must know which CPUs are hyperthread siblings
 * (struct sched_topology_info: uapi/ourcalls.h). */
int sys_sched_topology(int cpu, void *uinfo)
{
	struct sched_topology_info info;

	if (cpu < 0 || cpu >= ncpus)
		return -EINVAL;
	info = (struct sched_topology_info){
		.ncpus = ncpus, .package = cpus[cpu].package,
		.core = cpus[cpu].core, .thread = cpus[cpu].thread,
	};
	for (int i = 0; i < ncpus; i++)
		if (cpus[i].package == info.package && cpus[i].core == info.core)
			info.siblings |= 1u << i;
	return copy_to_user(uinfo, &info, sizeof(info));
}
