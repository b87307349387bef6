/*
 * elf.c - what exec accepts of an ELF file, and its segments as regions.
 *
 * The rules are Linux 6.1's load_elf_binary and load_elf_interp
 * (fs/binfmt_elf.c), as Debian's 6.1 kernel was seen to keep them
 * (tests/elf/SET.linux); docs/userland.md ("How exec loads an ELF file")
 * lists them with the few deliberate differences. In short:
 *   - the header: "\x7FELF", ET_EXEC or ET_DYN, EM_386 or EM_486, program
 *     headers of 32 bytes, 1 to 128 of them (4 KiB), inside the file; the
 *     rest of e_ident (class, byte order, version) is not looked at;
 *   - the first PT_INTERP names the loader: 2 to PATH_MAX bytes, NUL last;
 *   - each PT_LOAD, in order, is mapped as Linux maps it (elf_load): the
 *     file's pages [vaddr, vaddr + filesz) as a private file mapping with
 *     the segment's protections, filled at the first touch (kernel/mm/fault.c;
 *     past the end of the file that is SIGBUS); the rest of the last file
 *     page zeroed when the segment is writable (else it keeps the file's
 *     bytes); the pages after it up to vaddr + memsz anonymous, zero on
 *     demand, read-write. A later segment replaces an earlier one's pages
 *     where they meet (MAP_FIXED).
 * The file is the initrd's, read where it lies, or tmpfs's, whose headers
 * are read into a copy and whose pages the segments map (kernel/mm/filemap.c).
 * What Linux only finds after exec's point of no return, and answers by
 * killing the process with SIGSEGV (a segment it cannot map), is refused
 * here before it, with ENOEXEC (elf_check_segments): the caller lives.
 */
#include "elf.h"
#include "lib/errno.h"
#include "kernel/fs/initrd.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "lib/string.h"

#define EM_486		6	/* Linux's elf_check_arch takes it as i386 */
#define ELF_PHDRS_MAX	(PAGE_SIZE / sizeof(struct elf_phdr))	/* load_elf_phdrs' 4 KiB */
#define ELF_PATH_MAX	4096	/* PT_INTERP's limit: Linux's PATH_MAX */
#define PAGE_OFF(x)	((x) & (PAGE_SIZE - 1))

const struct elf_phdr *elf_phdrs(const struct image *im)
{
	return im->ph;
}

static bool header_ok(const struct elf_header *eh, uint32_t size)
{
	return size >= sizeof(*eh) && eh->magic == ELF_MAGIC &&
	       (eh->type == ET_EXEC || eh->type == ET_DYN) &&
	       (eh->machine == EM_386 || eh->machine == EM_486) &&
	       eh->phentsize == sizeof(struct elf_phdr) && eh->phnum != 0 &&
	       eh->phnum <= ELF_PHDRS_MAX && eh->phoff <= size &&
	       eh->phnum * sizeof(struct elf_phdr) <= size - eh->phoff;
}

/* A tmpfs file's header and program headers, read into im->copy (a
 * writer may change the file meanwhile: what is checked is the copy). */
static int read_headers(const struct initrd_file *f, struct image *im)
{
	struct elf_header eh;
	uint32_t size = f->size;
	if (node_read(f, &eh, sizeof(eh), 0) != (int)sizeof(eh) || !header_ok(&eh, size))
		return -ENOEXEC;
	uint32_t len = eh.phnum * sizeof(struct elf_phdr);
	struct elf_header *copy = im->copy = kmalloc(sizeof(eh) + len);
	if (!copy)
		return -ENOMEM;
	*copy = eh;
	if (node_read(f, copy + 1, len, eh.phoff) != (int)len)
		return -ENOEXEC;
	im->eh = copy;
	im->ph = (const void *)(copy + 1);
	return 0;
}

void elf_release(struct image *im)
{
	kfree(im->copy);
	kfree(im->interp);
	im->copy = im->interp = NULL;
}

int elf_check(const struct initrd_file *f, struct image *im)
{
	*im = (struct image){ .f = f };
	if (!f->data) {
		int err = read_headers(f, im);
		if (err < 0)
			return err;
	} else {
		im->eh = (const void *)f->data;
		if (!header_ok(im->eh, f->size))
			return -ENOEXEC;
		im->ph = (const void *)(f->data + im->eh->phoff);
	}
	const struct elf_header *eh = im->eh;
	const struct elf_phdr *ph = elf_phdrs(im);
	uint32_t min = 0xFFFFFFFFu, max = 0;	/* as Linux computes them, wrapping */
	for (int i = 0; i < eh->phnum; i++) {
		if (ph[i].type != PT_LOAD)
			continue;
		if (!im->has_load)
			im->first = ph[i].vaddr;
		im->has_load = true;
		uint32_t end = ph[i].vaddr + ph[i].memsz;
		if (end > im->hi && end >= ph[i].vaddr)
			im->hi = end;
		if (PAGE_ROUND_DOWN(ph[i].vaddr) < min)
			min = PAGE_ROUND_DOWN(ph[i].vaddr);
		if (end > max)
			max = end;
	}
	im->total = im->has_load ? max - min : 0;
	return 0;
}

