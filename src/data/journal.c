/* SPDX-License-Identifier: MIT */
/*
 * The journal of --fsync/--fdatasync --verify: written by the run after
 * each completed sync, read by --check. See include/atio/data/journal.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atio/data/journal.h"
#include "atio/data/owner.h"
#include "atio/data/stamp.h"

#define HEAD_TEXT "atio journal 1\n"

static uint64_t mix(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The check word of a record. */
static uint64_t rec_sum(const struct atio_journal_rec *r)
{
	uint64_t h = mix(((uint64_t)r->magic << 32 | r->file) ^ 0x6a6f75726e616cull);

	h = mix(h ^ r->off);
	h = mix(h ^ r->gen);
	return mix(h ^ r->key);
}

/* Records in the file's byte order (little-endian) and back. */
static void rec_order(struct atio_journal_rec *r)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	r->magic = __builtin_bswap32(r->magic);
	r->file = __builtin_bswap32(r->file);
	r->off = __builtin_bswap64(r->off);
	r->gen = __builtin_bswap64(r->gen);
	r->key = __builtin_bswap64(r->key);
	r->sum = __builtin_bswap64(r->sum);
#else
	(void)r;
#endif
}

bool atio_journal_wanted(const struct atio_opts *o, const struct atio_dataset *d)
{
	return o->verify && !d->device && d->prefix &&
	       (o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC);
}

static char *journal_path(const struct atio_dataset *d)
{
	char *path;

	return asprintf(&path, "%sjournal", d->prefix) < 0 ? NULL : path;
}

/* Whether the header at @h (64 bytes) is a journal's. */
static bool head_ok(const unsigned char *h)
{
	return memcmp(h, HEAD_TEXT, sizeof(HEAD_TEXT) - 1) == 0;
}

/*
 * Whether the open file @fd at @path is atio's journal: a regular file
 * with atio's mark, or, where the filesystem keeps no marks, a journal's
 * header.
 */
static bool ours(int fd, const char *path)
{
	unsigned char h[ATIO_JOURNAL_HEAD];
	struct stat st;
	int owner;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	owner = atio_owner_check(fd, atio_owner_basename(path), NULL);
	/* A journal of an older atio is still atio's (its header tells its format). */
	if (owner == ATIO_OWNER_OURS || owner == ATIO_OWNER_OLD)
		return true;
	return owner == ATIO_OWNER_NO_XATTR &&
	       pread(fd, h, sizeof(h), 0) == (ssize_t)sizeof(h) && head_ok(h);
}

static int refuse(struct atio_error *e, const char *path)
{
	return atio_error_set(e, ATIO_EXIT_USAGE, EEXIST, "%s: not atio's journal (no mark "
			      "of atio's, or not a regular file); atio leaves it alone: move "
			      "it away or use another -f", path);
}

