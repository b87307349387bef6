/*
 * dev.c - the character devices in /dev: null, zero, full, urandom
 * (random too), tty and console, with Linux's numbers (major, minor) and
 * behaviour (Documentation/admin-guide/devices.txt):
 *
 *   null    1,3   reads end at once, writes take everything
 *   zero    1,5   reads give zeros, writes take everything
 *   full    1,7   reads give zeros, writes fail with ENOSPC
 *   random  1,8   reads give getrandom's bytes (kernel/sys/random.c: not
 *   urandom 1,9   cryptographic), writes take everything
 *   tty     5,0   the console (the process's controlling terminal)
 *   console 5,1   the console
 *   cpu_dma_latency 10,MISC  a PM QoS request (cyclictest writes 0 and
 *                 keeps it open): every CPU here wakes as fast as it can,
 *                 so it is taken and ignored; reads give Linux's default
 *                 target (2,000 s, in us) as a 4-byte value
 *
 * They are nodes of the initrd's tree (kernel/fs/initrd.c keeps rdev), so
 * open, stat and ls find them; an open one is an FT_DEV file.
 */
#include "dev.h"
#include "lib/errno.h"
#include "file.h"
#include "initrd.h"
#include "kernel/task/proc.h"
#include "kernel/sys/random.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include <uapi/fcntl.h>	/* O_NONBLOCK */

#define MKDEV(ma, mi)	((uint16_t)((ma) << 8 | (mi)))
#define DEV_NULL	MKDEV(1, 3)
#define DEV_ZERO	MKDEV(1, 5)
#define DEV_FULL	MKDEV(1, 7)
#define DEV_RANDOM	MKDEV(1, 8)
#define DEV_URANDOM	MKDEV(1, 9)
#define DEV_TTY		MKDEV(5, 0)
#define DEV_CONSOLE	MKDEV(5, 1)
/* Linux gives it a dynamic misc minor (misc major 10); 122 is ours, not checked against Linux. */
#define DEV_CPU_DMA_LATENCY	MKDEV(10, 122)
/* PM_QOS_CPU_LATENCY_DEFAULT_VALUE (include/linux/pm_qos.h), us */
#define CPU_LATENCY_DEFAULT	2000000000

static const struct {
	const char *path;
	uint16_t rdev, perm;
} devices[] = {
	{ "/dev/null", DEV_NULL, 0666 },
	{ "/dev/zero", DEV_ZERO, 0666 },
	{ "/dev/full", DEV_FULL, 0666 },
	{ "/dev/random", DEV_RANDOM, 0666 },
	{ "/dev/urandom", DEV_URANDOM, 0666 },
	{ "/dev/tty", DEV_TTY, 0666 },
	{ "/dev/console", DEV_CONSOLE, 0600 },
	{ "/dev/cpu_dma_latency", DEV_CPU_DMA_LATENCY, 0600 },
};

void dev_init(void)
{
	for (uint32_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++)
		initrd_add_device(devices[i].path, devices[i].rdev, devices[i].perm);
}

static bool is_console(uint16_t rdev)
{
	return rdev == DEV_TTY || rdev == DEV_CONSOLE;
}

/* Like Linux's read_zero: a pending signal between pages ends a long
 * read early with what was written (a kill must not wait for 2 GiB). */
static int read_zeros(void *ubuf, uint32_t n)
{
	static const char zeros[256];
	uint32_t done = 0;
	if (n > 0x7FFFF000u)
		n = 0x7FFFF000u;		/* Linux's MAX_RW_COUNT */
	while (done < n) {
		uint32_t k = n - done < sizeof(zeros) ? n - done : sizeof(zeros);
		if (copy_to_user((char *)ubuf + done, zeros, k) < 0)
			return done ? (int)done : -EFAULT;
		done += k;
		if (done % PAGE_SIZE == 0 && done < n && signal_pending(current()))
			break;
	}
	return (int)done;
}

/* Linux's cpu_latency_qos_read: the 4-byte target from the file's
 * offset, as simple_read_from_buffer. */
static int cpu_latency_read(struct file *f, void *ubuf, uint32_t n)
{
	int32_t value = CPU_LATENCY_DEFAULT;
	if (f->offset >= sizeof(value))
		return 0;
	uint32_t k = sizeof(value) - (uint32_t)f->offset;
	if (k > n)
		k = n;
	if (copy_to_user(ubuf, (char *)&value + f->offset, k) < 0)
		return -EFAULT;
	f->offset += k;
	return (int)k;
}

int dev_read(struct file *f, void *ubuf, uint32_t n)
{
	uint16_t rdev = f->node->rdev;
	if (is_console(rdev))
		return tty_read(ubuf, n, f->flags & O_NONBLOCK);
	switch (rdev) {
	case DEV_NULL:		return 0;
	case DEV_ZERO:
	case DEV_FULL:		return read_zeros(ubuf, n);
	case DEV_CPU_DMA_LATENCY:	return cpu_latency_read(f, ubuf, n);
	default:		return sys_getrandom(ubuf, n, 0);	/* random, urandom */
	}
}

int dev_write(struct file *f, const void *ubuf, uint32_t n)
{
	uint16_t rdev = f->node->rdev;
	if (is_console(rdev))
		return tty_write(ubuf, n);
	if (rdev == DEV_FULL)
		return -ENOSPC;
	return (int)n;		/* null, zero, random: taken and dropped */
}

int dev_ioctl(struct file *f, uint32_t req, void *uarg)
{
	return is_console(f->node->rdev) ? tty_ioctl(req, uarg) : -ENOTTY;
}

/* Linux: the console and terminals cannot seek (ESPIPE); null and zero
 * accept any seek and stay at 0. */
bool dev_seekable(const struct file *f)
{
	return !is_console(f->node->rdev);
}

bool dev_is_zero(const struct file *f)
{
	return f->type == FT_DEV && f->node->rdev == DEV_ZERO;
}