/* The loader's path at off: where it lies, or a tmpfs file's copied. */
static const char *interp_text(struct image *im, uint32_t off, uint32_t len)
{
	if (im->f->data)
		return (const char *)im->f->data + off;
	if (!(im->interp = kmalloc(len)) || node_read(im->f, im->interp, len, off) != (int)len)
		return NULL;
	return im->interp;
}

int elf_interp_path(struct image *im, const char **path)
{
	const struct elf_phdr *ph = elf_phdrs(im);
	*path = NULL;
	for (int i = 0; i < im->eh->phnum; i++) {
		if (ph[i].type != PT_INTERP)
			continue;
		if (ph[i].filesz < 2 || ph[i].filesz > ELF_PATH_MAX)
			return -ENOEXEC;
		if (ph[i].offset > im->f->size || ph[i].filesz > im->f->size - ph[i].offset)
			return -EIO;		/* Linux: its read comes up short */
		const char *s = interp_text(im, ph[i].offset, ph[i].filesz);
		if (!s)
			return -EIO;
		if (s[ph[i].filesz - 1])
			return -ENOEXEC;
		*path = s;
		return 0;			/* only the first counts */
	}
	return 0;
}

/* The largest power-of-two p_align of the PT_LOADs, at least a page
 * (Linux's maximum_alignment). */
static uint32_t max_align(const struct image *im)
{
	const struct elf_phdr *ph = elf_phdrs(im);
	uint32_t align = 0;
	for (int i = 0; i < im->eh->phnum; i++) {
		uint32_t a = ph[i].align;
		if (ph[i].type == PT_LOAD && a && !(a & (a - 1)) && a > align)
			align = a;
	}
	return align > PAGE_SIZE ? align : PAGE_SIZE;
}

void elf_place(struct image *im, uint32_t base, bool aligned)
{
	if (aligned)
		base &= ~(max_align(im) - 1);
	im->bias = im->eh->type == ET_DYN ? base - PAGE_ROUND_DOWN(im->first) : 0;
}

/* One PT_LOAD's pages as they will be: [start, end) wholly in the user
 * part that a program may have, between mmap_min_addr and the stack. */
static bool fits(uint32_t start, uint32_t len)
{
	return start >= MMAP_MIN_ADDR && len <= MMAP_BASE && start <= MMAP_BASE - len;
}

/* One PT_LOAD with memsz > 0, placed: 0, or -ENOEXEC where Linux's mmap
 * of it would fail after the point of no return (SIGSEGV there). */
static int check_segment(const struct image *im, const struct elf_phdr *p, bool loader)
{
	uint32_t va = p->vaddr + im->bias;
	uint32_t len = PAGE_OFF(va) + p->memsz, flen = PAGE_ROUND_UP(PAGE_OFF(va) + p->filesz);

	if (len < p->memsz || len > MMAP_BASE || !fits(PAGE_ROUND_DOWN(va), PAGE_ROUND_UP(len)))
		return -ENOEXEC;
	if (!p->filesz)
		return 0;
	if (PAGE_OFF(p->offset) != PAGE_OFF(va))
		return -ENOEXEC;	/* mmap's offset would not be page aligned */
	if (PAGE_ROUND_DOWN(p->offset) + flen < PAGE_ROUND_DOWN(p->offset))
		return -ENOEXEC;	/* vm_mmap: offset + length wraps */
	/* A loader's writable segment whose zeroed tail lies in a page wholly
	 * past the file's end: recorded as SIGSEGV on Linux. (The program's
	 * own such segment runs there, and the page is SIGBUS when touched.) */
	if (loader && p->memsz > p->filesz && PAGE_OFF(va + p->filesz) && (p->flags & PF_W) &&
	    PAGE_ROUND_DOWN(p->offset + p->filesz) >= PAGE_ROUND_UP(im->f->size))
		return -ENOEXEC;
	return 0;
}

int elf_check_segments(const struct image *im, bool loader)
{
	const struct elf_phdr *ph = elf_phdrs(im);
	bool any = false;
	for (int i = 0; i < im->eh->phnum; i++) {
		if (ph[i].type != PT_LOAD)
			continue;
		if (ph[i].filesz > ph[i].memsz || ph[i].vaddr + im->bias >= KERNEL_OFFSET)
			return -ENOEXEC;	/* Linux: EINVAL */
		if (ph[i].memsz == 0)
			continue;		/* Linux maps nothing for it */
		any = true;
		int err = check_segment(im, &ph[i], loader);
		if (err < 0)
			return err;
	}
	if (!any)
		return 0;		/* nothing to map: the loader may run, or SIGSEGV */
	/* Linux maps a position-independent image's whole span first, from
	 * where its first segment goes: it must fit there. */
	if (im->eh->type == ET_DYN && (im->total == 0 || im->total > MMAP_BASE ||
	    !fits(PAGE_ROUND_DOWN(im->first + im->bias), PAGE_ROUND_UP(im->total))))
		return -ENOEXEC;
	return 0;
}

