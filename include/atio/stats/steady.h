/* SPDX-License-Identifier: MIT */
#ifndef ATIO_STATS_STEADY_H
#define ATIO_STATS_STEADY_H

/*
 * Steady state as SNIA's Solid State Storage Performance Test
 * Specification (PTS 2.0.2) defines it. The load runs in rounds of equal
 * length; each round gives one figure (IOPS, MB/s or the mean latency).
 * The measurement window is the last ATIO_STEADY_WINDOW rounds, and the
 * load is steady when both hold over it at once:
 *
 *	range      max - min of the figures        <= 20% of their average
 *	excursion  |slope| * (window - 1)          <= 10% of their average
 *
 * where slope is that of the least-squares line through the window's
 * figures against the round number: the excursion is how far the fitted
 * line moves from the window's first round to its last. A window whose
 * average is 0 (no I/O completed) is never steady: nothing is measured
 * against it.
 *
 * fio's steadystate judges one criterion at a time, its slope per sample
 * interval; here both are judged together over whole rounds, as SNIA
 * does. Nothing here reads a clock or touches a thread: the run layer
 * feeds the rounds (atio/run/rounds.h) and the report prints the verdict.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atio/base/opts.h"

#define ATIO_STEADY_WINDOW 5u         /* rounds of the measurement window */
#define ATIO_STEADY_RANGE_PCT 20.0    /* max - min, % of the window's average */
#define ATIO_STEADY_EXCURSION_PCT 10.0 /* the fitted line's change, % of it */
#define ATIO_STEADY_ROUNDS 25u        /* --rounds' default */
#define ATIO_STEADY_MAX_ROUNDS 1000u
#define ATIO_STEADY_ROUND_NS 60000000000ULL /* --round's default, 60 s */
#define ATIO_STEADY_MIN_ROUND_NS 100000000ULL /* 0.1 s, as --interval */

/* The verdict over the last window of a series of rounds. */
struct atio_steady_verdict {
	bool judged;               /* a whole window with an average above 0 */
	bool steady;               /* both criteria hold */
	size_t first;              /* the window's first round, from 0 */
	size_t n;                  /* rounds in it: ATIO_STEADY_WINDOW, or fewer */
	double avg, min, max;
	double slope;              /* of the least-squares line, per round */
	double range_pct;          /* (max - min) / avg, in %; 0 when not judged */
	double excursion_pct;      /* |slope| * (n - 1) / avg, in %; 0 when not judged */
};

/*
 * Judge the last ATIO_STEADY_WINDOW figures of @v[0..n) (all of them when
 * there are fewer: then judged and steady are false, and the figures
 * describe what there is). Returns v->steady.
 */
bool atio_steady_judge(const double *v, size_t n, struct atio_steady_verdict *out);

/*
 * The first window of @v[0..n) where both criteria hold, as the rounds
 * would have found it one after another: its verdict in *@out and the
 * round (from 1) that ends it; 0 when no window holds them, *@out then
 * the verdict of the last window. The cluster's rounds are judged so
 * after the run (atio/merge/merge_steady.h).
 */
size_t atio_steady_first(const double *v, size_t n, struct atio_steady_verdict *out);

/* What one round of the load did, summed over its threads. */
struct atio_steady_round {
	uint64_t ops, bytes;
	uint64_t lat_sum, lat_count; /* ns of latency, completions timed */
	uint64_t dur_ns;
};

/*
 * The figure of @r that @kind judges: IOPS (operations a second), MB/s
 * (2^20 bytes a second) or the mean latency in microseconds; 0 for a
 * round of no time or, for the latency, no completion.
 */
double atio_steady_value(enum atio_steady_kind kind, const struct atio_steady_round *r);

/* "iops", "mbs", "lat"; the unit of its figures: "IOPS", "MB/s", "usec". */
const char *atio_steady_name(enum atio_steady_kind kind);
const char *atio_steady_unit(enum atio_steady_kind kind);

/*
 * A run's steady state, filled while it warms up: each round's figure as
 * it is judged, and the verdict once the criteria held or the rounds ran
 * out. Also what the precondition before the rounds did.
 */
struct atio_steady {
	enum atio_steady_kind kind;
	uint64_t round_ns;
	unsigned max_rounds;
	double *value;             /* [max_rounds] */
	struct atio_steady_round *round; /* [max_rounds]: what each round did */
	bool all;                  /* --all-rounds: every round run, steady or not */
	unsigned n;                /* rounds judged */
	bool over;                 /* the criteria held, or max_rounds were run */
	unsigned steady_at;        /* the round (from 1) where both first held; 0: never */
	struct atio_steady_verdict v; /* over the first steady window, else the last one */
	uint64_t warm_ns;          /* from the start to the measured time, once over */
	/* --precondition: sequential writes of twice the dataset before the rounds */
	bool preconditioned;
	uint64_t pre_bytes, pre_ns;
};

/* Set @s up for @o's rounds. Returns 0 or -ENOMEM. */
int atio_steady_init(struct atio_steady *s, const struct atio_opts *o);
void atio_steady_free(struct atio_steady *s);

/*
 * Add the figure @value of the next round and judge the window it ends
 * (until a window was steady: that one is kept). Returns true when the
 * warm-up is over: steady (unless s->all), or the last round run.
 */
bool atio_steady_add(struct atio_steady *s, double value);

/* The same for round @r, kept in s->round, its figure as s->kind judges it. */
bool atio_steady_add_round(struct atio_steady *s, const struct atio_steady_round *r);

#endif
