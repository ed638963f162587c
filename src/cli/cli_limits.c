/* SPDX-License-Identifier: MIT */
/*
 * --size and --loops: their values (atio/cli/cli.h) and how they sit with
 * the other options (cli_parse.h). Nothing here prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "atio/cli/cli.h"
#include "cli_parse.h"

int atio_cli_size(const char *arg, uint64_t *size, struct atio_error *e)
{
	int r = atio_parse_size(arg, size);

	if (arg[0] == '-')
		return USAGE("--size %s: a size cannot be negative", arg);
	if (r == -ERANGE)
		return USAGE("--size %s: too large", arg);
	if (r == -EDOM)
		return USAGE("--size %s: not a whole number of bytes", arg);
	if (r)
		return USAGE("--size %s: not a size (a number with an optional K, M, G or T)",
			     arg);
	if (!*size)
		return USAGE("--size %s: each thread must move more than 0 bytes", arg);
	return 0;
}

int atio_cli_loops(const char *arg, uint64_t *loops, struct atio_error *e)
{
	int r = atio_parse_uint(arg, 1, ATIO_MAX_LOOPS, loops);

	if (r == -EINVAL)
		return USAGE("--loops %s: the number of passes must be a whole number", arg);
	if (r)
		return USAGE("--loops %s: the number of passes must be between 1 and %u", arg,
			     ATIO_MAX_LOOPS);
	return 0;
}

/*
 * --size is a whole number of blocks, so that every thread moves exactly
 * what it says: a remainder would be rounded one way or the other in
 * silence.
 */
static int check_size(const struct atio_opts *o, const char *arg, struct atio_error *e)
{
	char bs[24], lo[24], hi[24];

	atio_format_size(bs, sizeof(bs), o->bs);
	if (o->size < o->bs)
		return USAGE("--size %s: less than one -s %s block: give --size %s or more", arg,
			     bs, bs);
	if (o->size % o->bs == 0)
		return 0;
	atio_format_size(lo, sizeof(lo), o->size / o->bs * o->bs);
	atio_format_size(hi, sizeof(hi), (o->size / o->bs + 1) * o->bs);
	return USAGE("--size %s: not a whole number of -s %s blocks: give --size %s or %s", arg,
		     bs, lo, hi);
}

int atio_cli_limits_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e)
{
	const char *size = st->given[OPT_SIZE], *loops = st->given[OPT_LOOPS];
	char opt[64];
	int r;

	if (!size && !loops)
		return 0;
	snprintf(opt, sizeof(opt), "%s%s%s%s%s", size ? "--size " : "", size ? size : "",
		 size && loops ? " " : "", loops ? "--loops " : "", loops ? loops : "");
	if (o->prepare || o->check)
		return USAGE("%s: %s measures nothing: leave them out", opt,
			     o->prepare ? "--prepare" : "--check");
	if (loops && o->mode == ATIO_MODE_EXPAND)
		return USAGE("--loops %s: --expand's files grow from zero and are emptied "
			     "again: they have no fixed share to pass over (give --size or -t)",
			     loops);
	/* Their loop copies count one I/O of one size per request. */
	if (o->mode == ATIO_MODE_REWRITE || o->bs_text)
		return USAGE("%s: not with %s (give -t)", opt,
			     o->mode == ATIO_MODE_REWRITE ? "--rewrite" : "an -s mix");
	if (size && (r = check_size(o, size, e)) != 0)
		return r;
	/* -t, when given, stays a limit; else only --size and --loops end the run. */
	if (!st->seen['t'])
		o->time_ns = 0;
	return 0;
}
