/* SPDX-License-Identifier: MIT */
#ifndef ATIO_OUT_BSMIX_H
#define ATIO_OUT_BSMIX_H

/*
 * An -s mix (atio/run/sizes.h) in the result: in words for the Testcase
 * line, and in the JSON settings. Both say how the rate is counted: MB/s
 * counts the bytes, IOPS each I/O whatever its size.
 */

#include <stddef.h>

#include "atio/base/json.h"
#include "atio/base/opts.h"

#define ATIO_BSMIX_WORDS (ATIO_BSMIX_MAX * 2 * 24 + 160)

/*
 * @o's mix in words into @buf, e.g. "a mix of block sizes by share of the
 * I/Os: 4K 50%, 64K 30%, 1M 20% (MB/s counts the bytes, IOPS every I/O
 * whatever its size)"; with --mix READS:WRITES, "reads 4K 100%; writes
 * ...". "" without a mix.
 */
void atio_bsmix_words(char *buf, size_t len, const struct atio_opts *o);

/*
 * The settings' "block_mix" (null without a mix, else an array of
 * {"direction": "all", "read" or "write", "size": bytes, "share": percent})
 * and "rate_counts" ("bytes" for MB/s, "ios" for IOPS, "syncs" for sync/s).
 */
void atio_bsmix_json(struct atio_json *j, const struct atio_opts *o);

#endif
