/*
 * main.c - host unit tests of the kernel's pure-C parts.
 *
 * One test per behaviour, named after it (TEST(name) registers it); the
 * host tests' runner (tests/lib/ctest.c) runs them and prints KTAP, "ok N -
 * name" or "not ok N - name # file:line: the check", then "N passed, N
 * failed". make -C tests/host T=pattern runs only the tests it names.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fakes.h"
#include "../../kernel/init/bootinfo.h"
#include "../../kernel/init/bootparam.h"
#include "../../lib/errno.h"
#include "../../lib/format.h"
#include "../../kernel/fs/initrd.h"
#include "../../kernel/fs/ustar.h"
#include "../../kernel/mm/kmalloc.h"
#include "../../lib/errno.h"
#include "../../kernel/mm/mm.h"
#include "../../kernel/mm/pmm.h"
#include "../../kernel/sync/rcu.h"
#include "../../kernel/mm/vm.h"

/* Every test from fresh fakes (tests/lib/ctest.h runs them). */
void ctest_around(const struct ctest *t)
{
	fakes_reset();
	t->fn();
}

/* ---- format.c ---- */

static int fmt_is(const char *want, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "# format \"%s\": got \"%s\", want \"%s\"\n", fmt, buf, want);
	return strcmp(buf, want) == 0;
}

TEST(format_conversions)
{
	CHECK(fmt_is("42 -7 ff FF 17", "%d %i %x %X %o", 42, -7, 255, 255, 15));
	CHECK(fmt_is("4294967295", "%u", 0xFFFFFFFFu));
	CHECK(fmt_is("-9223372036854775808", "%lld", (long long)INT64_MIN));
	CHECK(fmt_is("18446744073709551615", "%llu", (unsigned long long)UINT64_MAX));
	CHECK(fmt_is("[  abc][abc  ][ab]", "[%5s][%-5s][%.2s]", "abc", "abc", "abc"));
	CHECK(fmt_is("00042 -0042 x %", "%05d %05d %c %%", 42, -42, 'x'));
	CHECK(fmt_is("(null)", "%s", (char *)NULL));
}

TEST(format_truncates_and_reports_full_length)
{
	char buf[8];
	int n = ksnprintf(buf, sizeof(buf), "%s", "0123456789");
	CHECK_EQ(n, 10);
	CHECK_EQ(strcmp(buf, "0123456"), 0);
	CHECK_EQ(ksnprintf(NULL, 0, "%d", 12345), 5);
}

/* ---- bootparam.c ---- */

TEST(parse_int_accepts_only_whole_decimal_numbers)
{
	int v;
	CHECK(parse_int("123", &v) && v == 123);
	CHECK(parse_int("-5", &v) && v == -5);
	CHECK(parse_int("+7", &v) && v == 7);
	CHECK(parse_int("2147483647", &v) && v == 2147483647);
	CHECK(parse_int("-2147483648", &v) && v == INT32_MIN);
	CHECK(!parse_int("2147483648", &v));
	CHECK(!parse_int("abc", &v));
	CHECK(!parse_int("12abc", &v));
	CHECK(!parse_int("", &v));
	CHECK(!parse_int("-", &v));
}

TEST(bootparam_skips_image_path_and_reads_values)
{
	bootparam_parse("/boot/kernel.elf hz=100 init=/bin/sh hz=250");
	CHECK_EQ(strcmp(bootparam_cmdline(), "hz=100 init=/bin/sh hz=250"), 0);
	CHECK_EQ(bootparam_int("hz", 1000, 100, 1000), 250);	/* the last one wins */
	CHECK_EQ(strcmp(bootparam_str("init"), "/bin/sh"), 0);
	CHECK_EQ(bootparam_str("missing"), NULL);
	CHECK_EQ(bootparam_int("missing", 7, 0, 10), 7);
	bootparam_parse("hz=300");				/* no image path */
	CHECK_EQ(bootparam_int("hz", 1000, 100, 1000), 300);
}

TEST(bootparam_bad_value_keeps_default_and_says_so)
{
	bootparam_parse("kernel hz=abc loglevel=99");
	CHECK_EQ(bootparam_int("hz", 1000, 100, 1000), 1000);
	CHECK(strstr(printk_log, "bootparam: hz: bad value \"abc\" (want 100..1000), keeping 1000"));
	CHECK_EQ(bootparam_int("loglevel", 6, 0, 7), 6);
	CHECK(strstr(printk_log, "loglevel: bad value \"99\""));
}

TEST(bootparam_reports_unknown_keys_and_stray_words)
{
	bootparam_parse("kernel nosuchkey=1 quiet hz=100 =x");
	CHECK(strstr(printk_log, "\"quiet\" is not key=value"));
	CHECK(strstr(printk_log, "\"=x\" is not key=value"));
	bootparam_int("hz", 1000, 100, 1000);
	printk_log[0] = 0;
	bootparam_report_unknown();
	CHECK(strstr(printk_log, "unknown key \"nosuchkey\""));
	CHECK(!strstr(printk_log, "\"hz\""));
}

/* ---- pmm.c ---- */

/* The frame allocator is one global bitmap: give every test 16 MiB of
 * fresh RAM with the first MiB reserved, as at boot. */
