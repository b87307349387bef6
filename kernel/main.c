/*
 * main.c - kmain(), the order in which the kernel comes up.
 *
 * Read this file top to bottom to see boot: per-CPU data first (locks need
 * it), then the console, traps, memory, boot parameters; later steps bring
 * up interrupt controllers, timers and the other CPUs, the scheduler and
 * the first user process.
 */
#include <stdint.h>
#include "kernel/init/bootinfo.h"
#include "kernel/init/bootparam.h"
#include "kernel/debug/watchdog.h"
#include "kernel/debug/console.h"
#include "kernel/arch/cpu.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/dev.h"
#include "kernel/fs/file.h"
#include "lib/format.h"
#include "kernel/fs/initrd.h"
#include "kernel/debug/panic.h"
#include "kernel/mm/pmm.h"
#include "kernel/sys/power.h"
#include "kernel/debug/printk.h"
#include "kernel/task/proc.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/task/sched_glue.h"
#include "kernel/debug/selftest.h"
#include "kernel/arch/smp.h"
#include "kernel/time/systime.h"
#include "lib/string.h"
#include "kernel/arch/trap.h"
#include "kernel/mm/vm.h"
#include "kernel/arch/x86.h"
#include "drivers/acpi.h"
#include "drivers/ioapic.h"
#include "drivers/keyboard.h"
#include "drivers/lapic.h"
#include "drivers/pic.h"
#include "drivers/serial_irq.h"
#include "drivers/timer.h"
#include "drivers/topology.h"

static void cpu_vendor(char out[13])
{
	uint32_t a, b, c, d;
	cpuid(0, 0, &a, &b, &c, &d);
	memcpy(out, &b, 4);
	memcpy(out + 4, &d, 4);
	memcpy(out + 8, &c, 4);
	out[12] = 0;
}

static void start_scheduler(void)
{
	struct sched_topology topo;
	for (int i = 0; i < ncpus; i++) {
		topo.cpu[i].package = cpus[i].package;
		topo.cpu[i].core = cpus[i].core;
		topo.cpu[i].thread = cpus[i].thread;
	}
	sched_glue_init(timer_hz, &topo);
	proc_init_idle();		/* the boot stack becomes CPU 0's idle task */
	smp_start_scheduler();		/* the APs join at their next tick */
}

/* Boot parameters that belong to init reach it as environment variables,
 * as on Linux (docs/abi.md §8): run=, then=, tests=. */
static char *init_envp[8] = { "HOME=/", "TERM=linux" };

static void prepare_init_env(void)
{
	/* As long as the longest value can be: a run= list is never cut. */
	static char env[3][sizeof("tests=") + BOOTPARAM_LINE_MAX];
	static const char *const keys[] = { "run", "then", "tests" };
	int n = 2;
	for (int i = 0; i < 3; i++) {
		const char *v = bootparam_str(keys[i]);
		if (v) {
			ksnprintf(env[i], sizeof(env[i]), "%s=%s", keys[i], v);
			init_envp[n++] = env[i];
		}
	}
	init_envp[n] = NULL;
}

static void start_init(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	int err = proc_start_init(path, argv, init_envp);
	if (err < 0)
		panic("cannot start init %s (error %d); try init=/bin/sh", path, err);
	printk("init: started %s\n", path);
}

void kmain(uint32_t magic, uint32_t mbi_pa)
{
	char vendor[13];

	cpu_setup(&cpus[0]);
	console_init();
	idt_init();
	idt_load();

	const char *cmdline = bootinfo_init(magic, mbi_pa);
	bootparam_parse(cmdline);
	printk_loglevel = bootparam_int("loglevel", LOG_INFO, 0, 7);

	cpu_vendor(vendor);
	printk("boot: staircase kernel, cpu vendor %s, memory %u MiB, cmdline \"%s\"\n",
	       vendor, boot_mem_kib / 1024, bootparam_cmdline());
	printk("mem: %u KiB usable, %u frames free, loader %s\n",
	       boot_mem_kib, pmm_free_count(), boot_loader_name);

	/* Interrupt controllers, clocks, the other CPUs. */
	acpi_init();
	pic_init();
	lapic_init(acpi_lapic_pa);
	ioapic_init();
	timer_calibrate();
	systime_init();		/* the wall clock from the RTC (kernel/time/systime.c) */
	timer_start();
	topology_detect();
	smp_boot_aps();
	topology_report();
	serial_irq_init(cpus[0].apic_id);
	keyboard_init(cpus[0].apic_id);
	sti();

	/* Processes and the scheduler. */
	initrd_init();
	dev_init();		/* /dev/null ... (kernel/fs/dev.c) */
	procfs_init();		/* /proc/self/exe (kernel/fs/proc/procfs.c) */
	mount_init();		/* /tmp, /dev/shm, /root, /home/student: tmpfs (kernel/fs/mount.c) */
	proc_init();
	watchdog_init();
	start_scheduler();

	selftest_boot();	/* a test= self-test (kernel/debug/selftest.c), if asked for */
	tty_init();		/* after test=echo, which reads the raw console */
	prepare_init_env();
	const char *init = bootparam_str("init");
	bootparam_report_unknown();
	printk("boot: done\n");
	start_init(init ? init : "/bin/init");
	cpu_idle();
}
