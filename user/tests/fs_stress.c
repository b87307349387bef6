/*
 * fs_stress - a file-system load for make stress (issue 44): WORKERS
 * processes for SECONDS seconds at random calls on tmpfs, in one shared
 * directory and in a small mount that fills up, each keeping in its own
 * memory what its files must hold and checking every read against it.
 *
 *	/bin/fs_stress SECONDS SEED WORKERS
 *
 * A worker owns its names (wK-N) and so knows their bytes; the shared
 * subdirectories (d0..d3) are made and removed by all at once, where
 * EEXIST, ENOENT and ENOTEMPTY are the races' honest answers. In the small
 * mount (64 KiB) a write may stop short or be ENOSPC; what it wrote must
 * read back. In /tmp/fs a file is also mapped: MAP_SHARED, its bytes
 * checked through the mapping, some written through it (then read back
 * by read()), sometimes truncated under it; MAP_PRIVATE, written, and
 * the file unchanged. Two KTAP lines: every byte read back as written
 * (and no call answered an errno it should not), and the free frames
 * exactly what they were before (call 505; after a warm-up round of the
 * same load).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "syscall.h"
#include "testlib.h"

#define NAMES		12		/* files a worker owns in each place */
#define FILE_MAX	12288		/* bytes a file may grow to */
#define SMALL_OPTS	"size=64k"

struct file_model {
	int len;			/* -1: not there */
	char bytes[FILE_MAX];
};

static struct file_model model[2][NAMES];	/* [0]: /tmp/fs, [1]: /tmp/fs-small */
static unsigned rng;
static long ops, checked, enospc, mapped;
static int last_op;			/* one_op's choice, for a report */

static unsigned next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void name_of(char *buf, size_t n, int where, int w, int k)
{
	snprintf(buf, n, "%s/w%d-%d", where ? "/tmp/fs-small" : "/tmp/fs", w, k);
}

/* Every byte of file k as the model says; 0 when it differs. */
static int verify(int where, int w, int k)
{
	static char back[FILE_MAX + 1];
	char path[64];
	struct file_model *m = &model[where][k];
	name_of(path, sizeof(path), where, w, k);
	int fd = open(path, O_RDONLY);
	if (m->len < 0)
		return fd < 0 && errno == ENOENT;
	if (fd < 0)
		return 0;
	int got = (int)read(fd, back, sizeof(back));
	close(fd);
	checked++;
	if (got == m->len && memcmp(back, m->bytes, (size_t)m->len) == 0)
		return 1;
	int at = 0;
	while (at < got && at < m->len && back[at] == m->bytes[at])
		at++;
	printf("# %s: %d bytes read, %d written; the first difference at %d\n", path, got,
	       m->len, at);
	return 0;
}

/* Write n new bytes at off (or appended): what was written goes into the
 * model, as much as the call said. */
static int write_some(int where, int w, int k, int append)
{
	char path[64], chunk[4096];
	struct file_model *m = &model[where][k];
	name_of(path, sizeof(path), where, w, k);
	int len = m->len < 0 ? 0 : m->len;
	int off = append ? len : (int)(next() % (unsigned)(len + 2049));	/* holes too */
	if (off > FILE_MAX)
		off = FILE_MAX;
	int n = 1 + (int)(next() % sizeof(chunk));
	if (off + n > FILE_MAX)
		n = FILE_MAX - off;
	for (int i = 0; i < n; i++)
		chunk[i] = (char)next();
	int fd = open(path, O_CREAT | O_WRONLY | (append ? O_APPEND : 0), 0600);
	if (fd < 0)
		return where == 1 && errno == ENOSPC ? (enospc++, 1) : 0;
	if (m->len < 0)
		m->len = 0;
	long r = n ? syscall5(__NR_pwrite64, fd, (long)chunk, n, off, 0) : 0;
	close(fd);
	if (r == -ENOSPC && where == 1)
		return enospc++, 1;
	if (r <= 0)
		return r == 0;			/* nothing written grows nothing */
	if (off > m->len)			/* a hole: zeros */
		memset(m->bytes + m->len, 0, (size_t)(off - m->len));
	memcpy(m->bytes + off, chunk, (size_t)r);
	if (off + r > m->len)
		m->len = off + (int)r;
	return 1;
}

