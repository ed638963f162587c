/* SPDX-License-Identifier: MIT */
/*
 * Intervals and stalls: the recorder a worker closes intervals with, the
 * series it fills, their merge across threads or documents, and the
 * summary of a series (include/atio/stats/interval.h explains the design).
 * Rendering is in interval_report.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atio/base/clock.h"
#include "atio/stats/interval.h"

/*
 * Room for @more elements at the end of @a, growing it by a copy that is
 * published with a release store; the old array stays readable until
 * array_free(). Returns the first free element, or NULL without memory.
 */
static void *array_room(struct atio_ival_array *a, size_t more)
{
	size_t cap = a->cap ? a->cap : 16;
	void *p;

	if (a->n + more <= a->cap)
		return (char *)a->p + a->n * a->size;
	while (cap < a->n + more)
		cap *= 2;
	if (a->nretired == ATIO_IVAL_MAX_RETIRED)
		return NULL;
	p = malloc(cap * a->size);
	if (!p)
		return NULL;
	if (a->n)
		memcpy(p, a->p, a->n * a->size);
	if (a->p)
		a->retired[a->nretired++] = a->p;
	__atomic_store_n(&a->p, p, __ATOMIC_RELEASE);
	a->cap = cap;
	return (char *)p + a->n * a->size;
}

static void array_free(struct atio_ival_array *a)
{
	for (unsigned i = 0; i < a->nretired; i++)
		free(a->retired[i]);
	free(a->p);
	a->p = NULL;
	a->n = a->cap = 0;
	a->nretired = 0;
}

static void *array_at(const struct atio_ival_array *a, size_t i)
{
	return (char *)__atomic_load_n(&a->p, __ATOMIC_ACQUIRE) + i * a->size;
}

void atio_ival_series_init(struct atio_ival_series *s, uint64_t interval_ns, bool mixed)
{
	memset(s, 0, sizeof(*s));
	s->interval_ns = interval_ns;
	s->mixed = mixed;
	s->iv.size = sizeof(struct atio_ival);
	s->b.size = sizeof(struct atio_ival_bucket);
	s->gap.size = sizeof(struct atio_ival_gap);
}

void atio_ival_series_free(struct atio_ival_series *s)
{
	array_free(&s->iv);
	array_free(&s->b);
	array_free(&s->gap);
}

const struct atio_ival *atio_ival_get(const struct atio_ival_series *s, size_t i)
{
	return array_at(&s->iv, i);
}

/*
 * Append a record: the counters of @iv and the non-empty buckets of each
 * direction's dense histogram, walked from the bucket of its minimum to
 * that of its maximum only. The buckets are written before the record, and
 * the record before the caller publishes the count.
 */
int atio_ival_append(struct atio_ival_series *s, const struct atio_ival *iv,
		     struct atio_hist *const h[ATIO_DIRS])
{
	unsigned nd = s->mixed ? ATIO_DIRS : 1;
	struct atio_ival rec = *iv, *slot;

	for (unsigned d = 0; d < ATIO_DIRS; d++)
		memset(&rec.h[d], 0, sizeof(rec.h[d]));
	for (unsigned d = 0; d < nd; d++) {
		const struct atio_hist *x = h[d];
		struct atio_ival_hist *y = &rec.h[d];
		unsigned lo, hi;

		y->first = s->b.n;
		y->count = x->count;
		y->sum = x->sum;
		y->min = x->min;
		y->max = x->max;
		if (!x->count)
			continue;
		lo = atio_hist_index(x->min);
		hi = atio_hist_index(x->max);
		for (unsigned i = lo; i <= hi; i++) {
			struct atio_ival_bucket *b;

			if (!x->bucket[i])
				continue;
			b = array_room(&s->b, 1);
			if (!b)
				return -ENOMEM;
			b->index = i;
			b->count = x->bucket[i];
			s->b.n++;
			y->n++;
		}
	}
	slot = array_room(&s->iv, 1);
	if (!slot)
		return -ENOMEM;
	*slot = rec;
	s->iv.n++;
	return 0;
}

