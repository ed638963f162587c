/* SPDX-License-Identifier: MIT */
/*
 * --check: read a dataset and check every sector's stamp. See
 * include/atio/check.h for what counts as bad and how the work is cut.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atio/buf.h"
#include "atio/check.h"
#include "atio/pool.h"
#include "atio/stamp.h"
#include "atio/worker.h"

/* A sector's verdict in the first pass over a unit. */
struct verdict {
	int kind;                  /* enum atio_check_kind, or -1: stamp good so far */
	struct atio_stamp st;
	size_t bad_byte;           /* CORRUPT: the first byte that differs */
};

/* What one thread owns. */
struct checker {
	struct atio_check *c;
	unsigned char *buf;        /* one unit read */
	unsigned char *ks;         /* keystream of one unit */
	struct verdict *v;         /* one per sector of a unit */
};

const char *atio_check_kind_name(enum atio_check_kind k)
{
	static const char *const names[] = { "zeros", "no stamp", "misplaced", "corrupt",
					     "unreadable" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

static bool all_zero(const unsigned char *s)
{
	static const unsigned char zero[ATIO_SECTOR];

	return memcmp(s, zero, ATIO_SECTOR) == 0;
}

/* Record @n bad sectors of one kind from @off of file @file. */
static void note_bad(struct atio_check *c, unsigned file, uint64_t off, uint64_t n,
		     enum atio_check_kind kind, uint64_t detail)
{
	pthread_mutex_lock(&c->lock);
	c->bad_sectors += n;
	c->bad_ranges++;
	if (c->nlisted < ATIO_CHECK_LIST)
		c->bad[c->nlisted++] = (struct atio_check_bad){
			.file = file, .off = off, .len = n * ATIO_SECTOR, .kind = kind,
			.detail = detail,
		};
	pthread_mutex_unlock(&c->lock);
}

/*
 * The sectors from @i on that continue sector @i's keystream: same key,
 * each one's position 512 past the previous one's. Returns how many,
 * at least 1.
 */
static size_t keystream_run(const struct verdict *v, size_t i, size_t n)
{
	size_t j = i + 1;

	while (j < n && v[j].kind < 0 && v[j].st.key == v[i].st.key &&
	       v[j].st.pos == v[i].st.pos + (j - i) * ATIO_SECTOR)
		j++;
	return j - i;
}

/*
 * Check the @len bytes at k->buf, read at offset @off of file @file: decode
 * every stamp, then make the keystream of each run of sectors at once and
 * compare. Returns 0 or -EIO when OpenSSL fails.
 */
static int check_buffer(struct checker *k, unsigned file, uint64_t off, size_t len)
{
	size_t n = len / ATIO_SECTOR;
	struct verdict *v = k->v;

	for (size_t i = 0; i < n; i++) {
		const unsigned char *s = k->buf + i * ATIO_SECTOR;

		v[i].kind = -1;
		if (atio_stamp_get(s, &v[i].st))
			v[i].kind = all_zero(s) ? ATIO_CHECK_ZEROS : ATIO_CHECK_NO_STAMP;
		else if (v[i].st.offset != off + i * ATIO_SECTOR)
			v[i].kind = ATIO_CHECK_MISPLACED;
	}
	for (size_t i = 0; i < n;) {
		size_t run;

		if (v[i].kind >= 0) {
			i++;
			continue;
		}
		run = keystream_run(v, i, n);
		if (atio_keystream(k->ks, run * ATIO_SECTOR, v[i].st.key, v[i].st.pos))
			return -EIO;
		for (size_t j = 0; j < run; j++) {
			const unsigned char *got = k->buf + (i + j) * ATIO_SECTOR;
			const unsigned char *want = k->ks + j * ATIO_SECTOR;

			if (memcmp(got + ATIO_STAMP_BYTES, want + ATIO_STAMP_BYTES,
				   ATIO_SECTOR - ATIO_STAMP_BYTES) == 0)
				continue;
			v[i + j].kind = ATIO_CHECK_CORRUPT;
			for (size_t b = ATIO_STAMP_BYTES; b < ATIO_SECTOR; b++)
				if (got[b] != want[b]) {
					v[i + j].bad_byte = b;
					break;
				}
		}
		i += run;
	}
	/* Consecutive bad sectors of one kind make one range. */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		uint64_t detail;

		if (v[i].kind < 0) {
			i++;
			continue;
		}
		while (j < n && v[j].kind == v[i].kind)
			j++;
		detail = v[i].kind == ATIO_CHECK_MISPLACED ? v[i].st.offset
		       : v[i].kind == ATIO_CHECK_CORRUPT ? v[i].bad_byte : 0;
		note_bad(k->c, file, off + i * ATIO_SECTOR, j - i, (enum atio_check_kind)v[i].kind,
			 detail);
		i = j;
	}
	return 0;
}

/*
 * Check [@off, @end) of file @file, data only: holes are skipped and
 * counted. Returns 0 or -EIO when the keystream cannot be made, which ends
 * the check (a failed read is a bad range, not an end).
 */
static int check_range(struct checker *k, unsigned file, uint64_t off, uint64_t end)
{
	struct atio_check *c = k->c;
	int fd = c->fds[file];

	while (off < end) {
		off_t data = lseek(fd, (off_t)off, SEEK_DATA), hole;
		uint64_t stop;

		/* A device, or a filesystem that cannot tell: all data. */
		if (data < 0 && errno != ENXIO)
			data = (off_t)off;
		if (data < 0 || (uint64_t)data >= end) {
			__atomic_fetch_add(&c->files[file].unwritten, end - off, __ATOMIC_RELAXED);
			break;
		}
		hole = lseek(fd, data, SEEK_HOLE);
		stop = hole < 0 || (uint64_t)hole > end ? end : (uint64_t)hole;
		if ((uint64_t)data > off)
			__atomic_fetch_add(&c->files[file].unwritten, (uint64_t)data - off,
					   __ATOMIC_RELAXED);
		/* Whole sectors: O_DIRECT reads start and end on them. */
		off = (uint64_t)data & ~(uint64_t)(ATIO_SECTOR - 1);
		while (off < stop) {
			size_t want = (size_t)(stop - off);
			ssize_t got;
			int ret;

			do
				got = pread(fd, k->buf, want, (off_t)off);
			while (got < 0 && errno == EINTR);
			if (got < 0) {
				note_bad(c, file, off, (want + ATIO_SECTOR - 1) / ATIO_SECTOR,
					 ATIO_CHECK_UNREADABLE, (uint64_t)errno);
				got = (ssize_t)want;
			} else if (got == 0) {
				return 0;  /* the file shrank: what is left is not there */
			} else if ((ret = check_buffer(k, file, off,
						       (size_t)got & ~(size_t)(ATIO_SECTOR - 1)))) {
				return ret;
			}
			off += (uint64_t)got;
			__atomic_fetch_add(&c->checked, (uint64_t)got, __ATOMIC_RELAXED);
		}
	}
	return 0;
}

static void *check_thread(void *arg)
{
	struct checker *k = arg;
	struct atio_check *c = k->c;
	uint64_t one = 1;
	unsigned nfiles = c->ds->nfiles, file = 0;

	for (;;) {
		uint64_t u = __atomic_fetch_add(&c->next_unit, 1, __ATOMIC_RELAXED), off, end;
		int ret;

		if (u >= c->first_unit[nfiles] || __atomic_load_n(c->stop, __ATOMIC_RELAXED))
			break;
		while (u >= c->first_unit[file + 1])
			file++;
		off = (u - c->first_unit[file]) * c->unit;
		end = off + c->unit < c->files[file].size ? off + c->unit : c->files[file].size;
		ret = check_range(k, file, off, end);
		if (ret) {
			pthread_mutex_lock(&c->lock);
			if (!c->err)
				c->err = atio_error_set(&c->e, ATIO_EXIT_FAIL, -ret,
							"cannot make the keystream to compare "
							"the data with: %s", strerror(-ret));
			pthread_mutex_unlock(&c->lock);
			__atomic_store_n(c->stop, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	(void)!write(c->done_fd, &one, sizeof(one));
	return NULL;
}

/* Open the files that exist and cut them into units. */
static int open_files(struct atio_check *c, struct atio_error *e)
{
	struct atio_dataset *d = c->ds;
	int flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (c->direct ? O_DIRECT : 0);

	c->first_unit[0] = 0;
	for (unsigned i = 0; i < d->nfiles; i++) {
		struct atio_file *f = &d->files[i];
		struct atio_check_file *cf = &c->files[i];

		c->fds[i] = -1;
		cf->missing = !f->exists;
		cf->size = f->exists ? f->size & ~(uint64_t)(ATIO_SECTOR - 1) : 0;
		if (f->exists) {
			c->fds[i] = open(f->path, flags);
			if (c->fds[i] < 0 && errno == EINVAL && c->direct)
				return atio_error_set(e, ATIO_EXIT_FAIL, EINVAL,
						      "%s: the filesystem refuses O_DIRECT: "
						      "give --cached to check through the "
						      "page cache", f->path);
			if (c->fds[i] < 0)
				return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s",
						      f->path, strerror(errno));
		}
		c->to_check += cf->size;
		c->first_unit[i + 1] = c->first_unit[i] + (cf->size + c->unit - 1) / c->unit;
	}
	return 0;
}

int atio_check_start(struct atio_check *c, struct atio_error *e)
{
	unsigned nfiles = c->ds->nfiles, n;
	struct checker *k;
	int ret;

	pthread_mutex_init(&c->lock, NULL);
	c->files = calloc(nfiles, sizeof(*c->files));
	c->first_unit = calloc(nfiles + 1, sizeof(*c->first_unit));
	c->fds = calloc(nfiles, sizeof(*c->fds));
	if (!c->files || !c->first_unit || !c->fds)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	for (unsigned i = 0; i < nfiles; i++)
		c->fds[i] = -1;
	ret = open_files(c, e);
	if (ret)
		return ret;
	n = c->first_unit[nfiles] < c->nthreads ? (unsigned)c->first_unit[nfiles] : c->nthreads;
	c->threads = calloc(n ? n : 1, sizeof(*c->threads));
	c->checkers = k = calloc(n ? n : 1, sizeof(*k));
	if (!c->threads || !k)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	c->nthreads = n;
	for (unsigned i = 0; i < n; i++) {
		k[i].c = c;
		k[i].buf = atio_buf_alloc(c->unit, true);
		k[i].ks = malloc(c->unit);
		k[i].v = malloc(c->unit / ATIO_SECTOR * sizeof(*k[i].v));
		if (!k[i].buf || !k[i].ks || !k[i].v)
			return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM,
					      "out of memory for the buffers of %u threads", n);
	}
	c->t0 = atio_now_ns();
	for (unsigned i = 0; i < n; i++) {
		if (pthread_create(&c->threads[i], NULL, check_thread, &k[i]) != 0) {
			__atomic_store_n(c->stop, 1, __ATOMIC_RELAXED);
			for (unsigned j = 0; j < i; j++)
				pthread_join(c->threads[j], NULL);
			c->started = 0;
			return atio_error_set(e, ATIO_EXIT_FAIL, EAGAIN, "cannot start thread %u", i);
		}
		c->started++;
	}
	return 0;
}

static int by_place(const void *a, const void *b)
{
	const struct atio_check_bad *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

int atio_check_finish(struct atio_check *c, struct atio_error *e)
{
	for (unsigned i = 0; i < c->started; i++)
		pthread_join(c->threads[i], NULL);
	c->elapsed_ns = atio_now_ns() - c->t0;
	c->started = 0;
	qsort(c->bad, c->nlisted, sizeof(c->bad[0]), by_place);
	for (unsigned i = 0; i < c->ds->nfiles; i++)
		c->unwritten += c->files[i].unwritten;
	if (c->err)
		*e = c->e;
	return c->err;
}

void atio_check_free(struct atio_check *c)
{
	struct checker *k = c->checkers;

	for (unsigned i = 0; k && i < c->nthreads; i++) {
		atio_buf_free(k[i].buf, c->unit);
		free(k[i].ks);
		free(k[i].v);
	}
	for (unsigned i = 0; c->fds && i < c->ds->nfiles; i++)
		if (c->fds[i] >= 0)
			close(c->fds[i]);
	free(k);
	free(c->threads);
	free(c->first_unit);
	free(c->fds);
	free(c->files);
	pthread_mutex_destroy(&c->lock);
	c->checkers = NULL;
	c->threads = NULL;
	c->first_unit = NULL;
	c->fds = NULL;
	c->files = NULL;
}
