/* sys/sysinfo.h - sysinfo() (116): uptime, load averages, memory. */
#ifndef _SYS_SYSINFO_H
#define _SYS_SYSINFO_H

#include <uapi/sysinfo.h>	/* struct sysinfo, SI_LOAD_SHIFT */

int sysinfo(struct sysinfo *info);

#endif
