/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CMD_SWEEP_H
#define ATIO_CMD_SWEEP_H

/*
 * atio sweep AXIS=LIST... [--knee K] [--target pNN=TIME] [run options]
 * (src/cmd/sweep_args.c reads the words, src/cmd/cmd_sweep.c runs the
 * points): a grid of runs, one for every combination of the axes' values,
 * the first axis outermost, each an ordinary run with that axis's option
 * added to the run's options.
 */

#include <stddef.h>

#include "atio/base/error.h"

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

struct sweep {
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
};

/*
 * Read the words after "sweep" (@argv[0] the command word). Returns 0, or
 * -errno with @e's message naming the bad word.
 */
int sweep_read(struct sweep *sw, int argc, char **argv, struct atio_error *e);

/* The value of each axis at @point, into @values[naxes]. */
void sweep_point_values(const struct sweep *sw, unsigned point, const char **values);

/*
 * The command line of @point into @argv (room for nbase + 2 * naxes + 2
 * words): the program, the run's options, then "--iodepth 8" and the
 * like. Returns the number of words.
 */
int sweep_point_argv(const struct sweep *sw, unsigned point, char **argv);

/* "--iodepth 8 -p 2": what sets @point apart, into @buf. */
void sweep_point_name(const struct sweep *sw, unsigned point, char *buf, size_t len);

void sweep_free(struct sweep *sw);

#endif
