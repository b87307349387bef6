/*
 * sysvshm - System V shared memory as Linux 6.1 has it, in KTAP, so that
 * tests/linux-diff.sh compares this kernel's answers with Linux's (the
 * other kinds are user/glibc/sysvipc.c): shmget's sizes (SHMMIN, more
 * than it has, more than all memory unless SHM_NORESERVE), pages made
 * when first touched, shmat and shmdt, shm_nattch through fork, exec,
 * exit and a split by munmap, SHM_RDONLY, SHM_RND, SHM_REMAP, IPC_RMID
 * while attached (SHM_DEST), IPC_INFO and SHM_INFO, /proc/PID/maps's
 * "/SYSV<key> (deleted)", one page attached 4,000 times in each of 17
 * processes (68,000 mappings of one frame), an ordinary user's
 * EACCES and EPERM, and the direct calls. Only this kernel counts its
 * free frames (call 505): that check says "kernel-specific" and Linux
 * prints SKIP there.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -O2 -o sysvshm user/glibc/sysvshm.c
 * With --nattch ID it prints nothing and exits with segment ID's
 * shm_nattch (what an exec'd child reports).
 */
#include "sysvipc.h"

#define NTESTS		17

/* ---- shared memory ------------------------------------------------------------ */

static unsigned long nattch(int id)
{
	struct shmid_ds ds;
	return shmctl(id, IPC_STAT, &ds) < 0 ? 999 : (unsigned long)ds.shm_nattch;
}

static void shm_gets(void)
{
	int zero = shmget(IPC_PRIVATE, 0, 0600);
	const char *e_zero = en(zero);
	int key = KEY_BASE + 20, id = shmget(key, 8192, IPC_CREAT | 0600);
	int bigger = shmget(key, 8193, 0600);
	const char *e_bigger = en(bigger);
	int smaller = shmget(key, 100, 0600);
	check(zero == -1 && bigger == -1 && smaller == id, "shmget_sizes_checked",
	      "size 0: %s, bigger than it is: %s, smaller: %s", e_zero, e_bigger,
	      smaller == id ? "same id" : "other");
	struct shminfo si;
	int r = shmctl(0, IPC_INFO, (struct shmid_ds *)&si);
	check(r >= 0 && si.shmmax == 4278190079ul && si.shmmin == 1 && si.shmmni == 4096 &&
	      si.shmseg == 4096 && si.shmall == 4278190079ul, "shmctl_ipc_info_has_linux_defaults",
	      "shmmax %lu shmmin %lu shmmni %lu shmseg %lu shmall %lu", si.shmmax, si.shmmin,
	      si.shmmni, si.shmseg, si.shmall);
	struct shm_info info;
	r = shmctl(0, SHM_INFO, (struct shmid_ds *)&info);
	check(r >= 0 && info.used_ids == 1 && info.shm_swp == 0,
	      "shmctl_shm_info_counts_segments", "used_ids %d, swapped %lu", info.used_ids,
	      info.shm_swp);
	shmctl(id, IPC_RMID, NULL);
}

/* Attach, write, fork: the child sees it and writes back; nattch counts
 * the child's copy of the attach until it exits. */
