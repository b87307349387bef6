/*
 * exec.c - execve: replace a process's program with an ELF file.
 *
 * The new address space is built completely aside (segments, then the
 * stack with argc/argv/envp/auxv exactly as Linux lays it out) and only
 * then swapped in, so a failing execve leaves the caller untouched and
 * returns an error.
 *
 * Stack at entry (lowest address first), as the i386 ABI and Linux have it:
 *	argc, argv[0..argc-1], NULL, envp[0..], NULL, auxv pairs, AT_NULL,
 *	then the 16 AT_RANDOM bytes and the strings themselves.
 *
 * The segments' file bytes and the first stack pages are filled at once
 * (bss comes on demand); the new
 * program's regions (kernel/mm.c) say what the rest may become: each
 * segment, an empty heap after the last one (brk, kernel/mmap.c), and the
 * stack, which grows down on demand (kernel/fault.c).
 */
#include "elf.h"
#include "errno.h"
#include "exec.h"
#include "fs.h"
#include "file.h"
#include "initrd.h"
#include "kmalloc.h"
#include "mm.h"
#include "pmm.h"
#include "proc.h"
#include "script.h"
#include "signal.h"
#include "string.h"
#include "thread.h"
#include "time.h"
#include "uaccess.h"
#include "x86.h"

#define ARG_MAX_BYTES 8192
#define USER_HZ 100

/* One ELF file as exec places it: the program, or the dynamic loader its
 * PT_INTERP names (ld-linux.so.2), loaded beside it as Linux does. */
struct image {
	const struct initrd_file *f;
	const struct elf_header *eh;
	uint32_t bias;			/* added to every vaddr: 0 for ET_EXEC */
	uint32_t lo, hi;		/* its segments' span, before the bias */
};

/* Where position-independent files go (no randomization here): a PIE
 * program at Linux i386's ELF_ET_DYN_BASE (4 MiB since Linux 4.13), the
 * loader at the top of the mmap area, as its first mapping would be. */
#define PIE_BASE	0x00400000u

static const struct elf_phdr *phdrs(const struct image *im)
{
	return (const void *)(im->f->data + im->eh->phoff);
}

/* Check the header and program headers (-ENOEXEC when they are not an
 * i386 program this kernel can place), and find the segments' span. */
static int elf_check(const struct initrd_file *f, struct image *im)
{
	const struct elf_header *eh = (const void *)f->data;
	if (f->size < sizeof(*eh) || eh->magic != ELF_MAGIC || eh->class != 1 ||
	    eh->data != 1 || (eh->type != ET_EXEC && eh->type != ET_DYN) || eh->machine != EM_386 ||
	    eh->phentsize != sizeof(struct elf_phdr) || eh->phnum == 0 || eh->phnum > 32 ||
	    eh->phoff > f->size || eh->phoff + eh->phnum * sizeof(struct elf_phdr) > f->size)
		return -ENOEXEC;
	*im = (struct image){ f, eh, 0, 0xFFFFFFFFu, 0 };
	const struct elf_phdr *ph = phdrs(im);
	for (int i = 0; i < eh->phnum; i++) {
		if (ph[i].type != PT_LOAD)
			continue;
		if (ph[i].filesz > ph[i].memsz || ph[i].offset > f->size ||
		    ph[i].filesz > f->size - ph[i].offset ||
		    ph[i].vaddr + ph[i].memsz < ph[i].vaddr)
			return -ENOEXEC;
		if (ph[i].vaddr < im->lo)
			im->lo = ph[i].vaddr;
		if (ph[i].vaddr + ph[i].memsz > im->hi)
			im->hi = ph[i].vaddr + ph[i].memsz;
	}
	if (im->hi == 0)
		return -ENOEXEC;		/* nothing to load */
	return 0;
}

/* Choose the bias, then check that every segment lands in the user half
 * below the stack, above page 0. */
static int place(struct image *im, uint32_t base)
{
	im->bias = im->eh->type == ET_DYN ? base - PAGE_ROUND_DOWN(im->lo) : 0;
	uint32_t lo = im->lo + im->bias, hi = im->hi + im->bias;
	if (lo < PAGE_SIZE || hi < lo || hi > MMAP_BASE)
		return -ENOEXEC;
	return 0;
}

/* Map and fill the PT_LOAD segments' pages that hold file bytes (and
 * each segment's first page, whose flags a neighbour sharing it needs).
 * The bss past them is left to demand paging: the segment's region
 * (image_regions) gives a zeroed frame at the first touch, as Linux maps
 * bss anonymous; a 96 MiB array costs nothing until it is used. */
