/* SPDX-License-Identifier: MIT */
#ifndef ATIO_OUT_REPORT_STEADY_H
#define ATIO_OUT_REPORT_STEADY_H

/*
 * --steady and --precondition in the report (src/print/report_steady.c):
 * the header's lines, the lines below the result, and their JSON. None
 * of the text has the word of the result line.
 */

#include <stdio.h>

#include "atio/base/opts.h"
#include "atio/print/report.h"
#include "atio/stats/steady.h"

struct atio_json;

/* The header's "Steady:" and "Precondition:" lines; nothing without --steady. */
void atio_report_steady_header(FILE *f, const struct atio_opts *o);

/*
 * Below the result: "steady:" (the verdict), "steady rounds:" (each
 * round's figure), "steady window:" (its average, range, excursion and
 * slope) and, after --precondition, "precondition:". Nothing without
 * --steady.
 */
void atio_report_steady_text(FILE *f, const struct atio_result *r);

/*
 * The settings' "steady": null, or {judge, round_sec, max_rounds,
 * window, range_max_pct, excursion_max_pct, precondition}.
 */
void atio_report_steady_settings_json(struct atio_json *j, const struct atio_opts *o);

/*
 * The document's "steady": null, or {judge, unit, round_sec, rounds,
 * max_rounds, values, window {first, last, average, min, max}, range_pct,
 * excursion_pct, slope, steady, steady_at, precondition}: rounds from 1,
 * null where there is nothing to say.
 */
void atio_report_steady_json(struct atio_json *j, const struct atio_result *r);

/*
 * The window of verdict @v as member "window" of @j: its first and last
 * rounds (from 1), average, min and max; null when it has no rounds.
 */
void atio_report_steady_window_json(struct atio_json *j, const struct atio_steady_verdict *v);

#endif
