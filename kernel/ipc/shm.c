/*
 * shm.c - System V shared memory: shmget, shmat, shmdt, shmctl, with
 * Linux 6.1's rules and errors (ipc/shm.c) checked in its order.
 *
 * A segment is a table of frames, each made (zeroed) when some process
 * first touches its page and then holding one reference of the
 * segment's own, as Linux's shmem file makes its pages. shmat maps the
 * segment as a shared region (VMA_SHARED, as MAP_SHARED|MAP_ANONYMOUS
 * memory: fork keeps the pages shared and writable, kernel/mm/vm.c)
 * whose vm_area_ops give the segment's frame on a fault, and tell the
 * segment of every region made from it (fork, a split) and of every one
 * that goes (shmdt, munmap, exec, exit): shm_nattch counts them. IPC_RMID
 * takes the segment's key away and marks it SHM_DEST; it goes, frames
 * and all, when the last region does (at once if none). The table has
 * two levels, as a page table: a directory of SHM_LEAF-frame leaves, each
 * made with its first frame, so a segment of gigabytes costs a page
 * until it is touched.
 *
 * Locks: a region's open and close run under its mm lock and take
 * shm_ids.lock, so shmat and shmdt take the mm lock with shm_ids.lock
 * free; a segment lives while it is in the table or attached.
 */
#include "ipc.h"
#include "util.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/arch/smp.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/proc.h"

#define SHMLBA PAGE_SIZE		/* i386's */
#define SHM_LEAF 1024			/* frames a leaf of the table holds */

struct shm_seg {
	struct kern_ipc_perm perm;	/* first: the table holds &perm */
	uint32_t segsz;			/* bytes asked for */
	uint32_t npages;
	uint32_t **leaves;		/* npages / SHM_LEAF leaves of frames, NULL until used */
	uint32_t rss;			/* frames made */
	uint32_t atime, dtime, ctime;
	int cpid, lpid;			/* creator's, last attach or detach's tgid */
	uint32_t nattch;		/* regions that map it */
	int32_t dest_key;		/* its key before IPC_RMID made it private (maps' name) */
};

static struct ipc_ids shm_ids = IPC_IDS_INIT("shm_ids", &ipc_tun.shmmni, &ipc_tun.shm_next_id);
static uint64_t shm_tot;		/* pages in every segment (shm_ids.lock) */

static struct shm_seg *to_seg(struct kern_ipc_perm *p)
{
	return (struct shm_seg *)p;
}

/* ---- shmget ---------------------------------------------------------------- */

static uint32_t nleaves(const struct shm_seg *s)
{
	return (s->npages + SHM_LEAF - 1) / SHM_LEAF;
}

static void seg_free(struct kern_ipc_perm *p)
{
	struct shm_seg *s = to_seg(p);
	for (uint32_t l = 0; l < nleaves(s); l++) {
		for (uint32_t i = 0; s->leaves[l] && i < SHM_LEAF; i++)
			if (s->leaves[l][i])
				pmm_unref(s->leaves[l][i]);
		kfree(s->leaves[l]);
	}
	kfree(s->leaves);
	kfree(s);
}

/* shmget's size and flags */
struct shm_params {
	uint32_t size;
	int flg;
};

static struct kern_ipc_perm *seg_alloc(const void *params, int *err)
{
	const struct shm_params *sp = params;
	uint32_t size = sp->size;
	struct shm_seg *s;

