/*
 * uapi/sysinfo.h - what sysinfo (116) fills: Linux i386's struct sysinfo
 * (linux/sysinfo.h), 64 bytes, once for the kernel (kernel/sys/sysinfo.c) and
 * the small libc (user/lib/include/sys/sysinfo.h).
 */
#ifndef UAPI_SYSINFO_H
#define UAPI_SYSINFO_H

#define SI_LOAD_SHIFT	16	/* loads[] are fixed point with 16 fraction bits */

struct sysinfo {
	long uptime;			/* seconds since boot */
	unsigned long loads[3];		/* 1, 5, 15 minutes, << SI_LOAD_SHIFT */
	unsigned long totalram, freeram, sharedram, bufferram;
	unsigned long totalswap, freeswap;
	unsigned short procs, pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;		/* bytes per unit of the *ram fields */
	char _f[8];			/* padding to 64 bytes, as i386 has it */
};

#endif
