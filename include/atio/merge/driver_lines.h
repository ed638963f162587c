/* SPDX-License-Identifier: MIT */
#ifndef ATIO_DRIVER_LINES_H
#define ATIO_DRIVER_LINES_H
/*
 * The lines the cluster driver prints under a node's result and under a
 * sum, per direction and per kind of call, from a merge (driver_lines.c):
 * for --mix runs a "read:" and a "write:" line (value in IOPS and MB/s,
 * latency p50, p99, p99.9), for runs that sync a "write latency" and a
 * "sync latency" line (the write() calls' and the fsync()/fdatasync()
 * calls'), as fio gives its sync block apart. Nothing for other runs. The
 * figures are those of atio merge: the sums of the documents' values per
 * direction and the percentiles of the merged histograms. The word "rate"
 * is on none of them (a script finds the result line with grep rate).
 */
#include <stdbool.h>
#include <stdio.h>

#include "atio/base/json.h"
#include "atio/merge/merge.h"

/*
 * Write those lines of @m to @f, each preceded by "@key<TAB>" when @key is
 * not NULL (the KEY<TAB>VALUE lines the driver reads); with @merged, each
 * latency ends in "(merged from N nodes)".
 */
void atio_driver_lines(FILE *f, const char *key, const struct atio_merge *m, bool merged);

/*
 * The same figures as JSON members of the object open in @j: "read" and
 * "write" ({iops, mbs, ops, bytes, latency_us: {p50, p99, p99.9}}, null
 * unless --mix)
 * and "sync_latency_us" (null when the run made no sync call).
 */
void atio_driver_dirs_json(struct atio_json *j, const struct atio_merge *m);

#endif
