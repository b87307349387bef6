/* sys/utsname.h - struct new_utsname, what i386 call 122 fills. */
#ifndef _SYS_UTSNAME_H
#define _SYS_UTSNAME_H

#include <uapi/utsname.h>	/* struct utsname */

int uname(struct utsname *buf);

#endif
