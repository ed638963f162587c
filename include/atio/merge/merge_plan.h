/* SPDX-License-Identifier: MIT */
#ifndef ATIO_MERGE_PLAN_H
#define ATIO_MERGE_PLAN_H

/*
 * Merging the documents of a plan (atio --and/--then --json) run on
 * several nodes (src/merge/merge_plan.c). Every document must be of the
 * same plan: as many phases declared and run, as many jobs in each
 * phase. Each job is merged over the documents by the merge of single
 * runs (atio/merge/merge.h): its settings compared, its windows checked
 * (atio/merge/merge_runs.h), its histograms merged exactly. A phase's
 * combined figures come from its merged jobs: their counts added, their
 * histograms merged, and its value every job's I/O of every document in
 * the first job's unit over the phase's window, from the first start of
 * any of its jobs to the last end.
 */

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "atio/base/error.h"
#include "atio/merge/merge.h"

/* What one document says of one phase as a whole: its combined result. */
struct atio_merge_phase_doc {
	const char *file;          /* not owned */
	bool measured;             /* its result was not null */
	char unit[ATIO_MERGE_UNIT_LEN];
	double value, time_sec, start_epoch, end_epoch;
	bool interrupted;
};

/* One phase over every document. */
struct atio_merge_phase {
	unsigned njobs;
	struct atio_merge *jobs;   /* [njobs], each job's merge over the documents */
	struct atio_merge_phase_doc *docs; /* [the plan's ndocs] */
	unsigned ninterrupted;
};

/* The plans merged so far. */
struct atio_merge_plan {
	unsigned nphases;          /* 0 until the first document is added */
	struct atio_merge_phase *phases;
	unsigned ndocs;
	unsigned nincomplete;      /* documents whose plan stopped before its end */
	const char *first;         /* the first document's name (not owned) */
	bool sequential, unaligned; /* as merge's --sequential and --unaligned */
};

/* The combined figures of phase @ph (atio_merge_phase_combine()). */
struct atio_merge_phase_sum {
	bool measured;             /* some job measured something */
	const char *unit;          /* the first job's */
	double start_epoch, end_epoch, time_sec;
	double value, mbs, iops;
	struct atio_stats st;      /* every job's counters and histograms merged */
};

/* Whether the parsed document @doc is a plan's: it has a "plan" object. */
bool atio_merge_is_plan(json_t *doc);

/* Start an empty merge of plans; @sequential and @unaligned go to each job's merge. */
void atio_merge_plan_init(struct atio_merge_plan *p, bool sequential, bool unaligned);

/* Free what @p holds. */
void atio_merge_plan_free(struct atio_merge_plan *p);

/*
 * Add the plan document @doc, read from file @file (which must outlive
 * @p), its instants moved back by @offset seconds (--clock-offset): each
 * job to its merge (atio_merge_check_run(), atio_merge_add()). Returns
 * 0; -EINVAL with @e filled (exit 2) naming @file and what differs from
 * the first document (phases declared or run, jobs in a phase), what is
 * malformed, or which phase and job a job's merge refused and why;
 * -ENOMEM (exit 1). @p is not to be added to after a failure.
 */
int atio_merge_plan_add(struct atio_merge_plan *p, json_t *doc, const char *file, double offset,
			struct atio_error *e);

/* The combined figures of phase @ph into @s. */
void atio_merge_phase_combine(const struct atio_merge_phase *ph, struct atio_merge_phase_sum *s);

/* The number of warnings about @p (its jobs' merges'), and warning @k of them into @buf. */
unsigned atio_merge_plan_warnings(const struct atio_merge_plan *p);
void atio_merge_plan_warning(const struct atio_merge_plan *p, unsigned k, char *buf, size_t len);

/*
 * The text: per phase ("phase: N of M" when there are several) its
 * result line "time: T sec; rate: { V } UNIT;" (the only line with the
 * word rate in a phase; none with --sequential), a "jobs:" line, the
 * phase's merged latency and totals, each document's own value of the
 * phase, then each job's merge (atio_merge_text()) under "job N: ".
 */
void atio_merge_plan_text(FILE *f, const struct atio_merge_plan *p);

/*
 * One JSON document of a plan's shape (@version in "atio"): {"atio":{"version"},"plan":
 * {"phases"},"phases":[{"phase","result" (the combined figures, or
 * null),"interrupted","documents_merged","jobs":[each job's merge as
 * atio_merge_json() writes it]}],"phases_run","complete","documents"}.
 */
void atio_merge_plan_json(FILE *f, const struct atio_merge_plan *p, const char *version);

#endif
