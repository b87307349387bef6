/*
 * coredump.c - a core file, as Linux writes one (fs/coredump.c and
 * binfmt_elf.c's elf_core_dump), for `gdb PROGRAM core`.
 *
 * When a signal whose default action is to dump core (SIGQUIT, SIGILL,
 * SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGXCPU, SIGXFSZ, SIGSYS)
 * kills a dumpable process whose RLIMIT_CORE is at least a page, the
 * kernel writes "core" in its working directory (Linux's core_pattern
 * and core_uses_pid defaults; a "core" already there is replaced), and
 * the wait status gets the core-dump bit, 0x80. The file is an ELF file
 * of type ET_CORE: a PT_NOTE with the thread's registers (NT_PRSTATUS)
 * and the process's name and ids (NT_PRPSINFO), then a PT_LOAD for each
 * region, holding the present pages of the anonymous and the writable
 * ones (untouched pages are holes; a read-only file mapping is in the
 * program file already). Where no file can be made (the initrd is
 * read-only) there is no dump and no bit, as on Linux.
 *
 * Not as Linux: only the dumping thread's registers are written, and the
 * process's other threads run on until exit_group reaches them; the core
 * is not cut at RLIMIT_CORE's size.
 */
#include "proc.h"
#include "signal.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/fs/namei.h"
#include "kernel/fs/tmpfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/vm.h"
#include "sched/sched.h"
#include <uapi/mman.h>
#include <uapi/stat.h>
#include <uapi/resource.h>

#define ET_CORE		4
#define EM_386		3
#define PT_LOAD		1
#define PT_NOTE		4
#define NT_PRSTATUS	1
#define NT_PRPSINFO	3

struct elf32_ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version, entry, phoff, shoff, flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf32_phdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

/* Linux i386's struct elf_prstatus (144 bytes) and elf_prpsinfo (124). */
struct tv32 {
	int32_t sec, usec;
};

struct prstatus {
	int32_t si_signo, si_code, si_errno;
	int16_t cursig;
	uint32_t sigpend, sighold;
	int32_t pid, ppid, pgrp, sid;
	struct tv32 utime, stime, cutime, cstime;
	uint32_t reg[17];	/* ebx ecx edx esi edi ebp eax ds es fs gs orig_eax eip cs eflags esp ss */
	int32_t fpvalid;
};
_Static_assert(sizeof(struct prstatus) == 144, "Linux's elf_prstatus");

struct prpsinfo {
	char state, sname, zomb, nice;
	uint32_t flag;
	uint16_t uid, gid;
	int32_t pid, ppid, pgrp, sid;
	char fname[16], psargs[80];
};
_Static_assert(sizeof(struct prpsinfo) == 124, "Linux's elf_prpsinfo");

/* A note: its header, "CORE" padded to 8, then the description. */
struct note_head {
	uint32_t namesz, descsz, type;
	char name[8];
};

struct core_notes {
	struct note_head h1;
	struct prstatus status;
	struct note_head h2;
	struct prpsinfo info;
};

/* A region as the dump saw it (the list may change under a thread). */
struct core_seg {
	uint32_t start, end;
	uint8_t prot;
	bool dump;
};

bool signal_dumps_core(int sig)
{
	switch (sig) {
	case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT: case SIGBUS:
	case SIGFPE: case SIGSEGV: case SIGXCPU: case SIGXFSZ: case SIGSYS:
		return true;
	default:
		return false;
	}
}

/* The regions of the address space mm, in a heap array (n of them);
 * NULL if none, or no memory. */
static struct core_seg *snapshot(struct mm *mm, int *n)
{
	mm_lock(mm);
	int count = mm->n;
	struct core_seg *s = count ? kmalloc(count * sizeof(*s)) : NULL;
	for (int i = 0; s && i < count; i++) {
		const struct vm_area *a = &mm->area[i];
		s[i] = (struct core_seg){ a->start, a->end, a->prot,
					  a->prot != PROT_NONE && (!a->file || (a->prot & PROT_WRITE)) };
	}
	mm_unlock(mm);
	*n = s ? count : 0;
	return s;
}

static struct tv32 ticks_to_tv(uint32_t ticks)
{
	uint32_t hz = (uint32_t)sched_hz();
	return (struct tv32){ (int32_t)(ticks / hz), (int32_t)((uint64_t)(ticks % hz) * 1000000 / hz) };
}

static void note_head(struct note_head *h, uint32_t type, uint32_t size)
{
	*h = (struct note_head){ 5, size, type, "CORE" };
}

