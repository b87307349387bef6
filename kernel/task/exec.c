/*
 * exec.c - execve: replace a process's program with an ELF file.
 *
 * The new address space is built completely aside (segments, then the
 * stack with argc/argv/envp/auxv exactly as Linux lays it out) and only
 * then swapped in, so a failing execve leaves the caller untouched and
 * returns an error. The old one is let go, not torn down: another
 * process may share it (clone's CLONE_VM, a vfork parent), and its last
 * user frees it.
 *
 * Stack at entry (lowest address first), as the i386 ABI and Linux have it:
 *	argc, argv[0..argc-1], NULL, envp[0..], NULL, auxv pairs, AT_NULL,
 *	then the 16 AT_RANDOM bytes and the strings themselves.
 *
 * Only the first stack pages are filled at once. The new program's
 * regions (kernel/mm/mm.c) say what the rest becomes when it is touched
 * (kernel/mm/fault.c): each segment a private mapping of the file, its bss
 * anonymous zero pages (kernel/task/elf.c, as Linux's load_elf_binary maps
 * them), an empty heap after the last one (brk, kernel/mm/mmap.c), and the
 * stack, which grows down on demand.
 */
#include "elf.h"
#include "lib/errno.h"
#include "exec.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/file.h"
#include "kernel/fs/initrd.h"
#include "kernel/fs/namei.h"
#include "kernel/fs/tmpfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "proc.h"
#include "script.h"
#include "signal.h"
#include "lib/string.h"
#include "thread.h"
#include "kernel/time/time.h"
#include "kernel/mm/uaccess.h"
#include "kernel/arch/ldt.h"
#include "kernel/arch/x86.h"

#define ARG_MAX_BYTES 8192
#define USER_HZ 100

/* Where position-independent files go (no randomization here): a PIE
 * program at Linux i386's ELF_ET_DYN_BASE (4 MiB since Linux 4.13), the
 * loader at the top of the mmap area, as its first mapping would be. */
#define PIE_BASE	0x00400000u

/* Linux runs only a regular file with an x bit (root too needs one); a
 * tmpfs file's x bit must be the caller's (the initrd's are all root's). */
static bool runnable(const struct initrd_file *f)
{
	return !f->is_dir && !f->rdev && (f->perm & 0111) &&
	       (!tmpfs_of(f) || fs_permission(f, MAY_EXEC) == 0);
}

/* What execve found: the program, and its loader when it has one. */
struct exec_plan {
	struct image prog, interp;
	bool dynamic;
	const struct initrd_file *held;	/* the loader, held (node_hold) until mapped */
};

static void plan_release(struct exec_plan *x)
{
	elf_release(&x->prog);
	elf_release(&x->interp);
	node_drop(x->held);
}

/* The loader at path (Linux: ENOENT when it is missing, EACCES when it
 * may not run, EIO when its header is cut short, ELIBBAD when it is not
 * an i386 ELF file with program headers), placed: an ET_DYN one at the
 * top of the mmap area, an ET_EXEC one where it says. */
static int plan_interp(struct proc *p, const char *path, struct image *im,
		       const struct initrd_file **held)
{
	const struct initrd_file *lf;
	int err = fs_lookup(p, path, &lf);
	if (err < 0)
		return err;
	if (!runnable(lf))
		return -EACCES;
	if (lf->size < sizeof(struct elf_header))
		return -EIO;
	if ((err = node_hold(lf)) < 0)		/* a tmpfs file removed meanwhile */
		return err;
	*held = lf;
	if (elf_check(lf, im) < 0)
		return -ELIBBAD;
	uint32_t lo = PAGE_ROUND_DOWN(im->first), hi = PAGE_ROUND_UP(im->hi);
	uint32_t span = hi > lo ? hi - lo : PAGE_SIZE;
	if (span > MMAP_BASE - PIE_BASE)
		return -ENOMEM;
	elf_place(im, PAGE_ROUND_DOWN(MMAP_BASE - span), false);
	return 0;
}

/* Check the program, find and check its loader, place both, and check
 * their segments (Linux does that last part after its point of no
 * return: a bad segment kills the process there, fails execve here). */
