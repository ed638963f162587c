/* SPDX-License-Identifier: MIT */
/*
 * atio sweep (sweep.h): every point's options parsed and set up before
 * the first byte moves, then the points run one after another, each an
 * ordinary run (run.h) on its dataset (points that plan the same files
 * reuse them), each printed as one line as it ends. Then the peak, the
 * knee, Kneedle's knee and the target, and a "use:" line with the options
 * of the chosen load. A signal or a failure keeps the points done.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "run.h"
#include "sweep.h"
#include "config.h"
#include "atio/base/clock.h"
#include "atio/base/json.h"
#include "atio/cli/cli.h"
#include "atio/stats/curve.h"
#include "atio/stats/steady.h"

/* What a point's result says, kept for the summary and the document. */
static void keep(struct sweep_point *pt, const struct atio_result *res, const struct sweep *sw)
{
	const struct atio_stats *t = &res->total;
	FILE *m;

	pt->measured = !res->nothing_measured;
	pt->interrupted = res->interrupted;
	pt->value = atio_result_value(res);
	atio_result_rates(res, &pt->mbs, &pt->iops, &pt->cpu_pct);
	pt->p50 = (double)atio_hist_percentile(&t->lat, 50.0);
	pt->p99 = (double)atio_hist_percentile(&t->lat, 99.0);
	pt->p999 = (double)atio_hist_percentile(&t->lat, 99.9);
	pt->at_target = sw->target_pct ? (double)atio_hist_percentile(&t->lat, sw->target_pct) : 0;
	pt->at_stop = sw->stop_pct ? (double)atio_hist_percentile(&t->lat, sw->stop_pct) : 0;
	pt->held = pt->aim > 0 && atio_curve_held(pt->aim, pt->value);
	pt->steady = res->steady ? res->steady->steady_at > 0 : -1;
	m = open_memstream(&pt->doc, &pt->doclen);
	if (m) {
		atio_report_json(m, res);
		if (fclose(m) != 0) {
			free(pt->doc);
			pt->doc = NULL;
		}
	}
}

/* One point: open its dataset, measure, keep, close. Returns the exit status. */
static int run_point(const struct sweep *sw, struct sweep_point *pt, bool *signalled)
{
	struct atio_error e = { 0 };
	struct run_result rr = { 0 };
	struct run r;
	int status = ATIO_EXIT_OK;

	if (run_open(&r, &pt->o, pt->engine, &e)) {
		status = fail(&e);
	} else if (run_measure(&r, &rr, &e)) {
		status = fail(&e);
	} else {
		keep(pt, &rr.res, sw);
		if (rr.rb.bad || rr.rb.err)
			status = fail(&rr.rb.e);
		if (rr.flush_ret)
			status = fail(&rr.flush_err);
	}
	*signalled = r.wt.signo != 0;
	if (*signalled && status == ATIO_EXIT_OK)
		status = ATIO_EXIT_INTERRUPTED;
	run_result_free(&rr);
	if (run_close(&r, &e) && status == ATIO_EXIT_OK)
		status = fail(&e);
	return status;
}

/* What sets point @i apart, for the text: a curve's step by its share and aim. */
static void point_label(const struct sweep *sw, unsigned i, const struct sweep_point *pt,
			char *buf, size_t len)
{
	if (sw->kind == SWEEP_CURVE && pt->aim > 0)
		snprintf(buf, len, pt->aim >= 10 ? "%g%% of the maximum, aim %.0f %s"
			 : "%g%% of the maximum, aim %.2f %s", pt->pct, pt->aim,
			 atio_unit_name(&pt->o));
	else
		sweep_point_name(sw, i, buf, len);
}

static void print_point(const struct sweep *sw, unsigned i, const struct sweep_point *pt)
{
	char name[160], held[64] = "";

	point_label(sw, i, pt, name, sizeof(name));
	if (sw->kind == SWEEP_CURVE && pt->aim > 0)
		snprintf(held, sizeof(held), "; %s (%.1f%% of the aim)",
			 pt->held ? "held" : "not held", 100.0 * pt->value / pt->aim);
	if (sw->kind == SWEEP_GRID)
		printf("point %u of %u: %s: ", i + 1, sw->npoints, name);
	else if (sw->kind == SWEEP_CURVE)
		printf("step %u of %u: %s: ", i + 1, sw->ncurve + 1, name);
	else
		printf("point %u: %s: ", i + 1, name);
	if (!pt->measured) {
		printf("nothing measured\n");
		return;
	}
	printf("%.5f %s, %.2f MB/s, %.2f IOPS; latency (usec) p50 %.2f, p99 %.2f, p99.9 %.2f; "
	       "cpu %.0f%%%s%s%s\n", pt->value, atio_unit_name(&pt->o), pt->mbs, pt->iops,
	       pt->p50 / 1e3, pt->p99 / 1e3, pt->p999 / 1e3, pt->cpu_pct, held,
	       pt->steady == 0 ? " (not steady)" : "",
	       pt->interrupted ? " (interrupted: not chosen)" : "");
}

