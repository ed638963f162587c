/* SPDX-License-Identifier: MIT */
#ifndef ATIO_MERGE_CSV_H
#define ATIO_MERGE_CSV_H

/*
 * atio merge --csv FILE: a row for each document merged (and for each of
 * its directions, --mix), then the sum's rows, under the columns of a
 * run's CSV (atio/print/csv.h) with three in front: "row" (document or
 * sum), "file" and "host". A document's figures are its JSON's; the
 * sum's are the merge's: the value, rates, CPU share and context switches
 * the documents' added up, the latency of the merged histogram, the
 * start its first document's. The rows are written as each document is
 * read, so that a merge still holds one document at a time.
 */

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "atio/base/error.h"
#include "atio/document/doc.h"
#include "atio/merge/merge.h"
#include "atio/print/csv.h"

struct atio_merge_csv {
	const char *name;          /* the file as given; NULL: no CSV */
	FILE *f;                   /* the rows so far, in memory (@rows, @len) */
	char *rows;
	size_t len;
	double p[ATIO_CSV_POINTS]; /* the percentile columns: the first document's */
	unsigned n;
	double iops, mbs, bytes_per_sec, cpu_user_pct, cpu_sys_pct; /* sums */
};

/*
 * The rows of document @d (its JSON @doc) kept in @c; the columns those of
 * the first document's --percentiles. Returns 0, or -1 with @e filled.
 */
int atio_merge_csv_doc(struct atio_merge_csv *c, const json_t *doc,
		       const struct atio_merge_doc *d, struct atio_error *e);

/*
 * The sum's rows of @m after the documents', all written to the file only
 * now (atio_csv_open(), which says what it refuses): a merge refused
 * leaves the file as it was. Returns 0, or -1 with @e filled.
 */
int atio_merge_csv_sum(struct atio_merge_csv *c, const struct atio_merge *m,
		       struct atio_error *e);

/* Free what @c holds. */
void atio_merge_csv_free(struct atio_merge_csv *c);

/* Member @key of object @o as a number; NAN when it has none. */
double atio_csv_json_number(const json_t *o, const char *key);

/* Member @key of object @o as a count; ATIO_CSV_NONE when it has none. */
uint64_t atio_csv_json_count(const json_t *o, const char *key);

#endif
