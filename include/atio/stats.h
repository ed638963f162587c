/* SPDX-License-Identifier: MIT */
#ifndef ATIO_STATS_H
#define ATIO_STATS_H

/*
 * What one thread measured over the measured time, and the sum over threads.
 * A worker owns its struct atio_stats and is its only writer while running;
 * the counters the progress line reads (ops, bytes, syncs) are written with
 * relaxed atomic stores so that a reader never sees a torn value.
 */

#include <stdint.h>

#include "atio/hist.h"

struct atio_stats {
	uint64_t ops;              /* reads or writes completed */
	uint64_t bytes;            /* bytes they moved */
	uint64_t syncs;            /* fsync/fdatasync completed (not the final one) */
	uint64_t elapsed_ns;       /* measured time, final sync included unless -S */
	uint64_t cpu_user_ns;      /* thread CPU time over the measured time */
	uint64_t cpu_sys_ns;
	struct atio_hist lat;      /* latency of each read or write */
	struct atio_hist sync_lat; /* latency of each sync */
	uint64_t truncations;      /* --expand: files emptied to grow anew */
};

/* Zero every counter and empty both histograms. */
void atio_stats_init(struct atio_stats *s);

/*
 * Add @src into @dst: counters and CPU times add, histograms merge, and the
 * elapsed time is the longest of the two (threads run side by side).
 */
void atio_stats_merge(struct atio_stats *dst, const struct atio_stats *src);

#endif
