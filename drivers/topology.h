/*
 * topology.h - which logical CPUs share a core, and which share a package.
 *
 * An APIC ID is a bit field: the lowest bits number the threads of a core,
 * the next the cores of a package, the rest the package (Intel SDM vol. 3
 * §8.9). CPUID tells how wide the thread and core fields are; from those
 * and each CPU's APIC ID we fill in cpu->package, core and thread.
 * Masks are bit i = CPU index i (MAX_CPUS is 32).
 */
#ifndef DRIVERS_TOPOLOGY_H
#define DRIVERS_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/arch/cpu.h"

typedef uint32_t cpumask_t;
_Static_assert(MAX_CPUS <= 32, "cpumask_t holds one bit per CPU");

/* Boot CPU: read the field widths from CPUID. Prints how it found them. */
void topology_detect(void);
/* Fill in c->package, core and thread from c->apic_id. */
void topology_assign(struct cpu *c);
/* All CPUs online: build the masks, print the "smp:" and "cpuK:" lines. */
void topology_report(void);

/* Call 506, sched_topology(cpu, info): package, core, thread and the
 * hyperthread siblings of a CPU, for tests that must know them. */
int sys_sched_topology(int cpu, void *uinfo);

/* False when CPUID could not tell cores from threads: every CPU is then
 * its own core (thread 0) and the boot line says "? cores x ? threads". */
extern bool topology_known;

#endif
