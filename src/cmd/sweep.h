/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CMD_SWEEP_H
#define ATIO_CMD_SWEEP_H

/*
 * atio sweep AXIS=LIST... [--knee K] [--target pNN=TIME] [run options]
 * atio sweep --curve [LIST] [--stop-latency pNN=TIME] [run options]
 * atio sweep --search [depth|threads] [--search-time TIME] [run options]
 * (src/cmd/sweep_args.c reads the words, src/cmd/cmd_sweep.c runs the
 * points): a grid of runs, one for every combination of the axes' values,
 * the first axis outermost, each an ordinary run with that axis's option
 * added to the run's options.
 *
 * A curve and a search have one axis whose values come as they run: a
 * curve's is --rate, its first value "" (the uncapped run for the
 * maximum, no --rate given), then each step's aim; a search's is
 * --iodepth or -p, each value the load the search chose next.
 */

#include <stddef.h>
#include <stdint.h>

#include "atio/base/error.h"
#include "atio/base/json.h"
#include "atio/stats/search.h"
#include "run.h"

#define SWEEP_MAX_AXES 4
#define SWEEP_MAX_VALUES 64
#define SWEEP_MAX_POINTS 1000
#define SWEEP_VALUE_LEN 32

struct sweep_axis {
	const char *name;          /* iodepth, p, s, mix, u, rate */
	const char *option;        /* the run's option it sets: --iodepth, -p ... */
	const char *text;          /* the list as given */
	char values[SWEEP_MAX_VALUES][SWEEP_VALUE_LEN];
	unsigned nvalues;
};

enum sweep_kind { SWEEP_GRID, SWEEP_CURVE, SWEEP_SEARCH };

struct sweep {
	enum sweep_kind kind;
	struct sweep_axis axes[SWEEP_MAX_AXES];
	unsigned naxes;
	unsigned npoints;
	char **base;               /* the run's options (argv's words, not copies) */
	int nbase;
	const char *prog;          /* argv[0] */
	double knee_pct;           /* --knee, default 95 */
	double target_pct;         /* --target's percentile, 0 when not given */
	double target_ns;          /* its latency */
	const char *target_text;
	/* --curve */
	double curve_pct[SWEEP_MAX_VALUES]; /* the steps, percentages of the maximum */
	unsigned ncurve;
	const char *arrivals;      /* --arrivals's word, given to the capped steps */
	double stop_pct, stop_ns;  /* --stop-latency; stop_pct 0 when not given */
	const char *stop_text;
	/* --search */
	uint64_t search_ns;        /* --search-time: the whole search's budget */
	const char *search_time_text;
};

/* The steps of a curve when --curve gives none, and --search-time's default. */
#define SWEEP_CURVE_DEFAULT "10,50,70,80,90,100"
#define SWEEP_SEARCH_TIME_DEFAULT "10m"
/* The highest queue depth and thread count a search tries. */
#define SWEEP_SEARCH_TOP_DEPTH 1024u
#define SWEEP_SEARCH_TOP_THREADS 256u

/*
 * Add @value to a curve's or a search's axis: the next point. Returns 0,
 * or -E2BIG when the axis is full.
 */
int sweep_add_point(struct sweep *sw, const char *value);

/*
 * Read the words after "sweep" (@argv[0] the command word). Returns 0, or
 * -errno with @e's message naming the bad word.
 */
int sweep_read(struct sweep *sw, int argc, char **argv, struct atio_error *e);

/* The value of each axis at @point, into @values[naxes]. */
void sweep_point_values(const struct sweep *sw, unsigned point, const char **values);

/*
 * The command line of @point into @argv (room for nbase + 2 * naxes + 4
 * words): the program, the run's options, then "--iodepth 8" and the
 * like. Returns the number of words.
 */
int sweep_point_argv(const struct sweep *sw, unsigned point, char **argv);

/* "--iodepth 8 -p 2": what sets @point apart, into @buf. */
void sweep_point_name(const struct sweep *sw, unsigned point, char *buf, size_t len);

void sweep_free(struct sweep *sw);

/* One point: its options and set-up, and what its run said. */
struct sweep_point {
	struct atio_opts o;
	const struct atio_engine_ops *engine;
	struct atio_target tg;
	bool measured;
	bool interrupted;          /* cut by a signal: shown, never chosen */
	double value, mbs, iops, cpu_pct;
	double p50, p99, p999, at_target, at_stop; /* ns */
	double pct, aim;           /* a curve's step: its share of the maximum, its cap */
	bool held;                 /* the step reached its aim (atio_curve_held()) */
	int steady;                /* --steady: 1 steady, 0 not steady; -1 without */
	char *doc;                 /* its JSON document */
	size_t doclen;
};

/* Parse and set up the points @from to @to - 1; 0 or the exit status, said. */
int sweep_setup_points(const struct sweep *sw, struct sweep_point *pts, unsigned from,
		       unsigned to);

/*
 * A curve's or a search's first point, set up before anything runs
 * (src/cmd/sweep_steps.c); 0 or the exit status, said.
 */
int sweep_first_point(struct sweep *sw, struct sweep_point *pts, struct atio_search *search);

/*
 * Add the next point of a curve or a search and set it up. Returns what
 * ends the sweep ("done", "stop-latency", "time", "no maximum"), or NULL
 * with the next point added; *@status the exit status of a failed set-up.
 */
const char *sweep_next_point(struct sweep *sw, struct sweep_point *pts, unsigned run,
			     struct atio_search *search, uint64_t t0, int *status);

/* How a curve or a search ended, said after its summary. */
void sweep_print_ended(const struct sweep *sw, const struct sweep_point *pts,
		       const char *ended);

/* The "curve" and "search" objects of the sweep's document. */
void sweep_json_curve(struct atio_json *j, const struct sweep *sw,
		      const struct sweep_point *pts, unsigned run, const char *ended);
void sweep_json_search(struct atio_json *j, const struct sweep *sw, const char *ended);

#endif
