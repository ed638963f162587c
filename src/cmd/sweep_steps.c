/* SPDX-License-Identifier: MIT */
/*
 * The points of a curve and of a search (sweep.h), chosen as they run: a
 * curve's maximum, then its capped steps at their aims until the list or
 * --stop-latency ends it; a search's loads from atio/stats/search.h until
 * it ends or its time is spent. Their JSON objects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
#include "cmd.h"
#include "atio/base/clock.h"
#include "atio/cli/cli.h"
#include "atio/base/json.h"
#include "atio/stats/curve.h"
#include "atio/stats/search.h"

/* See sweep.h. */
int sweep_setup_points(const struct sweep *sw, struct sweep_point *pts, unsigned from, unsigned to)
{
	char **argv = calloc((size_t)sw->nbase + 2 * sw->naxes + 4, sizeof(*argv));
	struct atio_error e = { 0 };
	char name[160];
	int status = 0;

	if (!argv) {
		say("out of memory");
		return ATIO_EXIT_FAIL;
	}
	for (unsigned i = from; i < to && !status; i++) {
		int argc = sweep_point_argv(sw, i, argv), act;

		sweep_point_name(sw, i, name, sizeof(name));
		act = atio_cli_parse(argc, argv, &pts[i].o, &e);
		if (act < 0) {
			say("point %s: %s", name, e.msg);
			status = ATIO_EXIT_USAGE;
		} else if (act != ATIO_CLI_RUN || pts[i].o.settings_only || pts[i].o.check ||
			   pts[i].o.prepare) {
			say("atio sweep: %s: a sweep runs tests; give it on its own",
			    act != ATIO_CLI_RUN ? "--help and --version"
			    : pts[i].o.settings_only ? "-a" : pts[i].o.check ? "--check"
			    : "--prepare");
			status = ATIO_EXIT_USAGE;
		} else if (pts[i].o.meta.nphases) {
			say("atio sweep: --meta: a metadata run has phases of its own; run it alone");
			status = ATIO_EXIT_USAGE;
		} else if (pts[i].o.precondition) {
			/*
			 * Each point after the first would start from the point
			 * before it, not from the precondition's writes: a
			 * precondition is a run of its own, before the sweep.
			 */
			say("atio sweep: --precondition: not in a sweep (only its first point would "
			    "follow it); precondition with a run of its own first, e.g. atio "
			    "--steady iops --precondition with the same -f");
			status = ATIO_EXIT_USAGE;
		} else if ((status = run_setup(&pts[i].o, &pts[i].engine, &pts[i].tg)) != 0) {
			say("(at point %s)", name);
		}
	}
	free(argv);
	if (status == ATIO_EXIT_USAGE)
		fputs("Try 'atio --help' for more information.\n", stderr);
	return status;
}

/* The "curve" object: its steps, its maximum, --stop-latency and what ended it. */
void sweep_json_curve(struct atio_json *j, const struct sweep *sw, const struct sweep_point *pts,
		       unsigned run, const char *ended)
{
	atio_json_object_begin(j, "curve");
	atio_json_array_begin(j, "steps_pct");
	for (unsigned k = 0; k < sw->ncurve; k++)
		atio_json_double(j, NULL, sw->curve_pct[k]);
	atio_json_array_end(j);
	if (run && pts[0].measured && !pts[0].interrupted)
		atio_json_double(j, "maximum", pts[0].value);
	else
		atio_json_null(j, "maximum");
	atio_json_double(j, "held_share", ATIO_CURVE_HELD);
	atio_json_string(j, "arrivals", sw->arrivals ? sw->arrivals : "uniform");
	if (sw->stop_pct) {
		atio_json_object_begin(j, "stop_latency");
		atio_json_double(j, "percentile", sw->stop_pct);
		atio_json_double(j, "limit_ns", sw->stop_ns);
		atio_json_object_end(j);
	} else {
		atio_json_null(j, "stop_latency");
	}
	atio_json_string(j, "ended", ended);
	atio_json_object_end(j);
}

/* The "search" object: the axis, the noise, the time limit and what ended it. */
void sweep_json_search(struct atio_json *j, const struct sweep *sw, const char *ended)
{
	atio_json_object_begin(j, "search");
	atio_json_string(j, "axis", sw->axes[0].name);
	atio_json_double(j, "noise_pct", ATIO_SEARCH_NOISE * 100);
	atio_json_double(j, "time_limit_sec", (double)sw->search_ns / 1e9);
	atio_json_string(j, "ended", ended);
	atio_json_object_end(j);
}

