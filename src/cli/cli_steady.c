/* SPDX-License-Identifier: MIT */
/*
 * --steady, --round, --rounds and --precondition: their values and how
 * they sit with the other options (cli_parse.h). SNIA's rules themselves
 * are atio/stats/steady.h's. Nothing here prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "atio/cli/cli.h"
#include "atio/stats/steady.h"
#include "cli_parse.h"

/* The precondition's writes (SNIA's workload-independent preconditioning). */
#define PRECONDITION_BS (128u << 10)

int atio_cli_steady(int id, const char *arg, struct atio_opts *o, struct atio_error *e)
{
	uint64_t v;
	int r;

	switch (id) {
	case OPT_STEADY:
		o->steady = !strcmp(arg, "iops") ? ATIO_STEADY_IOPS
			: !strcmp(arg, "mbs") ? ATIO_STEADY_MBS
			: !strcmp(arg, "lat") ? ATIO_STEADY_LAT : ATIO_STEADY_NONE;
		if (!o->steady)
			return USAGE("--steady %s: judge iops, mbs or lat (the mean latency "
				     "of a round)", arg);
		return 0;
	case OPT_ROUND:
		r = atio_parse_time(arg, &o->round_ns);
		if (r || o->round_ns < ATIO_STEADY_MIN_ROUND_NS)
			return USAGE("--round %s: %s", arg, arg[0] == '-' ? "cannot be negative"
				     : r == -ERANGE ? "too long (at most 366 days)"
				     : r ? "not a time (seconds, or a number with s, m or h)"
				     : "a round lasts 0.1 s or more (SNIA's is 60 s, the default)");
		return 0;
	case OPT_ROUNDS:
		r = atio_parse_uint(arg, ATIO_STEADY_WINDOW, ATIO_STEADY_MAX_ROUNDS, &v);
		if (r == -EINVAL)
			return USAGE("--rounds %s: the most rounds to run must be a whole number",
				     arg);
		if (r)
			return USAGE("--rounds %s: between %u (the rounds of the window SNIA "
				     "judges) and %u", arg, ATIO_STEADY_WINDOW,
				     ATIO_STEADY_MAX_ROUNDS);
		o->rounds = (unsigned)v;
		return 0;
	case OPT_PRECONDITION:
		o->precondition = true;
		return 0;
	case OPT_ALL_ROUNDS:
		o->all_rounds = true;
		return 0;
	}
	return USAGE("option %d: not handled", id);
}

/*
 * The precondition's 128K writes need a whole block in each thread's
 * share, as the dataset cuts it (src/data/dataset.c): k = ceil(p/n)
 * threads share a file of u/n rounded down to 4096.
 */
static int check_precondition(const struct atio_opts *o, const struct pstate *st,
			      struct atio_error *e)
{
	unsigned k = o->nfiles <= o->threads ? (o->threads + o->nfiles - 1) / o->nfiles : 1;
	uint64_t file = (o->total / o->nfiles) & ~(uint64_t)4095;
	char min[24];

	if (o->engine && !strcmp(o->engine, "null"))
		return USAGE("--precondition --engine null: the null engine writes nothing, "
			     "so there is nothing to precondition: leave one of them out");
	if (o->mode == ATIO_MODE_EXPAND)
		return USAGE("--precondition --expand: --expand truncates its files to zero "
			     "as it goes, undoing any precondition: leave one of them out");
	if (file / k >= PRECONDITION_BS)
		return 0;
	atio_format_size(min, sizeof(min), (uint64_t)o->nfiles * k * PRECONDITION_BS);
	return USAGE("--precondition: -u %s: a thread's share is less than one 128K block "
		     "of the precondition's writes: use -u %s or more",
		     st->total ? st->total : "16G", min);
}

int atio_cli_steady_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e)
{
	const char *round = st->given[OPT_ROUND], *rounds = st->given[OPT_ROUNDS];

	if (!o->steady) {
		if (round || rounds)
			return USAGE("%s %s: rounds are --steady's: give --steady iops (or mbs, "
				     "lat) too", round ? "--round" : "--rounds",
				     round ? round : rounds);
		if (o->precondition)
			return USAGE("--precondition: it comes before --steady's rounds: give "
				     "--steady iops (or mbs, lat) too");
		if (o->all_rounds)
			return USAGE("--all-rounds: the rounds are --steady's: give --steady iops "
				     "(or mbs, lat) too");
		return 0;
	}
	if (!round)
		o->round_ns = ATIO_STEADY_ROUND_NS;
	if (!rounds)
		o->rounds = ATIO_STEADY_ROUNDS;
	if (o->prepare || o->check)
		return USAGE("--steady %s: %s measures nothing: leave --steady out",
			     atio_steady_name(o->steady), o->prepare ? "--prepare" : "--check");
	/* The warm-up ends when the rounds are steady: no fixed one beside it. */
	if (st->given['w'])
		return USAGE("-w %s with --steady %s: the warm-up lasts until the rounds are "
			     "steady; leave -w out (or --steady, for a warm-up of fixed time)",
			     st->given['w'], atio_steady_name(o->steady));
	return o->precondition ? check_precondition(o, st, e) : 0;
}
