/* SPDX-License-Identifier: MIT */
/* atio merge: the command around the merge (atio/merge/merge.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "config.h"
#include "atio/cli/cli.h"
#include "atio/merge/driver_lines.h"
#include "atio/merge/iterations.h"
#include "atio/merge/merge.h"
#include "atio/document/json_read.h"
#include "atio/merge/merge_check.h"
#include "atio/merge/merge_csv.h"
#include "atio/merge/merge_plan.h"
#include "atio/merge/merge_runs.h"
#include "atio/base/json.h"
#include "atio/stats/hist.h"

/*
 * atio merge --iterations [--json] FILE...: every FILE an atio merge --json
 * document of one iteration; print their summary. Exit 0, or 2 for bad
 * usage or a file that is not such a document, naming it.
 */
static int iterations_main(int argc, char **argv)
{
	struct atio_error e = { 0 };
	struct atio_iteration *its;
	struct atio_iterations s;
	bool json = false, options = true;
	int n = 0, status = ATIO_EXIT_OK;

	its = calloc((size_t)argc, sizeof(*its));
	if (!its) {
		say("merge: out of memory for %d documents", argc);
		return ATIO_EXIT_FAIL;
	}
	atio_iterations_init(&s);
	for (int i = 1; i < argc && status == ATIO_EXIT_OK; i++) {
		const char *a = argv[i];

		if (options && strcmp(a, "--") == 0) {
			options = false;
		} else if (options && strcmp(a, "--iterations") == 0) {
			continue;
		} else if (options && strcmp(a, "--json") == 0) {
			json = true;
		} else if (options && a[0] == '-' && a[1]) {
			say("merge: %s: unknown option (merge --iterations takes --json and the "
			    "files of atio merge --json)", a);
			status = ATIO_EXIT_USAGE;
		} else if (atio_iteration_read(a, &its[n], &e) ||
			   (n++, atio_iterations_add(&s, &its[n - 1], &e))) {
			say("merge: %s", e.msg);
			status = e.exit ? e.exit : ATIO_EXIT_USAGE;
		}
	}
	if (status == ATIO_EXIT_OK && n < 1) {
		say("merge: no file given: atio merge --iterations [--json] FILE... (atio merge "
		    "--json documents, one an iteration)");
		status = ATIO_EXIT_USAGE;
	}
	if (status == ATIO_EXIT_OK) {
		if (json)
			atio_iterations_json(stdout, &s, its, (unsigned)n);
		else
			atio_iterations_text(stdout, &s);
		if (flush_stdout("the summary"))
			status = ATIO_EXIT_FAIL;
	}
	for (int i = 0; i < n; i++)
		atio_iteration_free(&its[i]);
	free(its);
	atio_iterations_free(&s);
	return status;
}

/*
 * The merge's figures that the cluster driver prints, one KEY<TAB>VALUE a
 * line, to file @path: sum, unit, documents, start_skew_sec,
 * end_skew_sec, last_start_epoch, and the latency percentiles p50_us,
 * p99_us, p99.9_us (microseconds, exact). Returns 0, or -1 after saying
 * why the file could not be written.
 */
