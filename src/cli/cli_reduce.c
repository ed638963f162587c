/* SPDX-License-Identifier: MIT */
/*
 * --compress, --dedup and --dedup-unit: reducible data
 * (atio/data/reduce.h), read and judged. Nothing here prints.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/units.h"
#include "atio/data/reduce.h"
#include "cli_parse.h"
#include "atio/cli/cli.h"

#define RATIO_MAX_TEXT 16          /* characters of a ratio */
#define DEDUP_MAX 1000000.0        /* one unique unit in a million */

/*
 * A ratio in plain digits with at most one point, 1 to @max: as for
 * --rate, strtod's other forms ("1e3", "inf") are more likely typing
 * errors than ratios.
 */
static int ratio(const char *opt, const char *arg, double max, double *out,
		 struct atio_error *e)
{
	double v;

	if (!atio_cli_plain_decimal(arg) || strlen(arg) > RATIO_MAX_TEXT)
		return USAGE("%s %s: not a ratio (give it in plain digits, e.g. %s 2 or %s 2.5)",
			     opt, arg, opt, opt);
	v = strtod(arg, NULL);
	if (v < 1.0)
		return USAGE("%s %s: a ratio below 1 (1 is data that does not reduce)", opt, arg);
	if (v > max)
		return USAGE("%s %s: at most %g%s", opt, arg, max, max == ATIO_REDUCE_MAX_COMPRESS
			     ? ", where every 512-byte sector is its 56-byte stamp and zeros" : "");
	*out = v;
	return 0;
}

/* See cli_parse.h. */
int atio_cli_reduce(int id, const char *arg, struct atio_opts *o, struct atio_error *e)
{
	int r;

	switch (id) {
	case OPT_COMPRESS:
		o->compress_text = arg;
		return ratio("--compress", arg, ATIO_REDUCE_MAX_COMPRESS, &o->compress, e);
	case OPT_DEDUP:
		o->dedup_text = arg;
		return ratio("--dedup", arg, DEDUP_MAX, &o->dedup, e);
	default:
		r = atio_parse_size(arg, &o->dedup_unit);
		if (r || !o->dedup_unit || o->dedup_unit % ATIO_MIN_BS)
			return USAGE("--dedup-unit %s: %s", arg, r == -ERANGE ? "too large"
				     : r == -EINVAL ? "not a size (a number with an optional K, "
				       "M, G or T)" : "must be a whole, positive multiple of 512");
		return 0;
	}
}

/* See cli_parse.h. */
int atio_cli_reduce_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e)
{
	const char *opt = st->seen[OPT_COMPRESS] ? "--compress" : st->seen[OPT_DEDUP] ? "--dedup"
		: "--dedup-unit";
	const char *val = st->given[st->seen[OPT_COMPRESS] ? OPT_COMPRESS : st->seen[OPT_DEDUP]
				    ? OPT_DEDUP : OPT_DEDUP_UNIT];
	char a[24];

	if (!st->seen[OPT_COMPRESS] && !st->seen[OPT_DEDUP] && !st->seen[OPT_DEDUP_UNIT])
		return 0;
	if (st->seen[OPT_DEDUP_UNIT] && !st->seen[OPT_DEDUP])
		return USAGE("--dedup-unit %s: the unit of --dedup: give --dedup too",
			     st->given[OPT_DEDUP_UNIT]);
	if (!atio_mode_writes(o->mode) || o->check || o->prepare)
		return USAGE("%s %s: it shapes the data a write test writes; %s", opt, val,
			     o->check ? "--check reads the data as it is"
			     : o->prepare ? "--prepare's fill is incompressible and unique: give "
			       "it to the write test that follows"
			     : "--read writes none");
	if (o->verify && (o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC))
		return USAGE("%s %s with --verify: the journal of --%s --verify names each "
			     "write by its generation, which reducible data does not carry", opt,
			     val, atio_mode_name(o->mode));
	if (o->dedup_unit > o->bs) {
		atio_format_size(a, sizeof(a), o->bs);
		return USAGE("--dedup-unit %s: larger than the block (-s %s)",
			     st->given[OPT_DEDUP_UNIT], a);
	}
	/* 4 KiB, or the block when smaller. */
	if (!o->dedup_unit)
		o->dedup_unit = o->bs < ATIO_REDUCE_UNIT ? o->bs : ATIO_REDUCE_UNIT;
	return 0;
}
