/* SPDX-License-Identifier: MIT */
/*
 * One run summed once, and runs summed only when they ran at one time
 * (atio/merge/merge_runs.h).
 */
#include <errno.h>
#include <string.h>

#include "atio/merge/merge_runs.h"

/* Whether the runs @a and @b are known, and one. */
static bool same_run(const struct atio_merge_run *a, const struct atio_merge_run *b)
{
	return a->host[0] && a->seed[0] && a->start_epoch != 0.0 &&
	       strcmp(a->host, b->host) == 0 && strcmp(a->seed, b->seed) == 0 &&
	       a->start_epoch == b->start_epoch;
}

/* Whether @start and @end make a window to compare (both instants known). */
static bool has_window(double start, double end)
{
	return start != 0.0 && end != 0.0;
}

#define WINDOW "[%.6f, %.6f]"

int atio_merge_check_run(const struct atio_merge *m, const struct atio_merge_doc *d,
			 struct atio_error *e)
{
	const struct atio_merge_entry *x;

	for (unsigned i = 0; i < m->ndocs; i++)
		if (same_run(&m->docs[i].run, &d->run))
			return atio_error_set(e, ATIO_EXIT_USAGE, 0,
					      "%s and %s: one run (host %s, seed %s, started at "
					      "%.6f), given twice: a run is summed once",
					      m->docs[i].file, d->file, d->run.host, d->run.seed,
					      d->run.start_epoch);
	if (m->sequential || m->unaligned || !m->windows ||
	    !has_window(d->start_epoch, d->end_epoch))
		return 0;
	x = &m->docs[m->earliest_end];
	if (d->start_epoch >= x->end_epoch)
		goto apart;
	x = &m->docs[m->latest_start];
	if (d->end_epoch <= x->start_epoch)
		goto apart;
	return 0;
apart:
	return atio_error_set(e, ATIO_EXIT_USAGE, 0,
			      "%s ran " WINDOW ", %s " WINDOW ": their measured times share no "
			      "instant, so they did not run at one time and their sum is no "
			      "cluster's rate (--clock-offset if a host's clock is off; "
			      "--sequential for passes run one after another, tabulated; "
			      "--unaligned to sum them anyway)", x->file, x->start_epoch,
			      x->end_epoch, d->file, d->start_epoch, d->end_epoch);
}

void atio_merge_note_window(struct atio_merge *m)
{
	unsigned k = m->ndocs - 1;
	const struct atio_merge_entry *x = &m->docs[k];

	if (!has_window(x->start_epoch, x->end_epoch))
		return;
	if (!m->windows || x->start_epoch > m->docs[m->latest_start].start_epoch)
		m->latest_start = k;
	if (!m->windows || x->end_epoch < m->docs[m->earliest_end].end_epoch)
		m->earliest_end = k;
	m->windows = true;
}