/* See sweep.h. */
int sweep_first_point(struct sweep *sw, struct sweep_point *pts, struct atio_search *search)
{
	bool curve = sw->kind == SWEEP_CURVE;
	char first[SWEEP_VALUE_LEN];
	int status;

	/*
	 * A stand-in point, parsed and dropped: a curve's step capped at 1, a
	 * search's second load; a run that would refuse them is said now.
	 */
	sweep_add_point(sw, curve ? "1" : "2");
	status = sweep_setup_points(sw, pts, 0, 1);
	memset(&pts[0], 0, sizeof(pts[0]));
	sw->axes[0].nvalues = sw->npoints = 0;
	if (status)
		return status;
	/* Then the first point: a curve's uncapped maximum, a search's load 1. */
	if (!curve) {
		atio_search_init(search, sw->axes[0].option[1] == 'p' ? SWEEP_SEARCH_TOP_THREADS
				 : SWEEP_SEARCH_TOP_DEPTH);
		snprintf(first, sizeof(first), "%u", atio_search_next(search));
	}
	sweep_add_point(sw, curve ? "" : first);
	return sweep_setup_points(sw, pts, 0, 1);
}

/*
 * Add the next point of a curve or a search and set it up. Returns what
 * ends the sweep ("done", "stop-latency", "time", "no maximum"), or NULL
 * with the next point added; *@status the exit status of a failed set-up.
 */
const char *sweep_next_point(struct sweep *sw, struct sweep_point *pts, unsigned run,
			      struct atio_search *search, uint64_t t0, int *status)
{
	char value[SWEEP_VALUE_LEN];
	const struct sweep_point *last = &pts[run - 1];

	if (sw->kind == SWEEP_CURVE) {
		if (!pts[0].measured || pts[0].interrupted || !(pts[0].value > 0))
			return "no maximum";
		if (run > 1 && sw->stop_pct && atio_curve_stops(last->at_stop, sw->stop_ns))
			return "stop-latency";
		if (run > sw->ncurve)
			return "done";
		pts[run].pct = sw->curve_pct[run - 1];
		pts[run].aim = atio_curve_aim(pts[0].value, pts[run].pct);
		snprintf(value, sizeof(value), pts[run].aim >= 10 ? "%.0f" : "%.2f", pts[run].aim);
	} else {
		unsigned load;

		if (last->measured && !last->interrupted)
			atio_search_add(search, (unsigned)strtoul(sw->axes[0].values[run - 1], NULL, 10),
					last->value);
		if (!(load = atio_search_next(search)))
			return "done";
		/* The next point must fit in what is left of the budget. */
		if (atio_now_ns() - t0 + last->o.warmup_ns + last->o.time_ns > sw->search_ns)
			return "time";
		snprintf(value, sizeof(value), "%u", load);
	}
	if (sweep_add_point(sw, value))
		return "done";
	*status = sweep_setup_points(sw, pts, run, run + 1);
	return NULL;
}

/* How a curve or a search ended, said after its summary. */
void sweep_print_ended(const struct sweep *sw, const struct sweep_point *pts, const char *ended)
{
	if (sw->kind == SWEEP_CURVE && sw->npoints > 1) {
		unsigned held = 0;

		for (unsigned i = 1; i < sw->npoints; i++)
			held += pts[i].held;
		printf("curve: maximum %.5f %s; %u of %u steps held (%.0f%% of the aim or more)\n",
		       pts[0].value, atio_unit_name(&pts[0].o), held, sw->npoints - 1,
		       ATIO_CURVE_HELD * 100);
	}
	if (sw->kind == SWEEP_CURVE && !strcmp(ended, "stop-latency"))
		printf("curve: ended at step %u: its p%g exceeds --stop-latency %s\n", sw->npoints,
		       sw->stop_pct, sw->stop_text);
	else if (sw->kind == SWEEP_CURVE && !strcmp(ended, "no maximum"))
		printf("curve: no steps: the maximum's run measured nothing\n");
	else if (sw->kind == SWEEP_SEARCH && !strcmp(ended, "time"))
		printf("search: ended by --search-time after %u points\n", sw->npoints);
}
