/*
 * procfs_sys.c - /proc's own files (stat, uptime, loadavg, meminfo,
 * version, cpuinfo, filesystems) in Linux 6.1's formats (man 5 proc),
 * /proc/sys/fs's pipe limits (kernel/fs/pipe_limits.c) and POSIX message
 * queue limits (mqueue/: kernel/fs/mqueue.c),
 * and /proc/sys/kernel: the names uname(2) reports, tainted (0), pid_max, threads-max, and the
 * scheduler's tunables where the -ck kernels put them (docs/staircase.md
 * §9), one file for each row of sched/tunables.c, by its name. Everyone
 * reads them; root writes them (0644), a write being sched_tunable_set():
 * a bad value is EINVAL and changes nothing. Root also writes pid_max and
 * threads-max, as on Linux (kernel/task/pid.c, kernel/task/proc.c say the bounds).
 *
 * CPU times are in USER_HZ (100 a second), converted from the scheduler's
 * ticks; BATCH time is "nice" (the seed's accounting).
 */
#include "procfs.h"
#include "sched/syscalls.h"	/* sched_cpu_view */
#include "sched/tunables.h"
#include "kernel/arch/cpu.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"
#include "kernel/fs/initrd.h"
#include "kernel/fs/file.h"		/* the pipe sysctls */
#include "kernel/fs/tmpfs.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/filemap.h"
#include "kernel/task/proc.h"
#include "kernel/sys/sysinfo.h"
#include "kernel/time/systime.h"		/* USER_HZ */
#include "kernel/time/time.h"
#include "kernel/task/pid.h"
#include "kernel/sys/uname.h"
#include "kernel/mm/vm.h"
#include "kernel/ipc/ipc.h"		/* ipc_proc_text */


static const struct {
	const char *path;
	uint8_t kind;
	uint16_t perm;		/* root writes the 0644 ones */
} proc_files[] = {
	{ "/proc/cpuinfo",		PROCFS_CPUINFO, 0444 },
	{ "/proc/filesystems",		PROCFS_FILESYSTEMS, 0444 },
	{ "/proc/loadavg",		PROCFS_LOADAVG, 0444 },
	{ "/proc/meminfo",		PROCFS_MEMINFO, 0444 },
	{ "/proc/sched_debug",		PROCFS_SCHED_DEBUG, 0444 },
	{ "/proc/schedstat",		PROCFS_SCHEDSTAT, 0444 },
	{ "/proc/scheduler",		PROCFS_SCHEDULER, 0444 },
	{ "/proc/stat",			PROCFS_STAT, 0444 },
	{ "/proc/uptime",		PROCFS_UPTIME, 0444 },
	{ "/proc/version",		PROCFS_VERSION, 0444 },
	{ "/proc/sys/kernel/hostname",	PROCFS_SYS_HOSTNAME, 0444 },
	{ "/proc/sys/kernel/osrelease",	PROCFS_SYS_OSRELEASE, 0444 },
	{ "/proc/sys/kernel/ostype",	PROCFS_SYS_OSTYPE, 0444 },
	{ "/proc/sys/kernel/pid_max",	PROCFS_SYS_PID_MAX, 0644 },
	{ "/proc/sys/kernel/tainted",	PROCFS_SYS_TAINTED, 0444 },
	{ "/proc/sys/kernel/threads-max", PROCFS_SYS_THREADS_MAX, 0644 },
	{ "/proc/sys/kernel/version",	PROCFS_SYS_VERSION, 0444 },
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* The id of the tunable whose name comes next after prev's ("" before
 * the first), or -1 after the last: their files are added in name order,
 * as Linux lists a /proc/sys directory. */
static int tunable_after(const char *prev)
{
	int next = -1;
	for (int id = 0; id < SCHED_TUNABLE_NR; id++) {
		const char *name = sched_tunable_name(id);
		if (strcmp(name, prev) > 0 &&
		    (next < 0 || strcmp(name, sched_tunable_name(next)) < 0))
			next = id;
	}
	return next;
}

