/* grp.h - getgrgid(): /etc/group, read fresh each call. */
#ifndef _GRP_H
#define _GRP_H

#include <sys/types.h>

struct group {
	char *gr_name;
	char *gr_passwd;
	gid_t gr_gid;
	char **gr_mem;		/* always an empty list here */
};

struct group *getgrgid(gid_t gid);

#endif