	*err = -EINVAL;
	if (size < SHMMIN || size > ipc_tun.shmmax)
		return NULL;
	*err = -ENOSPC;
	if (PAGE_ROUND_UP(size) < size)
		return NULL;		/* a shmmax past 4 GiB - 4 KiB */
	/* Linux's overcommit guess (shmem_acct_size, __vm_enough_memory): more
	 * pages than all the memory there is (no swap here) unless
	 * SHM_NORESERVE */
	*err = -ENOMEM;
	if (!(sp->flg & SHM_NORESERVE) && PAGE_ROUND_UP(size) / PAGE_SIZE > pmm_total_count())
		return NULL;
	if (!(s = kzalloc(sizeof(*s))))
		return NULL;
	s->segsz = size;
	s->npages = PAGE_ROUND_UP(size) / PAGE_SIZE;
	if (!(s->leaves = kzalloc(nleaves(s) * sizeof(uint32_t *)))) {
		kfree(s);
		return NULL;
	}
	s->cpid = ipc_tgid();
	s->ctime = ipc_now();
	return &s->perm;
}

static int seg_more_checks(struct kern_ipc_perm *p, const void *params)
{
	return to_seg(p)->segsz < ((const struct shm_params *)params)->size ? -EINVAL : 0;
}

/* shmall: the pages of every segment (Linux's shm_tot). */
static int seg_charge(struct kern_ipc_perm *p)
{
	if (shm_tot + to_seg(p)->npages > ipc_tun.shmall)
		return -ENOSPC;
	shm_tot += to_seg(p)->npages;
	return 0;
}

static void seg_uncharge(struct kern_ipc_perm *p)
{
	shm_tot -= to_seg(p)->npages;
}

static const struct ipc_kind shm_kind = { &shm_ids, seg_alloc, seg_free, seg_more_checks,
					   seg_charge, seg_uncharge };

int sys_shmget(int key, uint32_t size, int shmflg)
{
	struct shm_params sp = { size, shmflg };
	return ipc_get(&shm_kind, key, shmflg, &sp);
}

/* ---- attaches: the regions' hooks --------------------------------------------- */

/* Gone from the table and from every address space: free it. Under
 * shm_ids.lock (frames and heap blocks may be freed under a spinlock). */
static void seg_destroy(struct shm_seg *s)
{
	seg_uncharge(&s->perm);
	if (!s->perm.deleted)
		ipc_rmid(&shm_ids, &s->perm);
	seg_free(&s->perm);
}

/* One attach fewer (a region gone, or an attach that failed). */
static void seg_detach_locked(struct shm_seg *s)
{
	s->lpid = ipc_tgid();
	s->dtime = ipc_now();
	if (--s->nattch == 0 && (s->perm.mode & SHM_DEST))
		seg_destroy(s);
}

static void shm_vm_open(const struct vm_area *a)
{
	struct shm_seg *s = a->priv;
	spin_lock(&shm_ids.lock);
	s->nattch++;
	s->atime = ipc_now();
	s->lpid = ipc_tgid();
	spin_unlock(&shm_ids.lock);
}

static void shm_vm_close(const struct vm_area *a)
{
	spin_lock(&shm_ids.lock);
	seg_detach_locked(a->priv);
	spin_unlock(&shm_ids.lock);
}

/* Page i's frame, made (zeroed) if no one touched it yet: 0 when memory
 * is out. Under shm_ids.lock. */
static uint32_t seg_frame(struct shm_seg *s, uint32_t i)
{
	uint32_t **leaf = &s->leaves[i / SHM_LEAF];
	if (!*leaf && !(*leaf = kzalloc(SHM_LEAF * sizeof(uint32_t))))
		return 0;
	uint32_t *f = &(*leaf)[i % SHM_LEAF];
	if (!*f && (*f = pmm_alloc_user()) != 0) {
		memset(P2V(*f), 0, PAGE_SIZE);
		s->rss++;
	}
	return *f;
}

/* A page of an attach touched first: the segment's frame, one more
 * reference for this mapping. */
static int shm_vm_fault(const struct vm_area *a, uint32_t va, uint32_t *pa)
{
	struct shm_seg *s = a->priv;
	spin_lock(&shm_ids.lock);
	*pa = seg_frame(s, (a->file_off + (va - a->start)) / PAGE_SIZE);
	if (*pa)
		pmm_ref(*pa);
	spin_unlock(&shm_ids.lock);
	return *pa ? 0 : -ENOMEM;
}