static void fill_notes(struct core_notes *c, struct proc *p, int sig, const struct trapframe *tf)
{
	struct proc *g = p->group_leader;
	uint32_t ut, st;
	proc_group_times(g, &ut, &st);
	note_head(&c->h1, NT_PRSTATUS, sizeof(c->status));
	c->status = (struct prstatus){
		.si_signo = sig, .cursig = (int16_t)sig,
		.sigpend = (uint32_t)p->sig_pending, .sighold = (uint32_t)p->sig_blocked,
		.pid = p->pid, .ppid = g->parent ? g->parent->pid : 0, .pgrp = g->pgid, .sid = g->sid,
		.reg = { tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp, tf->eax, tf->ds,
			 tf->es, tf->fs, tf->gs, (uint32_t)-1, tf->eip, tf->cs, tf->eflags, tf->esp,
			 tf->ss },
	};
	c->status.utime = ticks_to_tv(ut);
	c->status.stime = ticks_to_tv(st);
	note_head(&c->h2, NT_PRPSINFO, sizeof(c->info));
	c->info = (struct prpsinfo){
		.sname = 'R', .uid = (uint16_t)p->uid, .gid = (uint16_t)p->gid, .pid = g->pid,
		.ppid = c->status.ppid, .pgrp = g->pgid, .sid = g->sid,
	};
	memcpy(c->info.fname, p->name, sizeof(c->info.fname) - 1);
	memcpy(c->info.psargs, p->name, sizeof(c->info.fname) - 1);	/* Linux: the arguments */
}

/* The headers: the ELF header, PT_NOTE, a PT_LOAD per region; their
 * pages' place in the file from data on. Returns the file's size. */
static uint32_t fill_headers(struct elf32_ehdr *eh, struct elf32_phdr *ph,
			     const struct core_seg *s, int n, uint32_t notes_at)
{
	*eh = (struct elf32_ehdr){
		.ident = { 0x7F, 'E', 'L', 'F', 1, 1, 1 }, .type = ET_CORE, .machine = EM_386,
		.version = 1, .phoff = sizeof(*eh), .ehsize = sizeof(*eh),
		.phentsize = sizeof(*ph), .phnum = (uint16_t)(n + 1),
	};
	ph[0] = (struct elf32_phdr){ .type = PT_NOTE, .offset = notes_at,
				     .filesz = sizeof(struct core_notes) };
	uint32_t at = PAGE_ROUND_UP(notes_at + sizeof(struct core_notes));
	for (int i = 0; i < n; i++) {
		uint32_t len = s[i].end - s[i].start;
		ph[i + 1] = (struct elf32_phdr){
			.type = PT_LOAD, .offset = at, .vaddr = s[i].start, .memsz = len,
			.filesz = s[i].dump ? len : 0, .align = PAGE_SIZE,
			.flags = (s[i].prot & PROT_READ ? 4 : 0) | (s[i].prot & PROT_WRITE ? 2 : 0) |
				 (s[i].prot & PROT_EXEC ? 1 : 0),
		};
		at += ph[i + 1].filesz;
	}
	return at;
}

/* The present pages of the dumped regions, each at its place in the core
 * file t (a page never touched stays a hole). Read without the lock
 * (the core file's writes may sleep): another task of the address space
 * (a thread not yet killed, or a process sharing it through CLONE_VM,
 * which Linux since 5.16 does not stop either) may change a page
 * meanwhile, and the dump then holds what it found. */
static int write_pages(struct tmpfs_node *t, struct mm *mm, const struct elf32_phdr *ph, int nseg)
{
	for (int i = 1; i <= nseg; i++) {
		for (uint32_t off = 0; off < ph[i].filesz; off += PAGE_SIZE) {
			uint32_t pa = vm_user_phys(mm->pgdir, ph[i].vaddr + off, false);
			uint64_t pos = ph[i].offset + off;
			if (pa && tmpfs_write_kernel(t, P2V(PAGE_ROUND_DOWN(pa)), PAGE_SIZE, &pos) < 0)
				return -ENOSPC;
		}
	}
	return 0;
}

/* "core" in the working directory, new and held; NULL if none can be made. */
static struct tmpfs_node *core_file(void)
{
	char path[8] = "core";
	const struct initrd_file *node;
	fs_unlink_kernel(AT_FDCWD, path);		/* Linux replaces an old one */
	memcpy(path, "core", 5);
	if (fs_create(AT_FDCWD, path, 0600, &node) < 0 || node_hold(node) != 0)
		return NULL;
	return tmpfs_of(node);
}

bool coredump(int sig, const struct trapframe *tf)
{
	struct proc *p = current();
	if (!p->group->dumpable || p->group->rlim[RLIMIT_CORE].rlim_cur < PAGE_SIZE)
		return false;
	int n;
	struct core_seg *s = snapshot(p->mm, &n);
	uint32_t head = sizeof(struct elf32_ehdr) + (n + 1) * sizeof(struct elf32_phdr);
	char *buf = s ? kzalloc(head + sizeof(struct core_notes)) : NULL;
	struct tmpfs_node *t = buf ? core_file() : NULL;
	bool done = false;
	if (t) {
		struct elf32_phdr *ph = (struct elf32_phdr *)(buf + sizeof(struct elf32_ehdr));
		uint32_t size = fill_headers((struct elf32_ehdr *)buf, ph, s, n, head);
		fill_notes((struct core_notes *)(buf + head), p, sig, tf);
		uint64_t pos = 0;
		done = tmpfs_write_kernel(t, buf, head + sizeof(struct core_notes), &pos) >= 0 &&
		       write_pages(t, p->mm, ph, n) == 0 && tmpfs_truncate(t, size) == 0;
		node_drop(&t->n);
	}
	kfree(buf);
	kfree(s);
	return done;
}
