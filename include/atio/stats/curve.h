/* SPDX-License-Identifier: MIT */
#ifndef ATIO_STATS_CURVE_H
#define ATIO_STATS_CURVE_H

/*
 * What a curve of measured points says (src/stats/curve.c): the points in
 * the order of their load (a sweep's axis), y their value (IOPS or MB/s),
 * lat a latency percentile of each. Each finder returns the index of the
 * point it chose, or -1 when none fits its rule.
 */

#include <stddef.h>

/* The peak: the highest value (the first of equals). -1 for no points. */
int atio_curve_peak(const double *y, size_t n);

/*
 * The knee: the smallest load, the first point, whose value reaches @pct
 * percent of the peak (0 < pct <= 100).
 */
int atio_curve_knee(const double *y, size_t n, double pct);

/*
 * Kneedle (Satopaa, Albrecht, Irwin and Raghavan, 2011), offline, for a
 * rising curve that bends down: the points spaced evenly on x (a sweep's
 * points are its steps), x and y scaled to [0, 1], the knee is the point
 * farthest above the diagonal from the first point to the last, where the
 * difference curve y - x is at its maximum. Only the points up to the peak
 * are judged (what falls after it is no knee of the rise). -1 when no
 * point lies above the diagonal by more than @min_diff (a straight or
 * upward-bending curve has no knee), or fewer than 3 points rise.
 */
int atio_curve_kneedle(const double *y, size_t n, double min_diff);

/*
 * The target: of the points whose latency @lat stays within @limit, the
 * one of the highest value. -1 when none does.
 */
int atio_curve_target(const double *y, const double *lat, size_t n, double limit);

/*
 * A curve's capped step (atio sweep --curve): its aim, @pct percent of
 * the maximum @max, rounded up as vdbench does, to a whole number of the
 * unit, or to hundredths below 10 so that a slow storage's steps stay
 * apart; never 0 (0.01 at least). 0 for a @max or @pct that is not > 0.
 */
double atio_curve_aim(double max, double pct);

/*
 * The share of its aim a capped step must reach to be held: the same 99%
 * below which a --rate run says the storage fell behind.
 */
#define ATIO_CURVE_HELD 0.99

/* Whether a step aiming at @aim held it with @achieved (both in one unit). */
int atio_curve_held(double aim, double achieved);

/*
 * vdbench's stopcurve: whether a step whose latency percentile is @lat
 * ends the curve under a limit of @limit (it exceeds it; equal stays).
 */
int atio_curve_stops(double lat, double limit);

#endif
