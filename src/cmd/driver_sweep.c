/* SPDX-License-Identifier: MIT */
/*
 * The cluster driver's sweeps and curves (driver_sweep.h). A point of a
 * driver's sweep is one ordinary run of the driver: every node started at
 * one instant, the nodes' documents summed by atio merge into the
 * iteration's record. Here those records become the sweep: each point's
 * sum and merged latency, the peak, the knees and the target found by
 * the finders atio sweep uses (atio/stats/curve.h), and for a curve each
 * step's caps: every node capped at the step's share of its own maximum,
 * measured in the uncapped run of all the nodes at once, so that the
 * capped sum aims at that share of the cluster's maximum.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "driver_args.h"
#include "driver_sweep.h"
#include "sweep.h"
#include "atio/document/doc.h"
#include "atio/document/json_read.h"
#include "atio/merge/merge.h"
#include "atio/merge/driver_record.h"
#include "atio/stats/curve.h"
#include "atio/stats/hist.h"

/*
 * The driver's sweep words @words[@n] into @sw, as atio sweep reads them:
 * axes, --curve, --knee, --target, --stop-latency, and nothing else (the
 * run's options are the driver's test and ATIO_OPTS). Returns 0, or the
 * exit status after a message naming the bad word.
 */
static int read_words(struct sweep *sw, int n, char **words, const char *mode)
{
	char **argv = calloc((size_t)n + 2, sizeof(*argv));
	struct atio_error e = { 0 };
	const char *bad = NULL;
	int ret;

	if (!argv) {
		say("merge %s: out of memory", mode);
		return ATIO_EXIT_FAIL;
	}
	argv[0] = "sweep";
	for (int i = 0; i < n; i++)
		argv[i + 1] = words[i];
	ret = sweep_read(sw, n + 1, argv, &e);
	free(argv);
	/* A word that is not the sweep's is what is wrong, whatever else is. */
	if (ret && sw->nbase) {
		ret = 0;
		sw->kind = SWEEP_GRID;
	}
	if (ret) {
		say("merge %s: %s", mode, e.msg);
		sweep_free(sw);
		return e.exit ? e.exit : ATIO_EXIT_USAGE;
	}
	if (sw->kind == SWEEP_SEARCH)
		bad = "--search: the driver runs a grid (--sweep) or a curve (--curve); "
		      "run atio sweep --search on one node";
	else if (sw->nbase)
		say("merge %s: %s: not an axis (iodepth=, s=, mix=, rate=) nor --curve, --knee, "
		    "--target, --stop-latency: the run's options are the test's and ATIO_OPTS'",
		    mode, sw->base[0]);
	else if (sw->arrivals)
		bad = "--arrivals: not taken by the driver: its capped steps space their I/Os as "
		      "--cap does";
	for (unsigned a = 0; !bad && !sw->nbase && a < sw->naxes; a++) {
		if (!strcmp(sw->axes[a].option, "-p"))
			say("merge %s: %s=%s: the driver's thread counts are -p (THREADS), each with "
			    "a sweep of its own", mode, sw->axes[a].name, sw->axes[a].text);
		else if (!strcmp(sw->axes[a].option, "-u"))
			say("merge %s: %s=%s: the nodes' files are prepared once, of -u (FILE_SIZE): "
			    "not an axis of the driver's sweep", mode, sw->axes[a].name,
			    sw->axes[a].text);
		else
			continue;
		sweep_free(sw);
		return ATIO_EXIT_USAGE;
	}
	if (bad)
		say("merge %s: %s", mode, bad);
	if (bad || sw->nbase) {
		sweep_free(sw);
		return ATIO_EXIT_USAGE;
	}
	return 0;
}

/*
 * atio merge --sweep-plan -- WORDS...: check the driver's sweep words and
 * print "kind<TAB>grid" or "kind<TAB>curve", then a grid's points, each
 * "point<TAB>OPTIONS" (the words that set it apart, as "--iodepth 8
 * -s 4K"), or a curve's steps, each "step<TAB>PERCENT". Exit 0, or 2
 * naming the bad word.
 */
