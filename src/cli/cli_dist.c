/* SPDX-License-Identifier: MIT */
/*
 * --dist's value (see atio/cli/cli.h): zipf:THETA, pareto:H, normal:SD%,
 * or hot spots IO%/SIZE%[:IO%/SIZE%...]. Nothing here prints.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "atio/cli/cli.h"
#include "atio/base/error.h"

/* Every error here is bad usage. */
#define USAGE(...)     atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

/* Sums of percentages are compared with this slack, for decimals such as 33.3. */
#define SLACK          1e-9

/*
 * A plain decimal number at *@p (digits and one point, as --rate takes
 * them): its value into *@v and *@p past it. False when there is none.
 */
static bool number(const char **p, double *v)
{
	const char *s = *p;
	bool digit = false, point = false;
	char *end;

	for (; (**p >= '0' && **p <= '9') || (**p == '.' && !point); (*p)++) {
		if (**p == '.')
			point = true;
		else
			digit = true;
	}
	if (!digit)
		return false;
	*v = strtod(s, &end);
	return end == *p;
}

/* The one number after "name:", with @unit ("%") allowed after it. */
static int one_number(const char *arg, const char *p, const char *unit, const char *what,
		      double *v, struct atio_error *e)
{
	if (*p == '-')
		return USAGE("--dist %s: %s must be more than 0", arg, what);
	if (!number(&p, v) || (*p && strcmp(p, unit)))
		return USAGE("--dist %s: %s is not a number (e.g. --dist zipf:1.2, pareto:0.8, "
			     "normal:10%%)", arg, what);
	return 0;
}

/*
 * The hot spots: I/O share / size share pairs, from the start of the
 * share. Shares of the I/Os and of the size add up to 100 at most; when
 * both are below 100 the rest of the I/Os go to the rest of the share, one
 * more zone; when only the I/Os fall short the rest of them has nowhere to
 * go; when only the size does, the rest of the share is left alone.
 */
static int zones(const char *arg, struct atio_dist_spec *d, struct atio_error *e)
{
	const char *p = arg;
	double io = 0.0, size = 0.0;

	d->kind = ATIO_DIST_ZONES;
	d->nzones = 0;
	for (;;) {
		double a, b;
		const char *at = p;

		if (d->nzones == ATIO_DIST_MAX_ZONES - 1)
			return USAGE("--dist %s: more than %u zones", arg,
				     ATIO_DIST_MAX_ZONES - 1);
		if (!number(&p, &a) || *p++ != '/' || !number(&p, &b) || (*p && *p != ':'))
			return USAGE("--dist %s: \"%.*s\" is not a zone IO%%/SIZE%% (e.g. "
				     "--dist 90/10:0/10:10/80)", arg, (int)strcspn(at, ":"), at);
		if (a > 100.0 || b > 100.0 || b <= 0.0)
			return USAGE("--dist %s: zone %.*s: %s", arg, (int)strcspn(at, ":"), at,
				     a > 100.0 ? "more than 100% of the I/Os"
				     : b > 100.0 ? "more than 100% of the share"
				     : "a zone of 0% of the share");
		io += a;
		size += b;
		if (io > 100.0 + SLACK)
			return USAGE("--dist %s: the zones' I/O shares add up to more than 100%% "
				     "(%g%%)", arg, io);
		if (size > 100.0 + SLACK)
			return USAGE("--dist %s: the zones reach past the end of the share: "
				     "their sizes add up to %g%%", arg, size);
		d->zone_io[d->nzones] = a;
		d->zone_size[d->nzones] = b;
		d->nzones++;
		if (!*p)
			break;
		p++;
	}
	if (io < 100.0 - SLACK && size >= 100.0 - SLACK)
		return USAGE("--dist %s: the zones' I/O shares add up to %g%% and their sizes "
			     "cover the whole share: the other %g%% of the I/Os have no place "
			     "to go", arg, io, 100.0 - io);
	if (io < 100.0 - SLACK) {
		d->zone_io[d->nzones] = 100.0 - io;
		d->zone_size[d->nzones] = 100.0 - size;
		d->nzones++;
	}
	return 0;
}

int atio_cli_dist(const char *arg, struct atio_dist_spec *d, struct atio_error *e)
{
	const char *colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
	double v;
	int r;

	*d = (struct atio_dist_spec){ 0 };
	/* The Cmdline and the Testcase line carry it whole (atio_opts_cmdline()). */
	if (strlen(arg) > ATIO_DIST_MAX_TEXT)
		return USAGE("--dist %.32s...: longer than %u characters", arg,
			     ATIO_DIST_MAX_TEXT);
	if (*arg >= '0' && *arg <= '9')
		return zones(arg, d, e);
	if (n == 4 && !strncmp(arg, "zipf", 4) && colon) {
		if ((r = one_number(arg, colon + 1, "", "THETA", &v, e)) != 0)
			return r;
		if (!(v > 0.0) || v > 100.0)
			return USAGE("--dist %s: THETA must be more than 0 and at most 100", arg);
		*d = (struct atio_dist_spec){ .kind = ATIO_DIST_ZIPF, .arg = v };
		return 0;
	}
	if (n == 6 && !strncmp(arg, "pareto", 6) && colon) {
		if ((r = one_number(arg, colon + 1, "", "H", &v, e)) != 0)
			return r;
		if (!(v > 0.0 && v < 1.0))
			return USAGE("--dist %s: H must be between 0 and 1 (e.g. pareto:0.8: 80%% "
				     "of the I/Os to 20%% of the blocks)", arg);
		*d = (struct atio_dist_spec){ .kind = ATIO_DIST_PARETO, .arg = v };
		return 0;
	}
	if (n == 6 && !strncmp(arg, "normal", 6) && colon) {
		if ((r = one_number(arg, colon + 1, "%", "SD%", &v, e)) != 0)
			return r;
		if (!(v > 0.0) || v > 100.0)
			return USAGE("--dist %s: the deviation must be more than 0%% and at most "
				     "100%% of the share", arg);
		*d = (struct atio_dist_spec){ .kind = ATIO_DIST_NORMAL, .arg = v };
		return 0;
	}
	return USAGE("--dist %s: unknown distribution \"%.*s\" (zipf:THETA, pareto:H, "
		     "normal:SD%%, or hot spots IO%%/SIZE%%:..., e.g. 90/10)", arg, (int)n, arg);
}