static int load_segments(pde_t *pd, const struct image *im)
{
	const struct elf_phdr *ph = phdrs(im);
	for (int i = 0; i < im->eh->phnum; i++) {
		if (ph[i].type != PT_LOAD || ph[i].memsz == 0)
			continue;
		uint32_t flags = (ph[i].flags & PF_W) ? PTE_W : 0;
		uint32_t vaddr = ph[i].vaddr + im->bias;
		if (vm_alloc_user(pd, vaddr, ph[i].filesz ? ph[i].filesz : 1, flags) < 0)
			return -ENOMEM;
		/* Copy the file bytes; the rest of their last page is zero. The
		 * pages may be read-only for the user, so copy to the frames. */
		for (uint32_t off = 0; off < ph[i].filesz;) {
			uint32_t va = vaddr + off;
			uint32_t n = PAGE_SIZE - (va & (PAGE_SIZE - 1));
			if (n > ph[i].filesz - off)
				n = ph[i].filesz - off;
			pte_t *pte = vm_walk(pd, va, false);
			memcpy((char *)P2V(PTE_ADDR(*pte)) + (va & (PAGE_SIZE - 1)),
			       im->f->data + ph[i].offset + off, n);
			off += n;
		}
	}
	return 0;
}

/* The program's own program headers, as the loaded image has them (Linux's
 * AT_PHDR): PT_PHDR's address, else the first segment's plus phoff. */
static uint32_t phdr_address(const struct image *im)
{
	const struct elf_phdr *ph = phdrs(im);
	for (int i = 0; i < im->eh->phnum; i++)
		if (ph[i].type == PT_PHDR)
			return ph[i].vaddr + im->bias;
	for (int i = 0; i < im->eh->phnum; i++)
		if (ph[i].type == PT_LOAD && ph[i].offset == 0)
			return ph[i].vaddr + im->eh->phoff + im->bias;
	return 0;
}

/* The interpreter's path (PT_INTERP), NUL-terminated in the file; NULL
 * for a static program, and -ENOEXEC in *err for a bad one. */
static const char *interp_path(const struct image *im, int *err)
{
	const struct elf_phdr *ph = phdrs(im);
	*err = 0;
	for (int i = 0; i < im->eh->phnum; i++) {
		if (ph[i].type != PT_INTERP)
			continue;
		const char *s = (const char *)im->f->data + ph[i].offset;
		if (ph[i].offset > im->f->size || ph[i].filesz > im->f->size - ph[i].offset ||
		    ph[i].filesz < 2 || ph[i].filesz > INITRD_PATH_MAX || s[ph[i].filesz - 1]) {
			*err = -ENOEXEC;
			return NULL;
		}
		return s;
	}
	return NULL;
}

/* Linux runs only a regular file with an x bit (root too needs one). */
static bool runnable(const struct initrd_file *f)
{
	return !f->is_dir && !f->rdev && (f->perm & 0111);
}

/* What execve found: the program, and its loader when it has one. */
struct exec_plan {
	struct image prog, interp;
	bool dynamic;
};

/* Check the program, find and check its loader (Linux: ENOENT when the
 * loader is missing, ELIBBAD when it is not ELF), and place both. */
static int plan_exec(struct proc *p, const struct initrd_file *f, struct exec_plan *x)
{
	int err = elf_check(f, &x->prog);
	if (err < 0)
		return err;
	err = place(&x->prog, PIE_BASE);
	if (err < 0)
		return err;
	const char *ipath = interp_path(&x->prog, &err);
	x->dynamic = ipath != NULL;
	if (!ipath)
		return err;
	const struct initrd_file *lf;
	err = fs_lookup(p, ipath, &lf);
	if (err < 0)
		return err;
	if (!runnable(lf))
		return -EACCES;
	if (lf->size < sizeof(struct elf_header))
		return -EIO;			/* Linux: its header read comes up short */
	if (elf_check(lf, &x->interp) < 0 || x->interp.eh->type != ET_DYN)
		return -ELIBBAD;
	uint32_t span = PAGE_ROUND_UP(x->interp.hi) - PAGE_ROUND_DOWN(x->interp.lo);
	if (span > MMAP_BASE - PIE_BASE)
		return -ENOMEM;
	return place(&x->interp, PAGE_ROUND_DOWN(MMAP_BASE - span)) < 0 ? -ELIBBAD : 0;
}