int driver_sweep_plan(int argc, char **argv)
{
	static const char *const names[] = { NULL };
	struct args a = { .mode = "--sweep-plan", .names = names };
	struct sweep sw;
	char name[160];
	int ret = driver_parse(argc, argv, &a, "-- WORDS...");

	if (!ret && !a.nfiles)
		ret = driver_usage(&a, "no words: give the sweep's axes or --curve", "-- WORDS...");
	if (!ret)
		ret = read_words(&sw, a.nfiles, a.files, a.mode);
	if (ret) {
		driver_args_free(&a);
		return ret;
	}
	printf("kind\t%s\n", sw.kind == SWEEP_CURVE ? "curve" : "grid");
	for (unsigned i = 0; sw.kind == SWEEP_GRID && i < sw.npoints; i++) {
		sweep_point_name(&sw, i, name, sizeof(name));
		printf("point\t%s\n", name);
	}
	for (unsigned i = 0; sw.kind == SWEEP_CURVE && i < sw.ncurve; i++)
		printf("step\t%g\n", sw.curve_pct[i]);
	sweep_free(&sw);
	driver_args_free(&a);
	return flush_stdout("the sweep's points") ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
}

/*
 * The merged latency of point @p from its nodes' documents @docs[@n], the
 * ones its record's merge summed: their histograms added, so that any
 * percentile (--target, --stop-latency) is judged on every I/O of the
 * point. Their sum must be the record's: a document missing, or one
 * given twice, is refused. 0, or the exit status after a message.
 */
static int merge_docs(struct dpoint *p, char *const *docs, size_t n, const struct sweep *sw)
{
	struct atio_merge_doc *d = calloc(1, sizeof(*d));
	struct atio_error e = { 0 };
	struct atio_merge m;
	int ret = 0;

	atio_merge_init(&m);
	m.unaligned = true;
	if (!d) {
		say("merge --sweep-summary: out of memory");
		return ATIO_EXIT_FAIL;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		ret = atio_merge_read(docs[i], d, &e);
		if (!ret) {
			ret = atio_merge_add(&m, d, &e);
			atio_merge_doc_free(d);
		}
	}
	if (ret) {
		say("merge --sweep-summary: %s", e.msg);
		ret = e.exit ? e.exit : ATIO_EXIT_USAGE;
	} else if (m.ndocs != p->ok_nodes || m.sum != p->sum) {
		say("merge --sweep-summary: %s: its %u documents sum to %.17g, its record has %u "
		    "nodes and %.17g", p->path, m.ndocs, m.sum, p->ok_nodes, p->sum);
		ret = ATIO_EXIT_USAGE;
	} else if (n) {
		const struct atio_hist *h = &m.total.lat;

		p->p50 = (double)atio_hist_percentile(h, 50.0);
		p->p99 = (double)atio_hist_percentile(h, 99.0);
		p->p999 = (double)atio_hist_percentile(h, 99.9);
		p->at_target = sw->target_pct ? (double)atio_hist_percentile(h, sw->target_pct) : 0;
		p->at_stop = sw->stop_pct ? (double)atio_hist_percentile(h, sw->stop_pct) : 0;
	}
	atio_merge_free(&m);
	free(d);
	return ret;
}

/*
 * Read point @p from the line of --points @line: the path of its
 * iteration record, then its nodes' documents, by tabs. 0, or the exit
 * status after a message.
 */
static int read_point(struct dpoint *p, char *line, const struct sweep *sw)
{
	struct atio_error e = { 0 };
	char *docs[4096], *tab;
	size_t n = 0;

	*p = (struct dpoint){ .path = line };
	for (tab = strchr(line, '\t'); tab; tab = strchr(tab + 1, '\t')) {
		*tab = '\0';
		if (n == sizeof(docs) / sizeof(docs[0])) {
			say("merge --sweep-summary: %s: more than %zu documents", line, n);
			return ATIO_EXIT_USAGE;
		}
		docs[n++] = tab + 1;
	}
	if (atio_json_read_file(p->path, &p->rec, &e)) {
		say("merge --sweep-summary: %s", e.msg);
		return ATIO_EXIT_USAGE;
	}
	if (!json_is_object(p->rec) || !json_is_boolean(json_object_get(p->rec, "complete")) ||
	    !json_is_array(json_object_get(p->rec, "nodes"))) {
		say("merge --sweep-summary: %s: not an iteration's record of the driver", p->path);
		return ATIO_EXIT_USAGE;
	}
	p->complete = json_is_true(json_object_get(p->rec, "complete"));
	p->concurrent = json_is_true(json_object_get(p->rec, "concurrent"));
	p->ok_nodes = (unsigned)dsweep_num(p->rec, "ok_nodes");
	p->nodes = (unsigned)json_array_size(json_object_get(p->rec, "nodes"));
	p->sum = dsweep_num(p->rec, "sum");
	p->skew = dsweep_num(p->rec, "skew_sec");
	p->unit = json_string_value(json_object_get(p->rec, "unit"));
	if (!p->unit)
		p->unit = "";
	p->valid = p->complete && p->concurrent && p->sum > 0 &&
		   json_is_object(json_object_get(p->rec, "merge"));
	/* No node gave a result: nothing to merge, nothing to choose. */
	if (!json_is_object(json_object_get(p->rec, "merge")))
		return 0;
	return merge_docs(p, docs, n, sw);
}

