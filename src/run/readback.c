/* SPDX-License-Identifier: MIT */
/*
 * --verify on writes: read back every block written in the run and check
 * it against the generation map. See include/atio/run/readback.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atio/base/buf.h"
#include "atio/run/genmap.h"
#include "atio/run/readback.h"
#include "atio/base/clock.h"
#include "atio/run/worker.h"

static bool stopped(const struct atio_worker *w)
{
	return __atomic_load_n(&w->sh->stop, __ATOMIC_RELAXED);
}

static const char *path_of(const struct atio_worker *w, const struct atio_segment *seg)
{
	return w->sh->ds->files[seg->file].path;
}

/* Name bad sector @b of the block at @off of @seg's file in rb->e. */
static void name_bad(struct atio_worker *w, const struct atio_segment *seg, uint64_t off,
		     uint64_t gen, uint64_t key)
{
	struct atio_readback *rb = &w->rb;
	char what[200];

	atio_check_describe(what, sizeof(what), &rb->b, &rb->found);
	rb->bad = true;
	rb->path = path_of(w, seg);
	rb->block_off = off;
	rb->block_len = atio_opts_unit(w->sh->opts);
	rb->b.want_gen = gen;
	rb->b.want_key = key;
	if (w->pool.reduce)
		atio_error_set(&rb->e, ATIO_EXIT_FAIL, EILSEQ,
			       "verify: %s: offset %" PRIu64 " (in the %" PRIu64 "-byte block "
			       "written at %" PRIu64 "): expected the reducible data of that offset "
			       "(key %016" PRIx64 "), found %s", rb->path, rb->b.off, rb->block_len,
			       off, key, what);
	else
		atio_error_set(&rb->e, ATIO_EXIT_FAIL, EILSEQ,
			       "verify: %s: offset %" PRIu64 " (in the %" PRIu64 "-byte block "
			       "written at %" PRIu64 "): expected the write of generation %" PRIu64
			       " (key %016" PRIx64 "), found %s", rb->path, rb->b.off,
			       rb->block_len, off, gen, key, what);
}

/*
 * Check the block at @buf, read back from @off, against write @gen of the
 * thread. Returns 0, 1 when bad (named), or -EIO.
 */
static int check_one(struct atio_worker *w, const struct atio_segment *seg, uint64_t off,
		     const unsigned char *buf, void *ks, uint64_t gen)
{
	struct atio_readback *rb = &w->rb;
	size_t bs = (size_t)atio_opts_unit(w->sh->opts);
	int ret = atio_check_block(buf, bs, off, w->sh->ds, seg->file, &w->vctx, ks, &rb->b,
				   &rb->found);

	if (ret < 0)
		return ret;
	if (ret == 0 && w->pool.reduce) {
		uint64_t key = atio_reduce_key(&w->reduce, seg->tag);

		gen = atio_reduce_word(&w->reduce);
		for (size_t i = 0; ret == 0 && i < bs; i += ATIO_SECTOR) {
			ret = atio_check_reduced(buf + i, key, gen, &rb->b, &rb->found);
			rb->b.off = off + i;
			rb->b.len = ATIO_SECTOR;
		}
		if (ret)
			name_bad(w, seg, off, gen, key);
		return ret;
	}
	for (size_t i = 0; ret == 0 && i < bs; i += ATIO_SECTOR) {
		ret = atio_check_write(buf + i, gen, w->pool.key, false, &rb->b, &rb->found);
		rb->b.off = off + i;
		rb->b.len = ATIO_SECTOR;
	}
	if (ret)
		name_bad(w, seg, off, gen, w->pool.key);
	return ret;
}

/*
 * Through the page cache: write the thread's files back and drop its
 * ranges, so that what is read comes from the storage.
 */
static int drop_cache(struct atio_worker *w)
{
	const struct atio_opts *o = w->sh->opts;

	if (o->direct)
		return 0;
	for (unsigned i = 0; i < w->nfds; i++)
		if (fdatasync(w->fds[i]) != 0)
			return -errno;
	for (unsigned s = 0; s < w->nsegs; s++)
		posix_fadvise(w->segs[s].fd, (off_t)w->segs[s].start,
			      (off_t)(w->segs[s].blocks * o->bs), POSIX_FADV_DONTNEED);
	return 0;
}

