/* SPDX-License-Identifier: MIT */
#ifndef ATIO_EXPAND_H
#define ATIO_EXPAND_H

/*
 * --expand: files that grow. Every write appends to a file the thread owns
 * (-n >= -p); a file that holds its share of -u, in whole blocks, is
 * truncated to zero and grows anew. Each file starts empty, and the
 * sequential cursor writes block after block at the end of the file. When
 * the cursor comes back to block 0 of a file that has grown to its share,
 * the run loop (src/run/loop.c) stops queueing, waits until every append
 * in flight has completed (the file's end is then final), truncates the
 * file to zero and goes on. Appends in flight at depth land at increasing
 * offsets; the file grows as they complete. This module sizes the share,
 * tells when a file is full and does the truncation.
 */

#include <stdbool.h>
#include <stdint.h>

#include "atio/base/opts.h"
#include "atio/run/worker.h"

/*
 * The size in bytes a file grows to before it is truncated again: the
 * dataset's file size (-u / -n, 4 KiB-aligned) rounded down to whole
 * blocks of -s. 0 when @o leaves no file or block size.
 */
uint64_t atio_expand_max_size(const struct atio_opts *o);

/*
 * Truncate the file of worker @w's segment @seg to zero, count it, and
 * with @tracing say so on stderr. Nothing of the thread may be in flight.
 * The null engine has no file: the truncation is counted, not made.
 * Returns 0, or -1 with w->err filled and every thread asked to stop.
 */
int atio_expand_restart(struct atio_worker *w, unsigned seg, bool tracing);

/*
 * Whether block @block of @w's segment @seg, the next to write, is the
 * first of the segment while its file holds what an earlier pass appended.
 * The file is then emptied (atio_expand_restart()) before that block is
 * written.
 */
static inline bool atio_expand_full(const struct atio_worker *w, unsigned seg, uint64_t block)
{
	return block == 0 && w->sh->ds->files[w->segs[seg].file].grown != 0;
}

/* A block of @len bytes was handed over for @w's segment @seg's file. */
static inline void atio_expand_grow(struct atio_worker *w, unsigned seg, uint64_t len)
{
	w->sh->ds->files[w->segs[seg].file].grown += len;
}

#endif
