/*
 * elf_tests.c - host tests of exec's ELF rules (kernel/task/elf.c; Linux 6.1's
 * load_elf_binary, docs/userland.md "How exec loads an ELF file").
 *
 * Each test builds a small ELF file in memory: a text segment (r-x) at
 * 0x08048000 holding the headers, a data segment (rw-) on the next page
 * from the same file page, with bss past it. The QEMU case
 * exec_elf_rules_as_linux runs the same rules against Linux's outcomes.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "fakes.h"
#include "../../kernel/task/elf.h"
#include "../../lib/errno.h"
#include "../../kernel/fs/initrd.h"
#include "../../kernel/mm/mm.h"
#include "../../kernel/mm/pmm.h"
#include "../../kernel/mm/vm.h"
#include "../../kernel/mm/kmalloc.h"

#define BASE	0x08048000u
#define DATA	0x300u			/* the data's offset in the file */
#define FILE_SZ	0x400u

static uint8_t buf[8192];
static struct initrd_file file;

/* The file: the header, data bytes 0x11 from DATA, junk 0xEE after the
 * data's 16 bytes up to FILE_SZ, then phnum program headers (the first
 * two are the loads). */
static struct elf_header *make(int phnum)
{
	memset(buf, 0, sizeof(buf));
	struct elf_header *eh = (void *)buf;
	*eh = (struct elf_header){ .magic = ELF_MAGIC, .class = 1, .data = 1, .version = 1,
				   .type = ET_EXEC, .machine = EM_386, .version2 = 1,
				   .entry = BASE + 0x200, .phoff = FILE_SZ, .ehsize = sizeof(*eh),
				   .phentsize = sizeof(struct elf_phdr), .phnum = phnum };
	struct elf_phdr *ph = (void *)(buf + eh->phoff);
	ph[0] = (struct elf_phdr){ PT_LOAD, 0, BASE, BASE, DATA, DATA, PF_R | PF_X, 0x1000 };
	ph[1] = (struct elf_phdr){ PT_LOAD, DATA, BASE + 0x1000 + DATA, 0, 16, 0x1100,
				   PF_R | PF_W, 0x1000 };
	memset(buf + DATA, 0x11, 16);
	memset(buf + DATA + 16, 0xEE, FILE_SZ - DATA - 16);
	file = (struct initrd_file){ .path = "/bin/t", .data = buf,
				     .size = FILE_SZ + phnum * sizeof(struct elf_phdr), .perm = 0755 };
	return eh;
}

static struct elf_phdr *phdr(int i)
{
	return (struct elf_phdr *)(buf + ((struct elf_header *)buf)->phoff) + i;
}

static int check(void)
{
	struct image im;
	int err = elf_check(&file, &im);
	return err ? err : elf_check_segments(&im, false);
}

TEST(elf_header_rules_as_linux)
{
	struct elf_header *eh = make(2);
	CHECK_EQ(check(), 0);
	eh->class = 2, eh->data = 2, eh->version = 0;	/* not looked at */
	CHECK_EQ(check(), 0);
	eh->machine = 6;				/* EM_486: i386 too */
	CHECK_EQ(check(), 0);
	eh->machine = 62;
	CHECK_EQ(check(), -ENOEXEC);
	make(128);					/* 4 KiB of program headers */
	CHECK_EQ(check(), 0);
	make(129);
	CHECK_EQ(check(), -ENOEXEC);
	eh = make(2);
	eh->phentsize = 36;
	CHECK_EQ(check(), -ENOEXEC);
	eh = make(2);
	eh->type = 1;					/* ET_REL */
	CHECK_EQ(check(), -ENOEXEC);
	eh = make(2);
	eh->phoff += 4;					/* the table past the end */
	CHECK_EQ(check(), -ENOEXEC);
}

TEST(elf_interp_path_rules_as_linux)
{
	struct image im;
	const char *path;
	make(3);
	*phdr(2) = (struct elf_phdr){ PT_INTERP, 0x200, 0, 0, 8, 8, PF_R, 1 };
	memcpy(buf + 0x200, "/lib/ld", 8);
	CHECK_EQ(elf_check(&file, &im), 0);
	CHECK(elf_interp_path(&im, &path) == 0 && path && strcmp(path, "/lib/ld") == 0);
	buf[0x207] = 'x';				/* no NUL at its end */
	CHECK_EQ(elf_interp_path(&im, &path), -ENOEXEC);
	phdr(2)->filesz = 1;
	CHECK_EQ(elf_interp_path(&im, &path), -ENOEXEC);
	phdr(2)->filesz = 4097;				/* over PATH_MAX */
	CHECK_EQ(elf_interp_path(&im, &path), -ENOEXEC);
	phdr(2)->filesz = 4096;				/* allowed, but past the file */
	CHECK_EQ(elf_interp_path(&im, &path), -EIO);
}