/* Read @len bytes at @off of @fd whole. Returns 0 or -errno (-EIO when short). */
static int read_whole(int fd, unsigned char *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* The pass of one thread: every block its map says it wrote. */
static int pass(struct atio_worker *w, unsigned char *buf, void *ks)
{
	struct atio_readback *rb = &w->rb;
	const struct atio_genmap *m = &w->gm;
	size_t bs = (size_t)atio_opts_unit(w->sh->opts);
	int ret = drop_cache(w);

	if (ret)
		return atio_error_set(&rb->e, ATIO_EXIT_FAIL, -ret, "verify: fdatasync before "
				      "reading back: %s", strerror(-ret));
	for (unsigned s = 0; s < w->nsegs; s++) {
		const struct atio_segment *seg = &w->segs[s];

		/* Blocks of -s, or units of an -s mix (atio/run/sizes.h). */
		uint64_t blocks = seg->blocks * (w->sh->opts->bs / bs);

		for (uint64_t b = 0; b < blocks; b++) {
			uint32_t code = atio_genmap_last(m, s * m->seg_blocks + b);
			uint64_t off = seg->start + b * bs;

			if (!code)
				continue;
			if (stopped(w)) {
				rb->interrupted = true;
				return 0;
			}
			ret = read_whole(seg->fd, buf, bs, off);
			if (ret)
				return atio_error_set(&rb->e, ATIO_EXIT_FAIL, -ret, "verify: %s: "
						      "cannot read back the %zu bytes at offset %"
						      PRIu64 ": %s", path_of(w, seg), bs, off,
						      strerror(-ret));
			ret = check_one(w, seg, off, buf, ks, atio_genmap_gen(code, w->pool.gen));
			if (ret < 0)
				return atio_error_set(&rb->e, ATIO_EXIT_FAIL, -ret, "verify: cannot "
						      "make the keystream to compare with: %s",
						      strerror(-ret));
			rb->blocks++;
			rb->bytes += bs;
			if (ret)
				return 0;
		}
	}
	rb->ran = true;
	return 0;
}

static void *readback_main(void *arg)
{
	struct atio_worker *w = arg;
	size_t bs = (size_t)atio_opts_unit(w->sh->opts);
	unsigned char *buf = atio_buf_alloc(bs, false);
	void *ks = malloc(bs);
	uint64_t one = 1;

	if (!buf || !ks)
		w->rb.err = atio_error_set(&w->rb.e, ATIO_EXIT_FAIL, ENOMEM, "verify: out of "
					   "memory for %zu bytes to read back into", bs);
	else
		w->rb.err = pass(w, buf, ks);
	atio_buf_free(buf, bs);
	free(ks);
	(void)!write(w->sh->done_fd, &one, sizeof(one));
	return NULL;
}

unsigned atio_readback_start(struct atio_worker *w, unsigned n, pthread_t *th,
			     struct atio_error *e)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		memset(&w[i].rb, 0, sizeof(w[i].rb));
		w[i].rb.t0 = atio_now_ns();
		if (pthread_create(&th[i], NULL, readback_main, &w[i]) != 0) {
			atio_error_set(e, ATIO_EXIT_FAIL, EAGAIN, "verify: cannot start the "
				       "thread that reads back thread %u's blocks", i);
			__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	return i;
}

void atio_readback_finish(struct atio_worker *w, unsigned n, unsigned started, pthread_t *th,
			  struct atio_readback *total)
{
	uint64_t t0 = n ? w[0].rb.t0 : 0;
	const char *journal = total->journal;

	memset(total, 0, sizeof(*total));
	total->journal = journal;
	total->ran = started == n;
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	total->elapsed_ns = atio_now_ns() - t0;
	for (unsigned i = 0; i < started; i++) {
		const struct atio_readback *rb = &w[i].rb;

		total->blocks += rb->blocks;
		total->bytes += rb->bytes;
		total->ran &= rb->ran;
		total->interrupted |= rb->interrupted;
		if (rb->err && !total->err) {
			total->err = rb->err;
			total->e = rb->e;
		}
		if (rb->bad && !total->bad) {
			total->bad = true;
			total->path = rb->path;
			total->block_off = rb->block_off;
			total->block_len = rb->block_len;
			total->b = rb->b;
			total->found = rb->found;
			if (!total->err)
				total->e = rb->e;
		}
	}
}
