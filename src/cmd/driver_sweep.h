/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CMD_DRIVER_SWEEP_H
#define ATIO_CMD_DRIVER_SWEEP_H

/*
 * The cluster driver's sweeps and curves (driver_sweep.c): atio merge
 * --sweep-plan checks the driver's --sweep, --curve, --knee, --target and
 * --stop-latency words as atio sweep reads them and lists the points;
 * --sweep-summary reads the records of the points run so far (each the
 * sum of every node's run at one instant), says which point comes next
 * (a curve's step with each node's cap) and prints and writes the
 * sweep's summary; --sweep-document adds the sweeps to the driver's -o
 * document.
 */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

#include "driver_args.h"
#include "sweep.h"
#include "atio/stats/curve.h"

/* The options of --sweep-summary, in their order. */
enum { SW_POINTS, SW_VALUES, SW_THREADS, SW_TEST, SW_OUT };

/* One point of the driver's sweep, from its iteration record. */
struct dpoint {
	json_t *rec;               /* the iteration record */
	const char *path;
	bool complete, concurrent, valid; /* valid: both, and a sum measured */
	unsigned ok_nodes, nodes;
	double sum, skew;
	const char *unit;
	double p50, p99, p999;     /* merged latency, ns */
	double at_target, at_stop; /* the merged percentiles of --target and --stop-latency */
	double pct, aim;           /* a curve's step: its share, the sum of its caps */
	bool held;
};

/* The finders' choices over the valid points, as indexes (-1: none). */
struct dchoice {
	int peak, knee, kneedle, target;
};

/* Member @key of @o as a number, NAN when it is none. */
static inline double dsweep_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Node @i's record in point @p's record. */
static inline const json_t *dsweep_node(const struct dpoint *p, size_t i)
{
	return json_array_get(json_object_get(p->rec, "nodes"), i);
}

/* A cap as --cap takes it: whole from 10 up, hundredths below (atio_curve_aim()). */
static inline void dsweep_cap_text(char *buf, size_t len, double cap)
{
	snprintf(buf, len, cap >= 10 ? "%.0f" : "%.2f", cap);
}

/* The cap of node record @n at @pct percent of its value in the maximum's run. */
static inline double dsweep_node_cap(const json_t *n, double pct)
{
	return atio_curve_aim(dsweep_num(n, "value"), pct);
}

/* The sweep's summary of points @pts[@n] as one JSON object to file @path. */
int dsweep_json(const char *path, const struct args *a, const struct sweep *sw,
		 const struct dpoint *pts, unsigned n, const struct dchoice *c, const char *ended);

int driver_sweep_plan(int argc, char **argv);
int driver_sweep_summary(int argc, char **argv);
int driver_sweep_document(int argc, char **argv);

#endif
