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

#include "atio/stats/hist.h"

struct atio_ival_series;

struct atio_stats {
	uint64_t ops;              /* reads or writes completed */
	uint64_t bytes;            /* bytes they moved */
	uint64_t syncs;            /* fsync/fdatasync completed (not the final one) */
	uint64_t elapsed_ns;       /* measured time, final sync included unless -S */
	uint64_t cpu_user_ns;      /* thread CPU time over the measured time */
	uint64_t cpu_sys_ns;
	uint64_t ctx_vol;          /* context switches over the measured time: waits */
	uint64_t ctx_invol;        /* and preemptions (getrusage's nvcsw, nivcsw) */
	struct atio_hist lat;      /* latency of each read or write */
	struct atio_hist sync_lat; /* latency of each sync */
	/* --rate: lat runs from each I/O's intended start; this from its submission */
	struct atio_hist service;
	uint64_t truncations;      /* --expand: files emptied to grow anew */
	/* --loops: the thread's passes (atio/stats/passes.h); NULL otherwise, and in sums */
	struct atio_ival_series *passes;
};

/*
 * --mix: what one direction (ATIO_REQ_READ or ATIO_REQ_WRITE, the index)
 * did. A mixed run records each latency here only; the total histogram is
 * the merge of the two, made when the thread ends (atio_dir_stats_fold()).
 */
struct atio_dir_stats {
	uint64_t ops;
	uint64_t bytes;
	struct atio_hist lat;
};

#define ATIO_DIRS 2                /* read, write */

/* "read" for direction 0 (ATIO_REQ_READ), "write" for 1 (ATIO_REQ_WRITE). */
static inline const char *atio_dir_name(unsigned i)
{
	return i == 0 ? "read" : "write";
}

/* Zero the counters of @d[ATIO_DIRS] and empty their histograms. */
void atio_dir_stats_init(struct atio_dir_stats *d);

/* Add @src[ATIO_DIRS] into @dst[ATIO_DIRS], direction by direction. */
void atio_dir_stats_merge(struct atio_dir_stats *dst, const struct atio_dir_stats *src);

/* Merge the histograms of @d[ATIO_DIRS] into @s's total latency histogram. */
void atio_dir_stats_fold(struct atio_stats *s, const struct atio_dir_stats *d);

/* Zero every counter and empty the histograms. */
void atio_stats_init(struct atio_stats *s);

/*
 * Add @src into @dst: counters and CPU times add, histograms merge, and the
 * elapsed time is the longest of the two (threads run side by side).
 */
void atio_stats_merge(struct atio_stats *dst, const struct atio_stats *src);

#endif
