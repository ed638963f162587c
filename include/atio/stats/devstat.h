/* SPDX-License-Identifier: MIT */
#ifndef ATIO_STATS_DEVSTAT_H
#define ATIO_STATS_DEVSTAT_H

/*
 * What a block device's own counters say over a window (src/stats/devstat.c):
 * two snapshots of /sys/block/DEV/stat, one at each end, and the figures
 * iostat derives from their differences. The file has 11 fields (kernels
 * before 4.18), 15 (discards, from 4.18) or 17 (flushes, from 5.5); any
 * shorter set is kept as far as it goes. A counter missing from either
 * snapshot, or one that went backwards (it wrapped, or the device was
 * replaced between the two), is unknown: its figures are NaN, never a
 * huge number.
 */

#include <stdbool.h>
#include <stdint.h>

/* The fields of the stat file, in its order (Documentation/block/stat.rst). */
enum atio_devstat_field {
	ATIO_DS_READ_IOS, ATIO_DS_READ_MERGES, ATIO_DS_READ_SECTORS, ATIO_DS_READ_TICKS,
	ATIO_DS_WRITE_IOS, ATIO_DS_WRITE_MERGES, ATIO_DS_WRITE_SECTORS, ATIO_DS_WRITE_TICKS,
	ATIO_DS_IN_FLIGHT,         /* a gauge: requests in flight now, not a counter */
	ATIO_DS_IO_TICKS,          /* ms the device had at least one request in flight */
	ATIO_DS_TIME_IN_QUEUE,     /* ms of requests in flight, summed over requests */
	ATIO_DS_DISCARD_IOS, ATIO_DS_DISCARD_MERGES, ATIO_DS_DISCARD_SECTORS,
	ATIO_DS_DISCARD_TICKS,
	ATIO_DS_FLUSH_IOS, ATIO_DS_FLUSH_TICKS,
	ATIO_DS_FIELDS
};

/* The directions with requests, merges, sectors and ticks of their own. */
enum atio_devstat_dir { ATIO_DS_READ, ATIO_DS_WRITE, ATIO_DS_DISCARD, ATIO_DS_DIRS };

/* One reading of a stat file. */
struct atio_devsnap {
	uint64_t f[ATIO_DS_FIELDS];
	unsigned n;                /* fields read: 11, 15, 17, or fewer */
	uint64_t ns;               /* CLOCK_MONOTONIC instant of the reading */
};

/* One direction's figures over the window; NaN where unknown. */
struct atio_devstat_dir_fig {
	bool known;                /* its requests' count is known */
	double iops;               /* requests a second */
	double bytes_per_sec;
	double merges;             /* requests merged into others: their count */
	double merges_per_sec;
	double req_bytes;          /* average request size (NaN: no request) */
	double await_ms;           /* average time a request took (NaN: no request) */
};

/* The figures of a window between two snapshots. */
struct atio_devstat_fig {
	uint64_t elapsed_ns;       /* between the two readings */
	unsigned fields;           /* fields both readings have */
	uint32_t known;            /* bit i: delta[i] is known */
	uint64_t delta[ATIO_DS_FIELDS]; /* the counters' differences (in flight: the end's) */
	struct atio_devstat_dir_fig dir[ATIO_DS_DIRS];
	double flush_per_sec, flush_await_ms;
	double aqu_sz;             /* average requests in flight: time_in_queue over time */
	double util;               /* io_ticks over time: 0..1 (not saturation, see the man page) */
};

/*
 * Parse the text of a stat file into @s (s->ns is left alone): up to 17
 * decimal fields separated by blanks. Returns the count of fields, or -1
 * when the text has none or a field is not a number.
 */
int atio_devsnap_parse(const char *text, struct atio_devsnap *s);

/*
 * The figures from @a to @b, later. Every per-second figure is NaN when no
 * time passed; a counter's figures are NaN when it is unknown.
 */
void atio_devstat_figures(const struct atio_devsnap *a, const struct atio_devsnap *b,
			  struct atio_devstat_fig *f);

/* Whether counter @field of @f is known. */
bool atio_devstat_known(const struct atio_devstat_fig *f, enum atio_devstat_field field);

/* The name of direction @d: "read", "write", "discard". */
const char *atio_devstat_dir_name(enum atio_devstat_dir d);

/*
 * A counter's change from @a to @b over @ns, per second: NaN when it went
 * backwards or no time passed (for the counters of cgroup files too).
 */
double atio_devstat_per_sec(uint64_t a, uint64_t b, uint64_t ns);

#endif