static void shm_fork(int id)
{
	char *p = shmat(id, NULL, 0), c;
	int up[2], down[2];		/* the child's word to us, ours to it */
	strcpy(p, "parent");
	if (pipe(up) < 0 || pipe(down) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		int saw = !strcmp(p, "parent");
		strcpy(p + 100, "child");
		write(up[1], "w", 1);
		read(down[0], &c, 1);		/* the parent has looked */
		_exit(saw ? 0 : 1);
	}
	read(up[0], &c, 1);
	unsigned long during = nattch(id);
	write(down[1], "r", 1);
	int st = reap(pid);
	unsigned long after = nattch(id);
	struct shmid_ds ds;
	shmctl(id, IPC_STAT, &ds);
	check(st == 0 && !strcmp(p + 100, "child") && during == 2 && after == 1 &&
	      ds.shm_segsz == 10000 && ds.shm_cpid == getpid() && ds.shm_atime && ds.shm_dtime,
	      "shm_shared_across_fork_and_nattch_counts_the_child",
	      "child saw ours: %s, we see its: %s, nattch %lu then %lu, segsz %lu",
	      st == 0 ? "yes" : "no", strcmp(p + 100, "child") ? "no" : "yes", during, after,
	      (unsigned long)ds.shm_segsz);
	int dt = shmdt(p), again = shmdt(p);
	const char *e_again = en(again);
	int odd = shmdt(p + 1);
	check(dt == 0 && again == -1 && odd == -1 && nattch(id) == 0, "shmdt_detaches_once",
	      "%s, again: %s, unaligned: %s, nattch %lu", en(dt), e_again, en(odd), nattch(id));
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

static void shm_exec(int id, const char *self)
{
	char arg[16];
	snprintf(arg, sizeof(arg), "%d", id);
	char *p = shmat(id, NULL, 0);
	pid_t pid = fork();
	if (pid == 0) {
		shmat(id, NULL, 0);		/* a second attach of the child's own */
		execl(self, self, "--nattch", arg, (char *)NULL);
		_exit(254);
	}
	int st = reap(pid);
	check(st == 1 && nattch(id) == 1, "shm_detached_at_exec",
	      "nattch the exec'd program saw: %d (before exec: 3), now %lu", st, nattch(id));
	/* munmap the middle page: two pieces, both detached by one shmdt */
	munmap(p + 4096, 4096);
	unsigned long split = nattch(id);
	int dt = shmdt(p);
	check(split == 2 && dt == 0 && nattch(id) == 0,
	      "shm_split_by_munmap_counts_both_pieces_and_shmdt_takes_both",
	      "nattch after munmap %lu, shmdt %s, then %lu", split, en(dt), nattch(id));
}

static void shm_flags(int id)
{
	int *p = shmat(id, NULL, SHM_RDONLY);
	int mp = mprotect(p, 4096, PROT_READ | PROT_WRITE);
	const char *e_mp = en(mp);
	pid_t pid = fork();
	if (pid == 0) {
		p[0] = 1;		/* SIGSEGV */
		_exit(0);
	}
	int st = reap(pid);
	check(st == 128 + SIGSEGV && mp == -1, "shm_rdonly_cannot_be_written",
	      "write: %s, mprotect writable: %s", st == 128 + SIGSEGV ? "SIGSEGV" : "no fault",
	      e_mp);
	shmdt(p);
	char *area = mmap(NULL, 5 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *odd = shmat(id, area + 4096 + 5, 0);
	const char *e_odd = en(odd == (void *)-1 ? -1 : 0);
	void *rnd = shmat(id, area + 4096 + 5, SHM_RND | SHM_REMAP);
	void *over = shmat(id, area, 0);
	check(odd == (void *)-1 && rnd == area + 4096 && over == (void *)-1 && errno == EINVAL,
	      "shmat_address_rules", "unaligned: %s, SHM_RND|SHM_REMAP: %s, over a mapping: %s",
	      e_odd, rnd == area + 4096 ? "rounded down" : "other", en(-1));
	shmdt(rnd);
	munmap(area, 5 * 4096);
	void *remap0 = shmat(id, NULL, SHM_REMAP);
	check(remap0 == (void *)-1 && errno == EINVAL, "shmat_remap_without_address_is_einval",
	      "%s", en(-1));
}

static int shm_as_user(int id)
{
	struct shmid_ds ds;
	int a = shmat(id, NULL, 0) == (void *)-1 && errno == EACCES;
	int b = shmctl(id, IPC_STAT, &ds) == -1 && errno == EACCES;
	int c = shmctl(id, IPC_RMID, NULL) == -1 && errno == EPERM;
	int d = shmat(id, NULL, SHM_RDONLY) != (void *)-1;	/* 0604: others read */
	return a | b << 1 | c << 2 | d << 3;
}

static void shm_removed(void)
{
	int id = shmget(IPC_PRIVATE, 4096, 0600);
	int bits = as_user(shm_as_user, id);
	struct shmid_ds ds;
	shmctl(id, IPC_STAT, &ds);
	ds.shm_perm.mode = 0604;
	shmctl(id, IPC_SET, &ds);
	bits |= as_user(shm_as_user, id) & 8;
	check(bits == 15, "shm_permissions_for_an_ordinary_user",
	      "shmat EACCES %d, stat EACCES %d, rmid EPERM %d, read-only after IPC_SET %d",
	      bits & 1, bits >> 1 & 1, bits >> 2 & 1, bits >> 3 & 1);
	shmctl(id, IPC_RMID, NULL);
	int key = KEY_BASE + 30;
	id = shmget(key, 4096, IPC_CREAT | 0600);
	char *p = shmat(id, NULL, 0);
	int rm = shmctl(id, IPC_RMID, NULL);
	shmctl(id, IPC_STAT, &ds);
	int gone = shmget(key, 4096, 0600);
	const char *e_gone = en(gone);
	char *q = shmat(id, NULL, 0);	/* still there by id until the last detach */
	p[0] = 'x';
	int same = q != (void *)-1 && q[0] == 'x';
	shmdt(p);
	shmdt(q);
	int stat = shmctl(id, IPC_STAT, &ds);
	check(rm == 0 && (ds.shm_perm.mode & 01000) && gone == -1 && same && stat == -1 &&
	      errno == EINVAL, "shm_rmid_while_attached_waits_for_the_last_detach",
	      "SHM_DEST set, key gone: %s, attach by id: %s, after the last detach: %s",
	      e_gone, same ? "shared" : "no", en(stat));
}

/* A segment's pages are made when first touched: a gigabyte (more than
 * the memory there is: ENOMEM, unless SHM_NORESERVE) costs nothing until
 * then, and SHM_INFO's rss counts the pages touched. */
static void shm_lazy(void)
{
	int big = shmget(IPC_PRIVATE, 1u << 30, 0600);
	const char *e_big = en(big);
	int id = shmget(IPC_PRIVATE, 1u << 30, SHM_NORESERVE | 0600);
	const char *e_id = en(id);
	char *p = id >= 0 ? shmat(id, NULL, 0) : (void *)-1;
	struct shm_info info = { 0 };
	int got = 0;
	if (p != (void *)-1) {
		p[0] = p[4096 * 100] = p[(1u << 30) - 1] = 1;
		int fds[2];
		if (pipe(fds) == 0) {	/* the kernel's own write makes a fourth */
			write(fds[1], "xyz", 3);
			got = (int)read(fds[0], p + 4096 * 200, 3);
			close(fds[0]);
			close(fds[1]);
		}
		shmctl(0, SHM_INFO, (struct shmid_ds *)&info);
		shmdt(p);
	}
	shmctl(id, IPC_RMID, NULL);
	check(big == -1 && id >= 0 && p != (void *)-1 && info.shm_tot == 262144 && got == 3 &&
	      info.shm_rss == 4, "shm_pages_made_when_first_touched",
	      "1 GiB: %s, with SHM_NORESERVE: %s, pages %lu, resident after 3 touched and a "
	      "read into a fourth (%d bytes): %lu", e_big, e_id, info.shm_tot, got, info.shm_rss);
}

static void shms(const char *self)
{
	shm_gets();
	shm_lazy();
	int id = shmget(IPC_PRIVATE, 10000, 0600);
	shm_fork(id);
	shm_exec(id, self);
	shm_flags(id);
	shmctl(id, IPC_RMID, NULL);
	shm_removed();
}

/* One page in 4,000 attaches, each touched, then 16 forks: every child's
 * copy maps the frame 4,000 times more, 68,000 mappings in all. Each child
 * reads the page through its last attach and says what it saw. */
#define MANY_ATTACH	4000
#define MANY_FORKS	16

static void shm_many_mappings(void)
{
	static char *at[MANY_ATTACH];
	int id = shmget(IPC_PRIVATE, 4096, 0600), made = 0, saw = 0, fd[2];
	pid_t kids[MANY_FORKS];
	int forked = 0;

	for (; made < MANY_ATTACH; made++) {
		at[made] = shmat(id, NULL, SHM_RDONLY * (made > 0));
		if (at[made] == (char *)-1)
			break;
		saw += at[made][0];		/* a read fault maps the frame */
	}
	at[0][0] = 7;
	if (pipe(fd) < 0)
		fd[0] = fd[1] = -1;
	for (; forked < MANY_FORKS && made == MANY_ATTACH; forked++) {
		kids[forked] = fork();
		if (kids[forked] < 0)
			break;
		if (kids[forked] == 0) {
			char c = at[MANY_ATTACH - 1][0];
			write(fd[1], &c, 1);
			pause();
			_exit(0);
		}
	}
	for (int i = 0; i < forked; i++) {
		char c = 0;
		saw += read(fd[0], &c, 1) == 1 && c == 7;
	}
	for (int i = 0; i < forked; i++) {
		kill(kids[i], SIGKILL);
		reap(kids[i]);
	}
	check(made == MANY_ATTACH && forked == MANY_FORKS && saw == MANY_FORKS,
	      "one_page_mapped_68000_times_in_17_processes",
	      "attached %d times, forked %d, children that read the parent's byte %d", made,
	      forked, saw);
	for (int i = 0; i < made; i++)
		shmdt(at[i]);
	close(fd[0]);
	close(fd[1]);
	shmctl(id, IPC_RMID, NULL);
}

static void shms_quiet(void)
{
	int id = shmget(IPC_PRIVATE, 5 * 4096, 0600);
	char *p = shmat(id, NULL, 0);
	memset(p, 1, 5 * 4096);
	pid_t pid = fork();
	if (pid == 0) {
		p[3] = 2;
		_exit(0);
	}
	reap(pid);
	munmap(p + 4096, 4096);
	shmctl(id, IPC_RMID, NULL);
	shmdt(p);
}


/* 395-398, the direct calls (glibc's struct shmid_ds is the kernel's
 * shmid64_ds on i386). */
static void direct_shm(void)
{
	int m = (int)syscall(SYS_shmget, IPC_PRIVATE, 4096, 0600);
	long at = syscall(SYS_shmat, m, 0, 0);
	struct shmid_ds ds64;
	int st = (int)syscall(SYS_shmctl, m, IPC_STAT, &ds64);
	int dt = (int)syscall(SYS_shmdt, at);
	syscall(SYS_shmctl, m, IPC_RMID, 0);
	check(m >= 0 && at != -1 && st == 0 && ds64.shm_segsz == 4096 && dt == 0,
	      "direct_shmget_shmat_shmctl_shmdt", "shmat returns the address: %s, segsz %lu, "
	      "shmdt %s", at != -1 ? "yes" : "no", (unsigned long)ds64.shm_segsz, en(dt));
}


/* The /proc/self/maps line of the region holding addr, from its perms
 * on (start-end cut off), its blanks squeezed; "" if none. */
static void maps_of(const void *addr, char *out, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	out[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		int at = 0;
		if (sscanf(line, "%lx-%lx %n", &lo, &hi, &at) < 2 || (unsigned long)addr < lo ||
		    (unsigned long)addr >= hi)
			continue;
		size_t k = 0;
		for (char *c = line + at; *c && *c != '\n' && k + 1 < len; c++)
			if (*c != ' ' || (k && out[k - 1] != ' '))
				out[k++] = *c;
		out[k] = 0;
	}
	if (f)
		fclose(f);
}

/* An attach in /proc/PID/maps is Linux's shm file: the offset in the
 * segment, the id as inode, /SYSV<key> (deleted). */
static void shm_maps(void)
{
	int id = shmget(KEY_BASE + 50, 2 * 4096, IPC_CREAT | 0600);
	char *p = shmat(id, NULL, SHM_RDONLY);
	char whole[160], upper[160], want[160], want_upper[160];
	maps_of(p, whole, sizeof(whole));
	munmap(p, 4096);
	maps_of(p + 4096, upper, sizeof(upper));
	shmdt(p);
	shmctl(id, IPC_RMID, NULL);
	snprintf(want, sizeof(want), "r--s 00000000 00:01 %d /SYSV%08x (deleted)", id, KEY_BASE + 50);
	snprintf(want_upper, sizeof(want_upper), "r--s 00001000 00:01 %d /SYSV%08x (deleted)", id,
		 KEY_BASE + 50);
	check(!strcmp(whole, want) && !strcmp(upper, want_upper), "shm_attach_in_proc_maps",
	      "%s; the upper page after munmap of the first: %s",
	      strcmp(whole, want) ? "other" : "r--s 0 00:01 <id> /SYSV<key> (deleted)",
	      strcmp(upper, want_upper) ? "other" : "offset 00001000");
	if (strcmp(whole, want) || strcmp(upper, want_upper))
		printf("# '%s' / '%s'\n", whole, upper);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--nattch")) {
		struct shmid_ds ds;
		return shmctl(atoi(argv[2]), IPC_STAT, &ds) < 0 ? 255 : (int)ds.shm_nattch;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..%d\n", NTESTS);
	shms(argv[0]);
	shm_maps();
	direct_shm();
	shm_many_mappings();
	leak_check("segments_give_every_frame_back", shms_quiet);
	if (n != NTESTS)
		printf("# %d checks, not %d\n", n, NTESTS);
	return failures != 0;
}
