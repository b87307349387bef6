/*
 * uname.c - uname(2) (call 122): the kernel's name, release and machine,
 * in Linux's struct utsname (six fields of 65 bytes, NUL-padded).
 */
#include "uname.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include <uapi/utsname.h>

int sys_uname(void *ubuf)
{
	struct utsname u;
	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, UTS_SYSNAME, sizeof(u.sysname));
	strlcpy(u.nodename, UTS_NODENAME, sizeof(u.nodename));
	strlcpy(u.release, UTS_RELEASE, sizeof(u.release));
	strlcpy(u.version, UTS_VERSION, sizeof(u.version));
	strlcpy(u.machine, UTS_MACHINE, sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(ubuf, &u, sizeof(u));
}