static int write_values(const char *path, const struct atio_merge *m)
{
	const struct atio_hist *h = &m->total.lat;
	char sum[ATIO_JSON_DOUBLE_LEN], skew[ATIO_JSON_DOUBLE_LEN], eskew[ATIO_JSON_DOUBLE_LEN];
	char last[ATIO_JSON_DOUBLE_LEN];
	FILE *f = fopen(path, "w");
	int bad;

	if (!f) {
		say("merge: --values %s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	atio_json_format_double(sum, m->sum);
	atio_json_format_double(skew, m->last_start - m->first_start);
	atio_json_format_double(eskew, m->last_end - m->first_end);
	atio_json_format_double(last, m->last_start);
	fprintf(f, "sum\t%s\nunit\t%s\ndocuments\t%u\n", sum, m->unit, m->ndocs);
	fprintf(f, "start_skew_sec\t%s\nend_skew_sec\t%s\nlast_start_epoch\t%s\n", skew,
		eskew, last);
	fprintf(f, "p50_us\t%.3f\np99_us\t%.3f\np99.9_us\t%.3f\n",
		(double)atio_hist_percentile(h, 50.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.9) / 1000.0);
	fprintf(f, "syncs\t%" PRIu64 "\n", m->total.syncs);
	atio_merge_steady_text(f, "steady_line\t", &m->steady);
	atio_driver_lines(f, "line", m, true);
	bad = ferror(f);
	if (fclose(f) || bad) {
		say("merge: --values %s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * atio merge [--json] [--values FILE] [--sequential|--unaligned]
 * [[--clock-offset SEC] FILE]...: read every file as an atio --json
 * result, add them up and print the merge. --clock-offset
 * gives how far the clock of the host that wrote the next FILE ran ahead
 * of this one's: its start and end instants are moved back by it, so that
 * the skew compares instants of one clock. Each document is read, added
 * and freed before the next is read: the merge keeps only its line, so
 * that thousands of documents need no more memory than their lines.
 * A run given twice, and runs whose measured times share no instant, are
 * refused (atio/merge/merge_runs.h); --unaligned sums the latter anyway,
 * --sequential tabulates them as passes (text only, no sum).
 * Settings that differ and intervals left out are said on stderr. Exit 0;
 * 1 when a document was of an interrupted run (its figures cover less than
 * its time); 2 for bad usage, an option given twice, or a file that is
 * not a readable atio result, or one the others do not add up with,
 * naming it.
 */
/* A file given to merge: its identity, and the name it was given by. */
struct given {
	dev_t dev;
	ino_t ino;
	const char *path;
};

/*
 * Look ahead for --sequential and --unaligned, which decide how every
 * document is taken wherever they stand: into m->sequential and
 * m->unaligned. Returns ATIO_EXIT_OK, or 2 after a message when they
 * contradict each other, --json or --values.
 */
static int windows_options(int argc, char **argv, struct atio_merge *m)
{
	const char *other = NULL;

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--values") == 0 || strcmp(argv[i], "--clock-offset") == 0 ||
		    strcmp(argv[i], "--csv") == 0) {
			other = argv[i][2] != 'c' || argv[i][3] == 's' ? argv[i] : other;
			i++;
		} else if (strcmp(argv[i], "--sequential") == 0) {
			m->sequential = true;
		} else if (strcmp(argv[i], "--unaligned") == 0) {
			m->unaligned = true;
		} else if (strcmp(argv[i], "--json") == 0) {
			other = argv[i];
		}
	}
	if (m->sequential && (m->unaligned || other)) {
		say("merge: --sequential with %s: passes one after another are a table to read, "
		    "not summed, with no sum to write", m->unaligned ? "--unaligned" : other);
		return ATIO_EXIT_USAGE;
	}
	return ATIO_EXIT_OK;
}

/*
 * Whether @path is a file given before among @seen's @n (one run's
 * document summed twice, whatever it says of its run): its earlier name,
 * or NULL. @path is kept in @seen.
 */
static const char *given_before(struct given *seen, unsigned *n, const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	for (unsigned k = 0; k < *n; k++)
		if (seen[k].dev == st.st_dev && seen[k].ino == st.st_ino)
			return seen[k].path;
	seen[*n] = (struct given){ .dev = st.st_dev, .ino = st.st_ino, .path = path };
	(*n)++;
	return NULL;
}

/* Whether --csv @name means standard output (the CSV alone, no text). */
static bool csv_stdout(const char *name)
{
	return strcmp(name, "-") == 0 || strcmp(name, "stdout") == 0;
}

/* Whether --json stands anywhere among the options of @argv. */
static bool windows_json(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--json") == 0)
			return true;
	return false;
}

/* What the files given are: none yet, single runs' documents, or plans'. */
enum kind { KIND_NONE, KIND_RUN, KIND_PLAN };

/*
 * Read file @path and add it, moved back by @offset seconds, to the merge
 * of single runs @m (through @doc) or to that of plans @p: whichever the
 * first file was (*@kind). Returns 0; -1 when it was added but is of an
 * interrupted run or plan (said); or the exit status after saying why it
 * could not be added, the merge then not to be added to.
 */
static int add_file(struct atio_merge *m, struct atio_merge_plan *p, const char *path,
		    double offset, struct atio_merge_doc *doc, enum kind *kind,
		    struct atio_merge_csv *csv)
{
	struct atio_error e = { 0 };
	bool interrupted = false, is_plan;
	json_t *j;
	int ret;

	if (atio_json_read_file(path, &j, &e)) {
		say("merge: %s", e.msg);
		return ATIO_EXIT_USAGE;
	}
	is_plan = atio_merge_is_plan(j);
	if (*kind != KIND_NONE && is_plan != (*kind == KIND_PLAN)) {
		say("merge: %s: %s, the documents before it %s: a plan's phases and a single "
		    "run do not add up", path, is_plan ? "a plan's document (--and, --then)" :
		    "a single run's document", is_plan ? "single runs'" : "plans'");
		json_decref(j);
		return ATIO_EXIT_USAGE;
	}
	*kind = is_plan ? KIND_PLAN : KIND_RUN;
	if (is_plan) {
		ret = atio_merge_plan_add(p, j, path, offset, &e);
		for (unsigned k = 0; !ret && k < p->nphases; k++)
			interrupted |= p->phases[k].docs[p->ndocs - 1].interrupted;
		json_decref(j);
	} else {
		ret = atio_json_read_run(j, path, doc, &e);
		if (!ret)
			ret = atio_merge_csv_doc(csv, j, doc, &e);
		json_decref(j);
		if (!ret) {
			if (doc->start_epoch)
				doc->start_epoch -= offset;
			if (doc->end_epoch)
				doc->end_epoch -= offset;
			ret = atio_merge_check_run(m, doc, &e);
			if (!ret)
				ret = atio_merge_add(m, doc, &e);
			interrupted = doc->interrupted;
			atio_merge_doc_free(doc);
		}
	}
	if (ret) {
		say("merge: %s", e.msg);
		return e.exit ? e.exit : ATIO_EXIT_USAGE;
	}
	if (interrupted)
		say("merge: %s: an interrupted %s: its figures cover less than its time", path,
		    is_plan ? "plan" : "run");
	return interrupted ? -1 : 0;
}

/* The merge of plans @p printed, its warnings said; the exit status from @status. */
static int print_plan(const struct atio_merge_plan *p, bool json, int status)
{
	char warning[2048];

	for (unsigned k = 0; k < atio_merge_plan_warnings(p); k++) {
		atio_merge_plan_warning(p, k, warning, sizeof(warning));
		say("merge: warning: %s", warning);
	}
	if (json)
		atio_merge_plan_json(stdout, p, ATIO_VERSION);
	else
		atio_merge_plan_text(stdout, p);
	if (fflush(stdout) != 0) {
		say("merge: cannot write the result: %s", strerror(errno));
		return ATIO_EXIT_FAIL;
	}
	return status;
}

int merge_main(int argc, char **argv)
{
	struct atio_merge_doc *doc;
	struct atio_merge_plan plan;
	struct atio_merge m;
	enum kind kind = KIND_NONE;
	bool json = false, options = true, have_offset = false, seq = false, unaligned = false;
	const char *values = NULL, *before;
	struct atio_merge_csv csv = { 0 };
	struct given *seen = NULL;
	unsigned nseen = 0;
	double offset = 0;
	int ret, status = driver_main(argc, argv);
	char warning[2048];

	if (status >= 0)
		return status;
	status = ATIO_EXIT_OK;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--iterations") == 0)
			return iterations_main(argc, argv);
	if ((ret = merge_meta_main(argc, argv)) >= 0)
		return ret;
	doc = malloc(sizeof(*doc));
	seen = calloc((size_t)argc, sizeof(*seen));
	if (!doc || !seen) {
		free(doc);
		say("merge: out of memory");
		return ATIO_EXIT_FAIL;
	}
	atio_merge_init(&m);
	status = windows_options(argc, argv, &m);
	atio_merge_plan_init(&plan, m.sequential, m.unaligned);
	if (status != ATIO_EXIT_OK)
		goto out;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end;

		if (options && strcmp(a, "--") == 0) {
			options = false;
			continue;
		}
		if (options && (strcmp(a, "--json") == 0 || strcmp(a, "--sequential") == 0 ||
				strcmp(a, "--unaligned") == 0)) {
			bool *flag = a[2] == 'j' ? &json : a[2] == 's' ? &seq : &unaligned;

			if (*flag) {
				say("merge: %s: given twice", a);
				status = ATIO_EXIT_USAGE;
				goto out;
			}
			*flag = true;
			continue;
		}
		if (options && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
			atio_cli_usage(stdout);
			status = fflush(stdout) ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
			goto out;
		}
		if (options && strcmp(a, "--values") == 0) {
			if (i + 1 == argc) {
				say("merge: --values: give the FILE the values go to");
				status = ATIO_EXIT_USAGE;
				goto out;
			}
			if (values) {
				say("merge: --values: given twice (%s, then %s)", values, argv[i + 1]);
				status = ATIO_EXIT_USAGE;
				goto out;
			}
			values = argv[++i];
			continue;
		}
		if (options && strcmp(a, "--csv") == 0) {
			if (i + 1 == argc || !argv[i + 1][0]) {
				say("merge: --csv: give the FILE the rows go to (- or stdout: "
				    "standard output)");
				status = ATIO_EXIT_USAGE;
				goto out;
			}
			if (csv.name) {
				say("merge: --csv: given twice (%s, then %s)", csv.name, argv[i + 1]);
				status = ATIO_EXIT_USAGE;
				goto out;
			}
			csv.name = argv[++i];
			if (csv_stdout(csv.name) && (json || windows_json(argc, argv))) {
				say("merge: --csv %s with --json: both want standard output",
				    csv.name);
				status = ATIO_EXIT_USAGE;
				goto out;
			}
			continue;
		}
		if (options && strcmp(a, "--clock-offset") == 0) {
			if (i + 1 == argc) {
				say("merge: --clock-offset: give the seconds and the FILE they are for");
				status = ATIO_EXIT_USAGE;
				goto out;
			}
			if (have_offset) {
				say("merge: --clock-offset: given twice for one FILE (%g, then %s)",
				    offset, argv[i + 1]);
				status = ATIO_EXIT_USAGE;
				goto out;
			}
			a = argv[++i];
			errno = 0;
			offset = strtod(a, &end);
			if (!a[0] || *end || errno || offset != offset || offset > 1e6 || offset < -1e6) {
				say("merge: --clock-offset %s: not a number of seconds", a);
				status = ATIO_EXIT_USAGE;
				goto out;
			}
			have_offset = true;
			continue;
		}
		if (options && a[0] == '-' && a[1]) {
			say("merge: %s: unknown option (merge takes --json, --values, --csv, --clock-offset, "
			    "--sequential, --unaligned, --iterations, the driver's --record, "
			    "--iteration-record, --test-summary, --matrix, --output-file, and files)", a);
			fputs("Try 'atio --help' for more information.\n", stderr);
			status = ATIO_EXIT_USAGE;
			goto out;
		}
		before = given_before(seen, &nseen, a);
		if (before) {
			say("merge: %s and %s are one file given twice: its run would be summed "
			    "twice", before, a);
			status = ATIO_EXIT_USAGE;
			goto out;
		}
		ret = add_file(&m, &plan, a, have_offset ? offset : 0.0, doc, &kind, &csv);
		have_offset = false;
		if (ret < 0)
			status = ATIO_EXIT_FAIL;
		else if (ret > 0) {
			status = ret;
			goto out;
		}
	}
	if (kind == KIND_PLAN && values) {
		say("merge: --values %s: the values of a merge of single runs; a merge of plans "
		    "has its figures per phase and job in its --json document", values);
		status = ATIO_EXIT_USAGE;
		goto out;
	}
	if (kind == KIND_PLAN && csv.name) {
		say("merge: --csv %s: the rows of a merge of single runs; a merge of plans has "
		    "its figures per phase and job in its --json document", csv.name);
		status = ATIO_EXIT_USAGE;
		goto out;
	}
	if (kind == KIND_PLAN) {
		status = print_plan(&plan, json, status);
		goto out;
	}
	if (have_offset || m.ndocs < 1) {
		say("merge: %s: atio merge [--json] [[--clock-offset SEC] FILE]... "
		    "(atio --json results)", have_offset ? "--clock-offset without a FILE after it"
							  : "no file given");
		status = ATIO_EXIT_USAGE;
		goto out;
	}
	for (unsigned k = 0; k < atio_merge_warnings(&m); k++) {
		atio_merge_warning(&m, k, warning, sizeof(warning));
		say("merge: warning: %s", warning);
	}
	atio_merge_steady_note(&m.steady, warning, sizeof(warning));
	if (!m.sequential && (warning[0] || (atio_merge_steady_any(&m.steady) &&
					    !m.steady.judged)))
		say("merge: warning: steady: %s", warning[0] ? warning : m.steady.why);
	if (json)
		atio_merge_json(stdout, &m);
	else if (!csv.name || !csv_stdout(csv.name))
		atio_merge_text(stdout, &m);
	if (fflush(stdout) != 0) {
		say("merge: cannot write the result: %s", strerror(errno));
		status = ATIO_EXIT_FAIL;
	}
	if (values && write_values(values, &m))
		status = ATIO_EXIT_USAGE;
	if (csv.name) {
		struct atio_error e = { 0 };

		if (atio_merge_csv_sum(&csv, &m, &e)) {
			say("%s", e.msg);
			status = e.exit ? e.exit : ATIO_EXIT_USAGE;
		}
	}
out:
	atio_merge_csv_free(&csv);
	atio_merge_free(&m);
	atio_merge_plan_free(&plan);
	free(doc);
	free(seen);
	return status;
}
