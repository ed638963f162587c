/* SPDX-License-Identifier: MIT */
#ifndef ATIO_REPORT_PAGE_H
#define ATIO_REPORT_PAGE_H

/*
 * atio report: one self-contained HTML page of SVG charts from atio's JSON
 * documents. report_read.c reads each document (an atio --json run, an
 * atio merge --json merge, or atio-parallel.sh's -o document) into the
 * struct atio_rfile below, with jansson and json_read.c's checks;
 * report_html.c writes the page; cmd_report.c is the subcommand.
 *
 * Percentiles are those of atio_hist_percentile() over the buckets the
 * documents hold, or the figures the documents wrote with it: never
 * computed any other way.
 */

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "atio/base/error.h"
#include "atio/stats/hist.h"

#define ATIO_RPCT 4                /* p50, p99, p99.9, max */

enum atio_rkind {
	ATIO_RDOC_RUN,             /* atio --json */
	ATIO_RDOC_MERGE,           /* atio merge --json */
	ATIO_RDOC_DRIVER,          /* atio-parallel.sh -o */
	ATIO_RDOC_PLAN,            /* atio --and/--then --json, or its atio merge --json */
	ATIO_RDOC_SWEEP,           /* atio sweep --json: drawn by report_sweep.c */
	ATIO_RDOC_META,            /* atio --meta --json, or its atio merge --json: report_phases.c */
};

/* One node's rate per interval, lined up with its run's intervals. */
struct atio_rnode {
	char *name;
	double *rate;              /* NaN where the node had no such interval */
};

/*
 * --steady's rounds of a run, or a merge's rounds summed (report_steady.c):
 * one figure a round, the window and the verdict as the document says them.
 */
struct atio_rsteady {
	char judge[8], unit[16];   /* "iops", "IOPS" */
	double round_sec;
	unsigned n;                /* rounds */
	double *x, *value;         /* [n]: the round (from 1) and its figure, NaN unknown */
	bool cluster;              /* a merge's: the nodes' rounds summed */
	bool judged;               /* false: a merge whose rounds could not be summed */
	char *why;                 /* then why; NULL otherwise */
	unsigned steady_at;        /* the round the window ends; 0: not steady */
	unsigned first, last;      /* the window shaded (from 1); 0: none */
	double average, range_pct, excursion_pct;
	/* A merge's: each document's own rounds, named by its node or file. */
	unsigned nnodes;
	struct atio_rnode *nodes;  /* rate: its figure a round, NaN past its rounds */
};

/*
 * One measured run as the page shows it: a run document, a merge, or one
 * test of a driver's matrix (its average, and the charts of its last
 * counted iteration: complete and concurrent).
 */
struct atio_rrun {
	char *key;                 /* "" for a run or merge; "seqread, 4 threads" in a matrix */
	char unit[16];
	double value;              /* result.value, the merge's sum, or the test's average */
	/*
	 * A test of a driver's matrix: value is its average over the counted
	 * iterations (NaN without one); the charts are of one iteration.
	 */
	unsigned iteration;        /* the charts' iteration; 0 for a run or a merge */
	double iter_value;         /* its sum */
	unsigned counted, runs;    /* iterations in the average, iterations run */
	unsigned ndocs;            /* a merge: the documents summed */
	double pct[ATIO_RPCT];     /* of the whole run, ns */
	bool has_pct;
	struct atio_hist *hist;    /* the whole run's buckets, NULL when the document has none */
	unsigned nint;             /* intervals: 0 when no time series was recorded */
	double *mid;               /* each interval's middle, s from the measured start */
	double *rate;              /* in unit */
	double *ipct[ATIO_RPCT];   /* NaN where an interval completed nothing */
	unsigned nnodes;
	struct atio_rnode *nodes;
	bool timeline;             /* the document has a "timeline" */
	bool partial;              /* timeline.complete is false: intervals missing */
	unsigned stalls;           /* timeline.stalls */
	double longest_stall;      /* s */
	unsigned nstall_list;
	double *stall_start, *stall_len; /* s */
	/*
	 * A plan: "phase K" its phase's combined figures (a row of the
	 * summary, no charts), "phase K, job J" a job, its times moved by
	 * offset, how long after its phase's start its measured time began.
	 */
	bool combined;
	double offset;             /* s */
	/*
	 * A test of a driver's matrix: the node records of the iteration the
	 * charts show (borrowed from the file's document), for the page's
	 * table of nodes; NULL otherwise.
	 */
	json_t *node_records;
	/* A run's measured time on the wall clock (NaN when the document has none). */
	double start_epoch, end_epoch;
	/*
	 * --mix: the reads' and the writes' rates, in unit (their IOPS, or
	 * MB/s), and latency; a run that synced: the latency of its sync
	 * calls, beside pct (its write() calls'). Read by report_dirs.c.
	 */
	bool mixed;
	double dir_value[2], dir_pct[2][ATIO_RPCT];
	bool has_sync;
	double sync_pct[ATIO_RPCT];
	struct atio_rsteady *steady; /* --steady's rounds; NULL without */
};

/* A phase of a metadata run (atio --meta): its figures as its document has them. */
struct atio_rphase {
	char name[16];             /* create, stat, read, rename, delete */
	double ops, time_s;
	double ops_per_sec;        /* the slowest thread (node) setting the time; NaN: too fast */
	double sum_ops_per_sec;    /* each thread's (node's) own rate added up; NaN: too fast */
	bool too_fast;
	double pct[ATIO_RPCT];     /* ns; NaN without operations */
};

