/* SPDX-License-Identifier: MIT */
#ifndef ATIO_REPORT_H
#define ATIO_REPORT_H

/*
 * Rendering. One struct atio_result feeds both the text and the JSON
 * renderer, so the two can never disagree. The word "rate" appears on the
 * result line and on no other line of the text output, because scripts take
 * the value with grep rate | awk '{print $6}'.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "atio/base/opts.h"
#include "atio/run/readback.h"
#include "atio/stats/passes.h"
#include "atio/stats/stats.h"

struct atio_ival_series;
struct atio_steady;

struct atio_device_window;

struct atio_result {
	const struct atio_opts *opts;
	const char *version;
	const char *engine;        /* backend that ran */
	unsigned nthreads;
	const struct atio_stats *threads; /* [nthreads] */
	struct atio_stats total;   /* threads merged */
	uint64_t elapsed_ns;       /* common measured time of the run */
	struct timespec wall_start;/* CLOCK_REALTIME at measured start */
	struct timespec wall_end;
	bool interrupted;
	int signo;                 /* the signal that interrupted, or 0 */
	bool nothing_measured;     /* interrupted before the measured time began */
	bool in_final_sync;        /* interrupted after -t, in the final sync */
	/* --mix */
	const struct atio_dir_stats *dir; /* [ATIO_DIRS]: reads, writes; NULL otherwise */
	/* [nthreads], each [ATIO_DIRS]: each thread's reads and writes; NULL otherwise */
	const struct atio_dir_stats *const *thread_dir;
	/* --interval */
	struct atio_ival_series **thread_ivals; /* [opts->threads]: each thread's, or NULL */
	struct atio_ival_series *timeline; /* their merge (atio_report_timeline()), or NULL */
	/* --verify on writes: the read-back after the run (atio/run/readback.h), else NULL */
	const struct atio_readback *readback;
	/* One job of a run of several: its line says "value", the run's alone "rate". */
	bool in_jobs;
	/* --size, --loops: what ended the run (its last thread); the passes merged, or NULL */
	enum atio_end ended;
	struct atio_ival_series *passes;
	/* --steady: the rounds before the measured time and their verdict, else NULL */
	const struct atio_steady *steady;
	/* The devices under the target over the measured window, or NULL (device_report.h). */
	const struct atio_device_window *device;
};

struct atio_ival_series;

/*
 * Merge the threads' intervals into r->timeline over r->elapsed_ns and
 * set every interval's rates in the result's unit (src/print/interval_report.c).
 * Returns 0, or -ENOMEM with r->timeline NULL.
 */
int atio_report_timeline(struct atio_result *r);

/* Free r->timeline. */
void atio_report_timeline_free(struct atio_result *r);

/*
 * --loops: merge the threads' passes (r->threads[i].passes) into
 * r->passes (src/print/report_passes.c). Returns 0, or -ENOMEM with
 * r->passes NULL. Without --loops, nothing.
 */
int atio_report_passes(struct atio_result *r);

/* Free r->passes. */
void atio_report_passes_free(struct atio_result *r);

/* What ended the run: "time", "size", "loops" or "signal". */
const char *atio_report_ended(const struct atio_result *r);

/*
 * The reported value: MB/s (2^20 bytes), IOPS, or syncs per second for
 * --fsync/--fdatasync with --iops, over r->elapsed_ns. 0 when no time ran.
 */
double atio_result_value(const struct atio_result *r);

/*
 * A result's MB/s, IOPS and CPU (user and system, percent of one CPU)
 * over r->elapsed_ns; 0 when no time ran.
 */
void atio_result_rates(const struct atio_result *r, double *mbs, double *iops, double *cpu_pct);

/*
 * A run of several jobs (src/print/report_jobs.c): @all combined from the
 * jobs' results: their I/O merged, its time from the first job's measured
 * start to the last one's end, in the first job's unit (its options).
 */
void atio_result_combine(struct atio_result *all, const struct atio_result *const *jobs,
			 unsigned n);

/*
 * Its text: the run's result line ("rate" in it, for scripts), a "jobs:"
 * line saying how it counts, then each job's command line and its whole
 * text (its line says "value", not "rate"), every line after "job N: ".
 */
void atio_report_jobs_text(FILE *f, const struct atio_result *all,
			   struct atio_result *const *jobs, unsigned n);

/* @text's lines on @f, each after "job @job: " (the jobs' lines of a plan, run or merged). */
void atio_report_prefixed(FILE *f, unsigned job, const char *text);