void atio_ival_hist_add(struct atio_hist *h, const struct atio_ival_series *s,
			const struct atio_ival *iv, unsigned dir)
{
	unsigned nd = s->mixed ? ATIO_DIRS : 1;

	for (unsigned d = 0; d < nd; d++) {
		const struct atio_ival_hist *y = &iv->h[d];
		const struct atio_ival_bucket *b;

		if ((dir != ATIO_DIRS && dir != d) || !y->count)
			continue;
		/* One bucket at a time is atio_hist_merge() of a histogram holding it. */
		h->count += y->count;
		h->sum += y->sum;
		if (y->min < h->min)
			h->min = y->min;
		if (y->max > h->max)
			h->max = y->max;
		b = array_at(&s->b, y->first);
		for (size_t i = 0; i < y->n; i++)
			h->bucket[b[i].index] += b[i].count;
	}
}

int atio_ival_add_gap(struct atio_ival_series *s, uint64_t from, uint64_t to, bool busy)
{
	struct atio_ival_gap *g = array_room(&s->gap, 1);

	if (!g)
		return -ENOMEM;
	g->from = from;
	g->to = to;
	g->busy = busy;
	s->gap.n++;
	return 0;
}

/* Room for the expected records up front: no allocation in most runs. */
static int reserve(struct atio_ival_rec *r, size_t expect)
{
	if (expect && (!array_room(&r->s.iv, expect) || !array_room(&r->s.gap, 16) ||
		       !array_room(&r->s.b, expect * 32)))
		return -ENOMEM;
	return 0;
}

int atio_ival_rec_init(struct atio_ival_rec *r, struct atio_stats *st,
		       struct atio_dir_stats *dir, uint64_t interval_ns, size_t expect)
{
	memset(r, 0, sizeof(*r));
	r->st = st;
	r->dir = dir;
	r->next = UINT64_MAX;
	atio_ival_series_init(&r->s, interval_ns, dir != NULL);
	for (unsigned d = 0; d < (dir ? ATIO_DIRS : 1u); d++) {
		r->cur[d] = malloc(sizeof(*r->cur[d]));
		if (!r->cur[d])
			return -ENOMEM;
		atio_hist_init(r->cur[d]);
	}
	return reserve(r, expect);
}

void atio_ival_rec_restart(struct atio_ival_rec *r, uint64_t interval_ns, size_t expect)
{
	bool mixed = r->s.mixed;

	atio_ival_series_free(&r->s);
	atio_ival_series_init(&r->s, interval_ns, mixed);
	r->k = 0;
	r->next = UINT64_MAX;
	r->started = false;
	__atomic_store_n(&r->closed, 0, __ATOMIC_RELEASE);
	(void)reserve(r, expect);
}

void atio_ival_rec_free(struct atio_ival_rec *r)
{
	for (unsigned d = 0; d < ATIO_DIRS; d++) {
		free(r->cur[d]);
		r->cur[d] = NULL;
	}
	atio_ival_series_free(&r->s);
}

/* Ticks @t as ns from the measured start (0 before it). */
static uint64_t rel_ns(const struct atio_ival_rec *r, uint64_t t)
{
	return t > r->base ? atio_ticks_to_ns(t - r->base) : 0;
}

/* The boundary after interval r->k (the intervals closed, kept or not). */
static void set_next(struct atio_ival_rec *r)
{
	r->next = r->base + atio_ns_to_ticks((r->k + 1) * r->s.interval_ns);
}

void atio_ival_rec_start(struct atio_ival_rec *r, uint64_t start_ns)
{
	struct timespec ts;
	uint64_t now_ns, now = atio_ticks();

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;

	r->base_ns = start_ns;
	r->base = now_ns >= start_ns ? now - atio_ns_to_ticks(now_ns - start_ns)
				     : now + atio_ns_to_ticks(start_ns - now_ns);
	r->last = r->base;
	r->gap_ticks = atio_ns_to_ticks(r->s.interval_ns / 2);
	for (unsigned d = 0; d < ATIO_DIRS; d++)
		if (r->cur[d])
			atio_hist_init(r->cur[d]);
	/* The counters were reset after the warm-up; take them as they are. */
	for (unsigned d = 0; d < ATIO_DIRS; d++) {
		r->ops[d] = r->dir ? r->dir[d].ops : d ? 0 : r->st->ops;
		r->bytes[d] = r->dir ? r->dir[d].bytes : d ? 0 : r->st->bytes;
	}
	r->syncs = r->st->syncs;
	r->k = 0;
	r->started = true;
	set_next(r);
}

