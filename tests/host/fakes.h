/*
 * fakes.h - what the kernel files under test need from the rest of the
 * kernel, replaced for the host: locks that only check their use, a
 * panic that the tests can catch, printk into a buffer, and physical
 * memory in a plain array.
 */
#ifndef TESTS_HOST_FAKES_H
#define TESTS_HOST_FAKES_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#define HOST_PHYS_SIZE (64u << 20)	/* 64 MiB of fake RAM */

extern jmp_buf panic_jump;
extern bool panic_armed;		/* set: panic() longjmps to panic_jump */
extern char panic_message[256];
extern char printk_log[8192];		/* everything printk printed */

void fakes_reset(void);
/* kernel/mm/mm.c's calls of vm_free_range: the last start, bytes in all. */
extern uint32_t fake_freed_start, fake_freed_bytes;
/* kernel/task/elf.c's calls of vm_map_page: the last page and frame, how many. */
extern uint32_t fake_mapped_va, fake_mapped_pa, fake_mapped_pages;
struct initrd_file;
extern const struct initrd_file *fake_magic_target;	/* initrd_magic_target()'s answer */

/* kernel/sync/rcu.c: the CPUs online (sched_online_mask), and what its
 * rcu_barrier's sleep lets happen meanwhile (NULL: nothing). */
extern uint32_t fake_online_mask;
extern void (*fake_sleep_hook)(void);

/* Run stmt; true if it panicked. */
#define PANICS(stmt) ({ bool _p = false; panic_armed = true; \
	if (setjmp(panic_jump) == 0) { stmt; } else { _p = true; } \
	panic_armed = false; _p; })

#endif
