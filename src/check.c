/* SPDX-License-Identifier: MIT */
/*
 * --check: read a dataset and check every sector's stamp. See
 * include/atio/check.h for what counts as bad and how the work is cut.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atio/buf.h"
#include "atio/check.h"
#include "atio/journal.h"
#include "atio/pool.h"
#include "atio/stamp.h"
#include "atio/worker.h"

/* What one thread owns. */
struct checker {
	struct atio_check *c;
	unsigned char *buf;        /* one unit read */
	unsigned char *ks;         /* keystream of one unit */
	struct atio_keystream kctx;
};

const char *atio_check_kind_name(enum atio_check_kind k)
{
	static const char *const names[] = { "zeros", "no stamp", "misplaced", "corrupt",
					     "unreadable", "older", "newer", "other", "absent" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

void atio_check_describe(char *buf, size_t len, const struct atio_check_bad *b,
			 const struct atio_stamp *found)
{
	switch (b->kind) {
	case ATIO_CHECK_ZEROS:
		snprintf(buf, len, "zeros (atio's data is never all zeros)");
		break;
	case ATIO_CHECK_NO_STAMP:
		snprintf(buf, len, "no stamp of atio's (another program's data, or damaged)");
		break;
	case ATIO_CHECK_MISPLACED:
		snprintf(buf, len, "the data written for offset %" PRIu64 " (misplaced; "
			 "generation %" PRIu64 ", key %016" PRIx64 ")", b->detail, found->gen,
			 found->key);
		break;
	case ATIO_CHECK_CORRUPT:
		snprintf(buf, len, "its stamp (generation %" PRIu64 ", key %016" PRIx64 ") over "
			 "other data from byte %" PRIu64 " of the sector on (torn or corrupted)",
			 found->gen, found->key, b->detail);
		break;
	case ATIO_CHECK_UNREADABLE:
		snprintf(buf, len, "an error: %s", strerror((int)b->detail));
		break;
	case ATIO_CHECK_OLDER:
		if (found->kind == ATIO_STAMP_FILL)
			snprintf(buf, len, "the fill's data, older than that write (a lost write)");
		else
			snprintf(buf, len, "generation %" PRIu64 ", an older write of the block "
				 "(a lost write, or the block rolled back)", found->gen);
		break;
	case ATIO_CHECK_NEWER:
		snprintf(buf, len, "generation %" PRIu64 ", a later write meant for another "
			 "block (misdirected)", found->gen);
		break;
	case ATIO_CHECK_OTHER:
		snprintf(buf, len, "generation %" PRIu64 " of key %016" PRIx64 " (another "
			 "thread's, file's or run's data)", found->gen, found->key);
		break;
	case ATIO_CHECK_ABSENT:
		snprintf(buf, len, "no data (a hole, or past the end of the file)");
		break;
	}
}

int atio_check_write(const void *sector, uint64_t gen, uint64_t key, bool newer_ok,
		     struct atio_check_bad *bad, struct atio_stamp *found)
{
	if (atio_stamp_get(sector, found))
		return 0;  /* not a stamp: atio_check_block() names it */
	bad->want_gen = gen;
	bad->want_key = key;
	if (found->kind == ATIO_STAMP_WRITE && found->key == key &&
	    (found->gen == gen || (newer_ok && found->gen > gen)))
		return 0;
	if (found->kind == ATIO_STAMP_FILL || (found->key == key && found->gen < gen)) {
		bad->kind = ATIO_CHECK_OLDER;
		bad->detail = found->kind == ATIO_STAMP_FILL ? 0 : found->gen;
	} else if (found->key == key) {
		bad->kind = ATIO_CHECK_NEWER;
		bad->detail = found->gen;
	} else {
		bad->kind = ATIO_CHECK_OTHER;
		bad->detail = found->key;
	}
	return 1;
}

static bool all_zero(const unsigned char *s)
{
	static const unsigned char zero[ATIO_SECTOR];

	return memcmp(s, zero, ATIO_SECTOR) == 0;
}

/* Record the bad range @b of file @file. */
static void note_bad(struct atio_check *c, unsigned file, const struct atio_check_bad *b)
{
	pthread_mutex_lock(&c->lock);
	c->bad_sectors += b->len / ATIO_SECTOR;
	c->bad_ranges++;
	if (c->nlisted < ATIO_CHECK_LIST) {
		c->bad[c->nlisted] = *b;
		c->bad[c->nlisted++].file = file;
	}
	pthread_mutex_unlock(&c->lock);
}

/*
 * Add bad sector @bad to the range @run, or note @run and start another:
 * consecutive bad sectors of one kind are one range.
 */
static void add_bad(struct atio_check *c, unsigned file, struct atio_check_bad *run,
		    const struct atio_check_bad *bad)
{
	if (run->len && run->kind == bad->kind && run->off + run->len == bad->off) {
		run->len += ATIO_SECTOR;
		return;
	}
	if (run->len)
		note_bad(c, file, run);
	*run = *bad;
}

/* Decode sector @s read at @off: 0, or the kind of fault with @bad's detail. */
static int decode(const unsigned char *s, uint64_t off, struct atio_stamp *st,
		  struct atio_check_bad *bad)
{
	if (atio_stamp_get(s, st)) {
		bad->kind = all_zero(s) ? ATIO_CHECK_ZEROS : ATIO_CHECK_NO_STAMP;
		bad->detail = 0;
		return 1;
	}
	if (st->offset != off) {
		bad->kind = ATIO_CHECK_MISPLACED;
		bad->detail = st->offset;
		return 1;
	}
	return 0;
}

int atio_check_block(const void *buf, size_t len, uint64_t off, struct atio_keystream *kctx,
		     void *ks, struct atio_check_bad *bad, struct atio_stamp *found)
{
	const unsigned char *b = buf;
	size_t n = len / ATIO_SECTOR;
	struct atio_stamp st, next;

	for (size_t i = 0; i < n;) {
		size_t run = 1;

		bad->off = off + i * ATIO_SECTOR;
		bad->len = ATIO_SECTOR;
		if (decode(b + i * ATIO_SECTOR, bad->off, &st, bad)) {
			if (bad->kind == ATIO_CHECK_MISPLACED)
				*found = st;
			else
				memset(found, 0, sizeof(*found));
			return 1;
		}
		/* The sectors after it that continue its keystream: one call makes it all. */
		while (i + run < n && !decode(b + (i + run) * ATIO_SECTOR,
					      bad->off + run * ATIO_SECTOR, &next, bad) &&
		       next.key == st.key && next.pos == st.pos + run * ATIO_SECTOR)
			run++;
		if (atio_keystream_at(kctx, ks, run * ATIO_SECTOR, st.key, st.pos))
			return -EIO;
		for (size_t j = 0; j < run; j++) {
			const unsigned char *got = b + (i + j) * ATIO_SECTOR;
			const unsigned char *want = (const unsigned char *)ks + j * ATIO_SECTOR;

			if (memcmp(got + ATIO_STAMP_BYTES, want + ATIO_STAMP_BYTES,
				   ATIO_SECTOR - ATIO_STAMP_BYTES) == 0)
				continue;
			bad->off = off + (i + j) * ATIO_SECTOR;
			bad->kind = ATIO_CHECK_CORRUPT;
			for (size_t k = ATIO_STAMP_BYTES; k < ATIO_SECTOR; k++)
				if (got[k] != want[k]) {
					bad->detail = k;
					break;
				}
			atio_stamp_get(got, found);
			return 1;
		}
		i += run;
	}
	return 0;
}

/*
 * Check the @len bytes at k->buf, read at offset @off of file @file, and
 * note every bad sector, consecutive ones of one kind as one range.
 * Returns 0 or -EIO when OpenSSL fails.
 */
static int check_buffer(struct checker *k, unsigned file, uint64_t off, size_t len)
{
	struct atio_check_bad bad, run = { .len = 0 };
	struct atio_stamp found;
	size_t done = 0;

	while (done < len) {
		int ret = atio_check_block(k->buf + done, len - done, off + done, &k->kctx, k->ks,
					   &bad, &found);

		if (ret < 0)
			return ret;
		if (ret == 0)
			break;
		add_bad(k->c, file, &run, &bad);
		done = (size_t)(bad.off - off) + ATIO_SECTOR;
	}
	if (run.len)
		note_bad(k->c, file, &run);
	/* The journal's claims: each sector holds its write, or a later one. */
	if (k->c->journal) {
		uint64_t from = off;

		run.len = 0;
		while (atio_journal_judge(k->c->journal, file, off, k->buf, len, &from, &bad,
					  &found))
			add_bad(k->c, file, &run, &bad);
		if (run.len)
			note_bad(k->c, file, &run);
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
		/*
		 * O_DIRECT reads start and end on the device's logical blocks:
		 * 4 KiB covers every device atio runs on; a read past the end of
		 * the file comes back short, with the whole sectors there are.
		 */
		off = (uint64_t)data & ~(uint64_t)((c->direct ? 4096 : ATIO_SECTOR) - 1);
		while (off < stop) {
			size_t want = (size_t)(stop - off);

			if (c->direct)
				want = (want + 4095) & ~(size_t)4095;
			if (want > c->unit)
				want = c->unit;
			ssize_t got;
			int ret;

			do
				got = pread(fd, k->buf, want, (off_t)off);
			while (got < 0 && errno == EINTR);
			if (got < 0) {
				struct atio_check_bad b = {
					.off = off, .kind = ATIO_CHECK_UNREADABLE,
					.len = (want + ATIO_SECTOR - 1) & ~(size_t)(ATIO_SECTOR - 1),
					.detail = (uint64_t)errno,
				};

				note_bad(c, file, &b);
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
		if (!k[i].buf || !k[i].ks)
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

/* atio_journal_unseen()'s callback: a claimed block no read reached. */
static void note_unseen(void *arg, const struct atio_check_bad *b)
{
	note_bad(arg, b->file, b);
}

int atio_check_finish(struct atio_check *c, struct atio_error *e)
{
	for (unsigned i = 0; i < c->started; i++)
		pthread_join(c->threads[i], NULL);
	if (c->journal && !c->err && !__atomic_load_n(c->stop, __ATOMIC_RELAXED))
		atio_journal_unseen(c->journal, note_unseen, c);
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
		atio_keystream_end(&k[i].kctx);
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
