/*
 * uname.c - uname(2) (call 122): the kernel's name, release and machine,
 * in Linux's struct utsname (six fields of 65 bytes, NUL-padded).
 */
#include "uname.h"
#include "string.h"
#include "uaccess.h"

struct utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

int sys_uname(void *ubuf)
{
	struct utsname u;
	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, "Staircase", sizeof(u.sysname));
	strlcpy(u.nodename, "staircase", sizeof(u.nodename));
	strlcpy(u.release, "0.1", sizeof(u.release));
	strlcpy(u.version, "staircase scheduler v7.F + batch + iso", sizeof(u.version));
	strlcpy(u.machine, "i686", sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(ubuf, &u, sizeof(u));
}
