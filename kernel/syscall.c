/*
 * syscall.c - int 0x80: Linux i386 system call numbers to kernel functions.
 *
 * The convention is Linux's (docs/abi.md §2): number in eax, arguments in ebx,
 * ecx, edx, esi, edi, ebp, result in eax, -errno on failure. This file is
 * the one table of every call the kernel has, including the ones that exist
 * only here (500 and up). Small calls are written here; the others live
 * with their subsystem (proc.c, exec.c, sleep.c, sched/syscalls.c ...).
 */
#include "syscall.h"
#include "errno.h"
#include "cred.h"
#include "exec.h"
#include "file.h"
#include "mutex.h"
#include "pgrp.h"
#include "pmm.h"
#include "power.h"
#include "proc.h"
#include "signal.h"
#include "sleep.h"
#include "string.h"
#include "systime.h"
#include "trace.h"
#include "trap.h"
#include "uaccess.h"
#include "x86.h"
#include "../sched/syscalls.h"
#include "../sched/tunables.h"

typedef int (*syscall_fn)(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t);

/* ---- files ---------------------------------------------------------------- */

static struct file *fd_file(int fd)
{
	return fd >= 0 && fd < NOFILE ? current()->files[fd] : NULL;
}

static int fd_install(struct file *f)
{
	struct proc *p = current();
	for (int fd = 0; fd < NOFILE; fd++) {
		if (!p->files[fd]) {
			p->files[fd] = f;
			return fd;
		}
	}
	return -EMFILE;
}

static int sys_read(int fd, void *ubuf, uint32_t n)
{
	struct file *f = fd_file(fd);
	return f ? file_read(f, ubuf, n) : -EBADF;
}

static int sys_write(int fd, const void *ubuf, uint32_t n)
{
	struct file *f = fd_file(fd);
	return f ? file_write(f, ubuf, n) : -EBADF;
}

/* Only the console answers ioctls (kernel/tty.c); Linux says ENOTTY for
 * the others. */
static int sys_ioctl(int fd, uint32_t req, void *uarg)
{
	struct file *f = fd_file(fd);
	if (!f)
		return -EBADF;
	return f->type == FT_CONSOLE ? tty_ioctl(req, uarg) : -ENOTTY;
}

#define O_ACCMODE 3

static int sys_open(const char *upath, int flags)
{
	char path[INITRD_PATH_MAX];
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	const struct initrd_file *node = initrd_lookup(path);
	if (!node)
		return -ENOENT;
	if ((flags & O_ACCMODE) != 0)	/* the initrd is read-only */
		return -EROFS;
	struct file *f = file_alloc(FT_INITRD);
	if (!f)
		return -ENOMEM;
	f->node = node;
	int fd = fd_install(f);
	if (fd < 0)
		file_close(f);
	return fd;
}

static int sys_close(int fd)
{
	struct file *f = fd_file(fd);
	if (!f)
		return -EBADF;
	current()->files[fd] = NULL;
	file_close(f);
	return 0;
}

static int sys_dup2(int oldfd, int newfd)
{
	struct file *f = fd_file(oldfd);
	if (!f)
		return -EBADF;
	if (newfd < 0 || newfd >= NOFILE)
		return -EBADF;
	if (newfd == oldfd)
		return newfd;
	struct proc *p = current();
	if (p->files[newfd])
		file_close(p->files[newfd]);
	p->files[newfd] = file_dup(f);
	return newfd;
}

static int sys_pipe(int *ufds)
{
	struct file *rd, *wr;
	int fds[2];
	if (!user_range_ok(ufds, sizeof(fds), true))
		return -EFAULT;
	int err = pipe_create(&rd, &wr);
	if (err < 0)
		return err;
	fds[0] = fd_install(rd);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install(wr);
	if (fds[1] < 0) {
		if (fds[0] >= 0)
			current()->files[fds[0]] = NULL;
		file_close(rd);
		file_close(wr);
		return -EMFILE;
	}
	return copy_to_user(ufds, fds, sizeof(fds));
}

/* ---- processes ------------------------------------------------------------ */

static int sys_exit(int code)
{
	proc_exit((code & 0xFF) << 8);
}

static int sys_getpid(void)  { return current()->pid; }

static int sys_getppid(void)
{
	struct proc *parent = current()->parent;
	return parent ? parent->pid : 0;
}


static int sys_waitpid(int pid, int *ustatus, int options)
{
	return proc_wait4(pid, ustatus, options, NULL);
}

#define BRK_RESERVE_FRAMES 1024	/* 4 MiB */

