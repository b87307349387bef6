/*
 * xattr.c - the extended-attribute calls (setxattr ... fremovexattr,
 * 226-237) on a kernel that keeps none: the answers of Linux 6.1's tmpfs
 * for a file that has none, so that ls -l, cp -a and python's shutil go
 * on quietly ("Function not implemented" per file before).
 *
 * Linux's tmpfs keeps security.* and trusted.* (none are ever set here),
 * and system.posix_acl_* through its ACLs (none): reading one is ENODATA.
 * user.* is not kept on tmpfs in 6.1, nor any other prefix: EOPNOTSUPP.
 * Setting anything is EOPNOTSUPP: nothing would keep it. A list is empty.
 */
#include "fs.h"
#include "file.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include <uapi/stat.h>	/* AT_FDCWD */

#define XATTR_NAME_MAX	255

/* The walk's answer for the path (links followed or not), or the file
 * open on fd when upath is NULL (the f* calls). */
static int target(const char *upath, int fd, bool follow)
{
	if (!upath)
		return fd_file(fd) ? 0 : -EBADF;
	char path[FS_PATH_MAX];
	const struct initrd_file *n;
	int err = strncpy_from_user(path, upath, sizeof(path));
	return err < 0 ? err : fs_lookup_at(AT_FDCWD, path, &n, follow);
}

/* Linux's order: the name (ERANGE when empty or over 255 bytes), then
 * the file, then what its prefix says. */
static int kept_prefix(const char *uname, bool *kept)
{
	char name[XATTR_NAME_MAX + 2];
	int len = strncpy_from_user(name, uname, sizeof(name));
	if (len < 0)
		return len;
	if (len == 0 || len > XATTR_NAME_MAX)
		return -ERANGE;
	*kept = strncmp(name, "security.", 9) == 0 || strncmp(name, "trusted.", 8) == 0 ||
		strcmp(name, "system.posix_acl_access") == 0 ||
		strcmp(name, "system.posix_acl_default") == 0;
	return 0;
}

static int get_or_remove(const char *upath, int fd, const char *uname, bool follow)
{
	bool kept;
	int err = kept_prefix(uname, &kept);
	if (!err)
		err = target(upath, fd, follow);
	return err ? err : kept ? -ENODATA : -EOPNOTSUPP;
}

static int set(const char *upath, int fd, const char *uname, bool follow)
{
	bool kept;
	int err = kept_prefix(uname, &kept);
	if (!err)
		err = target(upath, fd, follow);
	return err ? err : -EOPNOTSUPP;
}

static int list(const char *upath, int fd, bool follow)
{
	return target(upath, fd, follow);	/* 0 bytes of names */
}

int sys_getxattr(const char *upath, const char *uname, void *uvalue, uint32_t size)
{
	(void)uvalue, (void)size;
	return get_or_remove(upath, -1, uname, true);
}

int sys_lgetxattr(const char *upath, const char *uname, void *uvalue, uint32_t size)
{
	(void)uvalue, (void)size;
	return get_or_remove(upath, -1, uname, false);
}

int sys_fgetxattr(int fd, const char *uname, void *uvalue, uint32_t size)
{
	(void)uvalue, (void)size;
	return get_or_remove(NULL, fd, uname, true);
}

int sys_removexattr(const char *upath, const char *uname)
{
	return get_or_remove(upath, -1, uname, true);
}

int sys_lremovexattr(const char *upath, const char *uname)
{
	return get_or_remove(upath, -1, uname, false);
}

int sys_fremovexattr(int fd, const char *uname)
{
	return get_or_remove(NULL, fd, uname, true);
}

int sys_setxattr(const char *upath, const char *uname, const void *uvalue, uint32_t size,
		 int flags)
{
	(void)uvalue, (void)size, (void)flags;
	return set(upath, -1, uname, true);
}

int sys_lsetxattr(const char *upath, const char *uname, const void *uvalue, uint32_t size,
		  int flags)
{
	(void)uvalue, (void)size, (void)flags;
	return set(upath, -1, uname, false);
}

int sys_fsetxattr(int fd, const char *uname, const void *uvalue, uint32_t size, int flags)
{
	(void)uvalue, (void)size, (void)flags;
	return set(NULL, fd, uname, true);
}

int sys_listxattr(const char *upath, char *ulist, uint32_t size)
{
	(void)ulist, (void)size;
	return list(upath, -1, true);
}

int sys_llistxattr(const char *upath, char *ulist, uint32_t size)
{
	(void)ulist, (void)size;
	return list(upath, -1, false);
}

int sys_flistxattr(int fd, char *ulist, uint32_t size)
{
	(void)ulist, (void)size;
	return list(NULL, fd, true);
}