void fresh_memory(void)
{
	kmalloc_forget_all();
	pmm_add_free(0, 16u << 20);
	pmm_reserve(0, 1u << 20);
}

TEST(pmm_hands_out_distinct_aligned_frames_and_counts)
{
	fresh_memory();					/* 16 MiB, 4096 frames */
	uint32_t before = pmm_free_count();
	CHECK_EQ(before, 4096 - 256);
	uint32_t a = pmm_alloc(), b = pmm_alloc();
	CHECK(a && b && a != b);
	CHECK(a % 4096 == 0 && b % 4096 == 0 && a >= (1u << 20));
	CHECK_EQ(pmm_free_count(), before - 2);
	pmm_free(a);
	pmm_free(b);
	CHECK_EQ(pmm_free_count(), before);
}

TEST(pmm_contiguous_runs_and_exhaustion)
{
	fresh_memory();
	uint32_t start = pmm_free_count();
	uint32_t run = pmm_alloc_contig(8);
	CHECK(run != 0);
	for (int i = 0; i < 8; i++)	/* the run is really 8 adjacent frames */
		CHECK(pmm_alloc() != run + i * 4096);
	uint32_t n = 0;
	while (pmm_alloc())
		n++;
	CHECK_EQ(n, start - 16);
	CHECK_EQ(pmm_free_count(), 0);
	CHECK_EQ(pmm_alloc_contig(1), 0);		/* empty: 0, no panic */
}

/* A freed frame waits in its CPU's cache (still free to the counts) and
 * is the next one that CPU gets; when the bitmap runs dry, the frames
 * another CPU keeps are drained and handed out, single or in runs. */
TEST(pmm_frames_cached_on_one_cpu_reach_another_when_short)
{
	extern int fake_cpu;
	static uint32_t got[4096];
	fresh_memory();
	uint32_t start = pmm_free_count(), n = 0;
	while ((got[n] = pmm_alloc()) != 0)
		n++;
	CHECK(n == start && pmm_free_count() == 0);
	fake_cpu = 1;
	for (uint32_t i = 0; i < 8; i++)	/* 8 adjacent frames into CPU 1's cache */
		pmm_free(got[100 + i]);
	CHECK_EQ(pmm_free_count(), 8);
	CHECK_EQ(pmm_alloc(), got[107]);		/* the warmest, on the CPU that freed it */
	pmm_free(got[107]);
	fake_cpu = 0;
	uint32_t low = got[100];
	for (uint32_t i = 1; i < 8; i++)
		low = got[100 + i] < low ? got[100 + i] : low;
	CHECK_EQ(pmm_alloc_contig(8), low);	/* drained: all 8, adjacent */
	CHECK_EQ(pmm_free_count(), 0);
	fake_cpu = 1;
	pmm_free(got[5]);
	fake_cpu = 0;
	CHECK_EQ(pmm_alloc(), got[5]);		/* CPU 0 has none: CPU 1's, drained */
	CHECK(pmm_alloc() == 0 && pmm_free_count() == 0);
}

/* A user page let go goes to its CPU's cache of user pages: the next user
 * page there gets it, but never a kernel object (under QEMU's TCG a frame
 * that held code, reused whole for a struct proc, made every write to it
 * slow: pmm.c), unless memory runs out and the caches are drained. */
TEST(pmm_user_pages_come_back_as_user_pages_only)
{
	static uint32_t got[4096];
	fresh_memory();
	uint32_t n = 0;
	while ((got[n] = pmm_alloc()) != 0)
		n++;
	pmm_unref(got[10]);			/* a user page's last mapping goes */
	CHECK_EQ(pmm_free_count(), 1);
	CHECK_EQ(pmm_alloc_user(), got[10]);
	CHECK_EQ(pmm_refs(got[10]), 1);
	pmm_free(got[20]);			/* a kernel frame */
	pmm_unref(got[10]);			/* then the user page, the warmer */
	CHECK_EQ(pmm_alloc(), got[20]);		/* not the user page */
	CHECK_EQ(pmm_alloc(), got[10]);		/* short: drained, then it is free */
	CHECK(pmm_alloc() == 0 && pmm_alloc_user() == 0);
}

#ifdef POISON_FREE
TEST(pmm_and_kfree_poison_what_they_free)
{
	fresh_memory();
	uint32_t a = pmm_alloc();
	memset(P2V(a), 0, PAGE_SIZE);
	pmm_free(a);
	unsigned char *pa = P2V(a);
	CHECK(pa[0] == POISON_BYTE && pa[PAGE_SIZE - 1] == POISON_BYTE);
	unsigned char *b = kmalloc(100);
	memset(b, 0, 100);
	kfree(b);
	CHECK(b[0] == POISON_BYTE && b[99] == POISON_BYTE);	/* a use after free */
}
#endif

TEST(pmm_double_free_panics)
{
	fresh_memory();
	uint32_t a = pmm_alloc();
	pmm_free(a);
	CHECK(PANICS(pmm_free(a)));
	CHECK(strstr(panic_message, "is not allocated"));
	CHECK(PANICS(pmm_free(0)));			/* frame 0 is never handed out */
}