/* AT_HWCAP: CPUID leaf 1's EDX, the feature bits Linux i386 passes. */
static uint32_t cpu_hwcap(void)
{
	uint32_t a, b, c, d;
	cpuid(1, 0, &a, &b, &c, &d);
	return d;
}

/* Push argv/envp strings, pointers and auxv onto the new stack. */
static int build_stack(pde_t *pd, const struct exec_plan *x, struct proc *p, const char *path,
		       char *const argv[], int argc, char *const envp[], int envc,
		       uint32_t *sp_out, uint32_t strings[3])
{
	uint32_t sp = USER_STACK_TOP;
	uint32_t uargv[ARG_MAX_COUNT + 1], uenvp[ARG_MAX_COUNT + 1];

	if (vm_alloc_user(pd, USER_STACK_TOP - USER_STACK_START, USER_STACK_START, PTE_W) < 0)
		return -ENOMEM;
	/* AT_EXECFN's string at the very top, as Linux puts the file name. */
	sp -= strlen(path) + 1;
	uint32_t uexecfn = sp;
	copy_to_pgdir(pd, sp, path, strlen(path) + 1);
	strings[2] = sp;			/* the environment's end */
	for (int i = envc - 1; i >= -argc; i--) {	/* strings: envp, then argv */
		if (i == -1)
			strings[1] = sp;	/* the arguments' end, the environment's start */
		const char *s = i >= 0 ? envp[i] : argv[i + argc];
		uint32_t len = strlen(s) + 1;
		sp -= len;
		copy_to_pgdir(pd, sp, s, len);
		if (i >= 0)
			uenvp[i] = sp;
		else
			uargv[i + argc] = sp;
	}
	if (argc == 0)
		strings[1] = sp;
	strings[0] = sp;			/* the arguments' start */
	sp -= sizeof("i686");
	uint32_t uplatform = sp;
	copy_to_pgdir(pd, sp, "i686", sizeof("i686"));
	uint8_t random[16];
	uint64_t t = rdtsc();
	for (int i = 0; i < 16; i++)
		random[i] = (uint8_t)(t >> (8 * (i % 8))) ^ (uint8_t)(i * 37);
	sp -= sizeof(random);
	uint32_t urandom = sp;
	copy_to_pgdir(pd, sp, random, sizeof(random));
	sp &= ~15u;

	const struct image *prog = &x->prog;
	uint32_t auxv[] = {
		AT_HWCAP, cpu_hwcap(), AT_PAGESZ, PAGE_SIZE, AT_CLKTCK, USER_HZ,
		AT_PHDR, phdr_address(prog), AT_PHENT, sizeof(struct elf_phdr),
		AT_PHNUM, prog->eh->phnum, AT_BASE, x->dynamic ? x->interp.bias : 0,
		AT_FLAGS, 0, AT_ENTRY, prog->eh->entry + prog->bias,
		AT_UID, p->uid, AT_EUID, p->euid, AT_GID, p->gid, AT_EGID, p->egid,
		AT_SECURE, 0, AT_RANDOM, urandom, AT_HWCAP2, 0, AT_EXECFN, uexecfn,
		AT_PLATFORM, uplatform, AT_NULL, 0,
	};
	uint32_t words = 1 + argc + 1 + envc + 1 + sizeof(auxv) / 4;
	sp -= words * 4;
	sp &= ~15u;
	uint32_t w = sp, zero = 0, uargc = argc;
	copy_to_pgdir(pd, w, &uargc, 4), w += 4;
	copy_to_pgdir(pd, w, uargv, argc * 4), w += argc * 4;
	copy_to_pgdir(pd, w, &zero, 4), w += 4;
	copy_to_pgdir(pd, w, uenvp, envc * 4), w += envc * 4;
	copy_to_pgdir(pd, w, &zero, 4), w += 4;
	copy_to_pgdir(pd, w, auxv, sizeof(auxv));
	*sp_out = sp;
	return 0;
}

static uint8_t segment_prot(uint32_t pf)
{
	return ((pf & PF_R) ? PROT_READ : 0) | ((pf & PF_W) ? PROT_WRITE : 0) |
	       ((pf & PF_X) ? PROT_EXEC : 0);
}

/* One region per segment. Two segments may share a page (text ending
 * where data starts): that page is in the first one's region, with both
 * protections, as load_segments mapped it. */
