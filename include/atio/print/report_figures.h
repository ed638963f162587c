/* SPDX-License-Identifier: MIT */
#ifndef ATIO_REPORT_FIGURES_H
#define ATIO_REPORT_FIGURES_H

/*
 * The figures the text report (report.c) and the
 * JSON report (report_json.c) both derive from a struct atio_result
 * (defined in report_figures.c): one
 * implementation of each, so the two renderings of a run cannot disagree.
 * Internal to those two files.
 */

#include <stddef.h>
#include <stdint.h>

#include "atio/base/opts.h"
#include "atio/print/report.h"
#include "atio/stats/stats.h"

/* @ns nanoseconds as seconds. */
double atio_report_sec(uint64_t ns);

/* @n events over @ns nanoseconds, per second; 0 when no time ran. */
double atio_report_per_sec(uint64_t n, uint64_t ns);

/* @bytes over @ns nanoseconds in MB/s (2^20 bytes); 0 when no time ran. */
double atio_report_mb_per_sec(uint64_t bytes, uint64_t ns);

/*
 * --rate: the share of the cap the run reached (1 = all of it), 0 without
 * a cap.
 */
double atio_report_reached(const struct atio_result *r);

struct atio_json;

/*
 * --size, --loops (src/print/report_passes.c): the header's "Limits:" line
 * (nothing without either), the "ended:" line and the table of passes as
 * text, and "ended" and "passes" as JSON.
 */
void atio_report_limits_header(FILE *f, const struct atio_opts *o);
void atio_report_passes_text(FILE *f, const struct atio_result *r);
void atio_report_passes_json(struct atio_json *j, const struct atio_result *r);

/* The engine to name: @engine (the one that ran) if set, else the one asked for. */
const char *atio_report_engine_name(const struct atio_opts *o, const char *engine);

/*
 * Name of the signal that ended the run: "SIGINT", "SIGTERM", "SIGHUP",
 * "SIGQUIT" (the signals atio handles), else "signal N" written into @buf
 * of @len bytes, which is then what is returned. Needs no libc table, so
 * it reads the same on every system.
 */
const char *atio_report_signal_name(int signo, char *buf, size_t len);

/*
 * A thread's own elapsed time, or the run's when the thread recorded none,
 * so that a per-thread figure is never divided by zero needlessly.
 */
uint64_t atio_report_thread_ns(const struct atio_result *r, const struct atio_stats *s);

#endif
