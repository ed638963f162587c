/* SPDX-License-Identifier: MIT */
/* --percentiles LIST and --csv FILE: what the output holds (see atio/cli/cli.h). Nothing here prints. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "atio/cli/cli.h"
#include "atio/base/error.h"

#define USAGE(...)     atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)
#define POINT_MAX      24             /* characters of one point, "99.9999" and room */

/*
 * See cli.h. Each point is judged as typed, so that the message quotes it:
 * empty (",," or a comma at an end), not a plain decimal ("abc", "1e2"),
 * 0 or below, 100 or above (p0 and p100 are min and max, printed anyway),
 * or not above the point before it (a duplicate, or out of order: the
 * points print in the order given, and a list that goes back is a slip).
 */
/* The digits of plain decimal @s after its leading zeros, the point not counted. */
static unsigned significant_digits(const char *s)
{
	bool lead = true;
	unsigned n = 0;

	for (; *s; s++) {
		if (*s == '.' || (lead && *s == '0'))
			continue;
		lead = false;
		n++;
	}
	return n;
}

int atio_cli_percentiles(const char *arg, struct atio_opts *o, struct atio_error *e)
{
	const char *p = arg;
	unsigned n = 0;

	if (!*arg)
		return USAGE("--percentiles: the list is empty (give e.g. 50,99,99.9)");
	for (;;) {
		size_t len = strcspn(p, ",");
		char point[POINT_MAX + 1];
		double v;

		if (len == 0)
			return USAGE("--percentiles %s: an empty point (a comma too many)", arg);
		if (len > POINT_MAX)
			return USAGE("--percentiles %s: %.*s...: too long for a percentile", arg,
				     POINT_MAX, p);
		memcpy(point, p, len);
		point[len] = '\0';
		if (!atio_cli_plain_decimal(point))
			return USAGE("--percentiles %s: %s: not a percentile (plain digits, e.g. "
				     "99.9)", arg, point);
		/* Named by up to 10 significant digits (p99.99999999): no more, no two alike. */
		if (significant_digits(point) > 10)
			return USAGE("--percentiles %s: %s: more than 10 significant digits", arg,
				     point);
		v = strtod(point, NULL);
		if (!(v > 0.0) || !(v < 100.0))
			return USAGE("--percentiles %s: %s: a percentile is above 0 and below 100 "
				     "(min and max are printed anyway)", arg, point);
		if (n && !(v > o->pct[n - 1]))
			return USAGE("--percentiles %s: %s: %s; give the points once each, in "
				     "ascending order", arg, point,
				     v == o->pct[n - 1] ? "given twice" : "below the point before it");
		if (n == ATIO_PCT_MAX)
			return USAGE("--percentiles %s: more than %u points", arg, ATIO_PCT_MAX);
		o->pct[n++] = v;
		p += len;
		if (!*p)
			break;
		p++;
	}
	o->npct = n;
	o->pct_text = arg;
	return 0;
}

/* See cli.h. */
int atio_cli_csv(const struct atio_opts *o, struct atio_error *e)
{
	const char *other = o->settings_only ? "-a" : o->prepare ? "--prepare"
		: o->check ? "--check" : NULL;

	if (!o->csv)
		return 0;
	if (other)
		return USAGE("--csv %s with %s: %s measures no run to write", o->csv, other, other);
	if (o->json && (strcmp(o->csv, "-") == 0 || strcmp(o->csv, "stdout") == 0))
		return USAGE("--csv %s with --json: both would be on stdout; give --csv a file",
			     o->csv);
	return 0;
}