static void add_segment(struct mm *mm, uint32_t start, uint32_t end, uint8_t prot)
{
	struct vm_area *prev = mm->n ? &mm->area[mm->n - 1] : NULL;

	if (prev && start < prev->end) {
		if (prev->end - PAGE_SIZE >= prev->start && (prev->prot | prot) != prev->prot &&
		    mm_split_at(mm, prev->end - PAGE_SIZE) == 0)
			mm->area[mm->n - 1].prot |= prot;
		start = mm->area[mm->n - 1].end;
	}
	struct vm_area a = { start, end, prot, 0, NULL, 0 };
	if (start < end)
		(void)mm_insert(mm, &a);	/* exec_into made the room */
}

static void image_regions(struct mm *mm, const struct image *im)
{
	const struct elf_phdr *ph = phdrs(im);
	for (int i = 0; i < im->eh->phnum; i++)
		if (ph[i].type == PT_LOAD && ph[i].memsz)
			add_segment(mm, PAGE_ROUND_DOWN(ph[i].vaddr + im->bias),
				    PAGE_ROUND_UP(ph[i].vaddr + im->bias + ph[i].memsz),
				    segment_prot(ph[i].flags));
}

/* After the point of no return: the new program's regions, its loader's
 * (above it, in address order), the stack; the heap starts after the
 * program (brk), as Linux's. */
static void exec_regions(struct proc *p, const struct exec_plan *x)
{
	struct vm_area stack = { USER_STACK_TOP - USER_STACK_START, USER_STACK_TOP,
				 PROT_READ | PROT_WRITE, VMA_GROWSDOWN, NULL, 0 };

	mm_reset(&p->mm);
	image_regions(&p->mm, &x->prog);
	if (x->dynamic)
		image_regions(&p->mm, &x->interp);
	(void)mm_insert(&p->mm, &stack);
	p->mm.brk_start = p->mm.brk = PAGE_ROUND_UP(x->prog.hi + x->prog.bias);
}

static int count(char *const v[])
{
	int n = 0;
	while (v && v[n])
		n++;
	return n;
}

/* The pages an image's segments span. */
static uint32_t image_pages(const struct image *im)
{
	uint32_t pages = 0;
	const struct elf_phdr *ph = phdrs(im);
	for (int i = 0; i < im->eh->phnum; i++)
		if (ph[i].type == PT_LOAD && ph[i].memsz)
			pages += (PAGE_ROUND_UP(ph[i].vaddr + ph[i].memsz) -
				  PAGE_ROUND_DOWN(ph[i].vaddr)) / PAGE_SIZE;
	return pages;
}

/* Linux's overcommit guess (__vm_enough_memory): a program larger than
 * all the memory there is can never run; refuse it before the point of no
 * return, and before any frame is taken. */
static bool fits_in_memory(const struct exec_plan *x)
{
	uint32_t pages = image_pages(&x->prog) + (x->dynamic ? image_pages(&x->interp) : 0);
	return pages <= pmm_total_count();
}

/* Load the ELF file f, found as path (its name for the process and
 * AT_EXECFN even when f is a script's interpreter), into p. */
static int exec_elf(struct proc *p, const char *path, const struct initrd_file *f,
		    char *const argv[], char *const envp[])
{
	struct exec_plan x;
	uint32_t sp;
	int argc = count(argv), envc = count(envp);

	if (argc > ARG_MAX_COUNT || envc > ARG_MAX_COUNT)
		return -E2BIG;
	int err = plan_exec(p, f, &x);
	if (err < 0)
		return err;
	if (!fits_in_memory(&x))
		return -ENOMEM;
	pde_t *pd = vm_new_pgdir();
	if (!pd)
		return -ENOMEM;
	err = load_segments(pd, &x.prog);
	if (!err && x.dynamic)
		err = load_segments(pd, &x.interp);
	uint32_t strings[3];
	if (!err)
		err = build_stack(pd, &x, p, path, argv, argc, envp, envc, &sp, strings);
	/* A thread's exec ends the others and takes the group's id
	 * (Linux's de_thread). */
	if (!err && p == current())
		err = proc_kill_other_threads();
	/* Room for the regions exec_regions makes (two per segment at most,
	 * and the stack), counted from none: then it cannot fail. */
	int nph = x.prog.eh->phnum + (x.dynamic ? x.interp.eh->phnum : 0);
	mm_lock(&p->mm);	/* a /proc reader walks the array and tables under it */
	if (!err && mm_reserve(&p->mm, 2 * nph + 1 - p->mm.n) < 0)
		err = -ENOMEM;
	if (err < 0) {
		mm_unlock(&p->mm);
		vm_free_pgdir(pd);
		return err;
	}

	/* The point of no return: swap in the new program and its regions. */
	pde_t *old = p->pgdir;
	p->pgdir = pd;
	exec_regions(p, &x);
	p->mm.arg_start = strings[0];
	p->mm.arg_end = p->mm.env_start = strings[1];
	p->mm.env_end = strings[2];
	mm_unlock(&p->mm);
	if (p == current())
		vm_switch(pd);
	if (old)
		vm_free_pgdir(old);
	proc_set_name(p, path);
	p->exe = f;
	signal_exec(p);		/* handlers were addresses in the old program */
	fd_close_on_exec(p);
	fpu_clean(&p->fpu);		/* a new program starts after fninit */
	p->tls = (struct tls_state){ 0 };	/* and with no TLS slots (Linux's flush_thread) */
	if (p == current()) {
		fpu_restore(&p->fpu);
		push_cli();
		tls_load(mycpu(), &p->tls);
		pop_cli();
	}
	p->did_exec = true;
	p->dumpable = 1;		/* Linux's SUID_DUMP_USER after an exec */
	struct trapframe *tf = p->tf;
	memset(tf, 0, sizeof(*tf));
	tf->cs = UCODE_SEL;
	tf->ds = tf->es = tf->ss = tf->fs = tf->gs = UDATA_SEL;
	tf->eflags = EFLAGS_IF;
	tf->esp = sp;
	/* A dynamic program starts in its loader, which then calls it. */
	tf->eip = x.dynamic ? x.interp.eh->entry + x.interp.bias : x.prog.eh->entry + x.prog.bias;
	return 0;
}

