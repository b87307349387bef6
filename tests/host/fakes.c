/*
 * fakes.c - the rest of the kernel, as far as the files under test see it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes.h"
#include "../../kernel/init/bootinfo.h"
#include "../../lib/errno.h"
#include "../../lib/format.h"
#include "../../kernel/fs/proc/procfs.h"
#include "../../kernel/fs/mount.h"
#include "../../kernel/fs/tmpfs.h"
#include "../../kernel/debug/printk.h"
#include "../../lib/spinlock.h"
#include "../../kernel/mm/vm.h"

char *host_phys_base;
jmp_buf panic_jump;
bool panic_armed;
char panic_message[256];
char printk_log[8192];
int printk_loglevel = LOG_INFO;
struct boot_module boot_modules[BOOT_MODULES_MAX];
int boot_nmodules;

/* kernel/fs/proc/procfs.c's answer for a magic link: what a test sets. */
const struct initrd_file *fake_magic_target;
const struct initrd_file *initrd_magic_target(const struct initrd_file *link)
{
	(void)link;
	return fake_magic_target;
}

/* The rest of kernel/fs/proc/procfs.c's hooks for the walk: no /proc/PID here (the
 * tests' tables hold no procfs directory, so these are never reached). */
int procfs_lookup(const struct initrd_file **at, const char *name, size_t len)
{
	(void)at, (void)name, (void)len;
	return -ENOENT;
}

const struct initrd_file *procfs_next_child(const struct initrd_file *dir, uint32_t *pos,
					    uint32_t base)
{
	(void)dir;
	*pos = base;
	return NULL;
}

const struct initrd_file *procfs_parent(const struct initrd_file *n)
{
	(void)n;
	return NULL;
}

uint32_t procfs_ino(const struct initrd_file *n)
{
	(void)n;
	return 0;
}

/* No tmpfs and no mounts in the host tests' trees: the walk never meets
 * a tmpfs node or a mount point, so these are never reached. */
int tmpfs_lookup(const struct initrd_file **at, const char *name, size_t len)
{
	(void)at, (void)name, (void)len;
	return -ENOENT;
}
const struct initrd_file *tmpfs_parent(const struct initrd_file *n) { return n; }
int tmpfs_hold(const struct initrd_file *n) { (void)n; return 0; }
void tmpfs_drop(const struct initrd_file *n) { (void)n; }
int procfs_node_hold(const struct initrd_file *n) { (void)n; return 0; }
void procfs_node_drop(const struct initrd_file *n) { (void)n; }
const struct initrd_file *mount_cross(const struct initrd_file *point) { return point; }
const struct initrd_file *mount_point_of(const struct initrd_file *root) { (void)root; return NULL; }

uint32_t fake_online_mask = 1;
void (*fake_sleep_hook)(void);
uint32_t sched_online_mask(void) { return fake_online_mask; }
uint64_t clock_ns(void) { return 0; }
int sleep_until(uint64_t deadline_ns, int state)
{
	(void)deadline_ns;
	(void)state;
	if (fake_sleep_hook)
		fake_sleep_hook();
	return 0;
}

/* CPU 0 unless a test plays another (pmm's per-CPU caches):
 * spin_held() (lib/spinlock.h) compares with it. */
int fake_cpu;

void fakes_reset(void)
{
	if (!host_phys_base)
		host_phys_base = calloc(1, HOST_PHYS_SIZE);
	printk_log[0] = 0;
	panic_message[0] = 0;
	boot_nmodules = 0;
	fake_cpu = 0;
	fake_online_mask = 1;
	fake_sleep_hook = NULL;
	fake_mapped_va = fake_mapped_pa = fake_mapped_pages = 0;
	fake_freed_start = fake_freed_bytes = 0;
}

/* Locks: the tests are single-threaded, and a panic caught by PANICS()
 * leaves the lock it was holding taken, so these only mark the lock. The
 * kernel build checks real lock use. */
void spin_init(struct spinlock *l, const char *name) { l->locked = 0; l->cpu = -1; l->name = name; }
int this_cpu(void) { return fake_cpu; }
void spin_lock(struct spinlock *l) { l->locked = 1; l->cpu = (int16_t)fake_cpu; }
void spin_unlock(struct spinlock *l) { l->locked = 0; l->cpu = -1; }
bool spin_trylock(struct spinlock *l) { if (l->locked) return false; spin_lock(l); return true; }
/* One CPU: no other asks this one to flush its TLB (kernel/arch/smp.c). */
void smp_poll_calls(void) { }

void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(panic_message, sizeof(panic_message), fmt, ap);
	va_end(ap);
	if (panic_armed)
		longjmp(panic_jump, 1);
	fprintf(stderr, "unexpected panic: %s\n", panic_message);
	abort();
}

/* Page tables, for kernel/mm/mm.c: none here, so a region's pages are never
 * present; vm_free_range only records what it was asked to drop. */
uint32_t fake_freed_start, fake_freed_bytes;
pte_t *vm_walk(pde_t *pgdir, uint32_t va, bool create) { (void)pgdir; (void)va; (void)create; return NULL; }
void vm_set_pte(pde_t *pgdir, uint32_t va, pte_t *pte, pte_t value) { (void)pgdir; (void)va; *pte = value; }
void vm_free_range(pde_t *pgdir, uint32_t va, uint32_t n)
{
	(void)pgdir;
	fake_freed_start = va;
	fake_freed_bytes += n;
}

/* kernel/task/elf.c maps a segment's zeroed last page at once: the last one. */
uint32_t fake_mapped_va, fake_mapped_pa, fake_mapped_pages;
int vm_map_page(pde_t *pgdir, uint32_t va, uint32_t pa, uint32_t flags)
{
	(void)pgdir;
	(void)flags;
	fake_mapped_va = va;
	fake_mapped_pa = pa;
	fake_mapped_pages++;
	return 0;
}

/* KASSERT (sched/machine.h, through kernel/debug/panic.h) ends here. */
void kassert_fail(const char *expr, const char *file, int line)
{
	panic("assertion \"%s\" failed at %s:%d", expr, file, line);
}

void printk_level(int level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	(void)level;
	va_start(ap, fmt);
	kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	strncat(printk_log, buf, sizeof(printk_log) - strlen(printk_log) - 1);
}

/* glibc 2.36 has no strlcpy; the kernel's string.c does. */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);
	if (size) {
		size_t n = len < size - 1 ? len : size - 1;
		memcpy(dst, src, n);
		dst[n] = 0;
	}
	return len;
}

/* tmpfs's side of a mapping and of exec's reads: never reached (no tmpfs
 * node in the host tests' trees). */
void tmpfs_map_hold(const struct initrd_file *n) { (void)n; }
void tmpfs_map_drop(const struct initrd_file *n) { (void)n; }
int tmpfs_read_kernel(struct tmpfs_node *n, void *buf, uint32_t count, uint64_t off)
{
	(void)n; (void)buf; (void)count; (void)off;
	return -EIO;
}
int tmpfs_deny_write(struct tmpfs_node *n) { (void)n; return 0; }
void tmpfs_allow_write(struct tmpfs_node *n) { (void)n; }
