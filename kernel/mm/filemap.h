/*
 * filemap.h - mappings of tmpfs files (kernel/mm/filemap.c): the page
 * faults that map a file's own pages, and the pages a truncation takes
 * back from every mapping.
 */
#ifndef KERNEL_FILEMAP_H
#define KERNEL_FILEMAP_H

#include <stdbool.h>
#include <stdint.h>
#include "fault.h"
#include "vm.h"

struct initrd_file;
struct proc;
struct vm_area;

/* Does a fault (write or not) on region a, a private mapping of an
 * initrd file, map the file's cached page (filemap_fault)? */
bool filemap_cached(const struct vm_area *a, bool write);
/* Is frame pa the initrd's cached page at va of region a (a page of the
 * file, not a private copy: /proc/PID/pagemap's file bit)? Under the mm
 * lock of a's address space. */
bool filemap_is_cached_page(const struct vm_area *a, uint32_t va, uint32_t pa);
/* The frames of the initrd's page cache (/proc/meminfo's Cached). */
uint32_t filemap_cached_frames(void);
/* The initrd's cached pages that no mapping holds, given back, and the
 * cache's tables with them (free_frames, as Linux's drop_caches). */
void filemap_drop_cache(void);
/* A fault at the page va of region a, a mapping of a tmpfs file (or one
 * filemap_cached says), whose entry pte is not present: the file's page
 * mapped (a private mapping's read-only, or for a write a copy of it).
 * Under p's mm lock. */
enum fault_result filemap_fault(struct proc *p, const struct vm_area *a, uint32_t va,
				pte_t *pte, bool write);
/* A write to a private mapping's page of the file (PTE_FILE, read-only):
 * the page copied. Under p's mm lock. */
enum fault_result filemap_copy(struct proc *p, const struct vm_area *a, uint32_t va,
			       pte_t *pte);
/* Pages first..end-1 of file out of every address space that maps them:
 * the file's own frames, and with cows a private mapping's copies of
 * them too (a truncation; a punched hole leaves those). The file's data
 * mutex held, no spinlock. */
void filemap_unmap(const struct initrd_file *file, uint32_t first, uint32_t end, bool cows);

#endif