/* What a chain of "#!" scripts leaves for the ELF program at its end:
 * each hop's line holds strings that later argv vectors point into. */
struct script_hops {
	char line[EXEC_MAX_HOPS + 1][BINPRM_BUF_SIZE];
	char *argv[2][ARG_MAX_COUNT + 1];
};

int exec_into(struct proc *p, const char *path, char *const argv[], char *const envp[])
{
	const struct initrd_file *f;
	struct script_hops *h = NULL;
	const char *file = path;
	int err;

	/* The file at each hop: path, then each script's interpreter (Linux's
	 * exec_binprm: the sixth file to be a script is ELOOP). */
	for (int hop = 0;; hop++) {
		err = fs_lookup(p, file, &f);	/* relative to p's working directory */
		if (err < 0)
			goto out;
		err = -EACCES;
		if (!runnable(f))
			goto out;
		err = -ELOOP;
		if (hop > EXEC_MAX_HOPS)
			goto out;
		if (!script_is(f))
			break;
		err = -ENOMEM;
		if (!h && !(h = kmalloc(sizeof(*h))))
			goto out;
		char **next = h->argv[hop & 1];
		err = script_rewrite(f, file, h->line[hop], argv, next, &file);
		if (err < 0)
			goto out;
		argv = next;
	}
	err = exec_elf(p, path, f, argv, envp);
out:
	kfree(h);
	return err;
}

/* Copy a user vector of strings (argv or envp) into one kernel buffer. */
static int copy_vector(char *const *uvec, char **vec, char **buf, uint32_t *room)
{
	int n = 0;
	for (; uvec; n++) {
		uint32_t uptr;
		if (n == ARG_MAX_COUNT)
			return -E2BIG;
		if (copy_from_user(&uptr, &uvec[n], 4) < 0)
			return -EFAULT;
		if (!uptr)
			break;
		int len = strncpy_from_user(*buf, (const char *)uptr, *room);
		if (len < 0)
			return len == -ENAMETOOLONG ? -E2BIG : len;
		vec[n] = *buf;
		*buf += len + 1;
		*room -= len + 1;
	}
	vec[n] = NULL;
	return n;
}

int sys_execve(const char *upath, char *const *uargv, char *const *uenvp)
{
	char path[FS_PATH_MAX];
	char *argv[ARG_MAX_COUNT + 1], *envp[ARG_MAX_COUNT + 1];
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	char *strings = kmalloc(ARG_MAX_BYTES);
	if (!strings)
		return -ENOMEM;
	char *cursor = strings;
	uint32_t room = ARG_MAX_BYTES;
	err = copy_vector(uargv, argv, &cursor, &room);
	if (err >= 0)
		err = copy_vector(uenvp, envp, &cursor, &room);
	if (err >= 0)
		err = exec_into(current(), path, argv, envp);
	kfree(strings);
	if (err >= 0)
		thread_vfork_release(current());	/* a vfork parent goes on */
	/* On success the trap frame now starts the new program; eax = 0. */
	return err < 0 ? err : 0;
}
