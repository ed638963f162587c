/* SPDX-License-Identifier: MIT */
#ifndef ATIO_EXPAND_H
#define ATIO_EXPAND_H

/*
 * --expand: files that grow. Every write appends to a file the thread owns
 * (-n >= -p); a file that holds its share of -u, in whole blocks, is
 * truncated to zero and grows anew. The worker's loops decide when
 * (src/run/worker.c); this module sizes the share and does the truncation.
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

#endif