static const struct vm_area_ops shm_vm_ops = { shm_vm_open, shm_vm_close, shm_vm_fault };

/* /proc/PID/maps names an attach as Linux does ("/SYSV%08x (deleted)",
 * its inode the id): false for any other region. Under its mm lock, so
 * the segment is there. */
bool shm_region_name(const struct vm_area *a, int *id, int32_t *key)
{
	if (a->ops != &shm_vm_ops)
		return false;
	const struct shm_seg *s = a->priv;
	*id = s->perm.id;
	*key = (s->perm.mode & SHM_DEST) ? s->dest_key : s->perm.key;
	return true;
}

/* ---- shmat ------------------------------------------------------------------- */

/* Where the segment goes: addr (SHM_RND'ed), or the highest free range;
 * an errno otherwise. Under the mm lock. */
static int64_t attach_place(struct mm *mm, uint32_t addr, uint32_t len, int shmflg)
{
	if (!addr) {
		uint32_t at = mm_free_range(mm, len);
		return at ? (int64_t)at : -ENOMEM;
	}
	if (addr + len < addr)
		return -EINVAL;
	if (!(shmflg & SHM_REMAP) && mm_overlap(mm, addr, addr + len))
		return -EINVAL;
	if (addr > KERNEL_OFFSET - len)
		return -ENOMEM;
	if (addr < MMAP_MIN_ADDR)
		return -EPERM;		/* Linux: mmap_min_addr */
	if ((shmflg & SHM_REMAP) && mm_unmap(mm, addr, addr + len) < 0)
		return -ENOMEM;
	return addr;
}

/* A region of the caller's address space for s at `at` (mm_insert
 * tells the segment: shm_vm_open; one region however many processes
 * share the space, as Linux's shm_nattch counts): 0, or -ENOMEM. Under
 * the mm lock. */
static int attach_region(struct proc *p, struct shm_seg *s, uint32_t at, int shmflg, uint8_t prot)
{
	uint32_t len = s->npages * PAGE_SIZE;
	struct vm_area a = { at, at + len, prot, VMA_SHARED, NULL, 0, &shm_vm_ops, s };

	if (shmflg & SHM_RDONLY)
		a.flags |= VMA_NOWRITE;
	if (mm_total_pages(p->mm) + s->npages > p->group->rlim[RLIMIT_AS].rlim_cur / PAGE_SIZE)
		return -ENOMEM;
	if (mm_insert(p->mm, &a) < 0)
		return -ENOMEM;
	return 0;
}

/* Map s (held: counted in nattch while the table's lock is let go) for
 * the caller's group; the region's open counts it for good. Then the
 * hold goes, as Linux's do_shmat drops its own. The address, or an errno. */
static int attach(struct shm_seg *s, uint32_t addr, int shmflg, uint8_t prot)
{
	struct proc *p = current();
	struct mm *mm = p->mm;

	mm_lock(mm);
	int64_t at = attach_place(mm, addr, s->npages * PAGE_SIZE, shmflg);
	if (at >= 0 && attach_region(p, s, (uint32_t)at, shmflg, prot) < 0)
		at = -ENOMEM;
	spin_lock(&shm_ids.lock);
	if (--s->nattch == 0 && (s->perm.mode & SHM_DEST))
		seg_destroy(s);		/* removed meanwhile, and the attach failed */
	spin_unlock(&shm_ids.lock);
	if (vm_take_stale(mm->pgdir))	/* SHM_REMAP took pages away */
		smp_flush_tlb(mm->pgdir);
	mm_unlock(mm);
	return (int)at;
}