static int truncate_one(int where, int w, int k)
{
	char path[64];
	struct file_model *m = &model[where][k];
	if (m->len < 0)
		return 1;
	name_of(path, sizeof(path), where, w, k);
	int len = (int)(next() % (FILE_MAX + 1));	/* down, or up: zeros */
	long r = syscall2(__NR_truncate, (long)path, len);
	if (r < 0)
		return 0;
	if (len > m->len)
		memset(m->bytes + m->len, 0, (size_t)(len - m->len));
	m->len = len;
	return 1;
}

/* rename k over j (or link k as j and unlink k): j's model is k's. */
static int move_one(int where, int w, int k, int j, int by_link)
{
	char from[64], to[64];
	if (model[where][k].len < 0 || j == k)
		return 1;
	name_of(from, sizeof(from), where, w, k);
	name_of(to, sizeof(to), where, w, j);
	if (by_link) {
		syscall1(__NR_unlink, (long)to);
		long r = syscall2(__NR_link, (long)from, (long)to);
		if (r < 0 && !(r == -ENOSPC && where == 1))
			return 0;
		if (r < 0)
			return enospc++, 1;		/* the dirent did not fit: j is gone */
		if (syscall1(__NR_unlink, (long)from) < 0)
			return 0;
	} else if (syscall2(__NR_rename, (long)from, (long)to) < 0) {
		return 0;
	}
	model[where][j] = model[where][k];
	model[where][k].len = -1;
	return 1;
}

static int unlink_one(int where, int w, int k)
{
	char path[64];
	name_of(path, sizeof(path), where, w, k);
	long r = syscall1(__NR_unlink, (long)path);
	int ok = model[where][k].len < 0 ? r == -ENOENT : r == 0;
	model[where][k].len = -1;
	return ok;
}

/* Do the mapping's first len bytes hold the model's, and the rest of its
 * last page zeros? */
static int map_matches(const char *p, const struct file_model *m, int len)
{
	if (memcmp(p, m->bytes, (size_t)len) != 0)
		return 0;
	for (int i = len; i % 4096; i++)
		if (p[i])
			return 0;
	return 1;
}

/* File k of /tmp/fs mapped shared: checked, written through, perhaps
 * truncated under the mapping; or mapped private, written, and the file
 * unchanged. The descriptor is closed first: the mapping holds the file. */
static int map_one(int w, int k)
{
	char path[64];
	struct file_model *m = &model[0][k];
	if (m->len <= 0)
		return 1;
	name_of(path, sizeof(path), 0, w, k);
	int fd = open(path, O_RDWR), shared = next() % 3 != 0;
	size_t size = ((size_t)m->len + 4095) & ~4095u;
	char *p = fd < 0 ? MAP_FAILED : mmap(NULL, size, PROT_READ | PROT_WRITE,
					    shared ? MAP_SHARED : MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED || !map_matches(p, m, m->len))
		return 0;
	mapped++;
	int off = (int)(next() % (unsigned)m->len), n = 1 + (int)(next() % 64);
	if (off + n > m->len)
		n = m->len - off;
	for (int i = 0; i < n; i++)
		p[off + i] = (char)next();
	if (shared)
		memcpy(m->bytes + off, p + off, (size_t)n);
	if (shared && next() % 4 == 0) {	/* truncated under the mapping */
		int len = (int)(next() % (unsigned)m->len);
		if (syscall2(__NR_truncate, (long)path, len) < 0)
			return 0;
		m->len = len;
		if (!map_matches(p, m, len))
			return 0;
	}
	munmap(p, size);
	return verify(0, w, k);
}

/* The shared directories: any worker makes, fills and removes them. */
static int shared_dirs(void)
{
	char path[64];
	snprintf(path, sizeof(path), "/tmp/fs/d%u", next() % 4);
	long r;
	switch (next() % 4) {
	case 0:
		r = syscall2(__NR_mkdir, (long)path, 0755);
		return r == 0 || r == -EEXIST;
	case 1:
		r = syscall1(__NR_rmdir, (long)path);
		return r == 0 || r == -ENOENT || r == -ENOTEMPTY;
	case 2:
		strcat(path, "/x");
		r = syscall2(__NR_mkdir, (long)path, 0755);
		if (r == 0)
			r = syscall1(__NR_rmdir, (long)path);
		return r == 0 || r == -ENOENT || r == -EEXIST;
	default: {
		DIR *d = opendir("/tmp/fs");
		int names = 0;
		while (d && readdir(d))
			names++;
		if (d)
			closedir(d);
		return d != NULL && names >= 2;
	}
	}
}

