/*
 * thread.c - threads for the project's own programs (thread.h): a new
 * thread is clone (120) with the flags glibc's pthread_create passes,
 * its TLS block is a GDT entry set by set_thread_area (243) or by
 * clone's CLONE_SETTLS, and join waits on the thread's id word, which
 * the kernel clears and wakes as the thread exits (CLONE_CHILD_CLEARTID;
 * kernel/task/thread.c).
 */
#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <uapi/clone.h>
#include <uapi/futex.h>
#include <uapi/tls.h>

#include "syscall.h"
#include "thread.h"

#define THREAD_CLONE_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			    CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | \
			    CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)

static struct thread first;	/* the first thread's block */
static int tls_entry = -1;	/* the GDT entry every thread's %gs names */

/* A flat 4 GiB data segment based at t, as glibc i386 asks for. */
static struct user_desc tls_desc(int entry, struct thread *t)
{
	return (struct user_desc){
		.entry_number = entry, .base_addr = (uint32_t)t, .limit = 0xfffff,
		.seg_32bit = 1, .limit_in_pages = 1, .useable = 1,
	};
}

/* The first create gives the first thread its own block: the kernel
 * picks the entry (-1), and %gs is loaded once; new threads inherit it. */
static int tls_init(void)
{
	if (tls_entry >= 0)
		return 0;
	struct user_desc d = tls_desc(-1, &first);
	long r = syscall1(__NR_set_thread_area, (long)&d);
	if (r < 0)
		return r;
	first.self = &first;
	tls_entry = d.entry_number;
	uint16_t sel = (uint16_t)(tls_entry << 3 | 3);	/* GDT, ring 3 */
	__asm__ volatile("movw %0, %%gs" : : "r"(sel));
	return 0;
}

/* Where a new thread starts, on its own stack with t on top (clone_thread
 * below calls it). Not static: the asm names it. */
void thread_start(struct thread *t) __attribute__((noreturn, used));
void thread_start(struct thread *t)
{
	t->result = t->fn(t->arg);
	for (;;)
		syscall1(__NR_exit, 0);
}

/* clone returns twice: in the caller with the new tid, and in the new
 * thread with 0 on the new stack, where no C frame of ours exists, so
 * the new thread's path stays inside the asm until thread_start. */
static long clone_thread(void *sp, volatile int *tid, struct user_desc *tls)
{
	long r;
	__asm__ volatile("int $0x80\n\t"
			 "testl %%eax, %%eax\n\t"
			 "jnz 1f\n\t"
			 "xorl %%ebp, %%ebp\n\t"	/* the end of backtraces */
			 "call thread_start\n"
			 "1:"
			 : "=a"(r)
			 : "a"(__NR_clone), "b"(THREAD_CLONE_FLAGS), "c"(sp),
			   "d"(tid), "S"(tls), "D"(tid)
			 : "memory");
	return r;
}

int thread_create(struct thread *t, int (*fn)(void *), void *arg,
		  void *stack, unsigned long size)
{
	int err = tls_init();
	if (err < 0)
		return err;
	*t = (struct thread){ .self = t, .fn = fn, .arg = arg };
	struct user_desc d = tls_desc(tls_entry, t);
	/* 16-byte aligned, t as thread_start's argument */
	uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
	struct thread **sp = (struct thread **)(top - 16);
	*sp = t;
	long r = clone_thread(sp, &t->tid, &d);
	return r < 0 ? (int)r : 0;
}

static long long now_ms(void)
{
	struct timespec ts;
	syscall2(__NR_clock_gettime, CLOCK_MONOTONIC, (long)&ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The kernel's wake at exit is a shared futex wake (man 2 set_tid_address),
 * so the wait is a shared FUTEX_WAIT, as glibc's pthread_join. */
int thread_join(struct thread *t, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	int tid;

	while ((tid = t->tid) != 0) {
		struct timespec ts = { 0, 0 }, *tp = NULL;
		if (timeout_ms >= 0) {
			long long left = end - now_ms();
			if (left <= 0)
				return -ETIMEDOUT;
			ts = (struct timespec){ left / 1000, left % 1000 * 1000000L };
			tp = &ts;
		}
		syscall4(__NR_futex, (long)&t->tid, FUTEX_WAIT, tid, (long)tp);
	}
	return 0;
}

struct thread *thread_self(void)
{
	uint16_t gs;
	struct thread *t;

	__asm__ volatile("movw %%gs, %0" : "=r"(gs));
	if (gs == 0)
		return NULL;
	__asm__ volatile("movl %%gs:0, %0" : "=r"(t));
	return t;
}

void thread_exit(int result)
{
	struct thread *t = thread_self();
	if (t)
		t->result = result;
	for (;;)
		syscall1(__NR_exit, 0);
}