/*
 * Close the current interval as one of @dur_ns: what the counters grew by
 * since the last close, and the dense histograms, which are then folded
 * into the run's (the direction's with --mix) and emptied.
 */
static void close_one(struct atio_ival_rec *r, uint64_t dur_ns)
{
	struct atio_ival iv = { .dur_ns = dur_ns, .docs = 1 };
	unsigned nd = r->dir ? ATIO_DIRS : 1;

	for (unsigned d = 0; d < nd; d++) {
		uint64_t ops = r->dir ? r->dir[d].ops : r->st->ops;
		uint64_t bytes = r->dir ? r->dir[d].bytes : r->st->bytes;

		iv.ops[d] = ops - r->ops[d];
		iv.bytes[d] = bytes - r->bytes[d];
		r->ops[d] = ops;
		r->bytes[d] = bytes;
	}
	iv.syncs = r->st->syncs - r->syncs;
	r->syncs = r->st->syncs;
	/* Without memory for the record, the run's histograms still get it all. */
	if (!r->s.nomem && atio_ival_append(&r->s, &iv, r->cur))
		r->s.nomem = true;
	r->k++;
	for (unsigned d = 0; d < nd; d++) {
		if (!r->cur[d]->count)
			continue;
		atio_hist_merge(r->dir ? &r->dir[d].lat : &r->st->lat, r->cur[d]);
		atio_hist_init(r->cur[d]);
	}
	__atomic_store_n(&r->closed, r->s.iv.n, __ATOMIC_RELEASE);
}

/* Keep the gap since the last completion (or @since) up to tick @t if long. */
static void note_gap(struct atio_ival_rec *r, uint64_t t, uint64_t since, bool busy)
{
	uint64_t from = r->last > since ? r->last : since;

	if (t > from && t - from >= r->gap_ticks &&
	    atio_ival_add_gap(&r->s, rel_ns(r, from), rel_ns(r, t), busy))
		r->s.nomem = true;
}

void atio_ival_rec_cross(struct atio_ival_rec *r, uint64_t t, uint64_t since)
{
	if (!r->started)
		return;
	note_gap(r, t, since, true);
	while (t >= r->next) {
		close_one(r, r->s.interval_ns);
		set_next(r);
	}
}

void atio_ival_rec_finish(struct atio_ival_rec *r, uint64_t end_ns, bool busy)
{
	uint64_t rel, t, k_ns;
	bool moved;

	if (!r->started)
		return;
	rel = end_ns > r->base_ns ? end_ns - r->base_ns : 0;
	t = r->base + atio_ns_to_ticks(rel);
	if (busy)
		note_gap(r, t, 0, true);
	while (t >= r->next) {
		close_one(r, r->s.interval_ns);
		set_next(r);
	}
	k_ns = r->k * r->s.interval_ns;
	moved = r->cur[0]->count || (r->cur[1] && r->cur[1]->count) ||
		r->st->syncs != r->syncs;
	if (rel > k_ns || moved)
		close_one(r, rel > k_ns ? rel - k_ns : 0);
	r->s.end_ns = rel > k_ns ? rel : k_ns;
	r->next = UINT64_MAX;
	r->started = false;
}

/*
 * Merge the overlapping spans of sorted @g[*n] in place. Spans that only
 * touch stay apart: a completion at that instant separates them.
 */
static void coalesce(struct atio_ival_gap *g, size_t *n)
{
	size_t k = 0;

	for (size_t i = 0; i < *n; i++) {
		if (k && g[i].from < g[k - 1].to) {
			if (g[i].to > g[k - 1].to)
				g[k - 1].to = g[i].to;
			g[k - 1].busy |= g[i].busy;
			continue;
		}
		g[k++] = g[i];
	}
	*n = k;
}