static int one_op(int w)
{
	int where = (int)(next() % 4 == 0), k = (int)(next() % NAMES);
	ops++;
	switch (last_op = (int)(next() % 10)) {
	case 0: case 1:	return write_some(where, w, k, 0);
	case 2:		return write_some(where, w, k, 1);
	case 3:		return verify(where, w, k);
	case 4:		return where ? verify(where, w, k) : unlink_one(where, w, k);
	case 5:		return truncate_one(where, w, k);
	case 6:		return move_one(where, w, k, (int)(next() % NAMES), 0);
	case 7:		return move_one(where, w, k, (int)(next() % NAMES), 1);
	case 8:		return where ? unlink_one(where, w, k) : map_one(w, k);
	default:	return shared_dirs();
	}
}

/* A worker: its load until the deadline, every file checked and removed
 * at the end. Exit status 0, or 1 at the first wrong answer. */
static void worker(int w, unsigned seed, long long until_ns)
{
	rng = seed * 2654435761u + (unsigned)w + 1;
	for (int where = 0; where < 2; where++)
		for (int k = 0; k < NAMES; k++)
			model[where][k].len = -1;
	while (monotonic_ns() < until_ns)
		for (int i = 0; i < 50; i++)
			if (!one_op(w)) {
				printf("# worker %d: call %ld (kind %d) answered wrong\n", w, ops, last_op);
				_exit(1);
			}
	for (int where = 0; where < 2; where++)
		for (int k = 0; k < NAMES; k++)
			if (!verify(where, w, k) || !unlink_one(where, w, k)) {
				printf("# worker %d: file %d of %s reads wrong at the end\n", w, k,
				       where ? "/tmp/fs-small" : "/tmp/fs");
				_exit(1);
			}
	printf("# worker %d: %ld calls, %ld files read back, %ld mapped, %ld ENOSPC\n", w, ops,
	       checked, mapped, enospc);
	_exit(0);
}

/* One round: the places made, WORKERS workers for ms, reaped, the places
 * removed. The number of workers that failed. */
static int round_of(int workers, unsigned seed, int ms)
{
	syscall2(__NR_mkdir, (long)"/tmp/fs", 0777);
	syscall2(__NR_mkdir, (long)"/tmp/fs-small", 0777);
	syscall5(__NR_mount, (long)"small", (long)"/tmp/fs-small", (long)"tmpfs", 0,
		 (long)SMALL_OPTS);
	long long until = monotonic_ns() + (long long)ms * 1000000;
	for (int w = 0; w < workers; w++)
		if (fork() == 0)
			worker(w, seed, until);
	int failed = 0, status;
	while (wait(&status) > 0)
		failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	for (int d = 0; d < 4; d++) {
		char path[32];
		snprintf(path, sizeof(path), "/tmp/fs/d%d", d);
		syscall1(__NR_rmdir, (long)path);
	}
	failed += syscall2(__NR_umount2, (long)"/tmp/fs-small", 0) != 0;
	failed += syscall1(__NR_rmdir, (long)"/tmp/fs-small") != 0;
	failed += syscall1(__NR_rmdir, (long)"/tmp/fs") != 0;
	return failed;
}

int main(int argc, char **argv)
{
	test_require_our_kernel(argc, argv, 0);
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	unsigned seed = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1;
	int workers = argc > 3 ? atoi(argv[3]) : 4;
	printf("KTAP version 1\n1..2\n");
	int warm = round_of(workers, seed, 500);		/* the heap's caches filled */
	int before = free_frames();
	int failed = round_of(workers, seed + 1, seconds * 1000);
	int after = free_frames();
	ktap_ok(warm == 0 && failed == 0, "fs_stress_every_byte_reads_back",
		"%d workers for %d s (seed %u): %d failed", workers, seconds, seed, warm + failed);
	ktap_ok(after == before, "fs_stress_free_frames_back_to_baseline",
		"free frames before %d, after %d", before, after);
	return warm || failed || after != before;
}
