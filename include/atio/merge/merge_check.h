/* SPDX-License-Identifier: MIT */
#ifndef ATIO_MERGE_CHECK_H
#define ATIO_MERGE_CHECK_H

/*
 * What atio merge checks of a run document beyond its form
 * (src/merge/merge.check.c): that its rates are the figures of its own counts,
 * and how its settings compare with the first document's.
 *
 * Refused (exit 2), as atio_merge_add() says: another unit, --mix with
 * runs that are not, reads with writes, a contradicting or non-finite
 * value. Said on stderr, still summed: any other setting that differs
 * (-s, -t, -p, --seq/--rand, the engine, ...: a cluster may be uneven on
 * purpose, as the clients of a fio server may run other jobs, but a sum
 * of unlike runs must not pass unnoticed), and intervals that cannot be
 * summed interval by interval (none in a document, or of another length).
 */

#include <stddef.h>

#include <jansson.h>

#include "atio/base/error.h"
#include "atio/merge/merge.h"


/*
 * Compare the settings of @d, about to be added to @m, with the first
 * document's (or keep them when @d is the first), noting every setting
 * that differs. Returns 0, or -EINVAL with @e filled (exit 2) when one of
 * the two reads and the other writes.
 */
int atio_merge_settings_fold(struct atio_merge *m, const struct atio_merge_doc *d,
			     struct atio_error *e);

/* The number of warnings about @m: settings that differ, intervals left out. */
unsigned atio_merge_warnings(const struct atio_merge *m);

/*
 * Warning @k (below atio_merge_warnings()) into @buf, e.g. "-s
 * (block_size) differs: 4096 in a.json, the first document, 16777216 in
 * b.json and 2 more of the documents: the sum adds up unlike runs".
 */
void atio_merge_warning(const struct atio_merge *m, unsigned k, char *buf, size_t len);

#endif