/* shmat (Linux's do_shmat): the address, or an errno. */
int shmat_common(int shmid, uint32_t addr, int shmflg)
{
	uint8_t prot = PROT_READ | PROT_WRITE;
	int acc = S_IRUGO | S_IWUGO;

	if (shmid < 0)
		return -EINVAL;
	if (addr & (SHMLBA - 1)) {
		if (!(shmflg & SHM_RND))
			return -EINVAL;
		addr &= ~(SHMLBA - 1);
		if (!addr && (shmflg & SHM_REMAP))
			return -EINVAL;
	} else if (!addr && (shmflg & SHM_REMAP)) {
		return -EINVAL;
	}
	if (shmflg & SHM_RDONLY) {
		prot = PROT_READ;
		acc = S_IRUGO;
	}
	if (shmflg & SHM_EXEC) {
		prot |= PROT_EXEC;
		acc |= 0111;
	}
	spin_lock(&shm_ids.lock);
	struct kern_ipc_perm *p = ipc_obtain(&shm_ids, shmid);
	int err = !p ? -EINVAL : ipc_perms(p, acc) < 0 ? -EACCES : 0;
	if (!err)
		to_seg(p)->nattch++;	/* held until the region is there */
	spin_unlock(&shm_ids.lock);
	return err ? err : attach(to_seg(p), addr, shmflg, prot);
}

int sys_shmat(int shmid, uint32_t shmaddr, int shmflg)
{
	return shmat_common(shmid, shmaddr, shmflg);
}

/* ---- shmdt ------------------------------------------------------------------- */

/* The first region at or after from that was attached at addr (its
 * offset in the segment is its distance from addr), of segment s (any
 * if NULL). */
static struct vm_area *attached_at(struct mm *mm, uint32_t addr, const void *s)
{
	for (int i = 0; i < mm->n; i++) {
		struct vm_area *a = &mm->area[i];
		if (a->end > addr && a->ops == &shm_vm_ops && a->start - addr == a->file_off &&
		    (!s || a->priv == s))
			return a;
	}
	return NULL;
}

/* Linux's ksys_shmdt: the region attached at addr, and the pieces of the
 * same attach that mprotect or munmap left within the segment's size. */
static int detach(struct mm *mm, uint32_t addr)
{
	struct vm_area *a = attached_at(mm, addr, NULL);
	if (!a)
		return -EINVAL;
	const void *s = a->priv;
	uint32_t size = to_seg((struct kern_ipc_perm *)a->priv)->npages * PAGE_SIZE;
	do {
		if (mm_unmap(mm, a->start, a->end) < 0)
			return -ENOMEM;		/* cannot happen: whole regions */
		a = attached_at(mm, addr, s);
	} while (a && a->end - addr <= size);
	return 0;
}

int sys_shmdt(uint32_t shmaddr)
{
	struct mm *mm = current()->mm;

	if (shmaddr & (PAGE_SIZE - 1))
		return -EINVAL;
	mm_lock(mm);
	int err = detach(mm, shmaddr);
	if (vm_take_stale(mm->pgdir))
		smp_flush_tlb(mm->pgdir);
	mm_unlock(mm);
	return err;
}

/* ---- shmctl ------------------------------------------------------------------ */

static int shmctl_info(int cmd, uint32_t ubuf, int version)
{
	struct shm_info si = { 0, 0, 0, 0, 0, 0 };
	uint32_t mni = (uint32_t)ipc_tun.shmmni;
	struct shminfo64 i64 = { ipc_tun.shmmax, SHMMIN, mni, mni, ipc_tun.shmall, 0, 0, 0, 0 };
	struct shminfo old = { ipc_tun.shmmax > 0x7FFFFFFF ? 0x7FFFFFFF : (int32_t)ipc_tun.shmmax,
			       SHMMIN, (int32_t)mni, (int32_t)mni, (int32_t)ipc_tun.shmall };

	spin_lock(&shm_ids.lock);
	int max_idx = ipc_max_idx(&shm_ids);
	si.used_ids = shm_ids.in_use;
	si.shm_tot = (uint32_t)shm_tot;
	for (int i = 0; i <= max_idx; i++)
		if (shm_ids.slot[i])
			si.shm_rss += to_seg(shm_ids.slot[i])->rss;
	spin_unlock(&shm_ids.lock);
	const void *src = cmd == SHM_INFO ? (const void *)&si : version == IPC_64 ? (const void *)&i64
			  : (const void *)&old;
	uint32_t n = cmd == SHM_INFO ? sizeof(si) : version == IPC_64 ? sizeof(i64) : sizeof(old);
	if (copy_to_user((void *)ubuf, src, n) < 0)
		return -EFAULT;
	return max_idx < 0 ? 0 : max_idx;
}

