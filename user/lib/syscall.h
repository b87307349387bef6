/*
 * syscall.h - the only place user code enters the kernel.
 *
 * Linux i386 convention (docs/abi.md §2): number in eax, arguments in ebx, ecx,
 * edx, esi, edi; `int $0x80`; result in eax, -errno on failure.  These raw
 * wrappers return the kernel's value untouched; the libc functions turn a
 * negative result into -1 + errno with __syscall_ret().  The sixth argument
 * goes in ebp, which gcc may want as a frame pointer, so syscall6 (futex's
 * val3) saves it around the call, as musl does.
 */
#ifndef USER_SYSCALL_H
#define USER_SYSCALL_H

/* The call numbers: __NR_name, defined once for the kernel and us. */
#include <uapi/unistd.h>

static inline long syscall0(long n)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(n) : "memory");
	return r;
}

static inline long syscall1(long n, long a)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a) : "memory");
	return r;
}

static inline long syscall2(long n, long a, long b)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b)
			 : "memory");
	return r;
}

static inline long syscall3(long n, long a, long b, long c)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b), "d"(c)
			 : "memory");
	return r;
}

static inline long syscall4(long n, long a, long b, long c, long d)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
	return r;
}

static inline long syscall5(long n, long a, long b, long c, long d, long e)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory");
	return r;
}

static inline long syscall6(long n, long a, long b, long c, long d, long e,
			    long f)
{
	long r;
	/* f is pushed before esp moves, then read back into ebp */
	__asm__ volatile("pushl %7\n\t"
			 "pushl %%ebp\n\t"
			 "movl 4(%%esp), %%ebp\n\t"
			 "int $0x80\n\t"
			 "popl %%ebp\n\t"
			 "addl $4, %%esp"
			 : "=a"(r)
			 : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e), "g"(f)
			 : "memory");
	return r;
}

/* -4095..-1 is an error; anything else is a result.  Sets errno only then. */
long __syscall_ret(long r);

#endif