/* A curve's step @k (1 up): its share and its aim, the sum of the nodes' caps. */
static void step_aim(const struct sweep *sw, const struct dpoint *max, struct dpoint *p,
		     unsigned k)
{
	p->pct = sw->curve_pct[k - 1];
	p->aim = 0;
	for (unsigned i = 0; i < max->nodes; i++)
		p->aim += dsweep_node_cap(dsweep_node(max, i), p->pct);
	p->held = p->valid && atio_curve_held(p->aim, p->sum);
}

static struct dchoice choose(const struct sweep *sw, const struct dpoint *pts, unsigned n)
{
	struct dchoice c = { -1, -1, -1, -1 };
	bool knees = sw->naxes == 1 && sw->kind == SWEEP_GRID;
	double y[SWEEP_MAX_POINTS], lat[SWEEP_MAX_POINTS];
	unsigned at[SWEEP_MAX_POINTS] = { 0 }, m = 0;
	int i;

	/* A point not summed from every node at one instant is no figure to choose. */
	for (unsigned k = 0; k < n; k++)
		if (pts[k].valid) {
			y[m] = pts[k].sum;
			lat[m] = pts[k].at_target;
			at[m++] = k;
		}
	if ((i = atio_curve_peak(y, m)) >= 0)
		c.peak = (int)at[i];
	if (knees && (i = atio_curve_knee(y, m, sw->knee_pct)) >= 0)
		c.knee = (int)at[i];
	if (knees && (i = atio_curve_kneedle(y, m, 0.05)) >= 0)
		c.kneedle = (int)at[i];
	if (sw->target_pct && (i = atio_curve_target(y, lat, m, sw->target_ns)) >= 0)
		c.target = (int)at[i];
	return c;
}

/* What sets point @k apart: a grid's options, a curve's maximum or step. */
static void label(const struct sweep *sw, const struct dpoint *p, unsigned k, char *buf,
		  size_t len)
{
	if (sw->kind == SWEEP_GRID)
		sweep_point_name(sw, k, buf, len);
	else if (k == 0)
		snprintf(buf, len, "maximum (uncapped)");
	else
		snprintf(buf, len, p->aim >= 10 ? "%g%% of the maximum, aim %.0f %s"
			 : "%g%% of the maximum, aim %.2f %s", p->pct, p->aim, p->unit);
}

static void print_point(const struct sweep *sw, const struct dpoint *p, unsigned k,
			unsigned total)
{
	char name[160];

	label(sw, p, k, name, sizeof(name));
	printf("%s %u of %u: %s: ", sw->kind == SWEEP_GRID ? "point" : "step", k + 1, total,
	       name);
	if (!p->complete)
		printf("INCOMPLETE (%u of %u nodes): not chosen\n", p->ok_nodes, p->nodes);
	else if (!p->concurrent)
		printf("NOT CONCURRENT (start skew %.4f s): not chosen\n", p->skew);
	else if (!p->valid)
		printf("nothing measured: not chosen\n");
	else {
		printf("%.5f %s; latency (usec) p50 %.2f, p99 %.2f, p99.9 %.2f (merged from %u "
		       "nodes)", p->sum, p->unit, p->p50 / 1e3, p->p99 / 1e3, p->p999 / 1e3,
		       p->ok_nodes);
		if (k > 0 && sw->kind == SWEEP_CURVE)
			printf("; %s (%.1f%% of the aim)", p->held ? "held" : "not held",
			       100.0 * p->sum / p->aim);
		putchar('\n');
	}
}

static void print_choice(const struct sweep *sw, const struct dpoint *pts, const char *what,
			 int i, const char *why)
{
	char name[160];

	if (i < 0) {
		printf("%s: none (%s)\n", what, why);
		return;
	}
	label(sw, &pts[i], (unsigned)i, name, sizeof(name));
	printf("%s: %s %d, %s: %.5f %s; p99 %.2f usec\n", what,
	       sw->kind == SWEEP_GRID ? "point" : "step", i + 1, name, pts[i].sum, pts[i].unit,
	       pts[i].p99 / 1e3);
}

