/* sys/sysinfo.h - sysinfo() (116): uptime, load averages, memory. */
#ifndef _SYS_SYSINFO_H
#define _SYS_SYSINFO_H

#define SI_LOAD_SHIFT 16	/* loads[] are fixed point with 16 fraction bits */

/* Linux i386's struct sysinfo, 64 bytes. */
struct sysinfo {
	long uptime;
	unsigned long loads[3];
	unsigned long totalram, freeram, sharedram, bufferram;
	unsigned long totalswap, freeswap;
	unsigned short procs, pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;
	char _f[8];
};

int sysinfo(struct sysinfo *info);

#endif
