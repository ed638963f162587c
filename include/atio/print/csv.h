/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CSV_H
#define ATIO_CSV_H

/*
 * --csv FILE: figures as comma-separated values (RFC 4180) under a header
 * row of snake_case names that carry their unit (lat_p99_us, bw_mib_s).
 * A run's CSV has one row for the run and, with --mix and --rewrite, one
 * for each direction; atio merge --csv and the cluster driver's CSV put
 * columns of their own in front of the same columns (src/merge/
 * merge_csv.c, driver_csv.c), written by the one row writer here. The
 * figures are the JSON document's, from the same functions; the last
 * column is the command line that runs the test again
 * (src/print/report_csv.c).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "atio/base/error.h"
#include "atio/print/pct.h"
#include "atio/print/report.h"

/* The most percentile columns: fio's 17 and a --percentiles list. */
#define ATIO_CSV_POINTS (ATIO_PCT_FIO + ATIO_PCT_MAX)
/* The most columns written in front of a run's (atio merge, the driver). */
#define ATIO_CSV_LEAD 8u
/* A count a row has none of: its field is empty. */
#define ATIO_CSV_NONE UINT64_MAX

/*
 * One row's fields: NAN, ATIO_CSV_NONE or NULL where the row has none,
 * which leaves the field empty. Latencies are in microseconds.
 */
struct atio_csv_row {
	const char *lead[ATIO_CSV_LEAD]; /* the columns in front, quoted */
	uint64_t job;
	const char *direction;     /* "all", "read", "write" */
	double start_epoch, time_s;
	const char *interrupted;   /* "true" when a signal cut the run short, "false"; NULL: unknown */
	double value;
	const char *unit;
	double iops, bw_mib_s, bw_bytes_s;
	uint64_t ops, bytes, syncs;
	double share_pct;
	uint64_t lat_count;
	double lat_min, lat_mean, lat_stdev, lat_p[ATIO_CSV_POINTS], lat_max;
	double cpu_user_pct, cpu_sys_pct;
	uint64_t ctx_voluntary, ctx_involuntary, threads, block_size;
	const char *seed;
	const char *cmdline;
};

/* @r with every field empty. */
void atio_csv_row_empty(struct atio_csv_row *r);

/* The latency fields of @r from histogram @h (ns) at the points @p[@n]. */
void atio_csv_row_hist(struct atio_csv_row *r, const struct atio_hist *h, const double *p,
		       unsigned n);

/*
 * The percentile columns: fio's 17 points and @pct[@npct] (ascending),
 * each once, ascending, into @p (ATIO_CSV_POINTS of room); their number.
 * The same points as a JSON document's "percentiles" object.
 */
unsigned atio_csv_points(const double *pct, unsigned npct, double *p);

/*
 * The header row with its newline into @buf (@len bytes): @lead (NULL:
 * none; else "name,name" without a comma after it), then a run's columns
 * with the percentile points @p[@n]. Returns what snprintf returns.
 */
int atio_csv_columns(char *buf, size_t len, const char *lead, const double *p, unsigned n);

/* The header row of a run of @o's, with its newline, into @buf (@len bytes). */
int atio_csv_header(char *buf, size_t len, const struct atio_opts *o);

/*
 * Row @r with @nlead columns in front and @n percentile columns, ending
 * in a newline: as wide as the header atio_csv_columns() wrote for them.
 */
void atio_csv_row(FILE *f, const struct atio_csv_row *r, unsigned nlead, unsigned n);

/* The rows of @r, each ending in a newline. */
void atio_csv_rows(FILE *f, const struct atio_result *r);

/*
 * The rows of @r as those of job @lead->job, with @lead->lead[@nlead] in
 * front, at the percentile points @p[@n] (a plan's, the first job's).
 */
void atio_csv_job_rows(FILE *f, const struct atio_result *r, const struct atio_csv_row *lead,
		       unsigned nlead, const double *p, unsigned n);

/*
 * Open CSV file @name for the header row @header, for option @opt of
 * messages: "-" and "stdout" are standard output, with the header; a file
 * new or empty gets the header; a file whose first line is this header is
 * appended to (a CSV of many runs) when its last row ends with a line's
 * end; any other file is left alone and is an
 * error (exit status 2). Returns the stream to write the rows to, or NULL
 * with @e filled (exit status 1 for a file that cannot be opened).
 */
FILE *atio_csv_open(const char *opt, const char *name, const char *header,
		    struct atio_error *e);

/*
 * Whether CSV file @name could take rows under @header, before anything
 * runs: standard output; a file that atio_csv_open() would append to (or
 * an empty one); a new name in a directory this process may write to. A
 * file that ends in a cut row is refused. Nothing is created. Returns 0,
 * or -1 with @e filled (exit status 2) naming @opt and @name.
 */
int atio_csv_check(const char *opt, const char *name, const char *header,
		   struct atio_error *e);

/* Close what atio_csv_open() opened: 0, or -1 with @e filled (exit 1). */
int atio_csv_close(const char *opt, const char *name, FILE *f, struct atio_error *e);

/*
 * Write @r to @o->csv, as atio_csv_open() says. An error writing is exit
 * status 1. Returns 0, or -1 with @e filled.
 */
int atio_csv_write(const struct atio_result *r, struct atio_error *e);

#endif
