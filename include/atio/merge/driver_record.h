/* SPDX-License-Identifier: MIT */
#ifndef ATIO_DRIVER_RECORD_H
#define ATIO_DRIVER_RECORD_H

/*
 * The JSON of the cluster driver (scripts/atio-parallel.sh), written by
 * atio from the nodes' documents so that the driver writes none of its
 * own: a node's record of one run, an iteration's record (its merge and
 * its nodes' records), a test's summary (driver_record.c), and the -o
 * document that holds them all (driver_matrix.c). Each is one compact
 * line; the documents it embeds (a node's system object, the merge, the
 * records) are copied member by member in their order.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "atio/base/error.h"
#include "atio/base/json.h"
#include "atio/merge/iterations.h"
#include "atio/merge/merge.h"

/*
 * Write the jansson value @v as member @key (NULL inside an array) with
 * the writer @j: objects in their members' order, a whole number below
 * 2^53 as an integer, any other number as the writer's double, NULL as
 * null.
 */
void atio_json_copy(struct atio_json *j, const char *key, const json_t *v);

/* The lines of a node's stderr that go into its record ("stderr"). */
struct atio_lines {
	char **line;               /* each without its newline; empty lines left out */
	size_t n;
};

/*
 * Read file @path into @l, one entry a line, empty lines left out.
 * Returns 0, or -errno with @e filled (exit 2) naming @path.
 */
int atio_lines_read(const char *path, struct atio_lines *l, struct atio_error *e);

/* Free what atio_lines_read() allocated. */
void atio_lines_free(struct atio_lines *l);

/*
 * A node's record of a run that failed, on one line of @f:
 * {"host","ok":false,"rc":@status,"stderr":[@why, then @l's lines]}
 * (@why NULL: none of its own; @status below 0: "rc" null, the node never
 * said).
 */
void atio_record_node_failed(FILE *f, const char *host, int status, const char *why,
			     const struct atio_lines *l);

/*
 * A node's record of a run that gave a result, on one line of @f: its
 * value, unit, time, counters, first start and end instant and latency
 * percentiles (microseconds) from @m, the merge of its one document, and
 * its figures per direction and sync latency (atio_driver_dirs_json()); its
 * --interval values and stalls (null without); "system" and the settings'
 * "filesystem" as its document @doc has them (null where it has none);
 * "stderr" @l's lines; for the CSV (driver_csv.h), its rates, syncs, CPU
 * share and context switches as @doc has them, its latency's figures
 * ("latency_ns", and in "read" and "write"), and the settings'
 * "block_size", seed ("seed", as a string) and "cmdline".
 */
void atio_record_node_ok(FILE *f, const char *host, const struct atio_merge *m,
			 const json_t *doc, const struct atio_lines *l);

/*
 * The --verify note of the node's document @doc, "verify: every block ...
 * checked, N bytes, none bad" into @buf (size @len), or "" when its data
 * was not checked.
 */
void atio_record_verify_note(const json_t *doc, char *buf, size_t len);

/* What the driver knows of an iteration besides its documents. */
struct atio_iteration_info {
	unsigned iteration;
	double start_at;           /* the agreed start instant; NAN: none */
	bool complete, concurrent;
	unsigned ok_nodes;
	const char *unit;          /* the test's, for an iteration without a merge */
	double max_skew_sec;
};

/*
 * An iteration's record on one line of @f: @info, the sum, unit, start
 * and end skew and latency (microseconds; null when the merge saw none)
 * from the merge document @merge (NULL: no node gave a result, sum 0 and
 * skews null), its figures per direction and its sync latency ("read",
 * "write", "sync_latency_us": null where it has none), @merge itself, and
 * the nodes' records @nodes[@n]. The start skew is rounded to
 * microseconds over more than one document, as the driver compares it.
 */
void atio_record_iteration(FILE *f, const struct atio_iteration_info *info,
			   const json_t *merge, json_t *const *nodes, size_t n);

/* What the driver knows of a test besides its iterations' merges. */
struct atio_test_info {
	const char *threads;       /* the thread count as given: a number, or auto */
	const char *test;
	const char *unit;
	unsigned runs;             /* iterations run, counted or not */
	const char *const *hosts;  /* the nodes, in the order of the shares */
	size_t nhosts;
};

/*
 * A test's summary on one line of @f: @info and, from @s (NULL: no
 * counted iteration), the average, min, max and stddev of the counted
 * iterations' sums, each host's share of them and, for --mix tests, the
 * average of the sums per direction ("read", "write": average_iops and
 * average_mbs; null for other tests).
 */
void atio_record_test(FILE *f, const struct atio_test_info *info,
		      const struct atio_iterations *s);

/*
 * Write @text as the JSON number it spells into @j as member @key: a
 * whole number as an integer, else the writer's double. False (nothing
 * written) when @text is not a finite number.
 */
bool atio_json_number_text(struct atio_json *j, const char *key, const char *text);

/*
 * The -o document from the files the driver keeps, written to @out:
 * @settings[@nsettings] its "KEY=VALUE" settings (every key of the
 * document's "settings", driver_matrix.c), file @nodes one node a line
 * (HOST<TAB>CLOCK_OFFSET_SEC<TAB>ATIO, "unknown" or "" for what is not
 * known, and <TAB>TEST_DIR, the directory it ran in, where given), file @results one test a line (THREADS<TAB>TEST<TAB>SUMMARY
 * FILE<TAB>ITERATION RECORDS FILE, in the order of the document), then
 * @interrupted and @exit_status. Returns 0, or -errno / -EINVAL with @e
 * filled (exit 2) naming the file, line or setting that is wrong; nothing
 * is written then.
 */
int atio_record_matrix(FILE *out, char *const *settings, size_t nsettings, const char *nodes,
		       const char *results, bool interrupted, int exit_status,
		       struct atio_error *e);

#endif