/* Copy-on-write: a frame mapped twice is freed by the second unref only. */
TEST(pmm_shared_frame_is_freed_by_its_last_reference)
{
	fresh_memory();
	uint32_t before = pmm_free_count(), a = pmm_alloc();
	CHECK_EQ(pmm_refs(a), 1);
	pmm_ref(a);
	CHECK_EQ(pmm_refs(a), 2);
	pmm_unref(a);
	CHECK(pmm_refs(a) == 1 && pmm_free_count() == before - 1);
	pmm_unref(a);
	CHECK_EQ(pmm_free_count(), before);
	CHECK(PANICS(pmm_unref(a)));			/* never freed twice */
}

TEST(pmm_free_of_a_shared_frame_panics)
{
	fresh_memory();
	uint32_t a = pmm_alloc();
	pmm_ref(a);
	CHECK(PANICS(pmm_free(a)));			/* still mapped elsewhere */
	CHECK(strstr(panic_message, "frame_refs"));
}

/* ---- mm.c ---- */

#define P 4096u
#define A 0x10000000u

static struct mm test_mm;

/* test_mm holds one region per (start, pages) pair, each read-write. */
static struct mm *regions(int n, const uint32_t *starts, const uint32_t *pages)
{
	mm_drop_regions(&test_mm);
	kfree(test_mm.area);
	memset(&test_mm, 0, sizeof(test_mm));
	fake_freed_bytes = 0;
	for (int i = 0; i < n; i++) {
		struct vm_area a = { starts[i], starts[i] + pages[i] * P, PROT_READ | PROT_WRITE, 0, NULL, 0, NULL, NULL };
		mm_insert(&test_mm, &a);
	}
	return &test_mm;
}

static bool area_is(const struct mm *mm, int i, uint32_t start, uint32_t end, int prot)
{
	return i < mm->n && mm->area[i].start == start && mm->area[i].end == end &&
	       mm->area[i].prot == prot;
}

TEST(mm_munmap_of_the_middle_splits_a_region)
{
	struct mm *mm = regions(1, (uint32_t[]){ A }, (uint32_t[]){ 3 });
	CHECK_EQ(mm_unmap(mm, A + P, A + 2 * P), 0);
	CHECK_EQ(mm->n, 2);
	CHECK(area_is(mm, 0, A, A + P, PROT_READ | PROT_WRITE));
	CHECK(area_is(mm, 1, A + 2 * P, A + 3 * P, PROT_READ | PROT_WRITE));
	CHECK(fake_freed_start == A + P && fake_freed_bytes == P);	/* its pages only */
	CHECK(mm_find(mm, A + P) == NULL && mm_find(mm, A + 2 * P) == &mm->area[1]);
}

TEST(mm_protect_splits_then_merges_back)
{
	struct mm *mm = regions(1, (uint32_t[]){ A }, (uint32_t[]){ 3 });
	CHECK_EQ(mm_protect(mm, A + P, A + 2 * P, PROT_READ), 0);
	CHECK(mm->n == 3 && area_is(mm, 1, A + P, A + 2 * P, PROT_READ));
	CHECK_EQ(mm_protect(mm, A + P, A + 2 * P, PROT_READ | PROT_WRITE), 0);
	CHECK(mm->n == 1 && area_is(mm, 0, A, A + 3 * P, PROT_READ | PROT_WRITE));
}

TEST(mm_protect_over_a_hole_changes_nothing)
{
	struct mm *mm = regions(2, (uint32_t[]){ A, A + 2 * P }, (uint32_t[]){ 1, 1 });
	CHECK_EQ(mm_protect(mm, A, A + 3 * P, PROT_NONE), -ENOMEM);
	CHECK(mm->n == 2 && area_is(mm, 0, A, A + P, PROT_READ | PROT_WRITE));
}

TEST(mm_full_table_refuses_a_split_and_changes_nothing)
{
	static uint32_t starts[MM_MAX_AREAS], pages[MM_MAX_AREAS];
	fresh_memory();					/* the array is on the heap */
	for (int i = 0; i < MM_MAX_AREAS; i++) {
		starts[i] = A + i * 4 * P;	/* gaps: no two merge */
		pages[i] = 3;
	}
	struct mm *mm = regions(MM_MAX_AREAS, starts, pages);
	CHECK_EQ(mm->n, MM_MAX_AREAS);
	CHECK_EQ(mm_unmap(mm, A + P, A + 2 * P), -ENOMEM);
	CHECK_EQ(mm_protect(mm, A + P, A + 2 * P, PROT_READ), -ENOMEM);
	CHECK(mm->n == MM_MAX_AREAS && area_is(mm, 0, A, A + 3 * P, PROT_READ | PROT_WRITE));
	CHECK_EQ(fake_freed_bytes, 0);
	CHECK(mm_unmap(mm, A, A + 3 * P) == 0 && mm->n == MM_MAX_AREAS - 1);	/* no split */
}

TEST(mm_free_range_goes_top_down_past_regions)
{
	struct mm *mm = regions(0, NULL, NULL);
	CHECK_EQ(mm_free_range(mm, 2 * P), MMAP_BASE - 2 * P);
	mm = regions(2, (uint32_t[]){ MMAP_BASE - 2 * P, MMAP_BASE - 5 * P }, (uint32_t[]){ 2, 2 });
	/* the 1-page gap between them is too small for 2 pages */
	CHECK_EQ(mm_free_range(mm, 2 * P), MMAP_BASE - 7 * P);
	CHECK_EQ(mm_free_range(mm, P), MMAP_BASE - 3 * P);
	CHECK_EQ(mm_free_range(mm, MMAP_BASE), 0);		/* no room at all */
}