void procfs_sys_init(void)
{
	char path[INITRD_PATH_MAX];
	initrd_add_symlink("/proc/mounts", "self/mounts");	/* as Linux's */
	for (unsigned i = 0; i < ARRAY_LEN(proc_files); i++)
		initrd_add_proc(proc_files[i].path, proc_files[i].kind, 0, proc_files[i].perm, false);
	initrd_add_proc("/proc/sysvipc/msg", PROCFS_SYSVIPC, SYSVIPC_MSG, 0444, false);
	initrd_add_proc("/proc/sysvipc/sem", PROCFS_SYSVIPC, SYSVIPC_SEM, 0444, false);
	initrd_add_proc("/proc/sysvipc/shm", PROCFS_SYSVIPC, SYSVIPC_SHM, 0444, false);
	for (int i = 0; i < IPC_SYSCTL_NR; i++) {
		ksnprintf(path, sizeof(path), "/proc/sys/kernel/%s", ipc_sysctl_name(i));
		initrd_add_proc(path, PROCFS_SYS_IPC, i, (uint16_t)ipc_sysctl_mode(i), false);
	}
	for (int i = 0; i < PIPE_SYSCTL_NR; i++) {
		ksnprintf(path, sizeof(path), "/proc/sys/fs/%s", pipe_sysctl_name(i));
		initrd_add_proc(path, PROCFS_SYS_PIPE, i, 0644, false);
	}
	for (int i = 0; i < MQ_SYSCTL_NR; i++) {
		ksnprintf(path, sizeof(path), "/proc/sys/fs/mqueue/%s", mq_sysctl_name(i));
		initrd_add_proc(path, PROCFS_SYS_MQUEUE, i, 0644, false);
	}
	/* every tunable, by its table name (sched/tunables.c); hz is set at
	 * boot only, so read-only here */
	struct sched_tunable_desc d;
	for (int id = tunable_after(""); id >= 0; id = tunable_after(d.name)) {
		sched_tunable_describe(id, &d);
		ksnprintf(path, sizeof(path), "/proc/sys/kernel/%s", d.name);
		initrd_add_proc(path, PROCFS_SYS_TUNABLE, id, d.read_only ? 0444 : 0644, false);
	}
}

static uint64_t to_user_hz(uint64_t ticks)
{
	return ticks * USER_HZ / (uint32_t)sched_hz();
}

/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice" */
static void stat_cpu_line(struct pbuf *b, const char *name, const struct sched_cpu_info *c)
{
	pb_printf(b, "%s %llu %llu %llu %llu 0 0 0 0 0 0\n", name,
		  (unsigned long long)to_user_hz(c->user_ticks),
		  (unsigned long long)to_user_hz(c->nice_ticks),
		  (unsigned long long)to_user_hz(c->system_ticks),
		  (unsigned long long)to_user_hz(c->idle_ticks));
}

static void text_stat(struct pbuf *b)
{
	struct sched_cpu_info all = { 0 }, c;
	uint32_t running = 0, switches = 0;
	for (int cpu = 0; sched_cpu_view(cpu, &c) == 0; cpu++) {
		all.user_ticks += c.user_ticks;
		all.nice_ticks += c.nice_ticks;
		all.system_ticks += c.system_ticks;
		all.idle_ticks += c.idle_ticks;
		running += (uint32_t)c.nr_running;
	}
	stat_cpu_line(b, "cpu ", &all);
	for (int cpu = 0; sched_cpu_view(cpu, &c) == 0; cpu++) {
		char name[8];
		ksnprintf(name, sizeof(name), "cpu%d", cpu);
		stat_cpu_line(b, name, &c);
	}
	const struct proc *p;
	for_each_task(p)		/* lockless, as Linux's sums: a count of a moment */
		if (p->pstate == P_LIVE)
			switches += p->sched.stats.nr_runs;
	/* btime: the wall-clock second of boot (the RTC's, kernel/time/systime.c) */
	pb_printf(b, "intr 0\nctxt %u\nbtime %u\nprocesses %u\nprocs_running %u\n"
		  "procs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n",
		  switches, (uint32_t)(realtime_offset_ns() / 1000000000ull),
		  proc_total_forks(), running);
}

