/*
 * elf.h - the parts of the ELF32 format (System V ABI, i386 supplement)
 * that loading an executable and its dynamic loader needs.
 */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/mm/vm.h"

#define ELF_MAGIC 0x464C457Fu	/* "\x7FELF" little-endian */
#define ET_EXEC 2
#define ET_DYN 3		/* a position-independent program, or ld.so */
#define EM_386 3
#define PT_LOAD 1
#define PT_INTERP 3		/* the dynamic loader's path */
#define PT_PHDR 6
#define PF_X 1
#define PF_W 2
#define PF_R 4

struct elf_header {
	uint32_t magic;
	uint8_t class, data, version, osabi, pad[8];
	uint16_t type, machine;
	uint32_t version2, entry, phoff, shoff, flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
} __attribute__((packed));

struct elf_phdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
} __attribute__((packed));

/* Auxiliary vector keys (Linux include/uapi/linux/auxvec.h). */
#define AT_NULL   0
#define AT_PHDR   3
#define AT_PHENT  4
#define AT_PHNUM  5
#define AT_PAGESZ 6
#define AT_BASE   7
#define AT_FLAGS  8
#define AT_ENTRY  9
#define AT_UID    11
#define AT_EUID   12
#define AT_GID    13
#define AT_EGID   14
#define AT_HWCAP  16
#define AT_CLKTCK 17
#define AT_SECURE 23
#define AT_PLATFORM 15
#define AT_RANDOM 25
#define AT_HWCAP2 26
#define AT_EXECFN 31

struct initrd_file;
struct mm;

/* One ELF file as exec places it: the program, or the dynamic loader its
 * PT_INTERP names (ld-linux.so.2), loaded beside it as Linux does. */
struct image {
	const struct initrd_file *f;
	const struct elf_header *eh;
	const struct elf_phdr *ph;	/* the program headers */
	/* A tmpfs file's header and program headers are read into copy
	 * (kmalloc), its PT_INTERP into interp: elf_release frees them. The
	 * initrd's are read where they lie. */
	void *copy;
	char *interp;
	uint32_t bias;			/* added to every vaddr: 0 for ET_EXEC */
	uint32_t first;			/* the first PT_LOAD's vaddr */
	uint32_t hi;			/* the highest vaddr + memsz: brk's start */
	uint32_t total;			/* Linux's total_mapping_size (ET_DYN) */
	bool has_load;
};

/* kernel/task/elf.c: the rules are Linux 6.1's load_elf_binary (docs/userland.md). */
/* The header and program headers: 0 and *im filled, or -ENOEXEC (or
 * -ENOMEM); elf_release after either. */
int elf_check(const struct initrd_file *f, struct image *im);
void elf_release(struct image *im);
/* The first PT_INTERP's path in *path (NULL: none); -ENOEXEC for a bad
 * one, -EIO when it lies past the end of the file. */
int elf_interp_path(struct image *im, const char **path);
/* The bias for a position-independent image whose first page goes at
 * base; aligned (a program with a loader): base rounded down to the
 * segments' largest p_align, as Linux does. */
void elf_place(struct image *im, uint32_t base, bool aligned);
/* The segments, placed (of the program, or of its loader): -ENOEXEC for
 * one Linux would fail to map after its point of no return (it kills with
 * SIGSEGV; this kernel refuses). */
int elf_check_segments(const struct image *im, bool loader);
/* Map the checked segments as regions of mm (and the zeroed tails of
 * writable segments' last file pages in its page tables): 0 or -ENOMEM. */
int elf_map(struct mm *mm, const struct image *im);
/* AT_PHDR: where the program headers are in memory (the bias alone
 * when no PT_LOAD holds them, as Linux). */
uint32_t elf_phdr_address(const struct image *im);
/* The pages its segments span. */
uint32_t elf_pages(const struct image *im);
const struct elf_phdr *elf_phdrs(const struct image *im);

#endif