TEST(elf_segments_linux_cannot_map_are_refused)
{
	make(2);
	phdr(1)->offset += 4;				/* offset and vaddr not congruent */
	CHECK_EQ(check(), -ENOEXEC);
	make(2);
	phdr(1)->filesz = 0x2000;			/* filesz > memsz */
	CHECK_EQ(check(), -ENOEXEC);
	make(2);
	phdr(0)->vaddr = 0x1000;			/* below mmap_min_addr */
	CHECK_EQ(check(), -ENOEXEC);
	make(2);
	phdr(1)->vaddr = 0xBFFFF200;			/* the stack's area */
	CHECK_EQ(check(), -ENOEXEC);
	make(2);
	phdr(1)->offset = 0xFFFFF000 + DATA;		/* offset + length wraps */
	CHECK_EQ(check(), -ENOEXEC);
	make(2);
	phdr(1)->filesz = 0x1800;			/* bss page past the file's end */
	phdr(1)->memsz = 0x1900;
	struct image im;
	CHECK_EQ(elf_check(&file, &im), 0);
	CHECK_EQ(elf_check_segments(&im, false), 0);	/* a program: SIGBUS on touch */
	CHECK_EQ(elf_check_segments(&im, true), -ENOEXEC);	/* a loader: refused */
}

/* mm's regions and array gone: as new, for the next test. */
static void mm_done(struct mm *mm)
{
	mm_drop_regions(mm);
	kfree(mm->area);
	*mm = (struct mm){ 0 };
}

/* The regions elf_map makes, and the data's last file page. */
TEST(elf_map_file_pages_bss_and_zeroed_tail)
{
	struct mm mm = { 0 };
	struct image im;
	fresh_memory();
	make(2);
	CHECK(elf_check(&file, &im) == 0 && elf_check_segments(&im, false) == 0);
	CHECK_EQ(elf_map(&mm, &im), 0);
	CHECK_EQ(mm.n, 3);
	struct vm_area *text = mm_find(&mm, BASE), *data = mm_find(&mm, BASE + 0x1000);
	struct vm_area *bss = mm_find(&mm, BASE + 0x2000);
	CHECK(text && text->file == &file && text->file_off == 0 &&
	      text->prot == (PROT_READ | PROT_EXEC) && text->end == BASE + 0x1000);
	CHECK(data && data->file == &file && data->file_off == 0 &&
	      data->prot == (PROT_READ | PROT_WRITE) && data->end == BASE + 0x2000);
	CHECK(bss && !bss->file && bss->end == BASE + 0x3000 &&
	      bss->prot == (PROT_READ | PROT_WRITE));
	/* the data's page now: the file's bytes up to DATA + 16, zeros after */
	CHECK(fake_mapped_pages == 1 && fake_mapped_va == BASE + 0x1000);
	const uint8_t *page = P2V(fake_mapped_pa);
	CHECK(page[0] == buf[0] && page[DATA + 15] == 0x11 && page[DATA + 16] == 0 &&
	      page[FILE_SZ - 1] == 0);
	mm_done(&mm);
}

/* A read-only segment's tail keeps the file's bytes (no page made), and
 * a later segment replaces an earlier one's pages where they meet. */
TEST(elf_map_read_only_tail_and_overlap)
{
	struct mm mm = { 0 };
	struct image im;
	fresh_memory();
	make(2);
	phdr(1)->flags = PF_R;
	CHECK(elf_check(&file, &im) == 0 && elf_map(&mm, &im) == 0);
	CHECK_EQ(fake_mapped_pages, 0);
	CHECK_EQ(mm_find(&mm, BASE + 0x2000)->prot, (PROT_READ | PROT_WRITE));	/* bss: rw */
	mm_done(&mm);
	make(2);
	phdr(1)->vaddr = BASE + DATA;			/* data on the text's page */
	CHECK(elf_check(&file, &im) == 0 && elf_map(&mm, &im) == 0);
	struct vm_area *a = mm_find(&mm, BASE);
	CHECK(a && a->prot == (PROT_READ | PROT_WRITE) && a->end == BASE + 0x1000);
	mm_done(&mm);
}