/*
 * A part's quiet spans: its gaps, then from its end on (nothing in
 * flight); a gap that runs to the end goes on into it, since no completion
 * came between. Caller frees.
 */
static struct atio_ival_gap *quiet_of(const struct atio_ival_series *s, size_t *n)
{
	struct atio_ival_gap *g = malloc((s->gap.n + 1) * sizeof(*g));

	if (!g)
		return NULL;
	*n = s->gap.n;
	if (*n)
		memcpy(g, s->gap.p, *n * sizeof(*g));
	coalesce(g, n);
	if (*n && g[*n - 1].to >= s->end_ns)
		g[*n - 1].to = UINT64_MAX;
	else
		g[(*n)++] = (struct atio_ival_gap){ s->end_ns, UINT64_MAX, false };
	return g;
}

/*
 * The intersection of @a[na] and @b[nb] into @out, which has room for
 * na + nb - 1 pieces (each step makes at most one and moves past a piece of
 * @a or @b); a piece is busy if either is. Returns the pieces in @out.
 */
static size_t intersect(const struct atio_ival_gap *a, size_t na, const struct atio_ival_gap *b,
			size_t nb, struct atio_ival_gap *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb) {
		uint64_t from = a[i].from > b[j].from ? a[i].from : b[j].from;
		uint64_t to = a[i].to < b[j].to ? a[i].to : b[j].to;

		if (from < to)
			out[k++] = (struct atio_ival_gap){ from, to, a[i].busy || b[j].busy };
		if (a[i].to < b[j].to)
			i++;
		else
			j++;
	}
	coalesce(out, &k);
	return k;
}

/* The stalls of the merge of @in into @out (see interval.h). */
static int merge_stalls(struct atio_ival_series *out, const struct atio_ival_series *const *in,
			unsigned n)
{
	struct atio_ival_gap *acc, *b, *tmp;
	size_t na, nb;
	int ret = 0;

	acc = quiet_of(in[0], &na);
	if (!acc)
		return -ENOMEM;
	/* The intersection can have more pieces than either side: a new array each time. */
	for (unsigned p = 1; p < n && !ret; p++) {
		b = quiet_of(in[p], &nb);
		tmp = b ? malloc((na + nb) * sizeof(*tmp)) : NULL;
		if (tmp) {
			na = intersect(acc, na, b, nb, tmp);
			free(acc);
			acc = tmp;
		} else {
			ret = -ENOMEM;
		}
		free(b);
	}
	for (size_t i = 0; i < na && !ret; i++) {
		uint64_t to = acc[i].to < out->end_ns ? acc[i].to : out->end_ns;

		if (acc[i].busy && to > acc[i].from && to - acc[i].from >= out->interval_ns)
			ret = atio_ival_add_gap(out, acc[i].from, to, true);
	}
	free(acc);
	return ret;
}

