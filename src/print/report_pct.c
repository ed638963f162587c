/* SPDX-License-Identifier: MIT */
/* Percentiles, standard deviation and distribution of a latency: see atio/print/pct.h. */
#include <inttypes.h>
#include <stdbool.h>

#include "atio/print/pct.h"

const double atio_pct_fio[ATIO_PCT_FIO] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

/* The points of the text when --percentiles is not given. */
static const double default_text[] = { 50, 90, 99, 99.9 };

#define US(ns) ((double)(ns) / 1000.0)

void atio_pct_text(FILE *f, const struct atio_hist *h, const struct atio_opts *o)
{
	const double *p = o && o->npct ? o->pct : default_text;
	unsigned n = o && o->npct ? o->npct : sizeof(default_text) / sizeof(default_text[0]);

	if (h->count == 0)
		return;
	fprintf(f, "min %.2f, mean %.2f", US(h->min), atio_hist_mean(h) / 1000.0);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, ", p%.10g %.2f", p[i], US(atio_hist_percentile(h, p[i])));
	fprintf(f, ", max %.2f, stdev %.2f", US(h->max), atio_hist_stdev(h) / 1000.0);
}

void atio_pct_json(struct atio_json *j, const struct atio_hist *h, const struct atio_opts *o)
{
	unsigned nu = o ? o->npct : 0, a = 0, b = 0;
	bool empty = h->count == 0;
	char key[32];

	atio_json_double(j, "stdev", empty ? 0.0 : atio_hist_stdev(h));
	atio_json_object_begin(j, "percentiles");
	/* Both lists ascend: merge them, each point once. */
	while (a < ATIO_PCT_FIO || b < nu) {
		double p;

		if (b == nu || (a < ATIO_PCT_FIO && atio_pct_fio[a] < o->pct[b]))
			p = atio_pct_fio[a++];
		else if (a == ATIO_PCT_FIO || o->pct[b] < atio_pct_fio[a])
			p = o->pct[b++];
		else {                     /* in both */
			p = atio_pct_fio[a++];
			b++;
		}
		snprintf(key, sizeof(key), "%.10g", p);
		atio_json_uint(j, key, empty ? 0 : atio_hist_percentile(h, p));
	}
	atio_json_object_end(j);
}

void atio_pct_dist_text(FILE *f, const char *name, const struct atio_hist *h)
{
	static const unsigned mant[] = { 1, 2, 5 };
	uint64_t below = 0, step = 1000;   /* ns: 1 usec */
	bool first = true;

	if (h->count == 0)
		return;
	fprintf(f, "%s distribution (usec): ", name);
	for (unsigned m = 0; below < h->count; m = (m + 1) % 3) {
		uint64_t limit = step * mant[m], upto;

		if (m == 2)
			step *= 10;
		upto = atio_hist_count_upto(h, limit);
		if (upto == 0 && limit < h->min)
			continue;
		fprintf(f, "%s%" PRIu64 "=%.2f%%", first ? "" : ", ", limit / 1000,
			(double)(upto - below) * 100.0 / (double)h->count);
		below = upto;
		first = false;
		if (limit > UINT64_MAX / 10)
			break;
	}
	putc('\n', f);
}

void atio_pct_settings_json(struct atio_json *j, const struct atio_opts *o)
{
	if (!o->npct) {
		atio_json_null(j, "percentiles");
		return;
	}
	atio_json_array_begin(j, "percentiles");
	for (unsigned i = 0; i < o->npct; i++)
		atio_json_double(j, NULL, o->pct[i]);
	atio_json_array_end(j);
}
