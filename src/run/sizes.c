/* SPDX-License-Identifier: MIT */
/* -s with a mix of sizes: the draw and the places (atio/run/sizes.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "atio/run/cursor.h"
#include "atio/run/sizes.h"

/*
 * The shares become thresholds on 64 random bits, the last one the top
 * (no draw falls past it, whatever the rounding).
 */
static void dir_init(struct atio_sizes_dir *d, const struct atio_bsmix *m, uint64_t unit,
		     uint64_t seg_bytes)
{
	double at = 0.0;

	d->n = m->n;
	for (unsigned i = 0; i < m->n; i++) {
		double v;

		at += m->share[i];
		v = ldexp(at / 100.0, 64);
		d->below[i] = i + 1 == m->n || v >= 0x1p64 ? UINT64_MAX : (uint64_t)v;
		d->len[i] = m->size[i];
		d->units[i] = m->size[i] / unit;
		atio_range_init(&d->places[i], seg_bytes / m->size[i]);
	}
}

int atio_sizes_init(struct atio_worker *w)
{
	const struct atio_opts *o = w->sh->opts;
	uint64_t seg_bytes = w->segs[0].blocks * o->bs;
	struct atio_sizes *z;

	if (!o->bsmix[0].n)
		return 0;
	z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	z->unit = o->bs_unit;
	z->seg_units = seg_bytes / z->unit;
	z->per_dir = o->bsmix[1].n > 0;
	dir_init(&z->dir[0], &o->bsmix[0], z->unit, seg_bytes);
	if (z->per_dir)
		dir_init(&z->dir[1], &o->bsmix[1], z->unit, seg_bytes);
	w->sz = z;
	return 0;
}

void atio_sizes_free(struct atio_worker *w)
{
	free(w->sz);
	w->sz = NULL;
}

/* Whether an I/O of any of the @n units from map index @i is in flight. */
static bool busy(const struct atio_genmap *m, uint64_t i, uint64_t n)
{
	for (uint64_t k = 0; k < n; k++)
		if (atio_genmap_busy(m, i + k))
			return true;
	return false;
}

bool atio_sizes_aim(struct atio_worker *w, struct atio_cursor *c, struct atio_req *r,
		    bool random, bool writing, bool mixing, bool verifying)
{
	const struct atio_sizes *z = w->sz;
	const struct atio_sizes_dir *d = &z->dir[z->per_dir && writing];
	uint64_t x = atio_prng_next(&w->rng), unit;
	const struct atio_segment *seg;
	unsigned i = 0, s;

	while (i + 1 < d->n && x >= d->below[i])
		i++;
	r->len = d->len[i];
	if (random) {
		do {
			s = w->nsegs == 1 ? 0 : (unsigned)atio_prng_below(&w->rng, &c->segs);
			unit = atio_prng_below(&w->rng, &d->places[i]) * d->units[i];
		} while (verifying && w->gm.gen && busy(&w->gm, s * z->seg_units + unit,
							 d->units[i]));
	} else {
		if (c->block + d->units[i] > z->seg_units) {
			c->block = 0;
			if (++c->seg == w->nsegs)
				c->seg = 0;
		}
		s = c->seg;
		unit = c->block;
		c->block += d->units[i];
	}
	seg = &w->segs[s];
	r->fd = seg->fd;
	r->slot = seg->slot;
	r->off = seg->start + unit * z->unit;
	if (verifying)
		r->block = s * z->seg_units + unit;
	if (writing)
		r->buf = atio_pool_take_len(&w->pool, r->index, s * z->seg_units + unit, r->off,
					    seg->tag, r->len);
	else if (mixing)
		r->buf = w->mix_rbuf + (size_t)r->index * w->sh->opts->bs;
	return true;
}