/* The "use:" line: the options of point @i on every node, or each node's cap. */
static void print_use(const struct sweep *sw, const struct dpoint *pts, int i)
{
	char name[160], cap[32];

	if (i < 0)
		return;
	if (sw->kind == SWEEP_GRID) {
		const char *values[SWEEP_MAX_AXES];

		/* The point again as a sweep of one: its options replace the test's own. */
		sweep_point_values(sw, (unsigned)i, values);
		fputs("use: --sweep '", stdout);
		for (unsigned a = 0; a < sw->naxes; a++)
			printf("%s%s=%s", a ? " " : "", sw->axes[a].name, values[a]);
		sweep_point_name(sw, (unsigned)i, name, sizeof(name));
		printf("' (every node runs the test with %s)\n", name);
		return;
	}
	if (i == 0) {
		printf("use: no cap (the maximum, every node uncapped)\n");
		return;
	}
	fputs("use: each node's own --cap:", stdout);
	for (unsigned k = 0; k < pts[0].nodes; k++) {
		const json_t *n = dsweep_node(&pts[0], k);

		dsweep_cap_text(cap, sizeof(cap), dsweep_node_cap(n, pts[i].pct));
		printf("%s %s --cap %s", k ? "," : "", json_string_value(json_object_get(n, "host")),
		       cap);
	}
	dsweep_cap_text(cap, sizeof(cap), pts[i].aim);
	printf(" (sum %s %s)\n", cap, pts[i].unit);
}

static void summary_text(const struct sweep *sw, const struct dpoint *pts, unsigned n,
			 unsigned total, const struct dchoice *c, const char *ended)
{
	for (unsigned k = 0; k < n; k++)
		print_point(sw, &pts[k], k, total);
	print_choice(sw, pts, "peak", c->peak, "no point summed from every node at one instant");
	if (sw->naxes == 1 && sw->kind == SWEEP_GRID) {
		char knee[48];

		snprintf(knee, sizeof(knee), "knee (%g%% of the peak)", sw->knee_pct);
		print_choice(sw, pts, knee, c->knee, "no point summed from every node at one instant");
		print_choice(sw, pts, "kneedle", c->kneedle,
			     n < 3 ? "fewer than 3 points" : "the curve does not bend down");
	}
	if (sw->target_pct) {
		char t[64];

		snprintf(t, sizeof(t), "target %s", sw->target_text);
		print_choice(sw, pts, t, c->target, "no point stays within it");
	}
	print_use(sw, pts, c->target >= 0 ? c->target : c->knee >= 0 ? c->knee : c->peak);
	if (sw->kind == SWEEP_CURVE && n > 1) {
		unsigned held = 0;

		for (unsigned k = 1; k < n; k++)
			held += pts[k].held;
		printf("curve: maximum %.5f %s; %u of %u steps held (%.0f%% of the aim or more); "
		       "each node capped at the step's share of its own maximum\n", pts[0].sum,
		       pts[0].unit, held, n - 1, ATIO_CURVE_HELD * 100);
	}
	if (!strcmp(ended, "stop-latency"))
		printf("curve: ended at step %u: its p%g exceeds --stop-latency %s\n", n,
		       sw->stop_pct, sw->stop_text);
	else if (!strcmp(ended, "no maximum"))
		printf("curve: no steps: the maximum's run was not summed from every node at one "
		       "instant\n");
}

/*
 * What comes after the @n points run, to file @path: "next<TAB>point
 * <TAB>OPTIONS" (a grid's next point), "next<TAB>maximum" (a curve's
 * uncapped run), "next<TAB>step<TAB>PERCENT" and a "cap<TAB>HOST<TAB>CAP"
 * a node (a curve's step), or "end<TAB>REASON": done, stop-latency, or
 * no maximum. Returns the reason it ended, NULL while it goes on.
 */