/* One cell of a driver's matrix: a test at a thread count, over its iterations. */
struct atio_rcell {
	char *test;
	char threads[24];          /* "1 thread", "4 threads", "auto threads" */
	char unit[16];
	double avg, min, max;      /* NaN when no iteration was complete */
	unsigned runs;
};

struct atio_rfile {
	const char *path;          /* as given (not owned) */
	const char *name;          /* its last component, or the path when two files share it */
	bool clash;                /* another file has the same last component */
	enum atio_rkind kind;
	json_t *doc;               /* the parsed document, for the page's record */
	unsigned nruns;
	struct atio_rrun *runs;
	unsigned ncells;
	struct atio_rcell *cells;
	/*
	 * Set by atio_report_align(): the run's times were moved to the
	 * study's timeline, at seconds from the earliest start.
	 */
	bool aligned;
	double at;
	/* A metadata run's phases (ATIO_RDOC_META), in their order. */
	unsigned nphases;
	struct atio_rphase *phases;
};

/*
 * The figures per direction and of the sync calls of the run or merge
 * document @doc into @r (report_dirs.c): nothing is set when it has none.
 */
void atio_rrun_read_dirs(json_t *doc, struct atio_rrun *r);

/*
 * The summary's rows under @r's: its reads and writes, and its sync calls'
 * latency, each named (report_dirs.c).
 */
void atio_report_dir_rows(FILE *f, const char *doc_name, const struct atio_rrun *r);

/*
 * A metadata document @doc (settings.workload "meta": a run's, or atio
 * merge's of them) into @f's phases (report_phases.c). Returns 0, or
 * -EINVAL / -ENOMEM with @e filled naming @f->path.
 */
int atio_rmeta_read(json_t *doc, struct atio_rfile *f, struct atio_error *e);

/*
 * The metadata section of the page: per document a table of its phases
 * (ops/s both ways, latency), and charts of ops/s and latency per phase
 * over the documents (report_phases.c). Nothing without a metadata document.
 */
void atio_report_meta(FILE *f, const struct atio_rfile *files, unsigned n);

/*
 * Read document @path into @f. Returns 0, or -errno / -EINVAL with @e
 * filled (exit 2) and a message naming @path and what is wrong: cannot
 * open, not JSON, not one of atio's documents, or a member of the wrong
 * form. @f is released by atio_rfile_free() either way.
 */
int atio_rfile_read(const char *path, struct atio_rfile *f, struct atio_error *e);

void atio_rfile_free(struct atio_rfile *f);

/*
 * The page for the @n documents @files on @out, made by atio @version.
 * Returns 0 or -EIO when @out reports a write error.
 */
int atio_report_page(FILE *out, const struct atio_rfile *files, unsigned n, const char *version);

/* The run of document @fl with key @key, or NULL (report_summary.c). */
const struct atio_rrun *atio_rfile_find(const struct atio_rfile *fl, const char *key);

/*
 * The summary table of the page and, with several documents, the ratios
 * of each to the first over the tests of @key (report_summary.c).
 */
void atio_report_summary(FILE *out, const struct atio_rfile *files, unsigned n, const char **key,
			 unsigned nkeys);

/*
 * The record of the page (report_record.c): every scalar member of the
 * documents, one column per document, on @out. Returns 0 or -ENOMEM.
 */
int atio_report_record(FILE *out, const struct atio_rfile *files, unsigned n);

/*
 * The table of the nodes of @r, a driver's test, in the iteration its
 * charts show (src/page/report_nodes.c); nothing for other runs.
 */
void atio_report_nodes(FILE *out, const char *doc_name, const struct atio_rrun *r);

/*
 * One study on one timeline (report_timeline.c): when two or more run
 * documents overlap in wall-clock time, every run document's intervals
 * and stalls are moved to seconds since the earliest start_epoch and
 * marked aligned. Returns how many documents were aligned (0: none, each
 * stays at its own start).
 */
unsigned atio_report_align(struct atio_rfile *files, unsigned n);

/*
 * The timeline section (report_timeline.c): each run document's span on
 * the wall clock, or a note that they do not overlap; nothing for one run.
 */
void atio_report_wallclock(FILE *out, const struct atio_rfile *files, unsigned n);

/*
 * A sweep document (report_sweep.c): check @doc's form when read (0, or
 * -EINVAL with @e naming @path and the member); and its section of the
 * page: the throughput-latency chart with the peak, knees and target
 * marked, a heat map for a two-axis grid, and the table of the points.
 */
int atio_rsweep_check(json_t *doc, const char *path, struct atio_error *e);
int atio_report_sweep(FILE *out, const struct atio_rfile *f, unsigned index);

/*
 * --steady's rounds (report_steady.c): the "steady" object of run or merge
 * document @doc into r->steady (left NULL when null or absent), a merge's
 * documents named by the hosts of @hosts' records that succeeded (a
 * driver's), else by their files; 0, or
 * -EINVAL with @e naming @name. The section of @r: the verdict in words
 * and the chart of the rounds, the window shaded; its chart's id from @k
 * (the run's key) and @i (the document). Nothing without rounds.
 */
int atio_rsteady_read(json_t *doc, struct atio_rrun *r, json_t *hosts, const char *name,
		      struct atio_error *e);
void atio_rsteady_free(struct atio_rsteady *s);
void atio_report_steady(FILE *out, const char *doc_name, const struct atio_rrun *r, unsigned k,
			unsigned i);

/*
 * For tests: how many times the last atio_report_record() compared a
 * member's path with a row's to find its row. Near the number of members
 * (a row is found by its hash), not their square.
 */
extern unsigned long long atio_report_record_compares;

#endif