/*
 * Its JSON, as members of an object the caller opens and closes: "result"
 * (the combined figures), "interrupted", "jobs" ([each job's whole
 * document as atio_report_json() writes it]).
 */
void atio_report_jobs_json(FILE *f, const struct atio_result *all,
			   struct atio_result *const *jobs, unsigned n);

/*
 * The at_io_iops settings header (Title, Cmdline, Version, Processes, Time,
 * Warmup, Testcase) followed by atio's Engine and Seed lines.
 */
void atio_report_header(FILE *f, const struct atio_opts *o, const char *version,
			const char *engine);

/* The same settings as one JSON document, for -a --json. */
void atio_report_settings_json(FILE *f, const struct atio_opts *o, const char *version,
			       const char *engine);

/*
 * The result line, exactly "time: %f sec; rate: { %.5f } UNIT;", then
 * latency, CPU, operation counts and the seed; with -v one line per thread.
 * When nothing was measured, no result line: only the "interrupted:" line
 * and the seed.
 */
void atio_report_text(FILE *f, const struct atio_result *r);

/*
 * The result line alone: "time: %f sec; WORD: { %.5f } UNIT;" (@word
 * "rate" for a run's, "value" for a job's), for the runs that print it
 * with their own lines below (a metadata run's, src/print/report_meta.c).
 */
void atio_report_result_line(FILE *f, uint64_t elapsed_ns, const char *word, double value,
			     const char *unit);

/*
 * One JSON document: settings, totals, per-thread results, latency
 * percentiles and histogram buckets, start and end wall-clock times. When
 * nothing was measured, "measured" is false, "result" is null and there
 * are no threads.
 */
void atio_report_json(FILE *f, const struct atio_result *r);

/* --mix: the read and write figures (src/print/report_mix.c). */
struct atio_json;

/*
 * A histogram as "NAME": {count, min, mean, p50, p90, p99, p99.9, max,
 * sub_bits} and with @buckets every non-empty [index, low, count]: the
 * form of the result's "latency_ns" (src/print/report_json.c).
 */
void atio_report_json_hist(struct atio_json *j, const char *key, const struct atio_hist *h,
			   bool buckets);
/* The same, and the standard deviation and percentiles of atio/print/pct.h. */
void atio_report_json_latency(struct atio_json *j, const char *key, const struct atio_hist *h,
			      bool buckets, const struct atio_opts *o);

/*
 * The line of one direction below the result line, e.g.
 * "read: 7012.34 IOPS, 27.39 MB/s, 70123 ops, 287223808 bytes, share 70.12%,
 * latency (usec): min ..., mean ..., p50 ..., ..., max ..., stdev ..." (all
 * on one line, the points of @o's --percentiles; @o may be NULL),
 * "latency (usec): none" when it did nothing. @iops and @mbs are the
 * caller's: over the run's time, or summed over merged documents. The
 * share is of @total_ops (0 when there are none).
 */
void atio_report_dir_text(FILE *f, const char *name, const struct atio_dir_stats *d,
			  uint64_t total_ops, double iops, double mbs, const struct atio_opts *o);

/*
 * The same as the JSON object @key: ops, bytes, iops, mbs, share (percent
 * of the operations) and latency_ns (with @buckets, as above, and then its
 * stdev and percentiles, those of @o's --percentiles too; @o may be NULL).
 */
void atio_report_dir_json(struct atio_json *j, const char *key, const struct atio_dir_stats *d,
			  uint64_t total_ops, double iops, double mbs, bool buckets,
			  const struct atio_opts *o);
/* What --prepare did: the survey's counts and the fill's bytes and time. */
struct atio_prepare_result {
	const struct atio_opts *opts;
	const char *version;
	unsigned files;
	uint64_t file_size;
	unsigned created, resumed, reused, truncated, taken;
	uint64_t written;          /* bytes the fill wrote, 0 when complete */
	uint64_t elapsed_ns;       /* the fill's time, fdatasync included */
};

/*
 * --prepare's result: "prepare: X MiB written in T sec; Y MB/s" (or
 * "prepare: nothing written: the dataset was complete") and a "files:"
 * line; neither has the word of the result line. As JSON: the settings
 * and a "prepare" object.
 */
void atio_report_prepare_text(FILE *f, const struct atio_prepare_result *p);
void atio_report_prepare_json(FILE *f, const struct atio_prepare_result *p);
/*
 * Write @s (a path) to @f as text output may carry it: control characters
 * escaped (\n, \t, \xNN) and every "rate" written r\x61te, so that grep
 * rate finds the result line only. Ordinary paths print unchanged.
 */
void atio_report_put_text(FILE *f, const char *s);

#endif
