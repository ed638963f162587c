/* SPDX-License-Identifier: MIT */
#ifndef ATIO_MERGE_STEADY_H
#define ATIO_MERGE_STEADY_H

/*
 * The steady state of a cluster: the --steady rounds of the documents
 * merged (one a node, all started at one instant) summed round by round
 * and judged by SNIA's criteria (atio/stats/steady.h), after the run.
 *
 * Round k of the cluster is round k of every document: with the start at
 * one instant and rounds of one length, it covers the same wall-clock
 * time on every node. Its figure is the sum of the nodes' figures for
 * iops and mbs (as the merge's sum is the sum of their values), and the
 * mean latency of all their completions for lat (the nodes' latency sums
 * over their counts). The verdict is the first window of 5 summed rounds
 * where both criteria hold (atio_steady_first()), or none.
 *
 * Never summed silently: documents of other judges or round lengths, or
 * some with rounds and some without, are not judged (why says so);
 * documents of fewer rounds than others are judged on the rounds every
 * one ran, and the note says so; a document whose rounds ended at its own
 * verdict (without --all-rounds) is named in the note.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "atio/base/json.h"
#include "atio/document/doc.h"
#include "atio/document/doc_steady.h"
#include "atio/stats/steady.h"

#define ATIO_MERGE_STEADY_WHY 320

struct atio_merge_steady {
	unsigned ndocs;            /* documents folded */
	unsigned with;             /* of them, with rounds */
	const char *without;       /* the first without rounds, when some have them */
	enum atio_steady_kind kind; /* the first document's with rounds */
	double round_sec;
	unsigned n;                /* rounds every document with rounds ran */
	unsigned most;             /* the most rounds a document ran */
	const char *fewest;        /* the document that ran n rounds, when n < most */
	const char *own_end;       /* the first whose rounds ended at its own verdict */
	char why[ATIO_MERGE_STEADY_WHY]; /* not "": why the rounds are not summed */
	/* Per round, [cap]: the figures summed (iops, mbs) or the latency's sums (lat). */
	double *sum;
	uint64_t *lat_sum, *lat_count;
	unsigned cap;
	/* Per document, [ndocs]: its rounds, its own verdict (0: never steady), its figures. */
	unsigned *doc_rounds, *doc_at;
	double **doc_values;       /* [ndocs][doc_rounds[i]], NULL without rounds */
	unsigned doc_cap;
	/* The verdict (atio_merge_steady_judge()). */
	double *value;             /* [n]: the cluster's rounds */
	bool judged;               /* the rounds were summed */
	unsigned steady_at;        /* the round ending the first steady window; 0: none */
	struct atio_steady_verdict v;
};

void atio_merge_steady_init(struct atio_merge_steady *s);
void atio_merge_steady_free(struct atio_merge_steady *s);

/* Fold the rounds of document @d (d->steady, NULL without). Returns 0 or -ENOMEM. */
int atio_merge_steady_add(struct atio_merge_steady *s, const struct atio_merge_doc *d);

/* Sum the rounds folded and judge them. Returns 0 or -ENOMEM. */
int atio_merge_steady_judge(struct atio_merge_steady *s);

/* Whether any document had rounds: then there is something to say. */
static inline bool atio_merge_steady_any(const struct atio_merge_steady *s)
{
	return s->with > 0;
}

/*
 * The note a user must read beside the verdict, in @buf: fewer rounds in
 * a document, or rounds ended at a node's own verdict; "" when none.
 */
void atio_merge_steady_note(const struct atio_merge_steady *s, char *buf, size_t len);

/*
 * The verdict as text, each line after @prefix: "steady (cluster of N
 * documents): ...", the summed rounds, the window's figures, and each
 * document's own verdict. Nothing when no document had rounds.
 */
void atio_merge_steady_text(FILE *f, const char *prefix, const struct atio_merge_steady *s);

/* The same as member "steady" of @j: an object, or null when no document had rounds. */
void atio_merge_steady_json(struct atio_json *j, const struct atio_merge_steady *s);

#endif
