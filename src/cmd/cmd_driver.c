/* SPDX-License-Identifier: MIT */
/*
 * atio merge --record, --iteration-record, --test-summary and --matrix:
 * the JSON of the cluster driver (scripts/atio-parallel.sh), written from
 * the nodes' documents (atio/merge/driver_record.h), and the values the
 * driver prints, as KEY<TAB>VALUE lines a shell reads without parsing
 * JSON; --output-file, its -o file written as atio report's.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "driver_args.h"
#include "driver_sweep.h"
#include "atio/merge/driver_lines.h"
#include "atio/merge/driver_record.h"
#include "atio/document/json_read.h"
#include "atio/document/out_file.h"

enum { R_OUT, R_HOST, R_STATUS, R_STDERR, R_WHY };
static const char *const record_names[] = { "--out", "--host", "--exit-status", "--stderr",
					    "--why", NULL };
#define RECORD_SYNOPSIS "--out RECORD --host HOST --exit-status N|none --stderr LINES " \
	"[--why TEXT] [FILE]"

/*
 * atio merge --record: the record of node HOST's run to file RECORD: a
 * failure (exit status N not 0, or FILE not an atio result: that is said
 * on stderr and the run counts as failed) or its result; the lines of
 * file LINES (its stderr) as the record's "stderr"; --exit-status none:
 * the node never said (its "rc" null). Prints "ok<TAB>true"
 * or "ok<TAB>false", then "why<TAB>REASON" for a failure (escaped:
 * driver_print_value()), or the values:
 * "value", "unit", "time_sec", "result" (the at_io result line), a "line"
 * per direction of a --mix run and for the write and sync latency of a
 * run that syncs (atio/merge/driver_lines.h) and, with --verify, "verify"
 * (the note). Exit 0 when the run gave a result; 1
 * when it failed; 2 for bad usage or a file that could not be read or
 * written.
 */
static int record_main(int argc, char **argv)
{
	struct args a = { .mode = "--record", .names = record_names, .optional = 1u << R_WHY };
	struct atio_error e = { 0 };
	struct atio_lines lines = { 0 };
	struct atio_merge_doc *d = NULL;
	struct atio_merge m;
	json_t *doc = NULL;
	char why[sizeof(e.msg) + 64] = "", note[128];
	char v[ATIO_JSON_DOUBLE_LEN], t[ATIO_JSON_DOUBLE_LEN];
	long status = 0;
	FILE *f;
	int ret = driver_parse(argc, argv, &a, RECORD_SYNOPSIS);

		atio_merge_init(&m);
	if (!ret && a.nfiles > 1)
		ret = driver_usage(&a, "one FILE at most (the node's atio --json document)",
				  RECORD_SYNOPSIS);
	if (!ret && !a.val[R_HOST][0])
		ret = driver_usage(&a, "--host: empty", RECORD_SYNOPSIS);
	if (!ret && strcmp(a.val[R_STATUS], "none") == 0)
		status = -1;
	else if (!ret)
		ret = driver_whole(&a, R_STATUS, 0, 255, &status);
	if (!ret && atio_lines_read(a.val[R_STDERR], &lines, &e)) {
		say("merge --record: --stderr %s", e.msg);
		ret = ATIO_EXIT_USAGE;
	}
	if (ret)
		goto out;
	if (status == 0 && a.nfiles == 0)
		snprintf(why, sizeof(why), "no result from atio: no document");
	d = calloc(1, sizeof(*d));
	if (!d) {
		ret = ATIO_EXIT_FAIL;
		say("merge --record: out of memory");
		goto out;
	}
	if (status == 0 && !why[0]) {
		if (atio_json_read_file(a.files[0], &doc, &e) ||
		    atio_json_read_run(doc, a.files[0], d, &e)) {
			snprintf(why, sizeof(why), "no result from atio: atio: merge: %s", e.msg);
		} else {
			if (atio_merge_add(&m, d, &e))
				snprintf(why, sizeof(why), "no result from atio: atio: merge: %s",
					 e.msg);
			atio_merge_doc_free(d);
		}
		if (why[0])
			say("merge --record: %s", e.msg);
	}
	if (a.val[R_WHY] && (status != 0 || why[0]))
		snprintf(why, sizeof(why), "%s", a.val[R_WHY]);
	f = driver_open_out(&a, "--out", a.val[R_OUT]);
	if (!f) {
		ret = ATIO_EXIT_USAGE;
		goto out;
	}
	if (status != 0 || why[0]) {
		atio_record_node_failed(f, a.val[R_HOST], (int)status, why, &lines);
		printf("ok\tfalse\n");
		driver_print_value("why", why);
		ret = ATIO_EXIT_FAIL;
	} else {
		atio_record_node_ok(f, a.val[R_HOST], &m, doc, &lines);
		atio_json_format_double(v, m.sum);
		atio_json_format_double(t, m.docs[0].time_sec);
		printf("ok\ttrue\nvalue\t%s\nunit\t%s\ntime_sec\t%s\n", v, m.unit, t);
		printf("result\ttime: %f sec; rate: { %.5f } %s;\n", m.docs[0].time_sec, m.sum,
		       m.unit);
		atio_driver_lines(stdout, "line", &m, false);
		atio_record_verify_note(doc, note, sizeof(note));
		if (note[0])
			driver_print_value("verify", note);
	}
	if (driver_close_out(&a, f, a.val[R_OUT]))
		ret = ATIO_EXIT_USAGE;
	if (flush_stdout("the values"))
		ret = ATIO_EXIT_USAGE;
out:
	free(d);
	json_decref(doc);
	atio_merge_free(&m);
	atio_lines_free(&lines);
	driver_args_free(&a);
	return ret;
}