static int sys_brk(uint32_t addr)
{
	struct proc *p = current();
	uint32_t old = p->brk;

	/* Linux returns the current break when it cannot move it. */
	if (addr < p->brk_start || addr >= USER_STACK_LOW)
		return (int)old;
	/* Keep BRK_RESERVE_FRAMES for everyone else: one process must not
	 * be able to take the last free memory (Linux would say ENOMEM). */
	if (addr > old && (PAGE_ROUND_UP(addr) - PAGE_ROUND_UP(old)) / PAGE_SIZE + BRK_RESERVE_FRAMES > pmm_free_count())
		return (int)old;
	if (addr > old) {
		if (vm_alloc_user(p->pgdir, PAGE_ROUND_UP(old), PAGE_ROUND_UP(addr) - PAGE_ROUND_UP(old), PTE_W) < 0) {
			vm_free_range(p->pgdir, PAGE_ROUND_UP(old), PAGE_ROUND_UP(addr) - PAGE_ROUND_UP(old));
			return (int)old;
		}
	} else {
		vm_free_range(p->pgdir, addr, PAGE_ROUND_UP(old) - addr);
	}
	p->brk = addr;
	return (int)addr;
}

/* ---- the machine ----------------------------------------------------------- */

struct utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

static int sys_uname(void *ubuf)
{
	struct utsname u;
	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, "Staircase", sizeof(u.sysname));
	strlcpy(u.nodename, "staircase", sizeof(u.nodename));
	strlcpy(u.release, "0.1", sizeof(u.release));
	strlcpy(u.version, "staircase scheduler v7.F + batch + iso", sizeof(u.version));
	strlcpy(u.machine, "i686", sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(ubuf, &u, sizeof(u));
}

#define LINUX_REBOOT_MAGIC1 0xFEE1DEADu
#define LINUX_REBOOT_MAGIC2 672274793u
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321FEDCu
#define LINUX_REBOOT_CMD_HALT 0xCDEF0123u

static int sys_reboot(uint32_t magic1, uint32_t magic2, uint32_t cmd)
{
	if (magic1 != LINUX_REBOOT_MAGIC1 || magic2 != LINUX_REBOOT_MAGIC2)
		return -EINVAL;
	if (current()->euid != 0)
		return -EPERM;
	if (cmd == LINUX_REBOOT_CMD_POWER_OFF || cmd == LINUX_REBOOT_CMD_HALT)
		power_off(0);
	return -EINVAL;
}

static int sys_getcpu(unsigned *ucpu, unsigned *unode)
{
	struct cpu *c = mycpu();
	unsigned cpu = c->id, node = c->package;
	if (ucpu && copy_to_user(ucpu, &cpu, sizeof(cpu)) < 0)
		return -EFAULT;
	if (unode && copy_to_user(unode, &node, sizeof(node)) < 0)
		return -EFAULT;
	return 0;
}

/* 502: sched_tunable(id, op, value): op 0 reads, op 1 sets (root only). */
static int sys_sched_tunable(int id, int op, int value)
{
	if (op == 0)
		return sys_sched_get_tunable(id);
	if (op == 1)
		return sys_sched_set_tunable(id, value);
	return -EINVAL;
}

/*
 * 110 iopl(level), 101 ioperm(from, num, on): user mode never gets I/O
 * ports here. An ordinary user gets Linux's answer (EPERM; EINVAL for a
 * level above 3 or a range past port 65535); root is refused as well
 * (EPERM), where Linux would grant it: nothing in this kernel's user space
 * drives hardware. Dropping to level 0, or turning ports off, is a no-op.
 */
static int sys_iopl(uint32_t level)
{
	if (level > 3)
		return -EINVAL;
	return level == 0 ? 0 : -EPERM;
}

static int sys_ioperm(uint32_t from, uint32_t num, int on)
{
	if (from + num < from || from + num > 65536)
		return -EINVAL;
	return on ? -EPERM : 0;
}

/* 505: free_frames() - the frame allocator's free count, for leak tests. */
static int sys_free_frames(void)
{
	return (int)pmm_free_count();
}

/* 506: sched_topology(cpu, struct) - where CPU cpu sits in the machine,
 * for tests that must know which CPUs are hyperthread siblings. */
struct sched_topology_info {
	int32_t ncpus, package, core, thread;
	uint32_t siblings;		/* CPUs on the same core, cpu included */
};

static int sys_sched_topology(int cpu, void *uinfo)
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

/* ---- the table --------------------------------------------------------------- */

#define NSYSCALLS 508
#define SYSCALL(nr, fn) [nr] = { (syscall_fn)(void *)(fn), #fn }

