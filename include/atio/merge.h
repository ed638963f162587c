/* SPDX-License-Identifier: MIT */
#ifndef ATIO_MERGE_H
#define ATIO_MERGE_H

/*
 * Merging atio --json results: one document per node of a cluster run (or
 * several runs of one node) read back (json_read.c), their counters added
 * and their latency histograms merged with atio_stats_merge(), the code
 * that merges threads, so the cluster percentiles are those of one
 * histogram holding every node's values (merge.c).
 *
 * The sum is at_io_iops' sum: the nodes' reported values added, each the
 * exact double its document holds (not a rounded one). Start skew is the
 * spread of the documents' start instants (start_epoch), end skew that of
 * their end instants: how far the runs were from running side by side.
 */

#include <stdbool.h>
#include <stdio.h>

#include "atio/error.h"
#include "atio/interval.h"
#include "atio/stats.h"

#define ATIO_MERGE_UNIT_LEN 16

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
};

/* The documents merged so far. */
struct atio_merge {
	unsigned ndocs;
	unsigned ninterrupted;
	char unit[ATIO_MERGE_UNIT_LEN];
	double sum;                /* of the documents' values */
	double first_start, last_start;
	double first_end, last_end;
	struct atio_stats total;   /* atio_stats_merge() of every document */
	/* --mix: every document is a mixed run, or none is */
	bool mixed;
	struct atio_dir_stats dir[ATIO_DIRS]; /* atio_dir_stats_merge() of every document */
	double dir_iops[ATIO_DIRS], dir_mbs[ATIO_DIRS]; /* sums, as the value's */
	/* --rate */
	double target;             /* the documents' caps summed */
	unsigned ntargets;         /* documents that had one */
	/* The cluster's intervals (atio_merge_timeline()), NULL without. */
	struct atio_ival_series *timeline;
};

/*
 * Read the atio --json result document in file @path into @d (d->file is
 * set to @path, which must outlive @d). Returns 0, or -EINVAL with @e
 * filled (e->err the errno when the file could not be opened), exit
 * status 2, and a message
 * that names @path and says what is wrong: not readable, not JSON (with
 * the line and column), truncated, not an atio result (another program's
 * JSON, or atio's -a settings document), or a histogram that does not add
 * up.
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
 * The cluster's intervals: the @n documents' intervals summed index by
 * index (counts and rates add, histograms merge), and its stalls, the
 * spans in which no document completed anything, into m->timeline. Only
 * when every document has intervals, all of one length; otherwise
 * m->timeline stays NULL and 0 is returned. Returns 0 or -ENOMEM.
 */
int atio_merge_timeline(struct atio_merge *m, const struct atio_merge_doc *docs, unsigned n);

/* Free m->timeline. */
void atio_merge_free(struct atio_merge *m);

/* Start an empty merge. */
void atio_merge_init(struct atio_merge *m);

/*
 * Add document @d to @m. Returns 0, or -EINVAL with @e filled (exit 2)
 * when its unit differs from the documents' before it: MB/s and IOPS do
 * not add up; or when it is a --mix run and those before it are not, or
 * the other way round: a sum of reads and writes with plain reads (or
 * writes) is neither, and its read and write figures would be partial.
 */
int atio_merge_add(struct atio_merge *m, const struct atio_merge_doc *d, struct atio_error *e);

/*
 * The merge of the @n documents @docs (already added to @m) as text: the
 * sum line "Sum value = { X } UNIT;", for --mix runs a "read:" and a
 * "write:" line as atio's own result has them, the start and end skew,
 * the merged latency, the totals, then one line per document with its
 * share of the sum. Writes to @f only.
 */
void atio_merge_text(FILE *f, const struct atio_merge *m, const struct atio_merge_doc *docs,
		     unsigned n);

/* The same as one JSON document on one line ("read" and "write" null unless --mix). */
void atio_merge_json(FILE *f, const struct atio_merge *m, const struct atio_merge_doc *docs,
		     unsigned n);

#endif
