/* SPDX-License-Identifier: MIT */
#ifndef ATIO_SIZES_H
#define ATIO_SIZES_H

/*
 * -s with a mix of sizes: each I/O draws its size, with the size's share
 * of the I/Os, from the thread's next 64 random bits (a comparison with
 * thresholds computed once, as --mix draws its direction); with --mix
 * READS:WRITES, from its direction's mix once the direction is drawn.
 *
 * Places. The thread's segments are cut into units, the sizes' greatest
 * common divisor. A random I/O of size S goes to a place aligned to S in
 * its segment, drawn uniformly among the segment's whole places of S: as
 * an application that reads records of a size does, and never across a
 * boundary of its own size (a stripe, a page of a larger block) that an
 * I/O of that size alone would not cross. Every place of every size is
 * equally likely, so each size covers the whole share. A sequential pass
 * advances by each I/O's size; an I/O that does not fit in what is left of
 * a segment starts the next segment.
 *
 * Buffers and the dataset take the largest size (o->bs): the pool's
 * windows, the read buffers, the blocks the files are cut into. A write
 * stamps only the bytes it writes (atio/data/pool.h). --verify on writes
 * keeps its map by unit (atio/run/genmap.h): an I/O marks every unit it
 * covers in flight, and the read-back reads unit by unit.
 *
 * A run without a mix has no copy of this (atio_cursor_sized() in
 * atio/run/cursor.h, inlined in the loops of src/run/loop.c that a mix runs).
 */

#include <stdbool.h>
#include <stdint.h>

#include "atio/base/opts.h"
#include "atio/base/prng.h"
#include "atio/engine/engine.h"
#include "atio/run/genmap.h"
#include "atio/run/worker.h"

/* One direction's sizes. */
struct atio_sizes_dir {
	unsigned n;
	uint64_t below[ATIO_BSMIX_MAX];        /* size i when the next 64 bits are below */
	uint64_t len[ATIO_BSMIX_MAX];          /* bytes */
	uint64_t units[ATIO_BSMIX_MAX];        /* len / unit */
	struct atio_range places[ATIO_BSMIX_MAX]; /* a segment's places of that size */
};

struct atio_sizes {
	struct atio_sizes_dir dir[2];  /* [0] reads or every I/O, [1] --mix's writes */
	bool per_dir;              /* --mix READS:WRITES */
	uint64_t unit;             /* bytes */
	uint64_t seg_units;        /* units of a segment */
};

/*
 * Make @w's sizes (w->sz) from its options' mix; nothing without one.
 * Returns 0 or -ENOMEM.
 */
int atio_sizes_init(struct atio_worker *w);

void atio_sizes_free(struct atio_worker *w);

/* Whether an I/O of any of the @n units from map index @i of @m is in flight. */
bool atio_sizes_busy(const struct atio_genmap *m, uint64_t i, uint64_t n);

/* The units @r covers: 1 without a mix. */
static inline uint64_t atio_sizes_units(const struct atio_worker *w, const struct atio_req *r)
{
	return w->sz ? r->len / w->sz->unit : 1;
}

#endif