enum { I_ITER, I_START, I_COMPLETE, I_CONCURRENT, I_OK, I_UNIT, I_MAXSKEW, I_MERGE };
static const char *const iteration_names[] = { "--iteration", "--start-at", "--complete",
					       "--concurrent", "--ok-nodes", "--unit",
					       "--max-skew-sec", "--merge", NULL };
#define ITERATION_SYNOPSIS "--iteration N --start-at EPOCH|null --complete true|false " \
	"--concurrent true|false --ok-nodes N --unit UNIT --max-skew-sec SEC " \
	"[--merge MERGE] RECORD..."

/* Read the JSON object in file @path into *@out; ATIO_EXIT_OK or 2 after a message. */
static int read_object(const struct args *a, const char *path, json_t **out)
{
	struct atio_error e = { 0 };

	if (atio_json_read_file(path, out, &e)) {
		say("merge %s: %s", a->mode, e.msg);
		return ATIO_EXIT_USAGE;
	}
	if (!json_is_object(*out)) {
		say("merge %s: %s: not a JSON object", a->mode, path);
		json_decref(*out);
		*out = NULL;
		return ATIO_EXIT_USAGE;
	}
	return ATIO_EXIT_OK;
}

/*
 * Whether what the options of --iteration-record say agrees with its
 * files: --ok-nodes is no more than the records that say "ok": true; with
 * --merge, that is an atio merge --json document (not a run's result) of
 * --ok-nodes documents in --unit. ATIO_EXIT_OK, or 2 after a message.
 */
static int iteration_agrees(const struct args *a, const struct atio_iteration_info *info,
			    json_t *const *nodes)
{
	struct atio_iteration it;
	struct atio_error e = { 0 };
	unsigned ok = 0;
	int ret = ATIO_EXIT_OK;

	for (int i = 0; i < a->nfiles; i++) {
		json_t *v = json_object_get(nodes[i], "ok");

		if (!json_is_boolean(v) || !json_is_string(json_object_get(nodes[i], "host"))) {
			say("merge %s: %s: not a node's record (no \"host\" and \"ok\" in it)",
			    a->mode, a->files[i]);
			return ATIO_EXIT_USAGE;
		}
		ok += json_is_true(v);
	}
	if (info->ok_nodes > ok) {
		say("merge %s: --ok-nodes %u: more than the %u of the %d records given that say ok",
		    a->mode, info->ok_nodes, ok, a->nfiles);
		return ATIO_EXIT_USAGE;
	}
	if (!a->val[I_MERGE])
		return ATIO_EXIT_OK;
	if (atio_iteration_read(a->val[I_MERGE], &it, &e)) {
		say("merge %s: --merge %s", a->mode, e.msg);
		return e.exit ? e.exit : ATIO_EXIT_USAGE;
	}
	if (it.nvalues != info->ok_nodes) {
		say("merge %s: --merge %s merged %u documents, --ok-nodes says %u nodes gave one",
		    a->mode, it.file, it.nvalues, info->ok_nodes);
		ret = ATIO_EXIT_USAGE;
	} else if (strcmp(it.unit, info->unit) != 0) {
		say("merge %s: --merge %s: its sum is in %s, --unit says %s", a->mode, it.file,
		    it.unit, info->unit);
		ret = ATIO_EXIT_USAGE;
	}
	atio_iteration_free(&it);
	return ret;
}

