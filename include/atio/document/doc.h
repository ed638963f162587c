/* SPDX-License-Identifier: MIT */
#ifndef ATIO_DOC_H
#define ATIO_DOC_H

/*
 * A run's --json result document read back (json_read.c) and checked
 * against itself (doc_check.c): what atio merge, the driver and the
 * report page take from it. Merging documents is merge.h's.
 */

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "atio/base/error.h"
#include "atio/stats/interval.h"
#include "atio/stats/stats.h"

struct atio_doc_steady;

#define ATIO_MERGE_UNIT_LEN 16
#define ATIO_MERGE_NSETTINGS 18    /* the settings compared (merge_check.c) */
#define ATIO_MERGE_SETTING_LEN 48
#define ATIO_MERGE_HOST_LEN 256    /* a host name, as system.hostname has it */
#define ATIO_MERGE_SEED_LEN 24     /* a seed in decimal, as settings.seed_string has it */

/*
 * What tells one run from another: the host it ran on, its seed and the
 * instant its measured time began, as its document holds them ("" and 0
 * where an older document has none: then it is not compared).
 */
struct atio_merge_run {
	char host[ATIO_MERGE_HOST_LEN];
	char seed[ATIO_MERGE_SEED_LEN];
	double start_epoch;        /* as read, before any --clock-offset */
};

/* The settings of a run that merge compares, each as its document writes it. */
struct atio_merge_settings {
	char val[ATIO_MERGE_NSETTINGS][ATIO_MERGE_SETTING_LEN]; /* "" where the document has none */
};

/* What one atio --json result says, as merge needs it. */
struct atio_merge_doc {
	const char *file;          /* the name it was read from (not owned) */
	char unit[ATIO_MERGE_UNIT_LEN]; /* "MB/s", "IOPS" or "sync/s" */
	double value;              /* result.value, in unit */
	double time_sec;           /* result.time_sec */
	double start_epoch;        /* start of the measured time, seconds */
	double end_epoch;          /* its end */
	bool interrupted;
	struct atio_stats st;      /* counters, CPU and the histograms */
	/* --mix */
	bool mixed;                /* has "read" and "write" objects */
	struct atio_dir_stats dir[ATIO_DIRS]; /* reads, writes */
	double dir_iops[ATIO_DIRS], dir_mbs[ATIO_DIRS]; /* as the document has them */
	/* --rate */
	double target;             /* result.target, 0 when the run had no cap */
	/* --interval: its intervals and stalls; NULL for a document without (older atio) */
	struct atio_ival_series *ivals;
	struct atio_merge_settings set;
	struct atio_merge_run run;
	struct atio_doc_steady *steady; /* --steady's rounds (doc_steady.h); NULL without */
};

/*
 * Read the atio --json result document in file @path into @d (d->file is
 * set to @path, which must outlive @d). Returns 0, or -EINVAL with @e
 * filled (e->err the errno when the file could not be opened), exit
 * status 2, and a message
 * that names @path and says what is wrong: not readable, empty, not JSON
 * (with the line and column), truncated, not an atio run's result
 * (another program's JSON, atio's -a settings document, a --check or
 * --prepare result, a run that measured nothing), a histogram that does
 * not add up, or rates that its counts and times contradict
 * (atio_merge_check_figures()).
 */
int atio_merge_read(const char *path, struct atio_merge_doc *d, struct atio_error *e);

/*
 * Read a result document from the string @text; @name stands for its file
 * in messages. Same contract as atio_merge_read().
 */
int atio_merge_read_string(const char *text, const char *name, struct atio_merge_doc *d,
			   struct atio_error *e);

/* Free what atio_merge_read() allocated in @d. */
void atio_merge_doc_free(struct atio_merge_doc *d);

/*
 * Whether the rates of document @d agree with its counts and times:
 * result.value with result.ops, bytes or syncs (by its unit) over
 * result.time_sec; with --mix each direction's iops and mbs; each
 * interval's value, mbs, iops and syncs_per_sec over its duration.
 * Returns 0, or -EINVAL with @e filled (exit 2) and a message naming
 * d->file, the member, its value and the figures it contradicts.
 */
int atio_merge_check_figures(const struct atio_merge_doc *d, struct atio_error *e);

/* The settings of run document @doc that merge compares, into @s. */
void atio_merge_settings_read(json_t *doc, struct atio_merge_settings *s);

/* The option and document key of compared setting @i (below ATIO_MERGE_NSETTINGS). */
const char *atio_merge_setting_option(unsigned i);
const char *atio_merge_setting_key(unsigned i);

/*
 * The value in @unit ("MB/s", "IOPS", "sync/s") of @ops, @bytes or @syncs
 * over @sec seconds (0 when no time ran): how atio computes a result's
 * value from its counts (src/document/doc_check.c).
 */
double atio_merge_rate(const char *unit, uint64_t ops, uint64_t bytes, uint64_t syncs,
		       double sec);

#endif
