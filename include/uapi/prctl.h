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
#define PR_SET_NAME	15	/* arg2: the name, up to 15 bytes are kept */
#define PR_GET_NAME	16	/* arg2: a 16-byte buffer */
#define PR_CAPBSET_READ	23	/* is capability arg2 in the bounding set? */
#define PR_GET_TSC	25	/* arg2: an int to write PR_TSC_ENABLE or PR_TSC_SIGSEGV to */
#define PR_SET_TSC	26	/* arg2: PR_TSC_ENABLE or PR_TSC_SIGSEGV (rdtsc faults) */
#define PR_TSC_ENABLE	1
#define PR_TSC_SIGSEGV	2
#define PR_SET_TIMERSLACK 29	/* arg2: ns; 0 resets it to the thread's default */
#define PR_GET_TIMERSLACK 30	/* returns the thread's timer slack, ns */
#define PR_SET_CHILD_SUBREAPER 36	/* arg2: nonzero makes the process a subreaper */
#define PR_GET_CHILD_SUBREAPER 37	/* arg2: an int to write 0 or 1 to */
#define CAP_LAST_CAP	40	/* Linux 6.1's last capability (CAP_CHECKPOINT_RESTORE) */

/* capget (184): the header's versions (how many 32-bit words each set
 * takes: 1, then 2), and one word of each set. */
#define _LINUX_CAPABILITY_VERSION_1	0x19980330
#define _LINUX_CAPABILITY_VERSION_2	0x20071026
#define _LINUX_CAPABILITY_VERSION_3	0x20080522
struct __user_cap_header_struct {
	unsigned int version;
	int pid;
};
struct __user_cap_data_struct {
	unsigned int effective, permitted, inheritable;
};

#endif