/*
 * atio merge --iteration-record: an iteration's record on stdout, from
 * its merge (atio merge --json, none when no node gave a result) and its
 * nodes' records (atio merge --record), in the order given. Exit 0, or 2
 * for bad usage, a file that is not such a document, or options its files
 * contradict (iteration_agrees()), naming it.
 */
static int iteration_main(int argc, char **argv)
{
	struct args a = { .mode = "--iteration-record", .names = iteration_names,
			  .optional = 1u << I_MERGE };
	struct atio_iteration_info info = { 0 };
	json_t *merge = NULL, **nodes = NULL;
	long n = 0;
	int ret = driver_parse(argc, argv, &a, ITERATION_SYNOPSIS), i;

	if (!ret && a.nfiles < 1)
		ret = driver_usage(&a, "no RECORD given (the nodes' records)", ITERATION_SYNOPSIS);
	if (!ret && !(ret = driver_whole(&a, I_ITER, 1, INT_MAX, &n)))
		info.iteration = (unsigned)n;
	if (!ret && !(ret = driver_whole(&a, I_OK, 0, INT_MAX, &n)))
		info.ok_nodes = (unsigned)n;
	if (!ret)
		ret = driver_seconds(&a, I_START, true, &info.start_at);
	if (!ret)
		ret = driver_seconds(&a, I_MAXSKEW, false, &info.max_skew_sec);
	if (!ret)
		ret = driver_bool(&a, I_COMPLETE, &info.complete);
	if (!ret)
		ret = driver_bool(&a, I_CONCURRENT, &info.concurrent);
	info.unit = a.val[I_UNIT];
	if (!ret && a.val[I_MERGE])
		ret = read_object(&a, a.val[I_MERGE], &merge);
	if (!ret && !(nodes = calloc((size_t)a.nfiles, sizeof(*nodes)))) {
		say("merge: out of memory");
		ret = ATIO_EXIT_FAIL;
	}
	for (i = 0; !ret && i < a.nfiles; i++)
		ret = read_object(&a, a.files[i], &nodes[i]);
	if (!ret)
		ret = iteration_agrees(&a, &info, nodes);
	if (!ret) {
		atio_record_iteration(stdout, &info, merge, nodes, (size_t)a.nfiles);
		if (flush_stdout("the record"))
			ret = ATIO_EXIT_FAIL;
	}
	for (i = 0; nodes && i < a.nfiles; i++)
		json_decref(nodes[i]);
	free(nodes);
	json_decref(merge);
	driver_args_free(&a);
	return ret;
}

enum { S_OUT, S_THREADS, S_TEST, S_UNIT, S_RUNS, S_HOSTS };
static const char *const summary_names[] = { "--out", "--threads", "--test", "--unit", "--runs",
					     "--hosts", NULL };
#define SUMMARY_SYNOPSIS "--out SUMMARY --threads N --test NAME --unit UNIT --runs N " \
	"--hosts HOSTS [MERGE...]"

/*
 * atio merge --test-summary: a test's summary to file SUMMARY from the
 * merges (atio merge --json) of its counted iterations, the nodes named
 * in file HOSTS one a line, in the order of the documents. Prints
 * "RUNS COUNTED AVERAGE MIN MAX STDDEV UNIT" ("-" where there is no
 * figure), then "HOST PERCENT" per node, its share of the sums, then for
 * --mix tests "+ read: average ..." and "+ write: ..." (the average of the
 * sums per direction, a line to print as it is after the "+ "). A MERGE
 * that cannot be read is said and the summary has no counted iteration:
 * exit 1; exit 2 for bad usage, merges in another unit than --unit, or
 * an output that could not be written.
 */