static void fill_ds(const struct shm_seg *s, struct shmid64_ds *ds)
{
	memset(ds, 0, sizeof(*ds));
	ipc_perm_out(&s->perm, &ds->shm_perm);
	ds->shm_segsz = s->segsz;
	ds->shm_atime = s->atime;
	ds->shm_dtime = s->dtime;
	ds->shm_ctime = s->ctime;
	ds->shm_cpid = s->cpid;
	ds->shm_lpid = s->lpid;
	ds->shm_nattch = s->nattch;
}

static int copy_ds_out(uint32_t ubuf, const struct shmid64_ds *ds, int version)
{
	if (version == IPC_64)
		return copy_to_user((void *)ubuf, ds, sizeof(*ds)) < 0 ? -EFAULT : 0;
	struct shmid_ds old;
	memset(&old, 0, sizeof(old));
	ipc_perm_to_old(&ds->shm_perm, &old.shm_perm);
	old.shm_segsz = (int32_t)ds->shm_segsz;
	old.shm_atime = (int32_t)ds->shm_atime;
	old.shm_dtime = (int32_t)ds->shm_dtime;
	old.shm_ctime = (int32_t)ds->shm_ctime;
	old.shm_cpid = (uint16_t)ds->shm_cpid;
	old.shm_lpid = (uint16_t)ds->shm_lpid;
	old.shm_nattch = (uint16_t)ds->shm_nattch;
	return copy_to_user((void *)ubuf, &old, sizeof(old)) < 0 ? -EFAULT : 0;
}

static int copy_ds_in(uint32_t ubuf, struct shmid64_ds *ds, int version)
{
	if (version == IPC_64)
		return copy_from_user(ds, (const void *)ubuf, sizeof(*ds)) < 0 ? -EFAULT : 0;
	struct shmid_ds old;
	if (copy_from_user(&old, (const void *)ubuf, sizeof(old)) < 0)
		return -EFAULT;
	memset(ds, 0, sizeof(*ds));
	ipc_perm_from_old(&old.shm_perm, &ds->shm_perm);
	return 0;
}

/* IPC_STAT by id, SHM_STAT and SHM_STAT_ANY by index: 0 or the id. */
static int shmctl_stat(int shmid, int cmd, uint32_t ubuf, int version)
{
	struct shmid64_ds ds;

	spin_lock(&shm_ids.lock);
	struct kern_ipc_perm *p = cmd == IPC_STAT ? ipc_obtain(&shm_ids, shmid)
				  : ipc_at_index(&shm_ids, shmid & (IPCMNI - 1));
	int ret = !p ? -EINVAL : cmd != SHM_STAT_ANY && ipc_perms(p, S_IRUGO) < 0 ? -EACCES
		  : cmd == IPC_STAT ? 0 : p->id;
	if (ret >= 0)
		fill_ds(to_seg(p), &ds);
	spin_unlock(&shm_ids.lock);
	if (ret >= 0 && copy_ds_out(ubuf, &ds, version) < 0)
		return -EFAULT;
	return ret;
}

/* SHM_LOCK and SHM_UNLOCK: nothing is ever swapped out here, so only
 * the mark ipcs shows; the rules are Linux's. */
