/* SPDX-License-Identifier: MIT */
/* -s with a mix of sizes: the draw and the places (atio/run/sizes.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

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

bool atio_sizes_busy(const struct atio_genmap *m, uint64_t i, uint64_t n)
{
	for (uint64_t k = 0; k < n; k++)
		if (atio_genmap_busy(m, i + k))
			return true;
	return false;
}