/* Linux's make_prot: no NX on this kernel's (and Debian's 686) non-PAE
 * paging, so PROT_EXEC only says the user may read it. */
static uint8_t segment_prot(uint32_t pf)
{
	return ((pf & PF_R) ? PROT_READ : 0) | ((pf & PF_W) ? PROT_WRITE : 0) |
	       ((pf & PF_X) ? PROT_EXEC : 0);
}

/* Region a replaces whatever the range held (Linux's MAP_FIXED). */
static int replace(struct mm *mm, const struct vm_area *a)
{
	if (mm_unmap(mm, a->start, a->end) < 0)
		return -ENOMEM;
	return mm_insert(mm, a);
}

/* The last file page of a writable segment, now: the file's bytes up to
 * end (the segment's p_filesz), zeros after (Linux's padzero). */
static int zero_tail(pde_t *pd, const struct vm_area *a, uint32_t end)
{
	uint32_t page = PAGE_ROUND_DOWN(end);
	uint32_t off = a->file_off + (page - a->start);
	uint32_t n = end - page;
	if (off >= PAGE_ROUND_UP(a->file->size))
		return 0;	/* wholly past the file's end: SIGBUS when touched, as on Linux */
	uint32_t pa = pmm_alloc_user();
	if (!pa)
		return -ENOMEM;
	memset(P2V(pa), 0, PAGE_SIZE);
	if (off < a->file->size)
		node_read(a->file, P2V(pa), n, off);	/* what the file has of it */
	if (vm_map_page(pd, page, pa, mm_pte_flags(a, true)) < 0) {
		pmm_unref(pa);
		return -ENOMEM;
	}
	return 0;
}

/* One PT_LOAD as Linux's elf_load maps it. */
static int map_segment(struct mm *mm, const struct image *im, const struct elf_phdr *p)
{
	uint32_t va = p->vaddr + im->bias, end = va + p->filesz;
	uint32_t zero_start = PAGE_ROUND_DOWN(va), zero_end = PAGE_ROUND_UP(va + p->memsz);
	uint8_t prot = segment_prot(p->flags);
	int err;

	if (p->filesz) {
		struct vm_area file = { PAGE_ROUND_DOWN(va), PAGE_ROUND_UP(end), prot, 0,
					im->f, PAGE_ROUND_DOWN(p->offset), NULL, NULL };
		if ((err = replace(mm, &file)) < 0)
			return err;
		if (p->memsz > p->filesz && PAGE_OFF(end) && (prot & PROT_WRITE) &&
		    (err = zero_tail(mm->pgdir, mm_find(mm, PAGE_ROUND_DOWN(end)), end)) < 0)
			return err;
		zero_start = PAGE_ROUND_UP(end);
	}
	if (p->memsz <= p->filesz || zero_end <= zero_start)
		return 0;
	/* Linux's vm_brk_flags: data pages, read-write whatever the segment. */
	struct vm_area bss = { zero_start, zero_end,
			       PROT_READ | PROT_WRITE | (prot & PROT_EXEC), 0, NULL, 0, NULL, NULL };
	return replace(mm, &bss);
}

int elf_map(struct mm *mm, const struct image *im)
{
	const struct elf_phdr *ph = elf_phdrs(im);
	for (int i = 0; i < im->eh->phnum; i++) {
		if (ph[i].type != PT_LOAD || ph[i].memsz == 0)
			continue;
		int err = map_segment(mm, im, &ph[i]);
		if (err < 0)
			return err;
	}
	return 0;
}

uint32_t elf_phdr_address(const struct image *im)
{
	const struct elf_phdr *ph = elf_phdrs(im);
	uint32_t phoff = im->eh->phoff, addr = 0;
	/* Linux 6.1: the PT_LOAD whose file bytes hold the table (the last
	 * such one), whatever PT_PHDR says; none: the bias alone. */
	for (int i = 0; i < im->eh->phnum; i++)
		if (ph[i].type == PT_LOAD && ph[i].offset <= phoff &&
		    phoff - ph[i].offset < ph[i].filesz)
			addr = phoff - ph[i].offset + ph[i].vaddr;
	return addr + im->bias;
}

uint32_t elf_pages(const struct image *im)
{
	uint32_t pages = 0;
	const struct elf_phdr *ph = elf_phdrs(im);
	for (int i = 0; i < im->eh->phnum; i++)
		if (ph[i].type == PT_LOAD && ph[i].memsz)
			pages += (PAGE_ROUND_UP(PAGE_OFF(ph[i].vaddr) + ph[i].memsz)) / PAGE_SIZE;
	return pages;
}