static int shmctl_lock(int shmid, int cmd)
{
	struct proc *me = current();

	spin_lock(&shm_ids.lock);
	struct kern_ipc_perm *p = ipc_obtain(&shm_ids, shmid);
	int err = !p ? -EINVAL : 0;
	bool may_lock = proc_capable(me, CAP_IPC_LOCK);
	if (!err && !may_lock && (uint32_t)me->euid != p->uid && (uint32_t)me->euid != p->cuid)
		err = -EPERM;
	if (!err && !may_lock && cmd == SHM_LOCK &&
	    !me->group->rlim[RLIMIT_MEMLOCK].rlim_cur)
		err = -EPERM;
	if (!err && cmd == SHM_LOCK)
		p->mode |= SHM_LOCKED;
	else if (!err)
		p->mode &= (uint16_t)~SHM_LOCKED;
	spin_unlock(&shm_ids.lock);
	return err;
}

/* IPC_SET and IPC_RMID: the owner's (Linux's shmctl_down). */
static int shmctl_down(int shmid, int cmd, const struct shmid64_ds *ds)
{
	spin_lock(&shm_ids.lock);
	struct kern_ipc_perm *p = ipc_obtain(&shm_ids, shmid);
	int err = !p ? -EINVAL : !ipc_owner(p) ? -EPERM : 0;
	if (!err && cmd == IPC_RMID) {
		if (to_seg(p)->nattch) {	/* Linux's do_shm_rmid */
			p->mode |= SHM_DEST;
			to_seg(p)->dest_key = p->key;
			ipc_set_key_private(&shm_ids, p);
		} else {
			seg_destroy(to_seg(p));
		}
	} else if (!err && !(err = ipc_perm_set(p, &ds->shm_perm))) {
		to_seg(p)->ctime = ipc_now();
	}
	spin_unlock(&shm_ids.lock);
	return err;
}

/* shmctl with cmd's version already parsed (kernel/ipc/syscall.c). */
int shmctl_version(int shmid, int cmd, uint32_t ubuf, int version)
{
	struct shmid64_ds ds;

	if (cmd < 0 || shmid < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case SHM_INFO:
		return shmctl_info(cmd, ubuf, version);
	case IPC_STAT:
	case SHM_STAT:
	case SHM_STAT_ANY:
		return shmctl_stat(shmid, cmd, ubuf, version);
	case SHM_LOCK:
	case SHM_UNLOCK:
		return shmctl_lock(shmid, cmd);
	case IPC_SET:
		if (copy_ds_in(ubuf, &ds, version) < 0)
			return -EFAULT;
		return shmctl_down(shmid, cmd, &ds);
	case IPC_RMID:
		return shmctl_down(shmid, cmd, NULL);
	default:
		return -EINVAL;
	}
}

int sys_shmctl(int shmid, int cmd, uint32_t ubuf)
{
	return shmctl_version(shmid, cmd, ubuf, IPC_64);
}

/* ---- /proc/sysvipc/shm ------------------------------------------------------ */

void shm_proc_text(struct pbuf *b)
{
	pb_printf(b, "       key      shmid perms       size  cpid  lpid nattch   uid   gid  cuid  cgid"
		  "      atime      dtime      ctime        rss       swap\n");
	spin_lock(&shm_ids.lock);
	for (int i = 0; i < shm_ids.cap; i++) {
		struct shm_seg *s = (struct shm_seg *)shm_ids.slot[i];
		if (!s)
			continue;
		pb_printf(b, "%10d %10d  %4o %10u %5d %5d  %5u %5u %5u %5u %5u %10u %10u %10u %10u %10u\n",
			  s->perm.key, s->perm.id, s->perm.mode, s->segsz, s->cpid, s->lpid, s->nattch,
			  s->perm.uid, s->perm.gid, s->perm.cuid, s->perm.cgid, s->atime, s->dtime,
			  s->ctime, s->rss * PAGE_SIZE, 0u);
	}
	spin_unlock(&shm_ids.lock);
}
