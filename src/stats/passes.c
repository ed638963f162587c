/* SPDX-License-Identifier: MIT */
/* --loops: a thread's passes and their merge (atio/stats/passes.h). */
#include <errno.h>
#include <stdlib.h>

#include "atio/base/clock.h"
#include "atio/stats/passes.h"

const char *atio_end_name(enum atio_end end)
{
	switch (end) {
	case ATIO_END_SIZE:
		return "size";
	case ATIO_END_LOOPS:
		return "loops";
	default:
		return "time";
	}
}

int atio_pass_rec_init(struct atio_pass_rec *p, uint64_t len)
{
	*p = (struct atio_pass_rec){ .len = len, .left = len };
	/* A pass is a record: the series' own length means nothing here. */
	atio_ival_series_init(&p->s, 0, false);
	p->h = malloc(sizeof(*p->h));
	if (!p->h)
		return -ENOMEM;
	atio_hist_init(p->h);
	return 0;
}

void atio_pass_rec_start(struct atio_pass_rec *p, const struct atio_stats *st, uint64_t t)
{
	p->start = t;
	p->left = p->len;
	p->ops = st->ops;
	p->bytes = st->bytes;
	p->syncs = st->syncs;
	atio_hist_init(p->h);
}

void atio_pass_rec_close(struct atio_pass_rec *p, const struct atio_stats *st, uint64_t t,
			 bool whole)
{
	struct atio_ival iv = {
		.dur_ns = atio_ticks_to_ns(t - p->start),
		.ops = { st->ops - p->ops }, .bytes = { st->bytes - p->bytes },
		.syncs = st->syncs - p->syncs, .docs = whole,
	};
	struct atio_hist *h[ATIO_DIRS] = { p->h, NULL };

	/* Without memory for the record the series is partial, and says so. */
	if (atio_ival_append(&p->s, &iv, h))
		p->s.nomem = true;
	atio_pass_rec_start(p, st, t);
}

void atio_pass_rec_finish(struct atio_pass_rec *p, const struct atio_stats *st, uint64_t t)
{
	if (p->h && st->ops > p->ops)
		atio_pass_rec_close(p, st, t, false);
}

void atio_pass_rec_free(struct atio_pass_rec *p)
{
	free(p->h);
	p->h = NULL;
	atio_ival_series_free(&p->s);
}

int atio_passes_merge(struct atio_ival_series *out, struct atio_ival_series *const *in,
		      unsigned n, enum atio_ival_unit unit)
{
	struct atio_hist *h[ATIO_DIRS] = { malloc(sizeof(struct atio_hist)), NULL };
	size_t count = 0;
	int ret = 0;

	atio_ival_series_init(out, 0, false);
	if (!h[0])
		return -ENOMEM;
	for (unsigned t = 0; t < n; t++) {
		atio_ival_rates(in[t], unit);
		if (atio_ival_count(in[t]) > count)
			count = atio_ival_count(in[t]);
		out->nomem |= in[t]->nomem;
	}
	for (size_t i = 0; i < count && !ret; i++) {
		struct atio_ival iv = { 0 };

		atio_hist_init(h[0]);
		for (unsigned t = 0; t < n; t++) {
			const struct atio_ival *x;

			if (i >= atio_ival_count(in[t]))
				continue;
			x = atio_ival_get(in[t], i);
			if (x->dur_ns > iv.dur_ns)
				iv.dur_ns = x->dur_ns;
			iv.ops[0] += x->ops[0];
			iv.bytes[0] += x->bytes[0];
			iv.syncs += x->syncs;
			iv.docs += x->docs;
			iv.value += x->value;
			iv.mbs += x->mbs;
			iv.iops += x->iops;
			iv.syncs_per_sec += x->syncs_per_sec;
			atio_ival_hist_add(h[0], in[t], x, ATIO_DIRS);
		}
		ret = atio_ival_append(out, &iv, h);
	}
	free(h[0]);
	return ret;
}
