/* SPDX-License-Identifier: MIT */
#ifndef ATIO_MERGE_RUNS_H
#define ATIO_MERGE_RUNS_H

/*
 * Whether a document may join a merge as a run of its own, beside the
 * others (src/merge/merge_runs.c). A sum is of runs that ran at one time:
 *
 * - One run is summed once. Two documents of the same host, seed and
 *   start instant (struct atio_merge_run) are one run, given twice or
 *   copied: refused, naming both.
 * - Runs that ran one after another are not concurrent. Every two
 *   documents' measured windows [start_epoch, end_epoch) must share some
 *   time (on a line, every two sharing some time is all sharing one
 *   instant): one that began after another ended, or ended before another
 *   began, is refused, naming both and their windows. Documents without
 *   their instants (older atio) are not compared.
 *
 * m->unaligned lets windows that share no time through (the caller judges
 * the start skew itself, as atio-parallel.sh does against --max-skew);
 * m->sequential takes passes run one after another on purpose: they are
 * tabulated, not summed, and their windows are not compared. A run given
 * twice is refused either way.
 */

#include "atio/base/error.h"
#include "atio/merge/merge.h"

/*
 * Whether @d may be added to @m (before atio_merge_add()): 0, or -EINVAL
 * with @e filled (exit 2) and a message naming @d and the document it
 * clashes with.
 */
int atio_merge_check_run(const struct atio_merge *m, const struct atio_merge_doc *d,
			 struct atio_error *e);

/* Note the window of m->docs[m->ndocs - 1], just added (atio_merge_add() calls it). */
void atio_merge_note_window(struct atio_merge *m);

#endif
