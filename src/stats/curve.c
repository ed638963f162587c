/* SPDX-License-Identifier: MIT */
/* The peak, the knee, Kneedle's knee and a latency target of a curve (atio/stats/curve.h). */
#include <math.h>

#include "atio/stats/curve.h"

int atio_curve_peak(const double *y, size_t n)
{
	int best = -1;

	for (size_t i = 0; i < n; i++)
		if (best < 0 || y[i] > y[best])
			best = (int)i;
	return best;
}

int atio_curve_knee(const double *y, size_t n, double pct)
{
	int peak = atio_curve_peak(y, n);

	if (peak < 0 || !(pct > 0 && pct <= 100))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (y[i] >= y[peak] * pct / 100.0)
			return (int)i;
	return peak;
}

int atio_curve_kneedle(const double *y, size_t n, double min_diff)
{
	int peak = atio_curve_peak(y, n), best = -1;
	double lo, span, most = min_diff;

	if (peak < 2)
		return -1;
	lo = y[0];
	for (int i = 1; i <= peak; i++)
		if (y[i] < lo)
			lo = y[i];
	span = y[peak] - lo;
	if (!(span > 0))
		return -1;
	/* x: the step, 0 at the first point and 1 at the peak. */
	for (int i = 1; i < peak; i++) {
		double diff = (y[i] - lo) / span - (double)i / peak;

		if (diff > most) {
			most = diff;
			best = i;
		}
	}
	return best;
}

int atio_curve_target(const double *y, const double *lat, size_t n, double limit)
{
	int best = -1;

	for (size_t i = 0; i < n; i++)
		if (lat[i] <= limit && (best < 0 || y[i] > y[best]))
			best = (int)i;
	return best;
}

/*
 * The product is taken back by a billionth before rounding up, so that a
 * figure the arithmetic lands a hair above (0.1 * 3 = 0.30000000000000004)
 * is not rounded to the next step.
 */
double atio_curve_aim(double max, double pct)
{
	double x, aim;

	if (!(max > 0) || !(pct > 0) || !isfinite(max))
		return 0;
	x = max * pct / 100.0;
	aim = x >= 10 ? ceil(x - 1e-9) : ceil(x * 100 - 1e-9) / 100;
	return aim > 0.01 ? aim : 0.01;
}

int atio_curve_held(double aim, double achieved)
{
	return achieved >= aim * ATIO_CURVE_HELD;
}

int atio_curve_stops(double lat, double limit)
{
	return lat > limit;
}