TEST(mm_split_keeps_the_file_offset)
{
	static const struct initrd_file file;
	regions(0, NULL, NULL);
	struct vm_area a = { A, A + 4 * P, PROT_READ, 0, &file, 8 * P, NULL, NULL };
	mm_insert(&test_mm, &a);
	CHECK_EQ(mm_split_at(&test_mm, A + P), 0);
	CHECK(test_mm.n == 2 && test_mm.area[1].file_off == 9 * P);
	mm_merge(&test_mm);					/* contiguous in the file */
	CHECK(test_mm.n == 1 && test_mm.area[0].file_off == 8 * P);
}

/* ---- kmalloc.c ---- */

TEST(kmalloc_blocks_are_aligned_and_disjoint)
{
	static const size_t sizes[] = { 1, 15, 16, 17, 100, 1000, 2000, 2032, 5000, 20000 };
	void *p[10];
	fresh_memory();
	for (int i = 0; i < 10; i++) {
		p[i] = kmalloc(sizes[i]);
		CHECK(p[i] != NULL);
		CHECK_EQ((uintptr_t)p[i] % 16, 0);
		memset(p[i], i + 1, sizes[i]);
	}
	for (int i = 0; i < 10; i++)
		for (size_t j = 0; j < sizes[i]; j++)
			if (((unsigned char *)p[i])[j] != i + 1) {
				CHECK(!"a block was overwritten by another");
				break;
			}
	for (int i = 0; i < 10; i++)
		kfree(p[i]);
	/* Large blocks go back to the frame allocator at once. */
	void *big = kmalloc(64 * 1024);
	uint32_t during = pmm_free_count();
	kfree(big);
	CHECK_EQ(pmm_free_count(), during + 17);		/* 64 KiB + header: 17 frames */
}

TEST(kmalloc_reuses_freed_blocks)
{
	fresh_memory();
	void *a = kmalloc(100);
	kfree(a);
	void *b = kmalloc(100);
	CHECK_EQ(a, b);
	kfree(b);
	CHECK_EQ(kmalloc(0), NULL);
	kfree(NULL);					/* allowed, does nothing */
}

/* Blocks freed on one CPU wait in its cache; when the heap and the frames
 * run out on another, those blocks are drained and handed out there.
 */
TEST(kmalloc_blocks_cached_on_one_cpu_reach_another_when_short)
{
	extern int fake_cpu;
	static void *got[140000];
	fresh_memory();
	uint32_t n = 0;
	while (n < 140000 && (got[n] = kmalloc(100)) != NULL)
		n++;
	CHECK(n > 100 && n < 140000 && pmm_free_count() == 0);
	fake_cpu = 1;
	for (uint32_t i = 0; i < 5; i++)	/* into CPU 1's cache */
		kfree(got[i]);
	fake_cpu = 0;
	void *p = kmalloc(100);			/* CPU 0: none left but CPU 1's */
	CHECK(p == got[0] || p == got[1] || p == got[2] || p == got[3] || p == got[4]);
	CHECK_EQ(kmalloc(2000), NULL);		/* another class: nothing, no panic */
}

/* kmalloc_shrink gives back exactly the pages whose blocks are all free,
 * on any CPU's list, and keeps a page with one block still in use. */
TEST(kmalloc_shrink_gives_back_only_wholly_free_pages)
{
	extern int fake_cpu;
	static void *got[200];
	fresh_memory();
	uint32_t start = pmm_free_count();
	for (int i = 0; i < 200; i++)		/* 7 pages at least (more on a 64-bit host) */
		got[i] = kmalloc(100);
	CHECK(start - pmm_free_count() >= 7);
	for (int i = 0; i < 200; i++) {
		fake_cpu = i % 2;		/* half onto CPU 1's cache */
		if (i != 70)
			kfree(got[i]);
	}
	fake_cpu = 0;
	kmalloc_shrink();
	CHECK_EQ(pmm_free_count(), start - 1);	/* got[70]'s page stays */
	kfree(got[70]);
	kmalloc_shrink();
	CHECK_EQ(pmm_free_count(), start);
	void *again = kmalloc(100);		/* the heap still works */
	CHECK(again != NULL && pmm_free_count() == start - 1);
	kfree(again);
}

TEST(kmalloc_bad_and_double_free_panic)
{
	fresh_memory();
	void *a = kmalloc(64);
	kfree(a);
	CHECK(PANICS(kfree(a)));
	char local[64] = { 0 };
	CHECK(PANICS(kfree(local + 32)));
}

/* ---- initrd.c ---- */