static const char *next_point(FILE *f, const struct sweep *sw, struct dpoint *pts, unsigned n)
{
	char name[160], cap[32];

	if (sw->kind == SWEEP_GRID) {
		if (n >= sw->npoints)
			return "done";
		sweep_point_name(sw, n, name, sizeof(name));
		fprintf(f, "next\tpoint\t%s\n", name);
		return NULL;
	}
	if (n == 0) {
		fprintf(f, "next\tmaximum\n");
		return NULL;
	}
	if (!pts[0].valid)
		return "no maximum";
	if (n > 1 && sw->stop_pct && pts[n - 1].valid &&
	    atio_curve_stops(pts[n - 1].at_stop, sw->stop_ns))
		return "stop-latency";
	if (n > sw->ncurve)
		return "done";
	fprintf(f, "next\tstep\t%g\n", sw->curve_pct[n - 1]);
	for (unsigned i = 0; i < pts[0].nodes; i++) {
		const json_t *node = dsweep_node(&pts[0], i);

		dsweep_cap_text(cap, sizeof(cap), dsweep_node_cap(node, sw->curve_pct[n - 1]));
		fprintf(f, "cap\t%s\t%s\n", json_string_value(json_object_get(node, "host")), cap);
	}
	return NULL;
}

static const char *const summary_names[] = { "--points", "--values", "--threads", "--test",
					     "--out", NULL };
#define SUMMARY_SYNOPSIS "--points LIST --values FILE --threads N --test NAME --out JSON " \
	"-- WORDS..."

/*
 * atio merge --sweep-summary: the points run so far (LIST: a line a
 * point, in the order they ran: the path of its iteration record, then
 * those of its nodes' documents that the record's merge summed, by tabs) of
 * the sweep that WORDS make: the summary as text on stdout and as JSON to
 * file JSON, what comes next to file FILE (next_point()). Exit 0, 1 when
 * a file could not be written, 2 for bad usage or a record that is not
 * one.
 */
int driver_sweep_summary(int argc, char **argv)
{
	struct args a = { .mode = "--sweep-summary", .names = summary_names };
	struct dpoint *pts = NULL;
	struct dchoice c;
	struct sweep sw;
	struct atio_lines list = { 0 };
	struct atio_error e = { 0 };
	const char *ended = NULL;
	unsigned n = 0, total;
	FILE *f;
	int ret = driver_parse(argc, argv, &a, SUMMARY_SYNOPSIS);

	if (!ret && !a.nfiles)
		ret = driver_usage(&a, "no words: give the sweep's axes or --curve",
				   SUMMARY_SYNOPSIS);
	if (ret) {
		driver_args_free(&a);
		return ret;
	}
	ret = read_words(&sw, a.nfiles, a.files, a.mode);
	if (ret) {
		driver_args_free(&a);
		return ret;
	}
	if (atio_lines_read(a.val[SW_POINTS], &list, &e)) {
		say("merge --sweep-summary: --points %s", e.msg);
		ret = ATIO_EXIT_USAGE;
		goto out;
	}
	total = sw.kind == SWEEP_GRID ? sw.npoints : sw.ncurve + 1;
	if (list.n > total) {
		say("merge --sweep-summary: --points %s: %zu points, the sweep has %u",
		    a.val[SW_POINTS], list.n, total);
		ret = ATIO_EXIT_USAGE;
		goto out;
	}
	pts = calloc(total, sizeof(*pts));
	if (!pts) {
		say("merge --sweep-summary: out of memory");
		ret = ATIO_EXIT_FAIL;
		goto out;
	}
	for (; n < list.n && !ret; n++)
		ret = read_point(&pts[n], list.line[n], &sw);
	if (ret)
		goto out;
	/* A curve's steps: each node's cap from its own run in the maximum. */
	for (unsigned k = 1; sw.kind == SWEEP_CURVE && k < n; k++)
		step_aim(&sw, &pts[0], &pts[k], k);
	f = driver_open_out(&a, "--values", a.val[SW_VALUES]);
	if (!f) {
		ret = ATIO_EXIT_USAGE;
		goto out;
	}
	ended = next_point(f, &sw, pts, n);
	if (ended)
		fprintf(f, "end\t%s\n", ended);
	if (driver_close_out(&a, f, a.val[SW_VALUES]))
		ret = ATIO_EXIT_FAIL;
	c = choose(&sw, pts, n);
	if (!ret)
		ret = dsweep_json(a.val[SW_OUT], &a, &sw, pts, n, &c, ended);
	summary_text(&sw, pts, n, total, &c, ended ? ended : "running");
	if (flush_stdout("the sweep's summary") && !ret)
		ret = ATIO_EXIT_FAIL;
out:
	for (unsigned k = 0; pts && k < n; k++)
		json_decref(pts[k].rec);
	free(pts);
	atio_lines_free(&list);
	sweep_free(&sw);
	driver_args_free(&a);
	return ret;
}