static int summary_main(int argc, char **argv)
{
	struct args a = { .mode = "--test-summary", .names = summary_names };
	struct atio_iterations s;
	struct atio_iteration *its = NULL;
	struct atio_test_info info = { 0 };
	struct atio_lines hosts = { 0 };
	struct atio_error e = { 0 };
	char fig[4][ATIO_JSON_DOUBLE_LEN];
	double min, max, sd;
	long runs = 0;
	int ret = driver_parse(argc, argv, &a, SUMMARY_SYNOPSIS), n = 0, bad = 0;
	FILE *f;

	atio_iterations_init(&s);
	if (!ret)
		ret = driver_whole(&a, S_RUNS, 0, INT_MAX, &runs);
	if (!ret && atio_lines_read(a.val[S_HOSTS], &hosts, &e)) {
		say("merge --test-summary: --hosts %s", e.msg);
		ret = ATIO_EXIT_USAGE;
	}
	if (!ret && !(its = calloc((size_t)a.nfiles + 1, sizeof(*its)))) {
		say("merge: out of memory");
		ret = ATIO_EXIT_FAIL;
	}
	if (ret)
		goto out;
	for (int i = 0; i < a.nfiles && !bad; i++) {
		if (atio_iteration_read(a.files[i], &its[n], &e) ||
		    (n++, atio_iterations_add(&s, &its[n - 1], &e))) {
			say("merge --test-summary: %s", e.msg);
			bad = ATIO_EXIT_FAIL;
		}
	}
	if (!bad && s.n && strcmp(s.unit, a.val[S_UNIT]) != 0) {
		say("merge --test-summary: --unit %s, but the sums of %s are in %s", a.val[S_UNIT],
		    a.files[0], s.unit);
		ret = ATIO_EXIT_USAGE;
		goto out;
	}
	info = (struct atio_test_info){ .threads = a.val[S_THREADS], .test = a.val[S_TEST],
		.unit = a.val[S_UNIT], .runs = (unsigned)runs,
		.hosts = (const char *const *)hosts.line, .nhosts = hosts.n };
	f = driver_open_out(&a, "--out", a.val[S_OUT]);
	if (!f) {
		ret = ATIO_EXIT_USAGE;
		goto out;
	}
	atio_record_test(f, &info, bad || !s.n ? NULL : &s);
	if (driver_close_out(&a, f, a.val[S_OUT]))
		ret = ATIO_EXIT_USAGE;
	if (bad || !s.n) {
		printf("%ld 0 - - - - %s\n", runs, info.unit);
	} else {
		atio_iterations_min_max(&s, &min, &max);
		sd = atio_iterations_stddev(&s);
		atio_json_format_double(fig[0], atio_iterations_average(&s));
		atio_json_format_double(fig[1], min);
		atio_json_format_double(fig[2], max);
		atio_json_format_double(fig[3], sd);
		printf("%ld %u %s %s %s %s %s\n", runs, s.n, fig[0], fig[1], fig[2],
		       isnan(sd) ? "-" : fig[3], info.unit);
		for (unsigned i = 0; i < s.nvalues; i++) {
			atio_json_format_double(fig[0], atio_iterations_share(&s, i));
			printf("%s %s\n", i < hosts.n ? hosts.line[i] : "-", fig[0]);
		}
		for (unsigned i = 0; i < ATIO_DIRS; i++) {
			double iops, mbs;

			if (atio_iterations_dir_average(&s, i, &iops, &mbs))
				printf("+ %s: average %.2f IOPS, %.2f MB/s over %u complete "
				       "iteration%s\n", atio_dir_name(i), iops, mbs, s.n,
				       s.n == 1 ? "" : "s");
		}
	}
	if (flush_stdout("the summary"))
		ret = ATIO_EXIT_FAIL;
	if (!ret)
		ret = bad;
out:
	for (int i = 0; i < n; i++)
		atio_iteration_free(&its[i]);
	free(its);
	atio_iterations_free(&s);
	atio_lines_free(&hosts);
	driver_args_free(&a);
	return ret;
}

enum { M_NODES, M_RESULTS, M_STATUS };
static const char *const matrix_names[] = { "--nodes", "--results", "--exit-status", NULL };
#define MATRIX_SYNOPSIS "--nodes NODES --results RESULTS --exit-status N [--interrupted] " \
	"--set KEY=VALUE..."

