/*
 * elf.h - the parts of the ELF32 format (System V ABI, i386 supplement)
 * that loading an executable and its dynamic loader needs.
 */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include <stdint.h>

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

#endif
