/* SPDX-License-Identifier: MIT */
#ifndef ATIO_REPORT_SWEEP_H
#define ATIO_REPORT_SWEEP_H

/*
 * A sweep as atio report draws it, whichever document it came from: an
 * atio sweep --json document (report_sweep.c reads it) or one of the
 * "sweeps" of a driver's -o document (report_csweep.c reads them, the
 * cluster's sum with each node's figures beside it). report_sweep.c
 * draws either: the throughput-latency chart, the heat map of a two-axis
 * grid, the table of the points.
 */

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "atio/base/error.h"

#define ATIO_RSW_AXES 8
#define ATIO_RSW_CHOICES 4         /* peak, knee, Kneedle's knee, target */

struct atio_rsw_point {
	const char *axis[ATIO_RSW_AXES]; /* its value on each axis ("" unknown) */
	const char *step;          /* a cluster curve's step: "maximum", "10%"; else NULL */
	bool measured;             /* drawn, and chosen from */
	char why[96];              /* not measured: why, for the table */
	double value, p50, p99, p999, cpu; /* latency in ns; NaN unknown */
	double aim;                /* a curve's step; NaN otherwise */
	int held;                  /* a curve's step: 1 held, 0 not; -1 not a step */
	/* The cluster's: each node's figures at this point, NaN where unknown. */
	double *node_value, *node_p99, *node_cap;
	bool *node_failed;
};

struct atio_rsw {
	char title[192];           /* the section's heading */
	char chart_id[32], heat_id[32];
	const char *unit;          /* of the measured points; NULL without one */
	json_t *axes;              /* [{name, option, values}] */
	unsigned naxes;
	double knee_pct;
	double target_pct, target_ns; /* 0: no target */
	int pick[ATIO_RSW_CHOICES];   /* the chosen points (from 0), -1 none */
	char *pick_opts[ATIO_RSW_CHOICES]; /* how the chosen point runs, owned */
	unsigned n;
	struct atio_rsw_point *pt;
	unsigned nnodes;           /* 0 for one node's sweep */
	const char **node;         /* [nnodes] the nodes' names */
	char *note;                /* said above the chart (owned), or NULL */
	char *use;                 /* the "use:" line (owned), or NULL */
};

/* Draw @s's section on @f: the heading, the chart, the table. 0 or -ENOMEM. */
int atio_rsw_section(FILE *f, const struct atio_rsw *s);

/* Release what @s owns. */
void atio_rsw_free(struct atio_rsw *s);

/*
 * The cluster's sweeps of driver document @doc (report_csweep.c): check
 * the form of its "sweeps" when read (0 without any, or -EINVAL with @e
 * naming @path and the member); and a section per sweep on @f.
 */
int atio_rcsweep_check(json_t *doc, const char *path, struct atio_error *e);
struct atio_rfile;
int atio_report_csweeps(FILE *f, const struct atio_rfile *fl, unsigned index);

#endif
