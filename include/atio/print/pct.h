/* SPDX-License-Identifier: MIT */
#ifndef ATIO_PCT_H
#define ATIO_PCT_H

/*
 * Latency as fio users read it, from a histogram (atio/stats/hist.h, the
 * one place percentiles are computed): the figures of a latency line with
 * the points of --percentiles, the standard deviation, fio's 17 points in
 * JSON, and the distribution of the latencies over 1-2-5 steps. Nothing
 * written here holds the result line's word.
 */

#include <stdio.h>

#include "atio/base/json.h"
#include "atio/base/opts.h"
#include "atio/stats/hist.h"

/* fio's percentiles: 1, 5, 10, 20, ... 99.95, 99.99. */
#define ATIO_PCT_FIO 17u
extern const double atio_pct_fio[ATIO_PCT_FIO];

/*
 * "min A, mean B, p50 C, p90 D, p99 E, p99.9 F, max G, stdev H" in
 * microseconds, without a newline: the points of @o's --percentiles, or
 * those when @o is NULL or has none. Nothing for an empty histogram.
 */
void atio_pct_text(FILE *f, const struct atio_hist *h, const struct atio_opts *o);

/*
 * Into the JSON object being written for @h: "stdev" (ns) and a
 * "percentiles" object, fio's 17 points and those of @o's --percentiles
 * (@o may be NULL), ascending, keyed by the point as a string ("99.9"),
 * in nanoseconds. Zeros for an empty histogram.
 */
void atio_pct_json(struct atio_json *j, const struct atio_hist *h, const struct atio_opts *o);

/*
 * "NAME distribution (usec): 2=0.41%, 5=8.73%, ...\n": the share of the
 * I/Os in each step of 1, 2 and 5 times a power of ten microseconds, from
 * the one above the step before (the first from 0) to the step; from the
 * step that holds the minimum to the one that holds the maximum. A value
 * within 0.39% of a step may be counted in the step beside it. Nothing for
 * an empty histogram.
 */
void atio_pct_dist_text(FILE *f, const char *name, const struct atio_hist *h);

/* The settings' "percentiles": @o's --percentiles as numbers, or null. */
void atio_pct_settings_json(struct atio_json *j, const struct atio_opts *o);

#endif