int atio_ival_merge(struct atio_ival_series *out, const struct atio_ival_series *const *in,
		    unsigned n, uint64_t end_ns, bool sum_rates)
{
	struct atio_hist *h[ATIO_DIRS] = { NULL, NULL };
	size_t count = 0;
	int ret = 0;

	out->end_ns = end_ns;
	for (unsigned p = 0; p < n; p++) {
		if (atio_ival_count(in[p]) > count)
			count = atio_ival_count(in[p]);
		out->nomem |= in[p]->nomem;
	}
	for (unsigned d = 0; d < ATIO_DIRS; d++)
		if (!(h[d] = malloc(sizeof(*h[d]))))
			ret = -ENOMEM;
	for (size_t i = 0; i < count && !ret; i++) {
		uint64_t at = i * out->interval_ns;
		struct atio_ival iv = { .dur_ns = end_ns > at ? end_ns - at : 0 };

		if (iv.dur_ns > out->interval_ns)
			iv.dur_ns = out->interval_ns;
		for (unsigned d = 0; d < ATIO_DIRS; d++)
			atio_hist_init(h[d]);
		for (unsigned p = 0; p < n; p++) {
			const struct atio_ival *x;

			if (i >= atio_ival_count(in[p]))
				continue;
			x = atio_ival_get(in[p], i);
			for (unsigned d = 0; d < ATIO_DIRS; d++) {
				iv.ops[d] += x->ops[d];
				iv.bytes[d] += x->bytes[d];
				if (out->mixed || d == 0)
					atio_ival_hist_add(h[d], in[p], x, out->mixed ? d : ATIO_DIRS);
			}
			iv.syncs += x->syncs;
			/* A merge folded in again counts the documents it holds. */
			iv.docs += x->docs ? x->docs : 1;
			if (sum_rates) {
				iv.value += x->value;
				iv.mbs += x->mbs;
				iv.iops += x->iops;
				iv.syncs_per_sec += x->syncs_per_sec;
			}
		}
		ret = atio_ival_append(out, &iv, h);
	}
	free(h[0]);
	free(h[1]);
	if (!ret && n)
		ret = merge_stalls(out, in, n);
	return ret;
}

void atio_ival_rates(struct atio_ival_series *s, enum atio_ival_unit unit)
{
	for (size_t i = 0; i < s->iv.n; i++) {
		struct atio_ival *iv = (struct atio_ival *)s->iv.p + i;
		double sec = (double)iv->dur_ns / 1e9;
		uint64_t ops = iv->ops[0] + iv->ops[1], bytes = iv->bytes[0] + iv->bytes[1];

		iv->mbs = sec > 0 ? (double)bytes / 1048576.0 / sec : 0.0;
		iv->iops = sec > 0 ? (double)ops / sec : 0.0;
		iv->syncs_per_sec = sec > 0 ? (double)iv->syncs / sec : 0.0;
		iv->value = unit == ATIO_IVAL_MBS ? iv->mbs
			: unit == ATIO_IVAL_IOPS ? iv->iops : iv->syncs_per_sec;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void atio_ival_summarise(const struct atio_ival_series *s, struct atio_ival_summary *sum)
{
	double *v = malloc((s->iv.n ? s->iv.n : 1) * sizeof(*v));
	const struct atio_ival_gap *g = s->gap.p;

	memset(sum, 0, sizeof(*sum));
	sum->intervals = s->iv.n;
	for (size_t i = 0; v && i < s->iv.n; i++) {
		const struct atio_ival *iv = (const struct atio_ival *)s->iv.p + i;

		/* A last interval shorter than half of one says little about the load. */
		if (iv->dur_ns * 2 >= s->interval_ns)
			v[sum->full++] = iv->value;
	}
	if (v && sum->full) {
		qsort(v, sum->full, sizeof(*v), cmp_double);
		sum->rate_min = v[0];
		sum->rate_max = v[sum->full - 1];
		sum->rate_median = sum->full % 2 ? v[sum->full / 2]
			: (v[sum->full / 2 - 1] + v[sum->full / 2]) / 2.0;
	}
	free(v);
	sum->stalls = s->gap.n;
	for (size_t i = 0; i < s->gap.n; i++)
		if (g[i].to - g[i].from > sum->longest_ns) {
			sum->longest_ns = g[i].to - g[i].from;
			sum->longest_at_ns = g[i].from;
		}
}

bool atio_ival_stalled(const struct atio_ival_series *s, size_t i)
{
	const struct atio_ival *iv = (const struct atio_ival *)s->iv.p + i;
	const struct atio_ival_gap *g = s->gap.p;
	uint64_t from = i * s->interval_ns, to = from + iv->dur_ns;

	if (iv->ops[0] + iv->ops[1] + iv->syncs)
		return false;
	for (size_t k = 0; k < s->gap.n; k++) {
		uint64_t a = g[k].from > from ? g[k].from : from;
		uint64_t b = g[k].to < to ? g[k].to : to;

		if (b > a && (b - a) * 2 >= iv->dur_ns)
			return true;
	}
	return false;
}
