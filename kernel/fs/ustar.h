/*
 * ustar.h - reads a tar archive entry by entry (kernel/fs/ustar.c), for
 * the initrd (kernel/fs/initrd.c).
 *
 * POSIX.1-1988 ustar, with the two ways GNU tar and POSIX.1-2001 write
 * what does not fit its fields: GNU's 'L'/'K' entries (the next entry's
 * long name or link target) and pax's 'x' records (path=, linkpath=).
 * An entry this reader cannot use is reported on the console, one line
 * each, and skipped; a header it cannot trust (bad checksum, a size past
 * the archive's end) ends that archive, since nothing after it can be
 * found. Neither stops the boot.
 */
#ifndef KERNEL_FS_USTAR_H
#define KERNEL_FS_USTAR_H

#include <stdbool.h>
#include <stdint.h>

#define USTAR_BLOCK	512
#define USTAR_NAME_MAX	1024		/* a long name or link target kept; longer: skipped */

/* One entry, as handed to the caller: name and link are NUL-terminated
 * and valid only during the call; data points into the archive. */
struct ustar_entry {
	const char *name;
	const char *link;	/* type '1' (hard link) and '2' (symbolic link): the target */
	char type;		/* '0' file, '1' hard link, '2' symlink, '5' directory */
	const uint8_t *data;
	uint32_t size;
	uint16_t perm;		/* mode's permission bits (07777) */
	uint32_t mtime;		/* seconds since 1970 */
};

/* Hand each usable entry of the archive at p (len bytes) to add, in the
 * archive's order; module names the archive in reports. */
void ustar_unpack(const uint8_t *p, uint32_t len, const char *module,
		  void (*add)(const struct ustar_entry *e));

/* Pure helpers, used by the unit tests too. */
uint32_t ustar_octal(const char *field, int len);
bool ustar_header_ok(const uint8_t *block);	/* "ustar" magic */
bool ustar_checksum_ok(const uint8_t *block);

#endif