/* A word as the shell reads it back: quoted unless it is plain. */
static void put_word(FILE *f, const char *w)
{
	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789_./:=,+-%@") == strlen(w)) {
		fputs(w, f);
		return;
	}
	putc('\'', f);
	for (; *w; w++)
		if (*w == '\'')
			fputs("'\\''", f);
		else
			putc(*w, f);
	putc('\'', f);
}

/* "atio OPTIONS" of @point, into a string of its own (NULL without memory). */
static char *use_line(const struct sweep *sw, unsigned point)
{
	char **argv = calloc((size_t)sw->nbase + 2 * sw->naxes + 4, sizeof(*argv)), *text = NULL;
	size_t len = 0;
	FILE *m = argv ? open_memstream(&text, &len) : NULL;
	int argc;

	if (!m) {
		free(argv);
		return NULL;
	}
	argc = sweep_point_argv(sw, point, argv);
	fputs("atio", m);
	for (int i = 1; i < argc; i++) {
		/* The cap by its name without the result line's word (grep rate). */
		bool cap = strncmp(argv[i], "--rate", 6) == 0 && (!argv[i][6] || argv[i][6] == '=');

		putc(' ', m);
		if (cap)
			fputs("--cap", m);
		if (!cap || argv[i][6])
			put_word(m, cap ? argv[i] + 6 : argv[i]);
	}
	free(argv);
	if (fclose(m) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The finders' choices over the points measured, as indexes of @pts (-1: none). */
struct choice {
	int peak, knee, kneedle, target;
};

/*
 * A search's points @at[m] in the order of their load, as the finders read
 * a curve (a search runs them out of order): an insertion sort, of at most
 * SWEEP_MAX_VALUES points.
 */
static void by_load(const struct sweep *sw, unsigned *at, unsigned m)
{
	for (unsigned k = 1; k < m; k++) {
		unsigned v = at[k], j = k;
		unsigned long load = strtoul(sw->axes[0].values[v], NULL, 10);

		for (; j > 0 && strtoul(sw->axes[0].values[at[j - 1]], NULL, 10) > load; j--)
			at[j] = at[j - 1];
		at[j] = v;
	}
}

static struct choice choose(const struct sweep *sw, const struct sweep_point *pts, unsigned n)
{
	/* The knees are of a load on one axis: a curve's steps are caps, not loads. */
	bool knees = sw->naxes == 1 && sw->kind != SWEEP_CURVE;
	double *y = calloc(n ? n : 1, sizeof(*y)), *lat = calloc(n ? n : 1, sizeof(*lat));
	unsigned *at = calloc(n ? n : 1, sizeof(*at)), m = 0;
	struct choice c = { -1, -1, -1, -1 };
	int i;

	if (!y || !lat || !at)
		goto out;
	/* A point a signal cut short ran less than its time: no figure to choose from. */
	for (unsigned k = 0; k < n; k++)
		if (pts[k].measured && !pts[k].interrupted)
			at[m++] = k;
	if (sw->kind == SWEEP_SEARCH)
		by_load(sw, at, m);
	for (unsigned k = 0; k < m; k++) {
		y[k] = pts[at[k]].value;
		lat[k] = pts[at[k]].at_target;
	}
	if ((i = atio_curve_peak(y, m)) >= 0)
		c.peak = (int)at[i];
	/* The knees are of a load on one axis; a grid of several has a peak only. */
	if (knees && (i = atio_curve_knee(y, m, sw->knee_pct)) >= 0)
		c.knee = (int)at[i];
	if (knees && (i = atio_curve_kneedle(y, m, 0.05)) >= 0)
		c.kneedle = (int)at[i];
	if (sw->target_pct && (i = atio_curve_target(y, lat, m, sw->target_ns)) >= 0)
		c.target = (int)at[i];
out:
	free(y);
	free(lat);
	free(at);
	return c;
}

static void print_choice(const struct sweep *sw, const struct sweep_point *pts, const char *what,
			 int i, const char *why)
{
	char name[160];

	if (i < 0) {
		printf("%s: none (%s)\n", what, why);
		return;
	}
	point_label(sw, (unsigned)i, &pts[i], name, sizeof(name));
	printf("%s: point %d, %s: %.5f %s; p99 %.2f usec\n", what, i + 1, name, pts[i].value,
	       atio_unit_name(&pts[i].o), pts[i].p99 / 1e3);
}

static void summary_text(const struct sweep *sw, const struct sweep_point *pts, unsigned n,
			 const struct choice *c, const char *use)
{
	print_choice(sw, pts, "peak", c->peak, "no point measured");
	/* The knees are of one axis's load: a grid of several has none, nor a curve. */
	if (sw->naxes == 1 && sw->kind != SWEEP_CURVE) {
		char knee[48];

		snprintf(knee, sizeof(knee), "knee (%g%% of the peak)", sw->knee_pct);
		print_choice(sw, pts, knee, c->knee, "no point measured");
		print_choice(sw, pts, "kneedle", c->kneedle,
			     n < 3 ? "fewer than 3 points" : "the curve does not bend down");
	}
	if (sw->target_pct) {
		char t[64];

		snprintf(t, sizeof(t), "target %s", sw->target_text);
		print_choice(sw, pts, t, c->target, "no point stays within it");
	}
	/* The cap's option is --cap on it, as on the header's Cmdline: off grep rate. */
	if (use) {
		fputs("use: ", stdout);
		atio_report_put_text(stdout, use);
		putchar('\n');
	}
}

static void json_choice(struct atio_json *j, const char *key, const struct sweep *sw,
			int i)
{
	char name[160];

	if (i < 0) {
		atio_json_null(j, key);
		return;
	}
	sweep_point_name(sw, (unsigned)i, name, sizeof(name));
	atio_json_object_begin(j, key);
	atio_json_uint(j, "point", (unsigned)i + 1);
	atio_json_string(j, "options", name);
	atio_json_object_end(j);
}

static void summary_json(const struct sweep *sw, const struct sweep_point *pts, unsigned run,
			 const struct choice *c, const char *use, bool complete,
			 const char *ended)
{
	const char *values[SWEEP_MAX_AXES];
	struct atio_json j;

	atio_json_init(&j, stdout);
	atio_json_object_begin(&j, NULL);
	atio_json_object_begin(&j, "atio");
	atio_json_string(&j, "version", ATIO_VERSION);
	atio_json_object_end(&j);
	atio_json_object_begin(&j, "sweep");
	atio_json_array_begin(&j, "axes");
	for (unsigned a = 0; a < sw->naxes; a++) {
		atio_json_object_begin(&j, NULL);
		atio_json_string(&j, "name", sw->axes[a].name);
		atio_json_string(&j, "option", sw->axes[a].option);
		atio_json_array_begin(&j, "values");
		for (unsigned v = 0; v < sw->axes[a].nvalues; v++)
			atio_json_string(&j, NULL, sw->axes[a].values[v]);
		atio_json_array_end(&j);
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	atio_json_uint(&j, "points", sw->npoints);
	atio_json_string(&j, "kind", sw->kind == SWEEP_CURVE ? "curve"
			 : sw->kind == SWEEP_SEARCH ? "search" : "grid");
	atio_json_double(&j, "knee_pct", sw->knee_pct);
	if (sw->kind == SWEEP_CURVE)
		sweep_json_curve(&j, sw, pts, run, ended);
	else if (sw->kind == SWEEP_SEARCH)
		sweep_json_search(&j, sw, ended);
	if (sw->target_pct) {
		atio_json_object_begin(&j, "target");
		atio_json_double(&j, "percentile", sw->target_pct);
		atio_json_double(&j, "limit_ns", sw->target_ns);
		atio_json_object_end(&j);
	} else {
		atio_json_null(&j, "target");
	}
	atio_json_object_end(&j);
	atio_json_array_begin(&j, "points");
	for (unsigned i = 0; i < run; i++) {
		sweep_point_values(sw, i, values);
		atio_json_object_begin(&j, NULL);
		atio_json_uint(&j, "point", i + 1);
		atio_json_object_begin(&j, "axes");
		for (unsigned a = 0; a < sw->naxes; a++)
			atio_json_string(&j, sw->axes[a].name, values[a]);
		atio_json_object_end(&j);
		atio_json_bool(&j, "measured", pts[i].measured);
		atio_json_bool(&j, "interrupted", pts[i].interrupted);
		atio_json_double(&j, "value", pts[i].value);
		atio_json_string(&j, "unit", atio_unit_name(&pts[i].o));
		atio_json_double(&j, "p50_ns", pts[i].p50);
		atio_json_double(&j, "p99_ns", pts[i].p99);
		atio_json_double(&j, "p99.9_ns", pts[i].p999);
		if (sw->target_pct)
			atio_json_double(&j, "target_percentile_ns", pts[i].at_target);
		atio_json_double(&j, "cpu_pct", pts[i].cpu_pct);
		if (pts[i].steady < 0)
			atio_json_null(&j, "steady");
		else
			atio_json_bool(&j, "steady", pts[i].steady);
		if (sw->kind == SWEEP_CURVE && pts[i].aim > 0) {
			atio_json_double(&j, "pct", pts[i].pct);
			atio_json_double(&j, "aim", pts[i].aim);
			atio_json_double(&j, "achieved", pts[i].value);
			atio_json_bool(&j, "held", pts[i].held);
		} else if (sw->kind == SWEEP_CURVE) {
			atio_json_null(&j, "pct");
			atio_json_null(&j, "aim");
			atio_json_double(&j, "achieved", pts[i].value);
			atio_json_null(&j, "held");
		}
		if (sw->stop_pct)
			atio_json_double(&j, "stop_percentile_ns", pts[i].at_stop);
		if (pts[i].doc)
			atio_json_raw(&j, "document", pts[i].doc, pts[i].doclen);
		else
			atio_json_null(&j, "document");
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	json_choice(&j, "peak", sw, c->peak);
	json_choice(&j, "knee", sw, c->knee);
	json_choice(&j, "kneedle", sw, c->kneedle);
	json_choice(&j, "target_point", sw, c->target);
	atio_json_string(&j, "use", use);
	atio_json_uint(&j, "points_run", run);
	atio_json_bool(&j, "complete", complete);
	atio_json_object_end(&j);
}

int sweep_main(int argc, char **argv)
{
	struct atio_error e = { 0 };
	struct sweep sw;
	struct sweep_point *pts = NULL;
	struct choice c;
	struct atio_search search;
	const char *ended = NULL;
	char *use = NULL;
	unsigned run = 0, room;
	uint64_t t0;
	bool json, signalled = false;
	unsigned unsteady = 0;	   /* points measured before they were steady */
	int status;

	if (sweep_read(&sw, argc, argv, &e)) {
		say("%s", e.msg);
		if (e.exit == ATIO_EXIT_USAGE)
			fputs("Try 'atio --help' for more information.\n", stderr);
		sweep_free(&sw);
		return e.exit ? e.exit : ATIO_EXIT_FAIL;
	}
	room = sw.kind == SWEEP_GRID ? sw.npoints : SWEEP_MAX_VALUES;
	pts = calloc(room, sizeof(*pts));
	status = !pts ? (say("out of memory"), ATIO_EXIT_FAIL)
		: sw.kind == SWEEP_GRID ? sweep_setup_points(&sw, pts, 0, sw.npoints)
		: sweep_first_point(&sw, pts, &search);
	if (status)
		goto out;
	json = pts[0].o.json;
	atio_clock_init();
	t0 = atio_now_ns();
	/* The points run: those that ended, and one a signal cut; not one that failed. */
	while (status == ATIO_EXIT_OK && !signalled) {
		/* A grid's points are all set up; a curve's and a search's come as they run. */
		if (run == sw.npoints && sw.kind == SWEEP_GRID)
			ended = "done";
		else if (run == sw.npoints)
			ended = sweep_next_point(&sw, pts, run, &search, t0, &status);
		if (ended || status)
			break;
		status = run_point(&sw, &pts[run], &signalled);
		if (status != ATIO_EXIT_OK && !signalled)
			break;
		if (!json) {
			print_point(&sw, run, &pts[run]);
			fflush(stdout);
		}
		/* Once: a point measured before its rounds were steady. */
		if (pts[run].measured && pts[run].steady == 0 && !unsteady++)
			say("warning: --steady: point %u was not steady after %u rounds; its "
			    "measured time followed anyway (marked \"not steady\")", run + 1,
			    pts[run].o.rounds);
		run++;
	}
	c = choose(&sw, pts, run);
	if (c.target >= 0 || c.knee >= 0 || c.peak >= 0)
		use = use_line(&sw, (unsigned)(c.target >= 0 ? c.target : c.knee >= 0 ? c.knee
								       : c.peak));
	if (!ended || !*ended)
		ended = signalled ? "interrupted" : "failed";
	if (json)
		summary_json(&sw, pts, run, &c, use, run == sw.npoints && status == ATIO_EXIT_OK,
			     ended);
	else
		summary_text(&sw, pts, run, &c, use);
	if (!json && sw.kind != SWEEP_GRID)
		sweep_print_ended(&sw, pts, ended);
	/* A search's points are not known ahead; a curve's are its steps and the maximum. */
	if (!json && (run < sw.npoints || status != ATIO_EXIT_OK) && sw.kind == SWEEP_SEARCH)
		printf("sweep: stopped after %u points\n", run);
	else if (!json && (run < sw.npoints || status != ATIO_EXIT_OK))
		printf("sweep: stopped after %u of %u points\n", run,
		       sw.kind == SWEEP_CURVE ? sw.ncurve + 1 : sw.npoints);
	if (flush_stdout("the results") && status == ATIO_EXIT_OK)
		status = ATIO_EXIT_FAIL;
out:
	for (unsigned i = 0; pts && i < room; i++)
		free(pts[i].doc);
	free(pts);
	free(use);
	sweep_free(&sw);
	return status;
}
