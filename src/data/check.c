/* SPDX-License-Identifier: MIT */
/*
 * --check: read a dataset and check every sector's stamp. See
 * include/atio/data/check.h for what counts as bad and how the work is cut.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atio/base/buf.h"
#include "atio/data/check.h"
#include "atio/base/clock.h"
#include "atio/data/journal.h"
#include "atio/data/pool.h"
#include "atio/data/stamp.h"

/* What one thread owns. */
struct checker {
	struct atio_check *c;
	unsigned char *buf;        /* one unit read */
	unsigned char *ks;         /* keystream of one unit */
	struct atio_keystream kctx;
};

/*
 * Whether bad range @b continues range @a of the same file: it starts where
 * @a ends, is of the same kind, for a misplaced range holds what continues
 * @a's (the same file's data, at the next offsets), for an unreadable one
 * the same error, and against the journal the same claimed write.
 */
static bool continues(const struct atio_check_bad *a, const struct atio_check_bad *b)
{
	if (a->file != b->file || a->kind != b->kind || a->off + a->len != b->off)
		return false;
	switch (a->kind) {
	case ATIO_CHECK_MISPLACED:
		return a->from_file == b->from_file && a->detail + a->len == b->detail;
	case ATIO_CHECK_UNREADABLE:
		return a->detail == b->detail;
	case ATIO_CHECK_OLDER:
	case ATIO_CHECK_NEWER:
	case ATIO_CHECK_OTHER:
	case ATIO_CHECK_ABSENT:
		/* The journal's claims: one range per claimed write. */
		return a->want_gen == b->want_gen && a->want_key == b->want_key;
	default:
		return true;
	}
}

/*
 * Record the bad range @b of file @file: joined with the listed ranges it
 * continues or that continue it (ranges of consecutive read units, which
 * threads note apart), else listed while there is room, else counted.
 */
static void note_bad(struct atio_check *c, unsigned file, const struct atio_check_bad *b)
{
	struct atio_check_bad r = *b;

	r.file = file;
	pthread_mutex_lock(&c->lock);
	c->bad_sectors += r.len / ATIO_SECTOR;
	for (unsigned i = 0; i < c->nlisted; i++) {
		struct atio_check_bad *x = &c->bad[i];

		if (continues(x, &r)) {
			x->len += r.len;
			r = *x;
		} else if (continues(&r, x)) {
			r.len += x->len;
		} else {
			continue;
		}
		/* Taken into r: look again, r may now join another. */
		*x = c->bad[--c->nlisted];
		c->bad_ranges--;
		i = (unsigned)-1;
	}
	c->bad_ranges++;
	if (c->nlisted < ATIO_CHECK_LIST)
		c->bad[c->nlisted++] = r;
	pthread_mutex_unlock(&c->lock);
}

/*
 * Add bad sector @bad to the range @run, or note @run and start another:
 * consecutive bad sectors of one kind are one range.
 */
static void add_bad(struct atio_check *c, unsigned file, struct atio_check_bad *run,
		    const struct atio_check_bad *bad)
{
	struct atio_check_bad b = *bad;

	b.file = file;
	if (run->len && continues(run, &b)) {
		run->len += b.len;
		return;
	}
	if (run->len)
		note_bad(c, file, run);
	*run = *bad;
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
		int ret = atio_check_block(k->buf + done, len - done, off + done, k->c->ds, file,
					   &k->kctx, k->ks, &bad, &found);

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
		uint64_t from = off, tag = atio_stamp_tag(k->c->ds->id, file);

		run.len = 0;
		while (atio_journal_judge(k->c->journal, file, off, k->buf, len, tag, &from, &bad,
					  &found))
			add_bad(k->c, file, &run, &bad);
		if (run.len)
			note_bad(k->c, file, &run);
	}
	return 0;
}

/*
 * The hole [@from, @to) of file @file: counted as unwritten, and bad
 * (lost data) when the file has its planned size, its fill having
 * completed, or holds data after the hole: atio fills and grows files by
 * appending, so a hole never lies behind data it wrote. What lies past
 * the planned size is not the dataset's (a run truncates it): a hole
 * there is no lost data.
 */
static void note_hole(struct atio_check *c, unsigned file, uint64_t from, uint64_t to)
{
	struct atio_check_bad b = { .kind = ATIO_CHECK_HOLE };

	__atomic_fetch_add(&c->files[file].unwritten, to - from, __ATOMIC_RELAXED);
	if (from >= c->ds->file_size)
		return;
	if (to > c->ds->file_size)
		to = c->ds->file_size;
	if (c->files[file].size < c->ds->file_size && to >= c->files[file].size)
		return;
	if (c->files[file].size < c->ds->file_size &&
	    lseek(c->fds[file], (off_t)to, SEEK_DATA) < 0)
		return;
	b.off = from & ~(uint64_t)(ATIO_SECTOR - 1);
	b.len = ((to + ATIO_SECTOR - 1) & ~(uint64_t)(ATIO_SECTOR - 1)) - b.off;
	note_bad(c, file, &b);
}

/*
 * Check [@off, @end) of file @file, data only: holes are skipped and
 * counted (note_hole()). Returns 0 or -EIO when the keystream cannot be made, which ends
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
			note_hole(c, file, off, end);
			break;
		}
		hole = lseek(fd, data, SEEK_HOLE);
		stop = hole < 0 || (uint64_t)hole > end ? end : (uint64_t)hole;
		if ((uint64_t)data > off)
			note_hole(c, file, off, (uint64_t)data);
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
	if (!c->files)
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
	for (unsigned i = 0; c->files && i < c->ds->nfiles; i++)
		free(c->files[i].mark_text);
	free(c->files);
	pthread_mutex_destroy(&c->lock);
	c->checkers = NULL;
	c->threads = NULL;
	c->first_unit = NULL;
	c->fds = NULL;
	c->files = NULL;
}