static int plan_exec(struct proc *p, const struct initrd_file *f, struct exec_plan *x)
{
	const char *ipath;
	int err = elf_check(f, &x->prog);
	if (err < 0)
		return err;
	if ((err = elf_interp_path(&x->prog, &ipath)) < 0)
		return err;
	x->dynamic = ipath != NULL;
	elf_place(&x->prog, PIE_BASE, x->dynamic);
	if (ipath && (err = plan_interp(p, ipath, &x->interp, &x->held)) < 0)
		return err;
	if ((err = elf_check_segments(&x->prog, false)) < 0)
		return err;
	return x->dynamic && elf_check_segments(&x->interp, true) < 0 ? -ELIBBAD : 0;
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
		AT_PHDR, elf_phdr_address(prog), AT_PHENT, sizeof(struct elf_phdr),
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

/* After the point of no return: the address space built aside, nm,
 * becomes p's, with the heap after the program (brk, as Linux's) and
 * the strings exec put on its stack; p lets go of the old one, which
 * its last user frees (a vfork parent keeps it: Linux's exec_mmap). */
static void exec_mm(struct proc *p, struct mm *nm, const struct exec_plan *x,
		    const uint32_t strings[3])
{
	uint32_t brk = PAGE_ROUND_UP(x->prog.hi + x->prog.bias);
	/* never below mmap_min_addr, even with no PT_LOAD */
	nm->brk_start = nm->brk = brk < MMAP_MIN_ADDR ? MMAP_MIN_ADDR : brk;
	nm->arg_start = strings[0];
	nm->arg_end = nm->env_start = strings[1];
	nm->env_end = strings[2];
	task_lock(p);		/* a /proc reader finds the old one or the new */
	struct mm *old = p->mm;
	p->mm = nm;
	task_unlock(p);
	if (p == current())
		vm_switch(nm->pgdir);
	if (old) {
		group_note_maxrss(p->group, old);	/* the peak outlives exec */
		mm_put(old);
	}
}

/* What exec must not change for another process that shares it: the
 * handlers (clone's CLONE_SIGHAND; Linux's de_thread takes a copy, and
 * so does signal_exec, into *own, made here), and the descriptors
 * (CLONE_FILES; Linux's unshare_files). Before the point of no return,
 * so that no memory is wanted after it: 0 or -ENOMEM. */
static int unshare_for_exec(struct proc *p, struct sighand **own)
{
	*own = NULL;
	if (__atomic_load_n(&p->group->sighand->count, __ATOMIC_ACQUIRE) > 1 &&
	    !(*own = kmalloc(sizeof(**own))))
		return -ENOMEM;
	int err = files_unshare(p);
	if (err < 0) {
		kfree(*own);
		*own = NULL;
	}
	return err;
}

static int count(char *const v[])
{
	int n = 0;
	while (v && v[n])
		n++;
	return n;
}

/* Linux's overcommit guess (__vm_enough_memory): a program larger than
 * all the memory there is can never run; refuse it before the point of no
 * return, and before any frame is taken. */
static bool fits_in_memory(const struct exec_plan *x)
{
	uint32_t pages = elf_pages(&x->prog) + (x->dynamic ? elf_pages(&x->interp) : 0);
	return pages <= pmm_total_count();
}

/* The new program's regions, built aside in nm (its page tables too):
 * its segments, its loader's (which replace the program's pages where
 * they meet, as in Linux), the stack's first pages. */
static int build_regions(struct mm *nm, const struct exec_plan *x)
{
	struct vm_area stack = { USER_STACK_TOP - USER_STACK_START, USER_STACK_TOP,
				 PROT_READ | PROT_WRITE, VMA_GROWSDOWN, NULL, 0, NULL, NULL };
	int err = elf_map(nm, &x->prog);
	if (!err && x->dynamic)
		err = elf_map(nm, &x->interp);
	if (!err && mm_overlap(nm, stack.start, stack.end))
		err = -ENOEXEC;		/* elf_check_segments keeps them below */
	if (!err)
		err = mm_insert(nm, &stack);
	return err;
}

/* The program becomes p's /proc/PID/exe with exec_elf's hold on it
 * (node_hold_exe: no writer while it runs, as Linux's exe_file); the old
 * program's goes (the process's end lets go of the last: release_mm_files). */
static void set_exe(struct proc *p, const struct initrd_file *f)
{
	const struct initrd_file *old = p->exe;
	p->exe = f;
	node_drop_exe(old);
}

/* Load the planned ELF file f, found as path (its name for the process
 * and AT_EXECFN even when f is a script's interpreter), into p. */
static int exec_planned(struct proc *p, const char *path, const struct initrd_file *f,
			const struct exec_plan *x, char *const argv[], int argc,
			char *const envp[], int envc)
{
	uint32_t sp = 0, strings[3] = { 0 };
	struct sighand *own = NULL;
	int err;

	if (!fits_in_memory(x))
		return -ENOMEM;
	struct mm *nm = mm_alloc();
	if (!nm)
		return -ENOMEM;
	err = build_regions(nm, x);
	if (!err)
		err = build_stack(nm->pgdir, x, p, path, argv, argc, envp, envc, &sp, strings);
	/* A thread's exec ends the others and takes the group's id
	 * (Linux's de_thread). */
	if (!err && p == current())
		err = proc_kill_other_threads();
	if (!err)
		err = unshare_for_exec(p, &own);
	if (err < 0) {
		mm_put(nm);
		return err;
	}

	/* The point of no return: swap in the new program. */
	exec_mm(p, nm, x, strings);
	proc_set_name(p, path);
	set_exe(p, f);
	signal_exec(p, own);	/* handlers were addresses in the old program */
	fd_close_on_exec(p);
	fpu_clean(&p->fpu);		/* a new program starts after fninit */
	p->tls = (struct tls_state){ 0 };	/* and with no TLS slots (Linux's flush_thread) */
	if (p == current()) {
		fpu_restore(&p->fpu);
		push_cli();
		tls_load(mycpu(), &p->tls);
		ldt_switch(mycpu(), NULL);	/* nor an LDT: a new mm has none */
		pop_cli();
	}
	p->did_exec = true;
	caps_exec(p);			/* the capabilities the new program starts with */
	p->group->dumpable = 1;		/* Linux's SUID_DUMP_USER after an exec */
	struct trapframe *tf = p->tf;
	memset(tf, 0, sizeof(*tf));
	tf->cs = UCODE_SEL;
	tf->ds = tf->es = tf->ss = UDATA_SEL;
	tf->fs = tf->gs = 0;		/* null, as Linux i386's start_thread */
	tf->eflags = EFLAGS_IF;
	tf->esp = sp;
	/* A dynamic program starts in its loader, which then calls it. */
	tf->eip = x->dynamic ? x->interp.eh->entry + x->interp.bias : x->prog.eh->entry + x->prog.bias;
	return 0;
}

static int exec_elf(struct proc *p, const char *path, const struct initrd_file *f,
		    char *const argv[], char *const envp[])
{
	struct exec_plan x = { 0 };
	int argc = count(argv), envc = count(envp);
	int err = node_hold_exe(f);		/* ETXTBSY while it is open for writing */
	if (err)
		return err;
	if (argc > ARG_MAX_COUNT || envc > ARG_MAX_COUNT)
		err = -E2BIG;
	if (!err)
		err = plan_exec(p, f, &x);
	if (!err)
		err = exec_planned(p, path, f, &x, argv, argc, envp, envc);
	plan_release(&x);
	if (err)
		node_drop_exe(f);		/* else p->exe has it (set_exe) */
	return err;
}

/* What a chain of "#!" scripts leaves for the ELF program at its end:
 * each hop's line holds strings that later argv vectors point into. */
struct script_hops {
	char line[EXEC_MAX_HOPS + 1][BINPRM_BUF_SIZE];
	char *argv[2][ARG_MAX_COUNT + 1];
};

int exec_into(struct proc *p, const char *path, char *const argv[], char *const envp[])
{
	const struct initrd_file *f = NULL;
	struct script_hops *h = NULL;
	const char *file = path;
	int err;

	/* The file at each hop: path, then each script's interpreter (Linux's
	 * exec_binprm: the sixth file to be a script is ELOOP). */
	for (int hop = 0;; hop++) {
		const struct initrd_file *found;
		err = fs_lookup(p, file, &found);	/* relative to p's working directory */
		if (err == 0)
			err = node_hold(found);		/* a tmpfs file: read, then mapped */
		if (err < 0)
			goto out;
		node_drop(f);
		f = found;
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
	node_drop(f);
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
