/*
 * uapi/prctl.h - the prctl (172) options this kernel has: Linux's numbers
 * (linux/prctl.h), once for the kernel (kernel/task/prctl.c) and user programs.
 */
#ifndef UAPI_PRCTL_H
#define UAPI_PRCTL_H

#define PR_SET_PDEATHSIG 1	/* arg2: the signal, 0 for none */
#define PR_GET_PDEATHSIG 2	/* arg2: an int to write it to */
#define PR_GET_DUMPABLE	3
#define PR_SET_DUMPABLE	4
#define PR_GET_KEEPCAPS	7	/* SECURE_KEEP_CAPS (uapi/capability.h): 0 or 1 */
#define PR_SET_KEEPCAPS	8	/* arg2: 0 or 1 */
#define PR_GET_TIMING	13	/* PR_TIMING_STATISTICAL, the only kind */
#define PR_SET_TIMING	14
#define PR_TIMING_STATISTICAL 0
#define PR_SET_NAME	15	/* arg2: the name, up to 15 bytes are kept */
#define PR_GET_NAME	16	/* arg2: a 16-byte buffer */
#define PR_CAPBSET_READ	23	/* is capability arg2 in the bounding set? */
#define PR_CAPBSET_DROP	24	/* take capability arg2 out of it (CAP_SETPCAP) */
#define PR_GET_TSC	25	/* arg2: an int to write PR_TSC_ENABLE or PR_TSC_SIGSEGV to */
#define PR_SET_TSC	26	/* arg2: PR_TSC_ENABLE or PR_TSC_SIGSEGV (rdtsc faults) */
#define PR_TSC_ENABLE	1
#define PR_TSC_SIGSEGV	2
#define PR_GET_SECUREBITS 27
#define PR_SET_SECUREBITS 28	/* arg2: the bits (CAP_SETPCAP; a locked one stays) */
#define PR_SET_TIMERSLACK 29	/* arg2: ns; 0 resets it to the thread's default */
#define PR_GET_TIMERSLACK 30	/* returns the thread's timer slack, ns */
#define PR_SET_CHILD_SUBREAPER 36	/* arg2: nonzero makes the process a subreaper */
#define PR_GET_CHILD_SUBREAPER 37	/* arg2: an int to write 0 or 1 to */
#define PR_SET_NO_NEW_PRIVS 38	/* arg2: 1 (for good: fork and exec keep it) */
#define PR_GET_NO_NEW_PRIVS 39
#define PR_SET_THP_DISABLE 41	/* arg2: nonzero sets it (the process's flag) */
#define PR_GET_THP_DISABLE 42
#define PR_CAP_AMBIENT	47	/* arg2 what, arg3 the capability: */
#define PR_CAP_AMBIENT_IS_SET	1
#define PR_CAP_AMBIENT_RAISE	2
#define PR_CAP_AMBIENT_LOWER	3
#define PR_CAP_AMBIENT_CLEAR_ALL 4

#endif
