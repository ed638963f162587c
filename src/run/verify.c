/* SPDX-License-Identifier: MIT */
/* --verify's check of what a load thread reads: see include/atio/run/verify.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "atio/data/check.h"
#include "atio/run/fail.h"
#include "atio/run/verify.h"

/* The index in the dataset of @w's file open at @fd. */
static unsigned file_of(const struct atio_worker *w, int fd)
{
	for (unsigned s = 0; s < w->nsegs; s++)
		if (w->segs[s].fd == fd)
			return w->segs[s].file;
	return 0;
}

/* The tag of @w's file open at @fd. */
static uint64_t tag_of(const struct atio_worker *w, int fd)
{
	for (unsigned s = 0; s < w->nsegs; s++)
		if (w->segs[s].fd == fd)
			return w->segs[s].tag;
	return 0;
}

/* See verify.h. */
int atio_verify_reduced(struct atio_worker *w, const void *buf, size_t len, uint64_t off,
			uint64_t tag)
{
	uint64_t key = atio_reduce_key(&w->reduce, tag), word = atio_reduce_word(&w->reduce);
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < len; i += ATIO_SECTOR) {
		ret = atio_check_reduced((const char *)buf + i, key, word, &w->vbad, &w->vfound);
		w->vbad.off = off + i;
		w->vbad.len = ATIO_SECTOR;
	}
	return ret;
}

int atio_verify_done(struct atio_worker *w, const struct atio_req *r)
{
	char what[160], want[80] = "atio's data for that offset";
	uint64_t units = atio_sizes_units(w, r), unit = r->len / units;
	int ret;

	/* --verify on writes: a write is checked when read back after the run. */
	if (w->gm.gen) {
		for (uint64_t i = 0; i < units; i++)
			atio_genmap_done(&w->gm, r->block + i);
		if (r->op == ATIO_REQ_WRITE)
			return 0;
	}
	ret = atio_check_block(r->buf, r->len, r->off, w->sh->ds, file_of(w, r->fd), &w->vctx,
			       w->vks, &w->vbad, &w->vfound);
	/* Reducible data written in the run: what its offset must hold, whatever the write. */
	if (w->pool.reduce && w->gm.gen && ret == 0 && atio_genmap_last(&w->gm, r->block)) {
		ret = atio_verify_reduced(w, r->buf, r->len, r->off, tag_of(w, r->fd));
		snprintf(want, sizeof(want), "the reducible data of that offset");
	}
	/* --mix: a block (a unit of an -s mix) written in the run holds its last write. */
	for (size_t i = 0; w->gm.gen && !w->pool.reduce && ret == 0 && i < r->len;
	     i += ATIO_SECTOR) {
		uint32_t code = atio_genmap_last(&w->gm, r->block + i / unit);
		uint64_t gen;

		if (!code)
			continue;
		gen = atio_genmap_gen(code, w->pool.gen);
		ret = atio_check_write((const char *)r->buf + i, gen, w->pool.key, false,
				       &w->vbad, &w->vfound);
		w->vbad.off = r->off + i;
		snprintf(want, sizeof(want), "the write of generation %" PRIu64, gen);
	}
	if (ret == 0)
		return 0;
	if (ret < 0)
		atio_error_set(&w->err, ATIO_EXIT_FAIL, -ret, "verify: cannot make the keystream "
			       "to compare with: %s", strerror(-ret));
	else {
		atio_check_describe(what, sizeof(what), &w->vbad, &w->vfound);
		atio_error_set(&w->err, ATIO_EXIT_FAIL, EILSEQ,
			       "verify: %s: offset %" PRIu64 " (in the %zu-byte block read at %"
			       PRIu64 "): expected %s, found %s",
			       atio_worker_path(w, r->fd), w->vbad.off, r->len, r->off, want, what);
		w->vpath = atio_worker_path(w, r->fd);
		w->vfailed = true;
	}
	atio_worker_stop(w);
	return -1;
}
