/* SPDX-License-Identifier: MIT */
#ifndef ATIO_MERGE_META_H
#define ATIO_MERGE_META_H

/*
 * atio merge of metadata runs (src/merge/merge_meta.c): the --json
 * documents of atio --meta, one a node, summed phase by phase. A phase's
 * operations are added, its latency histograms merged bucket by bucket
 * (exactly what one histogram of every operation would hold), its time
 * the slowest node's ("wall": every node's operations over it, mdtest's
 * rule across nodes started together), and beside it each node's own
 * figure summed ("sum of nodes"). The documents must have the same
 * phases in the same order.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "atio/base/error.h"
#include "atio/base/meta_opts.h"
#include "atio/stats/hist.h"
#include "atio/stats/interval.h"

struct atio_merge_meta_phase {
	enum atio_meta_phase phase;
	uint64_t ops;
	uint64_t elapsed_ns;       /* the slowest node's */
	uint64_t shortest_ns;      /* the shortest pass of any node */
	double nodes_sum;          /* each node's ops_per_sec, summed */
	double threads_sum;        /* each node's threads_sum_ops_per_sec, summed */
	unsigned too_fast;         /* nodes whose phase was too fast to measure */
	struct atio_hist lat;
	struct atio_ival_series *timeline; /* the nodes' intervals merged, or NULL */
	bool lost;                 /* a node had none, or of another length: no timeline */
};

struct atio_merge_meta {
	unsigned ndocs;
	unsigned nphases;
	struct atio_merge_meta_phase phase[ATIO_META_MAX_PHASES];
	enum atio_meta_phase figure;
	double first_start, last_start; /* the documents' start_epoch, earliest and latest */
	double first_end, last_end;     /* their end_epoch */
};

/* Whether @doc is the document of a metadata run (its settings' "workload" is "meta"). */
bool atio_merge_meta_is(json_t *doc);

/*
 * Add the metadata document @doc (@name in messages) to @m. Returns 0, or
 * -EINVAL with @e filled (exit 2): not a metadata document, other phases
 * than the first document's, a phase without its figures.
 */
int atio_merge_meta_add(struct atio_merge_meta *m, json_t *doc, const char *name,
			struct atio_error *e);

/* The merged result as text (the result line, a line a phase) or as one JSON document. */
/* Free what the merge of @m holds. */
void atio_merge_meta_free(struct atio_merge_meta *m);

void atio_merge_meta_text(FILE *f, const struct atio_merge_meta *m);
void atio_merge_meta_json(FILE *f, const struct atio_merge_meta *m);

#endif