static const struct {
	syscall_fn fn;
	const char *name;
} syscalls[NSYSCALLS] = {
	SYSCALL(0, sys_restart_syscall),	/* kernel/sleep.c */
	SYSCALL(1, sys_exit),
	SYSCALL(2, proc_fork),
	SYSCALL(3, sys_read),
	SYSCALL(4, sys_write),
	SYSCALL(5, sys_open),
	SYSCALL(6, sys_close),
	SYSCALL(7, sys_waitpid),
	SYSCALL(11, sys_execve),
	SYSCALL(20, sys_getpid),
	SYSCALL(23, sys_setuid),
	SYSCALL(24, sys_getuid),
	SYSCALL(34, sys_nice),
	SYSCALL(29, sys_pause),
	SYSCALL(37, sys_kill),			/* kernel/signal.c */
	SYSCALL(42, sys_pipe),
	SYSCALL(43, sys_times),
	SYSCALL(45, sys_brk),
	SYSCALL(47, sys_getgid),
	SYSCALL(49, sys_geteuid),
	SYSCALL(50, sys_getegid),
	SYSCALL(54, sys_ioctl),
	SYSCALL(57, sys_setpgid),		/* kernel/pgrp.c */
	SYSCALL(63, sys_dup2),
	SYSCALL(75, sys_setrlimit),
	SYSCALL(76, sys_getrlimit),		/* old getrlimit: the same here */
	SYSCALL(64, sys_getppid),
	SYSCALL(65, sys_getpgrp),
	SYSCALL(66, sys_setsid),
	SYSCALL(77, sys_getrusage),
	SYSCALL(88, sys_reboot),
	SYSCALL(96, sys_getpriority),
	SYSCALL(97, sys_setpriority),
	SYSCALL(101, sys_ioperm),
	SYSCALL(110, sys_iopl),
	SYSCALL(114, proc_wait4),
	SYSCALL(119, sys_sigreturn),
	SYSCALL(122, sys_uname),
	SYSCALL(132, sys_getpgid),
	SYSCALL(147, sys_getsid),
	SYSCALL(191, sys_getrlimit),		/* ugetrlimit */
	SYSCALL(154, sys_sched_setparam),
	SYSCALL(155, sys_sched_getparam),
	SYSCALL(156, sys_sched_setscheduler),
	SYSCALL(157, sys_sched_getscheduler),
	SYSCALL(158, sys_sched_yield),
	SYSCALL(159, sys_sched_get_priority_max),
	SYSCALL(160, sys_sched_get_priority_min),
	SYSCALL(161, sys_sched_rr_get_interval),
	SYSCALL(162, sys_nanosleep),
	SYSCALL(173, sys_rt_sigreturn),
	SYSCALL(174, sys_rt_sigaction),
	SYSCALL(175, sys_rt_sigprocmask),
	SYSCALL(176, sys_rt_sigpending),
	SYSCALL(179, sys_rt_sigsuspend),
	SYSCALL(199, sys_getuid),
	SYSCALL(200, sys_getgid),
	SYSCALL(201, sys_geteuid),
	SYSCALL(202, sys_getegid),
	SYSCALL(203, sys_setreuid),
	SYSCALL(204, sys_setregid),
	SYSCALL(208, sys_setresuid),		/* kernel/cred.c */
	SYSCALL(209, sys_getresuid),
	SYSCALL(210, sys_setresgid),
	SYSCALL(211, sys_getresgid),
	SYSCALL(213, sys_setuid),
	SYSCALL(214, sys_setgid),
	SYSCALL(224, sys_getpid),		/* gettid: one thread per process */
	SYSCALL(238, sys_tkill),
	SYSCALL(241, sys_sched_setaffinity),
	SYSCALL(242, sys_sched_getaffinity),
	SYSCALL(252, sys_exit),			/* exit_group */
	SYSCALL(265, sys_clock_gettime),
	SYSCALL(267, sys_clock_nanosleep),
	SYSCALL(318, sys_getcpu),
	SYSCALL(340, sys_prlimit64),
	/* Only here (docs/abi.md §4: 500 and up). */
	SYSCALL(500, sys_sched_task_stats),
	SYSCALL(501, sys_sched_cpu_stats),
	SYSCALL(502, sys_sched_tunable),
	SYSCALL(503, sys_test_mutex),
	SYSCALL(504, sys_trace),		/* kernel/trace.c */
	SYSCALL(505, sys_free_frames),
	SYSCALL(506, sys_sched_topology),
	SYSCALL(507, sys_proc_name),
};

static void syscall_trap(struct trapframe *tf)
{
	uint32_t nr = tf->eax;
	int ret = -ENOSYS;
	signal_syscall_entry(nr);
	if (nr < NSYSCALLS && syscalls[nr].fn)
		ret = syscalls[nr].fn(tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp);
	/* execve replaced the whole trap frame; its eax must start at 0. */
	tf->eax = (uint32_t)ret;
}

void syscall_init(void)
{
	trap_register(T_SYSCALL, syscall_trap);
}
