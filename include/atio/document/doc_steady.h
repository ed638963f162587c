/* SPDX-License-Identifier: MIT */
#ifndef ATIO_DOC_STEADY_H
#define ATIO_DOC_STEADY_H

/*
 * The "steady" object of a run's --json document (--steady's rounds,
 * src/print/report_steady.c) read back and checked against itself: each
 * round's figure against the counts it comes from. What atio merge sums
 * round by round (atio/merge/merge_steady.h) and the report page draws.
 */

#include <stdbool.h>

#include <jansson.h>

#include "atio/base/error.h"
#include "atio/base/opts.h"
#include "atio/stats/steady.h"

struct atio_doc_steady {
	enum atio_steady_kind kind;
	double round_sec;          /* --round */
	unsigned n;                /* rounds run */
	unsigned max_rounds;       /* --rounds */
	bool all;                  /* --all-rounds: the rounds went on once steady */
	bool over;                 /* the rounds ended by the criteria or the last round */
	unsigned steady_at;        /* the round (from 1) where both held first; 0: never */
	unsigned first, last;      /* the window the document names, from 1; 0: none */
	double *value;             /* [n]: each round's figure, NAN where unknown */
	struct atio_steady_round *round; /* [n]: its counts; NULL in an older document */
};

/*
 * The "steady" member of run document @doc into *@out: NULL when it is
 * null or absent (a run without --steady), else an object the caller
 * frees with atio_doc_steady_free(). @name stands for the document in
 * messages. Returns 0, or -EINVAL with @e filled (exit 2) naming @name
 * and the member: not an object, a judge other than iops, mbs or lat,
 * rounds that are not its values' count, a figure that its round's counts
 * contradict; -ENOMEM (exit 1).
 */
int atio_doc_steady_read(json_t *doc, const char *name, struct atio_doc_steady **out,
			 struct atio_error *e);

void atio_doc_steady_free(struct atio_doc_steady *s);

#endif
