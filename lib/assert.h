/*
 * assert.h - KASSERT, the one assertion of the kernel, sched/, the host
 * tests and the simulator. Each of them provides kassert_fail(): the
 * kernel panics (kernel/debug/panic.c), the host programs fail the test.
 */
#ifndef LIB_ASSERT_H
#define LIB_ASSERT_H

/* Report a failed assertion and stop. */
__attribute__((noreturn))
void kassert_fail(const char *expr, const char *file, int line);

#ifndef KASSERT
#ifdef NDEBUG
#define KASSERT(x) ((void)0)
#else
#define KASSERT(x) ((x) ? (void)0 : kassert_fail(#x, __FILE__, __LINE__))
#endif
#endif

#endif
