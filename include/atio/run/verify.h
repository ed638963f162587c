/* SPDX-License-Identifier: MIT */
#ifndef ATIO_VERIFY_H
#define ATIO_VERIFY_H

/*
 * --verify in the run loop. A block read is checked against its stamps as
 * it completes; on writes, the generation map (atio/run/genmap.h) keeps
 * two I/Os of one block from being in flight at once and records each
 * block's last write, the journal's list (atio/data/journal.h) the writes
 * the next completed sync acknowledges, and the blocks are read back after
 * the run (atio/run/readback.h).
 */

#include <stdbool.h>

#include "atio/data/journal.h"
#include "atio/engine/engine.h"
#include "atio/run/genmap.h"
#include "atio/run/sizes.h"
#include "atio/run/worker.h"

/*
 * --verify on writes: the engine took @r; mark its block (with an -s mix,
 * every unit it covers: atio/run/sizes.h) in flight and,
 * for a write, note its generation (the pool's last) in the map and in
 * the list the journal takes at the next completed sync. Nothing without
 * the map (reads).
 */
static inline void atio_verify_issue(struct atio_worker *w, const struct atio_req *r)
{
	bool write = r->op == ATIO_REQ_WRITE;
	uint64_t units = atio_sizes_units(w, r);

	if (!w->gm.gen)
		return;
	for (uint64_t i = 0; i < units; i++)
		atio_genmap_issue(&w->gm, r->block + i, write ? w->pool.gen : 0);
	if (write && w->jl.recs)
		atio_journal_note(&w->jl, w->segs[r->block / w->gm.seg_blocks].file, r->off,
				  w->pool.gen, w->pool.key);
}

/*
 * --verify: @r of @w completed. With the map, its block is no longer in
 * flight, and a write is left to the read-back after the run. A read is
 * checked against its stamps (with the map, a block written in the run
 * holds its last write). On the first bad sector the run fails (every
 * thread stops) with one message in w->err naming the file, the sector's
 * offset and what it holds instead of atio's data for that offset;
 * w->vbad, w->vfound and w->vpath keep it for the JSON record. Returns 0
 * when the block is good, else -1.
 */
int atio_verify_done(struct atio_worker *w, const struct atio_req *r);

/*
 * --compress, --dedup: whether the @len bytes at @buf, read at @off of the
 * file of tag @tag, are this run's reducible data (atio/data/reduce.h),
 * whose stamps atio_check_block() has found whole and in place: 0, or 1
 * with the first other sector in w->vbad and w->vfound. A reducible block
 * carries no generation: every write of it writes the same bytes.
 */
int atio_verify_reduced(struct atio_worker *w, const void *buf, size_t len, uint64_t off,
			uint64_t tag);

#endif
