/* SPDX-License-Identifier: MIT */
#ifndef ATIO_REPORT_META_H
#define ATIO_REPORT_META_H

/*
 * A metadata run's output (src/print/report_meta.c): its header, its text
 * (the result line, with the word "rate" for scripts, and no other line
 * with it; then a line a phase) and its JSON (one document, a record a
 * phase with its merged latency histogram in the form of a data run's
 * "latency_ns", buckets and all).
 */

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "atio/base/opts.h"
#include "atio/run/meta.h"

struct atio_meta_result {
	const struct atio_opts *opts;
	const char *version;
	const char *fstype;        /* NULL when unknown */
	const char *tree;          /* the tree's top directory */
	const char *cache;         /* how the caches are dropped between phases, in words */
	unsigned nrec;             /* phases of --meta, each a record */
	const struct atio_meta_rec *rec; /* [nrec], over every pass */
	unsigned passes;           /* passes run (--loops) */
	struct timespec wall_start, wall_end;
	int signo;                 /* the signal that cut the run, or 0 */
	const struct atio_meta_rec *interrupted; /* the phase it cut, or NULL (between phases) */
};

/* The record of the phase on the result line (--figure), or NULL. */
const struct atio_meta_rec *atio_meta_figure(const struct atio_meta_result *r);

/* A phase's figure: ops a second, the slowest thread setting the time (0 for none). */
double atio_meta_rec_value(const struct atio_meta_rec *rec);

/* Whether a phase is too fast to measure: a pass under ATIO_META_MIN_NS. */
bool atio_meta_rec_too_fast(const struct atio_meta_rec *rec);

/* The settings header (Title, Cmdline, Version, Processes, Testcase, ...). */
void atio_report_meta_header(FILE *f, const struct atio_meta_result *r);

/* The text result: the result line, a line a phase, the seed. */
void atio_report_meta_text(FILE *f, const struct atio_meta_result *r);

/* The JSON document. */
void atio_report_meta_json(FILE *f, const struct atio_meta_result *r);

#endif
