/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CSV_H
#define ATIO_CSV_H

/*
 * --csv FILE: a run's figures as comma-separated values, one row for the
 * run and, with --mix and --rewrite, one for each direction, under a header
 * row of snake_case names that carry their unit (lat_p99_us, bw_mib_s).
 * The figures are the JSON document's, from the same functions; the last
 * column is the command line that runs the test again (src/print/report.csv.c).
 */

#include <stdbool.h>
#include <stdio.h>

#include "atio/base/error.h"
#include "atio/print/report.h"

/* The header row of @o's CSV, with its newline, into @buf (@len bytes). */
int atio_csv_header(char *buf, size_t len, const struct atio_opts *o);

/* The rows of @r, each ending in a newline. */
void atio_csv_rows(FILE *f, const struct atio_result *r);

/*
 * Write @r to @o->csv: "-" and "stdout" are standard output, with the
 * header; a file new or empty gets the header and the rows; a file whose
 * first line is this header gets the rows appended (a CSV of many runs);
 * any other file is left alone and is an error (exit status 2). An error
 * writing is exit status 1. Returns 0, or -1 with @e filled.
 */
int atio_csv_write(const struct atio_result *r, struct atio_error *e);

#endif