/* "uptime idle": seconds with hundredths; idle summed over the CPUs. */
static void text_uptime(struct pbuf *b)
{
	uint64_t up = clock_ns() / (1000000000ull / USER_HZ), idle = 0;
	struct sched_cpu_info c;
	for (int cpu = 0; sched_cpu_view(cpu, &c) == 0; cpu++)
		idle += to_user_hz(c.idle_ticks);
	pb_printf(b, "%llu.%02u %llu.%02u\n", (unsigned long long)(up / USER_HZ),
		  (unsigned)(up % USER_HZ), (unsigned long long)(idle / USER_HZ),
		  (unsigned)(idle % USER_HZ));
}

/* "1.00 0.50 0.20 running/total last_pid", as Linux's loadavg_proc_show. */
static void text_loadavg(struct pbuf *b)
{
	uint32_t l[3], running = 0, total = 0;
	loadavg_get(l);
	for (int i = 0; i < 3; i++) {
		uint32_t frac = ((l[i] & ((1u << LOADAVG_FSHIFT) - 1)) * 100) >> LOADAVG_FSHIFT;
		pb_printf(b, "%u.%02u ", l[i] >> LOADAVG_FSHIFT, frac);
	}
	const struct proc *p;
	for_each_task(p) {		/* lockless: a count of a moment */
		if (p->pstate != P_LIVE)
			continue;
		total++;
		running += p->sched.state == TASK_RUNNING;
	}
	pb_printf(b, "%u/%u %d\n", running, total, proc_last_pid());
}

static void mem_line(struct pbuf *b, const char *name, uint32_t pages)
{
	pb_printf(b, "%-16s%8u kB\n", name, pages * (PAGE_SIZE / 1024));
}

/* The lines procps and busybox read; no swap. Cached: the initrd's page
 * cache (kernel/mm/filemap.c), never given back while the system runs. */
static void text_meminfo(struct pbuf *b)
{
	uint32_t total = pmm_total_count(), free = pmm_free_count();
	mem_line(b, "MemTotal:", total);
	mem_line(b, "MemFree:", free);
	mem_line(b, "MemAvailable:", free);
	mem_line(b, "Buffers:", 0);
	mem_line(b, "Cached:", filemap_cached_frames());
	mem_line(b, "SwapCached:", 0);
	mem_line(b, "Active:", total - free);
	mem_line(b, "Inactive:", 0);
	mem_line(b, "SwapTotal:", 0);
	mem_line(b, "SwapFree:", 0);
	mem_line(b, "Dirty:", 0);
	mem_line(b, "Shmem:", tmpfs_pages_total());	/* tmpfs's pages (kernel/fs/tmpfs.c) */
	mem_line(b, "Slab:", 0);
	mem_line(b, "SReclaimable:", 0);
}

static void text_cpuinfo(struct pbuf *b)
{
	for (int i = 0; i < ncpus; i++) {
		const struct cpu *c = &cpus[i];
		pb_printf(b, "processor\t: %d\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
			  "model name\t: QEMU Virtual CPU\nphysical id\t: %d\ncore id\t\t: %d\n"
			  "apicid\t\t: %u\ncpu MHz\t\t: %u.000\nfpu\t\t: yes\n\n", c->id,
			  c->package, c->core, c->apic_id, (unsigned)(clock_tsc_khz() / 1000));
	}
}

static int tunable_id(const struct initrd_file *n)
{
	return n->arg;
}