/* Write @len bytes of @buf at the end of @fd (O_APPEND). Returns 0 or -errno. */
static int append(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Create (or empty) the journal at j->path and write its header durably. */
static int create(struct atio_journal *j, int fd, const struct atio_dataset *d,
		  const struct atio_opts *o, struct atio_error *e)
{
	unsigned char h[ATIO_JOURNAL_HEAD] = { 0 };
	char *dir, *slash;
	int dfd, ret;

	if (fd < 0) {
		fd = open(j->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot create: %s",
					      j->path, strerror(errno));
		ret = atio_owner_mark(fd, atio_owner_basename(j->path), d->id);
		if (ret && ret != -EOPNOTSUPP) {
			if (atio_owner_same(fd, j->path))
				unlink(j->path);
			close(fd);
			return atio_error_set(e, ATIO_EXIT_FAIL, -ret, "%s: cannot mark: %s",
					      j->path, strerror(-ret));
		}
	} else if (ftruncate(fd, 0) != 0) {
		ret = errno;
		close(fd);
		return atio_error_set(e, ATIO_EXIT_FAIL, ret, "%s: cannot truncate: %s",
				      j->path, strerror(ret));
	}
	j->fd = fd;
	memcpy(h, HEAD_TEXT, sizeof(HEAD_TEXT) - 1);
	atio_stamp_store(h + 32, d->nfiles);
	atio_stamp_store(h + 40, d->file_size);
	atio_stamp_store(h + 48, o->bs);
	ret = fcntl(fd, F_SETFL, O_APPEND) != 0 ? -errno : append(fd, h, sizeof(h));
	if (!ret && fsync(fd) != 0)
		ret = -errno;
	if (ret) {
		/* A journal without its header would be read as claiming nothing. */
		bool gone = atio_owner_same(fd, j->path) && unlink(j->path) == 0;

		close(fd);
		j->fd = -1;
		return atio_error_set(e, ATIO_EXIT_FAIL, -ret, "%s: cannot write the header: "
				      "%s; %s", j->path, strerror(-ret),
				      gone ? "the journal is removed"
				      : "the journal could not be removed either");
	}
	/* The name must survive a crash too. */
	dir = strdup(j->path);
	if (!dir)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

int atio_journal_begin(struct atio_journal *j, const struct atio_dataset *d,
		       const struct atio_opts *o, struct atio_error *e)
{
	int fd, ret;

	j->fd = -1;
	j->path = NULL;
	if (d->device || !d->prefix)
		return 0;
	j->path = journal_path(d);
	if (!j->path)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	fd = open(j->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && (errno == ELOOP || errno == EISDIR))
		return refuse(e, j->path);
	if (fd < 0 && errno != ENOENT)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s", j->path,
				      strerror(errno));
	if (fd >= 0 && !ours(fd, j->path)) {
		close(fd);
		return refuse(e, j->path);
	}
	if (atio_journal_wanted(o, d))
		return create(j, fd, d, o, e);
	/* A write without a journal: the old claims no longer hold. */
	if (fd >= 0) {
		/* By its name, but only while the name is still that file. */
		ret = atio_owner_same(fd, j->path) && unlink(j->path) != 0 && errno != ENOENT
			? errno : 0;
		close(fd);
		if (ret)
			return atio_error_set(e, ATIO_EXIT_FAIL, ret, "%s: cannot remove: %s",
					      j->path, strerror(ret));
	}
	return 0;
}

int atio_journal_list_init(struct atio_journal_list *l, unsigned cap)
{
	l->n = 0;
	l->cap = cap;
	l->recs = calloc(cap ? cap : 1, sizeof(*l->recs));
	return l->recs ? 0 : -ENOMEM;
}

void atio_journal_list_free(struct atio_journal_list *l)
{
	free(l->recs);
	l->recs = NULL;
	l->n = l->cap = 0;
}

int atio_journal_commit(struct atio_journal *j, struct atio_journal_list *l)
{
	int ret;

	if (j->fd < 0 || !l->n) {
		l->n = 0;
		return 0;
	}
	for (unsigned i = 0; i < l->n; i++) {
		l->recs[i].magic = ATIO_JOURNAL_MAGIC;
		l->recs[i].sum = rec_sum(&l->recs[i]);
		rec_order(&l->recs[i]);
	}
	ret = append(j->fd, l->recs, l->n * sizeof(*l->recs));
	l->n = 0;
	if (!ret && fdatasync(j->fd) != 0)
		ret = -errno;
	return ret;
}

void atio_journal_end(struct atio_journal *j, const struct atio_dataset *d, bool remove)
{
	char *path;
	int fd;

	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	free(j->path);
	j->path = NULL;
	if (!remove || d->device || !d->prefix || !(path = journal_path(d)))
		return;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		if (ours(fd, path) && atio_owner_same(fd, path))
			unlink(path);
		close(fd);
	}
	free(path);
}

static int by_block(const void *a, const void *b)
{
	const struct atio_journal_claim *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->gen < y->gen ? -1 : x->gen > y->gen;
}

/* Sort the claims and keep the last (highest generation) of each block. */
static void squeeze(struct atio_journal_claims *jc)
{
	size_t k = 0;

	qsort(jc->c, jc->n, sizeof(*jc->c), by_block);
	for (size_t i = 0; i < jc->n; i++) {
		if (k && jc->c[k - 1].file == jc->c[i].file && jc->c[k - 1].off == jc->c[i].off)
			k--;
		jc->c[k++] = jc->c[i];
	}
	jc->n = k;
}

/* Read the records after the header into claims; stop at the first bad one. */
static int read_records(struct atio_journal_claims *jc, int fd, uint64_t size, uint64_t fsize)
{
	struct atio_journal_rec buf[4096];
	uint64_t pos = ATIO_JOURNAL_HEAD;
	size_t cap = 4096;

	jc->c = malloc(cap * sizeof(*jc->c));
	if (!jc->c)
		return -ENOMEM;
	while (pos < size) {
		ssize_t got = pread(fd, buf, sizeof(buf), (off_t)pos);
		size_t n;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		n = (size_t)got / sizeof(buf[0]);
		for (size_t i = 0; i < n; i++) {
			struct atio_journal_rec r = buf[i];

			rec_order(&r);
			/*
			 * A record whose check word holds but that names no
			 * whole block of the files (the run writes whole
			 * blocks at multiples of the block size) is no
			 * record of atio's: judged, its block would lie past
			 * the bytes read.
			 */
			if (r.magic != ATIO_JOURNAL_MAGIC || r.sum != rec_sum(&r) ||
			    r.file >= jc->nfiles || r.off % jc->bs || fsize < jc->bs ||
			    r.off > fsize - jc->bs) {
				jc->cut = size - pos;
				return 0;
			}
			if (jc->n == cap) {
				/* Keep one claim a block: squeeze, and grow if that left little room. */
				squeeze(jc);
				if (jc->n > cap / 2) {
					void *p = realloc(jc->c, 2 * cap * sizeof(*jc->c));

					if (!p)
						return -ENOMEM;
					jc->c = p;
					cap *= 2;
				}
			}
			jc->c[jc->n++] = (struct atio_journal_claim){
				.off = r.off, .gen = r.gen, .key = r.key, .file = r.file,
			};
			jc->records++;
			pos += sizeof(r);
		}
		if (n < sizeof(buf) / sizeof(buf[0])) {
			jc->cut = size - pos;
			return 0;
		}
	}
	return 0;
}

