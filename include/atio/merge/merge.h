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
 *
 * A merge is folded one document at a time (atio_merge_add()): the
 * caller may free each document once added, and the merge keeps only a
 * line per document, so that N documents need memory for N lines and one
 * document, not N documents.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "atio/base/error.h"
#include "atio/base/json.h"
#include "atio/stats/interval.h"
#include "atio/stats/stats.h"
#include "atio/document/doc.h"
#include "atio/merge/merge_steady.h"



/*
 * What the merge keeps of a document once it is added: its line in the
 * output. The document itself (its histograms: ~300 KB) can then be
 * freed, so that merging N documents holds one at a time.
 */
struct atio_merge_entry {
	const char *file;          /* not owned: must outlive the merge */
	double value, time_sec, start_epoch, end_epoch;
	bool interrupted;
	uint64_t ops, bytes, syncs;
	/* --interval: its rate per interval and its stalls (has_ivals false without) */
	bool has_ivals;
	size_t nvals;
	double *vals;
	size_t stalls;
	double longest_stall_sec;
	struct atio_merge_run run;
};

/* How the documents' settings differ from the first's (merge_check.c). */
struct atio_merge_differ {
	unsigned n;                /* documents whose setting differs from the first's */
	const char *file;          /* the first of them */
	char val[ATIO_MERGE_SETTING_LEN]; /* its setting */
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
	/* Each document's line, [ndocs]. */
	struct atio_merge_entry *docs;
	unsigned cap;
	/*
	 * The cluster's intervals, folded in document by document: NULL
	 * without, or once a document had none or intervals of another
	 * length than the first's (then lost_by names it).
	 */
	struct atio_ival_series *timeline;
	uint64_t interval_ns;      /* the first document's, 0 when it had none */
	const char *lost_by;
	uint64_t lost_interval_ns; /* its interval length, 0 when it had none */
	/* The settings: the first document's, and where the others differ. */
	struct atio_merge_settings first;
	struct atio_merge_differ differ[ATIO_MERGE_NSETTINGS];
	/*
	 * The measured windows (merge_runs.c): the document that started
	 * last and the one that ended first, indices in docs[] (valid when
	 * windows is true: a document with both instants was added).
	 */
	bool windows;
	unsigned latest_start, earliest_end;
	/* --sequential: passes one after another, tabulated, not summed */
	bool sequential;
	/* --unaligned: summed even when their windows share no instant */
	bool unaligned;
	/* --steady: the documents' rounds summed round by round and judged */
	struct atio_merge_steady steady;
};


/* Free what @m holds (its documents' lines and timeline). */
void atio_merge_free(struct atio_merge *m);

/* Start an empty merge. */
void atio_merge_init(struct atio_merge *m);

/*
 * Add document @d to @m: its counters, histograms, intervals (folded into
 * m->timeline) and its line; @d may be freed after. Returns 0; -EINVAL
 * with @e filled (exit 2), @m unchanged, when its unit differs from the
 * documents' before it: MB/s and IOPS do not add up; when it is a --mix
 * run and those before it are not, or the other way round: a sum of reads
 * and writes is neither, and its read and write figures would be partial;
 * when it reads and those before it write, or the other way round (the
 * same reason); when the sum would no longer be a finite number; -ENOMEM
 * (exit 1) when memory ran out. A setting that differs from the first
 * document's (atio_merge_warning()) and intervals that cannot be summed
 * are not refused.
 */
int atio_merge_add(struct atio_merge *m, const struct atio_merge_doc *d, struct atio_error *e);

/*
 * The merge @m as text: the sum line "Sum value = { X } UNIT;", for --mix
 * runs a "read:" and a "write:" line as atio's own result has them, the
 * start and end skew, the merged latency ("write latency" beside the
 * "sync latency" of runs that sync), the totals, then one line per
 * document with its share of the sum. Writes to @f only.
 */
void atio_merge_text(FILE *f, const struct atio_merge *m);

/* The same as one JSON document on one line ("read" and "write" null unless --mix). */
void atio_merge_json(FILE *f, const struct atio_merge *m);

/* That document as the value of member @key (NULL: an element, or the document) of @j. */
void atio_merge_json_value(struct atio_json *j, const char *key, const struct atio_merge *m);

/*
 * A latency line as atio's own result prints it, "NAME (usec): min ...,
 * max ... (merged from N documents)", or "NAME (usec): none".
 */
void atio_merge_text_latency(FILE *f, const char *name, const struct atio_hist *h, unsigned n);

/* A histogram's figures as member @key of @j, without buckets (count, min, mean, p50...). */
void atio_merge_json_hist(struct atio_json *j, const char *key, const struct atio_hist *h);


#endif