int procfs_sys_text(const struct initrd_file *n, struct pbuf *b)
{
	switch (n->procfs) {
	case PROCFS_STAT:		text_stat(b); break;
	case PROCFS_UPTIME:		text_uptime(b); break;
	case PROCFS_LOADAVG:		text_loadavg(b); break;
	case PROCFS_MEMINFO:		text_meminfo(b); break;
	case PROCFS_CPUINFO:		text_cpuinfo(b); break;
	case PROCFS_FILESYSTEMS:	pb_printf(b, "nodev\tramfs\nnodev\tproc\nnodev\ttmpfs\n"); break;
	case PROCFS_SCHED_DEBUG:
	case PROCFS_SCHEDSTAT:		procfs_sched_text(n, b); break;
	/* plugsched's file: the first word is the name sched= takes */
	case PROCFS_SCHEDULER:		pb_printf(b, "%s %s\n", sched_class_name(),
						  sched_class_title()); break;
	case PROCFS_SYSVIPC:		ipc_proc_text(n->arg, b); break;
	case PROCFS_VERSION:
		pb_printf(b, "%s version %s (gcc) #1 SMP %s\n", UTS_SYSNAME, UTS_RELEASE,
			  UTS_VERSION);
		break;
	case PROCFS_SYS_OSTYPE:		pb_printf(b, "%s\n", UTS_SYSNAME); break;
	case PROCFS_SYS_OSRELEASE:	pb_printf(b, "%s\n", UTS_RELEASE); break;
	case PROCFS_SYS_VERSION:	pb_printf(b, "%s\n", UTS_VERSION); break;
	case PROCFS_SYS_HOSTNAME:	pb_printf(b, "%s\n", UTS_NODENAME); break;
	/* nothing taints this kernel: a fault in it halts it (panic.c) */
	case PROCFS_SYS_TAINTED:	pb_printf(b, "0\n"); break;
	case PROCFS_SYS_PID_MAX:	pb_printf(b, "%d\n", pid_max); break;
	case PROCFS_SYS_THREADS_MAX:	pb_printf(b, "%d\n", max_threads); break;
	case PROCFS_SYS_TUNABLE:	pb_printf(b, "%d\n", sched_tunable_get(tunable_id(n))); break;
	case PROCFS_SYS_IPC:		ipc_sysctl_text(n->arg, b); break;
	case PROCFS_SYS_PIPE:		pb_printf(b, "%u\n", pipe_sysctl_value(n->arg)); break;
	case PROCFS_SYS_MQUEUE:		pb_printf(b, "%u\n", mq_sysctl_value(n->arg)); break;
	default:			return -EIO;
	}
	return 0;
}

/* Linux's proc_dointvec: blanks, an optional sign, decimal digits, then
 * only blanks; anything else, or a number an int cannot hold, is EINVAL. */
static int parse_int(const char *s, uint32_t len, int *out)
{
	uint32_t i = 0;
	int64_t v = 0;
	bool neg = false, digits = false;
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
		i++;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits = true) {
		v = v * 10 + (s[i] - '0');
		if (v > 0x80000000ll)
			return -EINVAL;
	}
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
		i++;
	if (!digits || i < len || (!neg && v > 0x7fffffffll))
		return -EINVAL;
	*out = (int)(neg ? -v : v);
	return 0;
}

int procfs_sys_write(const struct initrd_file *n, const char *text, uint32_t len)
{
	int v;
	if (n->procfs == PROCFS_SYS_IPC)	/* several numbers, unsigned longs */
		return ipc_sysctl_write(n->arg, text, len);
	if (n->procfs == PROCFS_SYS_PIPE)	/* unsigned */
		return pipe_sysctl_write(n->arg, text, len);
	if (n->procfs == PROCFS_SYS_MQUEUE)
		return mq_sysctl_write(n->arg, text, len);
	if (parse_int(text, len, &v) < 0)
		return -EINVAL;
	switch (n->procfs) {
	case PROCFS_SYS_TUNABLE:	return sched_tunable_set(tunable_id(n), v);
	case PROCFS_SYS_PID_MAX:	return pid_set_max(v);
	case PROCFS_SYS_THREADS_MAX:	return proc_set_threads_max(v);
	default:			return -EINVAL;
	}
}
