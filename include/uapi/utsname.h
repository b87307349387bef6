/*
 * uapi/utsname.h - what uname (122) fills: Linux's struct new_utsname
 * (linux/utsname.h), six NUL-padded fields of 65 bytes, once for the kernel
 * (kernel/sys/uname.c) and the small libc (user/lib/include/sys/utsname.h).
 */
#ifndef UAPI_UTSNAME_H
#define UAPI_UTSNAME_H

#define __NEW_UTS_LEN	64

struct utsname {
	char sysname[__NEW_UTS_LEN + 1];
	char nodename[__NEW_UTS_LEN + 1];
	char release[__NEW_UTS_LEN + 1];
	char version[__NEW_UTS_LEN + 1];
	char machine[__NEW_UTS_LEN + 1];
	char domainname[__NEW_UTS_LEN + 1];
};

#endif
