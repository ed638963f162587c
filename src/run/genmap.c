/* SPDX-License-Identifier: MIT */
/* The generation map of --verify on writes: see include/atio/run/genmap.h. */
#include <errno.h>
#include <stdlib.h>

#include "atio/base/buf.h"
#include "atio/data/dataset.h"
#include "atio/run/genmap.h"
#include "atio/data/journal.h"

uint64_t atio_genmap_thread_blocks(const struct atio_opts *o, bool most)
{
	uint64_t file = atio_dataset_file_size(o);

	if (o->nfiles <= o->threads) {
		unsigned k = (o->threads + o->nfiles - 1) / o->nfiles;

		return file / k / o->bs;
	}
	return (uint64_t)((o->nfiles + (most ? o->threads - 1 : 0)) / o->threads) * (file / o->bs);
}

uint64_t atio_genmap_bytes(const struct atio_opts *o)
{
	bool sync = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;

	if (!o->verify || !atio_mode_writes(o->mode))
		return 0;
	return atio_genmap_thread_blocks(o, true) * (o->bs / atio_opts_unit(o)) *
	       sizeof(uint32_t) + 2 * o->bs +
	       (sync ? (uint64_t)o->qsync * sizeof(struct atio_journal_rec) : 0);
}

uint64_t atio_genmap_maps_bytes(const struct atio_opts *o)
{
	if (!atio_genmap_bytes(o))
		return 0;
	return atio_genmap_thread_blocks(o, true) * (o->bs / atio_opts_unit(o)) * o->threads *
	       sizeof(uint32_t);
}

int atio_genmap_init(struct atio_genmap *m, unsigned segs, uint64_t seg_blocks, bool huge)
{
	m->blocks = (uint64_t)segs * seg_blocks;
	m->seg_blocks = seg_blocks;
	m->gen = atio_buf_alloc((m->blocks ? m->blocks : 1) * sizeof(*m->gen), huge);
	return m->gen ? 0 : -ENOMEM;
}

void atio_genmap_free(struct atio_genmap *m)
{
	if (m->gen)
		atio_buf_free(m->gen, (m->blocks ? m->blocks : 1) * sizeof(*m->gen));
	m->gen = NULL;
}
