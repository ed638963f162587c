/* SPDX-License-Identifier: MIT */
#ifndef ATIO_DRIVER_CSV_H
#define ATIO_DRIVER_CSV_H

/*
 * The cluster driver's results as CSV (atio-parallel.sh --csv FILE),
 * written from its -o document (driver_record.h): the columns of a run's
 * CSV (atio/print/csv.h) with seven in front, "row", "threads_given",
 * "test", "iteration", "host", "status" and "message". For each thread
 * count and test, each iteration has a "node" row per node (a failed
 * node's with status FAILURE and the first three lines it said, joined by
 * "; ", its figures empty) and a "sum" row (status complete, INCOMPLETE or NOT CONCURRENT),
 * each with a row per direction for --mix tests; then the test's
 * "average" row over its counted iterations. The figures are the
 * document's; a sum's rates, CPU share and context switches are its
 * nodes' added up, as its value is.
 */

#include <stdio.h>

#include <jansson.h>

#include "atio/base/error.h"

/* The header row, with its newline, into @buf (@len bytes). */
int atio_driver_csv_header(char *buf, size_t len);

/*
 * The rows of the -o document @doc to @f. Returns 0, or -1 with @e
 * filled (exit 2) when @doc is not such a document.
 */
int atio_driver_csv_rows(FILE *f, const json_t *doc, struct atio_error *e);

#endif