/* A header's checksum: its bytes summed with the field itself as spaces. */
static void ustar_sum(uint8_t *p)
{
	unsigned sum = 0;
	memset(p + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += p[i];
	snprintf((char *)p + 148, 8, "%06o", sum);
}

/* Write a ustar header for a file or directory at memory p. */
static void ustar_entry(uint8_t *p, const char *name, const char *data, char type)
{
	memset(p, 0, 512);
	strcpy((char *)p, name);
	snprintf((char *)p + 124, 12, "%011o", data ? (unsigned)strlen(data) : 0u);
	p[156] = type;
	memcpy(p + 257, "ustar", 6);
	memcpy(p + 263, "00", 2);
	if (data)
		memcpy(p + 512, data, strlen(data));
	ustar_sum(p);
}

/* The tree's nodes and strings come from the heap: fresh memory, with the
 * test archives' place (2 to 6 MiB of the fake RAM) kept out of it. */
static void initrd_memory(void)
{
	fresh_memory();
	pmm_reserve(0x200000, 0x400000);
}

TEST(ustar_octal_fields)
{
	CHECK_EQ(ustar_octal("0000644 ", 8), 0644);
	CHECK_EQ(ustar_octal("00000001750", 12), 01750);
	CHECK_EQ(ustar_octal("        ", 8), 0);
}

TEST(initrd_unpacks_ustar_and_installs_elf_modules)
{
	uint8_t *tar = P2V(0x200000);
	ustar_entry(tar, "bin/", NULL, '5');
	ustar_entry(tar + 512, "bin/hello", "hi there", '0');
	ustar_entry(tar + 1536, "./etc/motd", "welcome", '0');
	/* then two zero blocks (the buffer is zeroed) */
	uint8_t *elf = P2V(0x300000);
	memcpy(elf, "\177ELF rest of it", 16);
	boot_modules[0] = (struct boot_module){ 0x200000, 0x200000 + 4096, "initrd.tar" };
	boot_modules[1] = (struct boot_module){ 0x300000, 0x300000 + 16, "/boot/myprog arg" };
	boot_modules[2] = (struct boot_module){ 0x400000, 0x400000 + 600, "junk" };
	boot_nmodules = 3;
	initrd_memory();
	initrd_init();
	const struct initrd_file *f = initrd_lookup("/bin/hello");
	CHECK(f && f->size == 8 && memcmp(f->data, "hi there", 8) == 0);
	CHECK(initrd_lookup("/etc/motd") && initrd_lookup("/etc/motd")->size == 7);
	CHECK(initrd_lookup("/bin") && initrd_lookup("/bin")->is_dir);
	CHECK(initrd_lookup("/bin/myprog") && initrd_lookup("/bin/myprog")->size == 16);
	CHECK_EQ(initrd_lookup("/bin/nothing"), NULL);
	CHECK(strstr(printk_log, "module junk is neither ustar nor ELF"));
}

/* The archive of the test above gives this tree: "/" made, "/etc" implied
 * by "./etc/motd", "/bin" from its own entry. */
TEST(initrd_tree_links_every_node_to_its_directory)
{
	const struct initrd_file *root = initrd_root(), *bin = initrd_lookup("/bin");
	const struct initrd_file *etc = initrd_lookup("/etc"), *f;
	CHECK(root && root->is_dir && initrd_parent(root) == root);
	CHECK(etc && etc->is_dir && initrd_parent(etc) == root);
	CHECK(bin && initrd_parent(initrd_lookup("/bin/hello")) == bin);
	CHECK_EQ(strcmp(initrd_name(initrd_lookup("/bin/hello")), "hello"), 0);
	CHECK_EQ(strcmp(initrd_name(root), "/"), 0);
	int n = 0, saw_myprog = 0;
	uint32_t pos = 0;
	while ((f = initrd_next_child(bin, &pos)) != NULL) {
		n++;
		saw_myprog += strcmp(f->path, "/bin/myprog") == 0;
	}
	CHECK(n == 2 && saw_myprog == 1);
	pos = 0;
	n = 0;
	while ((f = initrd_next_child(root, &pos)) != NULL)
		n++;
	CHECK_EQ(n, 2);				/* bin and etc, not "/" itself */
}

TEST(initrd_resolve_walks_like_linux)
{
	const struct initrd_file *bin = initrd_lookup("/bin"), *f = NULL;
	CHECK(initrd_resolve(bin, "hello", &f) == 0 && f == initrd_lookup("/bin/hello"));
	CHECK(initrd_resolve(bin, "../etc//motd", &f) == 0 && f == initrd_lookup("/etc/motd"));
	CHECK(initrd_resolve(bin, "/../..", &f) == 0 && f == initrd_root());
	CHECK(initrd_resolve(NULL, "bin/./hello", &f) == 0 && f == initrd_lookup("/bin/hello"));
	CHECK(initrd_resolve(bin, "/etc/", &f) == 0 && f == initrd_lookup("/etc"));
	CHECK_EQ(initrd_resolve(bin, "hello/", &f), -ENOTDIR);
	CHECK_EQ(initrd_resolve(bin, "hello/..", &f), -ENOTDIR);
	CHECK_EQ(initrd_resolve(bin, "nothing", &f), -ENOENT);
	CHECK_EQ(initrd_resolve(bin, "", &f), -ENOENT);
}

/* The nodes the kernel adds after the archives (kernel/fs/dev.c,
 * kernel/fs/proc/procfs.c): linked into the tree with the directories they need,
 * never over an archive's file; a magic link followed except as the last
 * component of an lstat or readlink. */
TEST(initrd_kernel_nodes_and_magic_links)
{
	const struct initrd_file *f = NULL, *hello = initrd_lookup("/bin/hello");
	initrd_add_device("/dev/null", 0x0103, 0666);
	initrd_add_device("/bin/hello", 0x0105, 0666);		/* taken: the archive's wins */
	initrd_add_dir("/proc/self");
	initrd_add_magic("/proc/self/exe", 1);
	const struct initrd_file *dev = initrd_lookup("/dev"), *null = initrd_lookup("/dev/null");
	CHECK(dev && dev->is_dir && initrd_parent(dev) == initrd_root());
	CHECK(null && null->rdev == 0x0103 && initrd_parent(null) == dev && !null->is_dir);
	CHECK(hello && hello->rdev == 0 && hello->size == 8);
	CHECK(initrd_lookup("/proc") && initrd_parent(initrd_lookup("/proc/self")) == initrd_lookup("/proc"));
	fake_magic_target = hello;
	CHECK(initrd_resolve(NULL, "/proc/self/exe", &f) == 0 && f == hello);
	CHECK(initrd_resolve_at(NULL, "/proc/self/exe", &f, false) == 0 && f->magic == 1);
	CHECK_EQ(initrd_resolve_at(NULL, "/proc/self/exe/", &f, false), -ENOTDIR);	/* followed: a file */
	CHECK_EQ(initrd_resolve(NULL, "/proc/self/exe/..", &f), -ENOTDIR);
	fake_magic_target = NULL;				/* a kernel thread's */
	CHECK_EQ(initrd_resolve(NULL, "/proc/self/exe", &f), -ENOENT);
	CHECK_EQ(initrd_resolve_at(NULL, "/proc/self/exe", &f, false), 0);
}

/* A tar's symbolic links (typeflag '2', the target in the linkname field
 * at offset 157): followed by the walk from the link's own directory or
 * from "/", kept as links by lstat-like walks, ELOOP after 40. */
static void symlink_entry(uint8_t *p, const char *name, const char *target)
{
	ustar_entry(p, name, NULL, '2');
	strcpy((char *)p + 157, target);
	ustar_sum(p);
}

TEST(initrd_symbolic_links)
{
	uint8_t *tar = P2V(0x200000);
	memset(tar, 0, 8192);
	ustar_entry(tar, "lib/i386/ld.so", "ELF", '0');
	symlink_entry(tar + 1024, "lib/ld-linux.so.2", "i386/ld.so");	/* relative */
	symlink_entry(tar + 1536, "bin/ld", "/lib/ld-linux.so.2");		/* absolute, a chain */
	symlink_entry(tar + 2048, "usrlib", "lib/");			/* a directory */
	symlink_entry(tar + 2560, "loop1", "loop2");
	symlink_entry(tar + 3072, "loop2", "loop1");
	symlink_entry(tar + 3584, "dangling", "no/such");
	boot_modules[0] = (struct boot_module){ 0x200000, 0x200000 + 8192, "initrd.tar" };
	boot_nmodules = 1;
	initrd_memory();
	initrd_init();
	const struct initrd_file *ld = initrd_lookup("/lib/i386/ld.so"), *f = NULL;
	CHECK(ld && ld->size == 3);
	CHECK(initrd_resolve(NULL, "/lib/ld-linux.so.2", &f) == 0 && f == ld);
	CHECK(initrd_resolve(NULL, "/bin/ld", &f) == 0 && f == ld);
	CHECK(initrd_resolve(NULL, "/usrlib/i386/ld.so", &f) == 0 && f == ld);
	CHECK(initrd_resolve_at(NULL, "/bin/ld", &f, false) == 0 && f->symlink &&
	      strcmp(f->symlink, "/lib/ld-linux.so.2") == 0);
	CHECK_EQ(initrd_resolve(NULL, "/loop1", &f), -ELOOP);
	CHECK_EQ(initrd_resolve(NULL, "/dangling", &f), -ENOENT);
	CHECK_EQ(initrd_resolve_at(NULL, "/dangling", &f, false), 0);
	CHECK_EQ(initrd_resolve(NULL, "/lib/ld-linux.so.2/x", &f), -ENOTDIR);
}

TEST(initrd_rejects_truncated_archive)
{
	uint8_t *tar = P2V(0x500000);
	ustar_entry(tar, "big", "0123456789", '0');
	snprintf((char *)tar + 124, 12, "%011o", 100000u);	/* claims 100000 bytes */
	ustar_sum(tar);
	boot_modules[0] = (struct boot_module){ 0x500000, 0x500000 + 1024, "bad.tar" };
	boot_nmodules = 1;
	initrd_memory();
	initrd_init();
	CHECK(strstr(printk_log, "runs past the archive end"));
}

/* Two archives with the same path: the later module's file is the one a
 * lookup finds (initrd_lookup's hash chains are newest first) and the
 * one a listing shows, once; every other path of both is found. */
TEST(initrd_later_module_wins)
{
	uint8_t *a = P2V(0x200000), *b = P2V(0x300000);
	memset(a, 0, 4096);
	memset(b, 0, 4096);
	ustar_entry(a, "bin/ps", "ours", '0');
	ustar_entry(a + 1024, "bin/sh", "shell", '0');
	ustar_entry(b, "bin/ps", "debian's", '0');
	ustar_entry(b + 1024, "usr/top", "top", '0');
	boot_modules[0] = (struct boot_module){ 0x200000, 0x200000 + 4096, "initrd.tar" };
	boot_modules[1] = (struct boot_module){ 0x300000, 0x300000 + 4096, "debs.tar" };
	boot_nmodules = 2;
	initrd_memory();
	initrd_init();
	const struct initrd_file *ps = initrd_lookup("/bin/ps"), *bin = initrd_lookup("/bin"), *f;
	CHECK(ps && ps->size == 8 && memcmp(ps->data, "debian's", 8) == 0);
	CHECK(initrd_lookup("/bin/sh") && initrd_lookup("/usr/top") && initrd_lookup("/usr"));
	int n = 0, seen_ps = 0;
	uint32_t pos = 0;
	while (bin && (f = initrd_next_child(bin, &pos)) != NULL) {
		n++;
		seen_ps += f == ps;
	}
	CHECK(n == 2 && seen_ps == 1);
}

/* Any size: 5,000 files in 50 directories the archive only implies, every
 * tenth a hard link to the file before it (tar's type '1', as dpkg-deb
 * writes perl's /usr/bin/perl5.36.0). All are found; "/" and the implied
 * directories are there; a link is its file (one inode, two names). */
static void hardlink_entry(uint8_t *p, const char *name, const char *target)
{
	ustar_entry(p, name, NULL, '1');
	strcpy((char *)p + 157, target);
	ustar_sum(p);
}

#define BIG_TAR_PA	0x1000000	/* above the 16 MiB the heap is cut from */
#define BIG_N		5000

TEST(initrd_loads_5000_entries_with_hard_links)
{
	uint8_t *tar = P2V(BIG_TAR_PA);
	uint32_t off = 0;
	char name[64], target[64], data[32];
	memset(tar, 0, (BIG_N + 2) * 1024);
	for (int i = 0; i < BIG_N; i++) {
		snprintf(name, sizeof(name), "./usr/d%02d/file%04d", i % 50, i);
		if (i % 10 == 9) {
			snprintf(target, sizeof(target), "./usr/d%02d/file%04d", (i - 1) % 50, i - 1);
			hardlink_entry(tar + off, name, target);
			off += 512;
		} else {
			snprintf(data, sizeof(data), "data %d", i);
			ustar_entry(tar + off, name, data, '0');
			off += 1024;
		}
	}
	boot_modules[0] = (struct boot_module){ BIG_TAR_PA, BIG_TAR_PA + off + 1024, "big.tar" };
	boot_nmodules = 1;
	initrd_memory();
	initrd_init();
	CHECK(strstr(printk_log, "initrd: 5052 files from 1 modules"));	/* + "/", usr, d00..d49 */
	CHECK(initrd_root() && initrd_root()->is_dir && initrd_lookup("/") == initrd_root());
	int found = 0;
	const struct initrd_file *f = NULL, *g = NULL;
	for (int i = 0; i < BIG_N; i++) {
		snprintf(name, sizeof(name), "/usr/d%02d/file%04d", i % 50, i);
		found += initrd_resolve(NULL, name, &f) == 0 && !f->is_dir;
	}
	CHECK(found == BIG_N);
	CHECK(initrd_resolve(NULL, "/usr/d09/file0009", &f) == 0);	/* the link */
	CHECK(initrd_resolve(NULL, "/usr/d08/file0008", &g) == 0);	/* its file */
	CHECK(f != g && initrd_nlink(f) == 2 && initrd_nlink(g) == 2 && f->size == 6 &&
	      f->data == g->data && memcmp(f->data, "data 8", 6) == 0);	/* a name of its own */
	CHECK(strcmp(f->path, "/usr/d09/file0009") == 0);
	CHECK(initrd_ino(initrd_lookup("/usr/d09/file0009")) == initrd_ino(g));
	CHECK(initrd_lookup("/usr/d07/file0007")->nlink == 1);
	const struct initrd_file *usr = initrd_lookup("/usr");
	CHECK(usr && usr->is_dir && usr->nlink == 2 + 50 && initrd_root()->nlink == 3);
	uint32_t pos = 0;
	int n = 0;
	while ((f = initrd_next_child(initrd_lookup("/usr/d09"), &pos)) != NULL)
		n++;
	CHECK(n == BIG_N / 50);				/* links listed under their own names */
}

/* An entry the loader cannot keep is reported, one line each, and the
 * boot goes on with the rest; a header it cannot trust ends its archive
 * only, and a later module still loads. GNU's and pax's long names work. */
TEST(initrd_reports_bad_entries_and_goes_on)
{
	uint8_t *a = P2V(0x200000), *b = P2V(0x300000);
	memset(a, 0, 16384);
	memset(b, 0, 4096);
	ustar_entry(a, "dev/ttyS0", NULL, '3');			/* a device: not kept */
	ustar_entry(a + 512, "../escape", "x", '0');		/* outside the tree */
	hardlink_entry(a + 1536, "bin/lost", "bin/nowhere");	/* no such file */
	char longname[300];
	memset(longname, 'n', sizeof(longname));
	memcpy(longname, "deep/", 5);
	longname[200] = 0;
	ustar_entry(a + 2048, "././@LongLink", longname, 'L');	/* GNU: the next name */
	ustar_entry(a + 3072, "truncated-name", "long", '0');
	const char *pax = "24 path=pax/with/a/path\n";
	ustar_entry(a + 4096, "PaxHeaders/x", pax, 'x');
	ustar_entry(a + 5120, "short", "pax", '0');
	ustar_entry(a + 6144, "bin/ok", "fine", '0');
	ustar_entry(a + 7168, "bin/after-bad", "lost", '0');
	a[7168 + 10] ^= 1;					/* its checksum is wrong */
	ustar_entry(b, "etc/later", "still", '0');
	boot_modules[0] = (struct boot_module){ 0x200000, 0x200000 + 16384, "a.tar" };
	boot_modules[1] = (struct boot_module){ 0x300000, 0x300000 + 4096, "b.tar" };
	boot_nmodules = 2;
	initrd_memory();
	initrd_init();
	CHECK(strstr(printk_log, "dev/ttyS0: tar type '3' is not kept"));
	CHECK(strstr(printk_log, "../escape: a \"..\""));
	CHECK(strstr(printk_log, "bin/lost: hard link to bin/nowhere not kept"));
	CHECK(strstr(printk_log, "a.tar: bad tar header at offset 7168"));
	CHECK(initrd_lookup("/bin/ok") && initrd_lookup("/etc/later"));
	CHECK(!initrd_lookup("/bin/after-bad") && !initrd_lookup("/bin/lost"));
	CHECK(!initrd_lookup("/escape") && !initrd_lookup("/dev/ttyS0"));
	char want[320];
	snprintf(want, sizeof(want), "/%s", longname);
	CHECK(initrd_lookup(want) && initrd_lookup(want)->size == 4);
	CHECK(initrd_lookup("/pax/with/a/path") && !initrd_lookup("/short"));
}

/* ---- rcu.c ---- */

static struct rcu_head rcu_heads[4];
static int rcu_ran[4];

static void rcu_note(struct rcu_head *h)
{
	rcu_ran[h - rcu_heads]++;
}

static void rcu_start(uint32_t online)
{
	rcu_barrier();			/* nothing left from an earlier test */
	memset(rcu_ran, 0, sizeof(rcu_ran));
	fake_online_mask = online;
}

/* A task reaped on CPU 0 while CPUs 1 and 2 may still read it: freed only
 * once both have passed a quiescent state; CPU 3, offline, and CPU 0, the
 * one reclaiming, are not waited for. */
TEST(rcu_callback_waits_for_every_other_online_cpu)
{
	rcu_start(0x7);
	rcu_call(&rcu_heads[0], rcu_note);
	rcu_reclaim();			/* its grace period starts */
	CHECK_EQ(rcu_ran[0], 0);
	rcu_quiescent(0);		/* the reclaiming CPU's own: not needed */
	rcu_reclaim();
	CHECK_EQ(rcu_ran[0], 0);
	rcu_quiescent(1);
	rcu_reclaim();
	CHECK_EQ(rcu_ran[0], 0);		/* CPU 2 may still hold it */
	rcu_quiescent(2);
	rcu_reclaim();
	CHECK_EQ(rcu_ran[0], 1);
	rcu_reclaim();
	CHECK_EQ(rcu_ran[0], 1);		/* once */
}

/* One queued after a grace period began may have been found by a CPU
 * that has passed its quiescent state already: it waits for the next. */
TEST(rcu_callback_queued_during_a_grace_period_waits_for_the_next)
{
	rcu_start(0x3);
	rcu_call(&rcu_heads[0], rcu_note);
	rcu_reclaim();
	rcu_call(&rcu_heads[1], rcu_note);
	rcu_quiescent(1);
	rcu_reclaim();
	CHECK(rcu_ran[0] == 1 && rcu_ran[1] == 0);
	rcu_reclaim();
	CHECK_EQ(rcu_ran[1], 0);
	rcu_quiescent(1);
	rcu_reclaim();
	CHECK_EQ(rcu_ran[1], 1);
}

static int rcu_sleeps, rcu_ran_before_sleeping;

static void other_cpus_pass(void)
{
	if (rcu_sleeps++ == 0)
		rcu_ran_before_sleeping = rcu_ran[0] + rcu_ran[2] + rcu_ran[3];
	for (int c = 1; c < 4; c++)
		rcu_quiescent(c);
}

/* free_frames: everything queued on any CPU runs, after a grace period
 * that the barrier sleeps through. */
TEST(rcu_barrier_runs_every_cpus_callbacks_after_a_grace_period)
{
	extern int fake_cpu;
	rcu_start(0xF);
	fake_cpu = 2;
	rcu_call(&rcu_heads[2], rcu_note);
	rcu_reclaim();			/* CPU 2's batch, waiting */
	fake_cpu = 3;
	rcu_call(&rcu_heads[3], rcu_note);
	fake_cpu = 0;
	rcu_call(&rcu_heads[0], rcu_note);
	rcu_sleeps = 0;
	fake_sleep_hook = other_cpus_pass;
	rcu_barrier();
	fake_sleep_hook = NULL;
	CHECK(rcu_sleeps >= 1 && rcu_ran_before_sleeping == 0);	/* waited first */
	CHECK(rcu_ran[0] == 1 && rcu_ran[2] == 1 && rcu_ran[3] == 1 && rcu_ran[1] == 0);
}
