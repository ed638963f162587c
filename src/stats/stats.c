/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "atio/stats/hist.h"
#include "atio/stats/stats.h"

/*
 * Zero every counter and empty the histograms. The histograms need
 * atio_hist_init() on top of the memset because an empty histogram's
 * minimum is UINT64_MAX, not 0.
 */
void atio_stats_init(struct atio_stats *s)
{
	memset(s, 0, sizeof(*s));
	atio_hist_init(&s->lat);
	atio_hist_init(&s->sync_lat);
	atio_hist_init(&s->service);
}

/*
 * Add @src into @dst. Operation, byte and sync counts add, and so do the
 * CPU times, since every thread spends its own CPU. The threads run side by
 * side, so the wall-clock time of the whole is the longest of them rather
 * than their sum. Only called after the workers are joined, so plain reads
 * of the counters they stored atomically are safe here.
 */
void atio_stats_merge(struct atio_stats *dst, const struct atio_stats *src)
{
	dst->ops += src->ops;
	dst->bytes += src->bytes;
	dst->syncs += src->syncs;
	dst->truncations += src->truncations;
	dst->cpu_user_ns += src->cpu_user_ns;
	dst->cpu_sys_ns += src->cpu_sys_ns;
	dst->ctx_vol += src->ctx_vol;
	dst->ctx_invol += src->ctx_invol;
	if (src->elapsed_ns > dst->elapsed_ns)
		dst->elapsed_ns = src->elapsed_ns;
	atio_hist_merge(&dst->lat, &src->lat);
	atio_hist_merge(&dst->sync_lat, &src->sync_lat);
	atio_hist_merge(&dst->service, &src->service);
}

void atio_dir_stats_init(struct atio_dir_stats *d)
{
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		d[i].ops = d[i].bytes = 0;
		atio_hist_init(&d[i].lat);
	}
}

void atio_dir_stats_merge(struct atio_dir_stats *dst, const struct atio_dir_stats *src)
{
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		dst[i].ops += src[i].ops;
		dst[i].bytes += src[i].bytes;
		atio_hist_merge(&dst[i].lat, &src[i].lat);
	}
}

void atio_dir_stats_fold(struct atio_stats *s, const struct atio_dir_stats *d)
{
	for (unsigned i = 0; i < ATIO_DIRS; i++)
		atio_hist_merge(&s->lat, &d[i].lat);
}