/*
 * atio merge --matrix: the driver's -o document on stdout (atio/merge/
 * driver_record.h says what the files hold). Exit 0, or 2 for bad usage,
 * or a file, line or setting that is wrong, naming it: nothing is written
 * then.
 */
static int matrix_main(int argc, char **argv)
{
	struct args a = { .mode = "--matrix", .names = matrix_names };
	struct atio_error e = { 0 };
	long status = 0;
	int ret = driver_parse(argc, argv, &a, MATRIX_SYNOPSIS);

	if (!ret && a.nfiles)
		ret = driver_usage(&a, "no FILE: the files are given by --nodes and --results",
				  MATRIX_SYNOPSIS);
	if (!ret)
		ret = driver_whole(&a, M_STATUS, 0, 255, &status);
	if (!ret && atio_record_matrix(stdout, a.sets, (size_t)a.nsets, a.val[M_NODES],
				       a.val[M_RESULTS], a.interrupted, (int)status, &e)) {
		say("merge --matrix: %s", e.msg);
		ret = e.exit ? e.exit : ATIO_EXIT_USAGE;
	}
	if (!ret && flush_stdout("the document"))
		ret = ATIO_EXIT_FAIL;
	driver_args_free(&a);
	return ret;
}

static const char *const output_names[] = { NULL };
#define OUTPUT_SYNOPSIS "FILE [DOCUMENT]"

/* Copy the stream @arg into @f: the fill of atio_out_file_write(). */
static int copy_into(FILE *f, void *arg)
{
	FILE *in = arg;
	char buf[65536];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, f) != n)
			return -1;
	return ferror(in) ? -1 : 0;
}

/*
 * atio merge --output-file FILE [DOCUMENT]: the driver's -o, as atio
 * report's (atio/document/out_file.h). Without DOCUMENT, check that FILE could
 * be written, before anything runs; with it, replace FILE by a copy of
 * DOCUMENT. Exit 0; 2 for a FILE that is refused (naming it), or a
 * DOCUMENT that cannot be read; 1 for a write that failed.
 */
static int output_main(int argc, char **argv)
{
	struct args a = { .mode = "--output-file", .names = output_names };
	struct atio_error e = { 0 };
	int ret = driver_parse(argc, argv, &a, OUTPUT_SYNOPSIS);
	FILE *in;

	if (!ret && (a.nfiles < 1 || a.nfiles > 2))
		ret = driver_usage(&a, "give FILE, and the DOCUMENT to put there", OUTPUT_SYNOPSIS);
	if (!ret && a.nfiles == 1 && atio_out_file_check(a.files[0], &e))
		ret = e.exit;
	if (!ret && a.nfiles == 2) {
		struct stat st;

		in = fopen(a.files[1], "r");
		if (!in) {
			say("merge --output-file: %s: cannot read: %s", a.files[1], strerror(errno));
			ret = ATIO_EXIT_USAGE;
		} else if (fstat(fileno(in), &st) == 0 && S_ISDIR(st.st_mode)) {
			say("merge --output-file: %s: is a directory: give the document", a.files[1]);
			ret = ATIO_EXIT_USAGE;
			fclose(in);
		} else {
			if (atio_out_file_write(a.files[0], copy_into, in, &e))
				ret = e.exit;
			fclose(in);
		}
	}
	if (ret && e.msg[0])
		say("merge --output-file: %s", e.msg);
	driver_args_free(&a);
	return ret;
}

int driver_main(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--record") == 0)
			return record_main(argc, argv);
		if (strcmp(argv[i], "--iteration-record") == 0)
			return iteration_main(argc, argv);
		if (strcmp(argv[i], "--test-summary") == 0)
			return summary_main(argc, argv);
		if (strcmp(argv[i], "--matrix") == 0)
			return matrix_main(argc, argv);
		if (strcmp(argv[i], "--output-file") == 0)
			return output_main(argc, argv);
		if (strcmp(argv[i], "--matrix-csv") == 0)
			return driver_csv_main(argc, argv);
		if (strcmp(argv[i], "--sweep-plan") == 0)
			return driver_sweep_plan(argc, argv);
		if (strcmp(argv[i], "--sweep-summary") == 0)
			return driver_sweep_summary(argc, argv);
		if (strcmp(argv[i], "--sweep-document") == 0)
			return driver_sweep_document(argc, argv);
	}
	return -1;
}
