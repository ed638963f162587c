/* SPDX-License-Identifier: MIT */
#ifndef ATIO_ITERATIONS_H
#define ATIO_ITERATIONS_H

/*
 * A cluster test over its iterations (atio merge --iterations): each
 * iteration is one atio merge --json document, the sum of its nodes' values
 * and each node's value. The summary is the average of the sums (at_io_iops'
 * "Average value"), their min, max and sample standard deviation, and each
 * node's share of all the sums together, nodes being matched by their
 * place in the documents (the driver merges its nodes in one order).
 */

#include <stdbool.h>
#include <stdio.h>

#include "atio/base/error.h"
#include "atio/merge/merge.h"

/* What one atio merge --json document says, as the summary needs it. */
struct atio_iteration {
	const char *file;          /* the name it was read from (not owned) */
	char unit[ATIO_MERGE_UNIT_LEN];
	double sum;
	unsigned nvalues;
	double *values;            /* [nvalues]: documents_merged[i].value */
	/* --mix: "read" and "write" are objects (not null) */
	bool mixed;
	double dir_iops[ATIO_DIRS], dir_mbs[ATIO_DIRS]; /* their iops and mbs */
};

/* The iterations added so far. */
struct atio_iterations {
	unsigned n;
	char unit[ATIO_MERGE_UNIT_LEN];
	double *sums;              /* [n] */
	unsigned nvalues;          /* nodes in every iteration */
	double *node_sums;         /* [nvalues]: each node's values added up */
	unsigned nmixed;           /* iterations of --mix runs */
	double dir_iops[ATIO_DIRS], dir_mbs[ATIO_DIRS]; /* theirs added up */
};

/*
 * Read the atio merge --json document in file @path into @it (it->file is
 * set to @path, which must outlive @it; free with atio_iteration_free()).
 * Returns 0, or a negative errno with @e filled (exit status 1 when memory ran
 * out, else 2) and a message that names @path and says
 * what is wrong: not readable, not JSON, truncated, an atio run's result
 * rather than a merge, or members missing or of the wrong kind.
 */
int atio_iteration_read(const char *path, struct atio_iteration *it, struct atio_error *e);

void atio_iteration_free(struct atio_iteration *it);

void atio_iterations_init(struct atio_iterations *s);
void atio_iterations_free(struct atio_iterations *s);

/*
 * Add iteration @it to @s. Returns 0; -EINVAL with @e filled (exit 2)
 * when its unit or its number of nodes differs from the iterations'
 * before it (MB/s and IOPS do not average, and shares need the same
 * nodes); -ENOMEM.
 */
int atio_iterations_add(struct atio_iterations *s, const struct atio_iteration *it,
			struct atio_error *e);

/* The mean of the sums; their sample standard deviation, NAN below 2 iterations. */
double atio_iterations_average(const struct atio_iterations *s);
double atio_iterations_stddev(const struct atio_iterations *s);

/*
 * The average over the iterations of the sums of direction @dir's IOPS
 * (@iops) and MB/s (@mbs), each the sum of the nodes' as atio merge has
 * it. False, the figures NAN, unless every iteration is of a --mix run.
 */
bool atio_iterations_dir_average(const struct atio_iterations *s, unsigned dir, double *iops,
				 double *mbs);

/* The least and the greatest of the sums of @s (at least one iteration). */
void atio_iterations_min_max(const struct atio_iterations *s, double *min, double *max);

/* Node @i's share of all the sums, in percent; 0 when they add up to 0. */
double atio_iterations_share(const struct atio_iterations *s, unsigned i);

/*
 * The summary as text, "Average value = { X } UNIT; over N iterations",
 * then the sums' min, max and standard deviation and each node's share of
 * them (as "[K] P%" in the documents' order), or as one JSON document on
 * one line. Writes to @f only; @s holds at least one iteration.
 */
void atio_iterations_text(FILE *f, const struct atio_iterations *s);
void atio_iterations_json(FILE *f, const struct atio_iterations *s,
			  const struct atio_iteration *its, unsigned n);

#endif