int atio_journal_load(struct atio_journal_claims **out, const struct atio_dataset *d,
		      struct atio_error *e)
{
	struct atio_journal_claims *jc;
	unsigned char h[ATIO_JOURNAL_HEAD];
	struct stat st;
	uint64_t nfiles, size;
	int fd, ret;

	*out = NULL;
	if (d->device || !d->prefix)
		return 0;
	jc = calloc(1, sizeof(*jc));
	if (!jc || !(jc->path = journal_path(d))) {
		free(jc);
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	fd = open(jc->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT) {
		atio_journal_claims_free(jc);
		return 0;
	}
	*out = jc;
	if (fd < 0 && (errno == ELOOP || errno == EISDIR))
		return refuse(e, jc->path);
	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s", jc->path,
				      strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) || !head_ok(h)) {
		bool mine = ours(fd, jc->path);

		close(fd);
		if (!mine)
			return refuse(e, jc->path);
		/* Claims of no block, so that the check runs as without a journal. */
		jc->headless = true;
		jc->nfiles = d->nfiles;
		jc->bs = ATIO_SECTOR;
		jc->first = calloc(d->nfiles + 1, sizeof(*jc->first));
		return jc->first ? 0 : atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	nfiles = atio_stamp_load(h + 32);
	size = atio_stamp_load(h + 40);
	jc->bs = atio_stamp_load(h + 48);
	if (nfiles != d->nfiles || size != d->file_size || !jc->bs || jc->bs % ATIO_SECTOR) {
		close(fd);
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: the journal of a dataset "
				      "of %llu file(s) of %llu bytes, not of -n %u files of %llu "
				      "bytes: give the -n and -u of the run that wrote it",
				      jc->path, (unsigned long long)nfiles,
				      (unsigned long long)size, d->nfiles,
				      (unsigned long long)d->file_size);
	}
	jc->nfiles = d->nfiles;
	jc->first = calloc(d->nfiles + 1, sizeof(*jc->first));
	ret = jc->first ? read_records(jc, fd, (uint64_t)st.st_size, d->file_size) : -ENOMEM;
	close(fd);
	if (ret)
		return atio_error_set(e, ATIO_EXIT_FAIL, -ret, "%s: cannot read: %s", jc->path,
				      strerror(-ret));
	squeeze(jc);
	for (size_t i = 0, f = 0; f <= d->nfiles; f++) {
		while (i < jc->n && jc->c[i].file < f)
			i++;
		jc->first[f] = i;
	}
	return 0;
}

int atio_journal_judge(struct atio_journal_claims *jc, unsigned file, uint64_t off,
		       const void *buf, size_t len, uint64_t tag, uint64_t *from,
		       struct atio_check_bad *bad, struct atio_stamp *found)
{
	size_t lo = jc->first[file], hi = jc->first[file + 1];
	uint64_t end = off + len;

	/* The first claim that ends after *from. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (jc->c[mid].off + jc->bs <= *from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < jc->first[file + 1] && jc->c[lo].off < end; lo++) {
		struct atio_journal_claim *cl = &jc->c[lo];
		uint64_t s = cl->off > *from ? cl->off : *from;
		uint64_t stop = cl->off + jc->bs < end ? cl->off + jc->bs : end;

		for (; s < stop; s += ATIO_SECTOR) {
			const unsigned char *p = (const unsigned char *)buf + (s - off);

			*from = s + ATIO_SECTOR;
			__atomic_fetch_add(&cl->seen, 1, __ATOMIC_RELAXED);
			if (atio_stamp_get(p, found) || found->offset != s || found->tag != tag)
				continue;
			if (atio_check_write(p, cl->gen, cl->key, true, bad, found)) {
				bad->off = s;
				bad->len = ATIO_SECTOR;
				return 1;
			}
		}
	}
	*from = end;
	return 0;
}

void atio_journal_unseen(struct atio_journal_claims *jc,
			 void (*note)(void *arg, const struct atio_check_bad *b), void *arg)
{
	uint64_t sectors = jc->bs / ATIO_SECTOR;

	for (size_t i = 0; i < jc->n; i++) {
		const struct atio_journal_claim *cl = &jc->c[i];
		struct atio_check_bad b = {
			.file = cl->file, .off = cl->off, .kind = ATIO_CHECK_ABSENT,
			.want_gen = cl->gen, .want_key = cl->key,
		};

		if (cl->seen >= sectors)
			continue;
		b.len = (sectors - cl->seen) * ATIO_SECTOR;
		jc->absent += sectors - cl->seen;
		note(arg, &b);
	}
}

void atio_journal_claims_free(struct atio_journal_claims *jc)
{
	if (!jc)
		return;
	free(jc->path);
	free(jc->c);
	free(jc->first);
	free(jc);
}
