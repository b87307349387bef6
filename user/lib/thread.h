/*
 * thread.h - the smallest thread a test needs: clone with Linux's thread
 * flags, its own TLS block through set_thread_area, and a join that
 * sleeps on a futex until the kernel clears the thread's id at exit.
 *
 *   static char stack[16384] __attribute__((aligned(16)));
 *   struct thread t;
 *   if (thread_create(&t, fn, arg, stack, sizeof(stack)) == 0)
 *           thread_join(&t, -1);
 *
 * This is what glibc's pthread_create does underneath (docs/userland.md),
 * without the rest: the library's errno and stdio are shared by all the
 * threads of a process, so a thread should make raw calls (syscall.h)
 * and leave printing to one thread.
 */
#ifndef USER_THREAD_H
#define USER_THREAD_H

struct thread {
	struct thread *self;	/* %gs:0: thread_self() reads it */
	int (*fn)(void *);
	void *arg;
	volatile int tid;	/* set by clone, cleared and woken at exit */
	int result;		/* fn's return value, once tid is 0 */
};

/* Start fn(arg) in a new thread of this process on the given stack (the
 * caller's memory; 16-byte aligned). Returns 0, or -errno from clone. */
int thread_create(struct thread *t, int (*fn)(void *), void *arg,
		  void *stack, unsigned long size);

/* Wait until t has exited (its tid word is 0): for ever with timeout_ms
 * -1, else at most that long. Returns 0, or -ETIMEDOUT. */
int thread_join(struct thread *t, int timeout_ms);

/* The calling thread's struct thread (NULL before the first create, in the
 * first thread): read through %gs, so each thread sees its own. */
struct thread *thread_self(void);

/* End the calling thread only (exit, 1); the others go on. */
void thread_exit(int result) __attribute__((noreturn));

#endif
