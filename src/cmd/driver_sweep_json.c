/* SPDX-License-Identifier: MIT */
/*
 * The cluster driver's sweeps as JSON (driver_sweep.h): a sweep's summary,
 * each point with its sum, merged latency, every node's figure and its
 * iteration's record, and the -o document with the sweeps in it.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "driver_sweep.h"
#include "atio/base/json.h"
#include "atio/document/json_read.h"
#include "atio/merge/driver_record.h"
#include "atio/stats/curve.h"

static void json_choice(struct atio_json *j, const char *key, int i)
{
	if (i < 0) {
		atio_json_null(j, key);
		return;
	}
	atio_json_uint(j, key, (unsigned)i + 1);
}

static void json_point(struct atio_json *j, const struct sweep *sw, const struct dpoint *pts,
		       unsigned k)
{
	const struct dpoint *p = &pts[k];
	char name[160], cap[32];

	atio_json_object_begin(j, NULL);
	atio_json_uint(j, "point", k + 1);
	if (sw->kind == SWEEP_GRID)
		sweep_point_name(sw, k, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "%s", k ? "--cap" : "");
	atio_json_string(j, "options", name);
	atio_json_bool(j, "valid", p->valid);
	atio_json_bool(j, "complete", p->complete);
	atio_json_bool(j, "concurrent", p->concurrent);
	atio_json_double(j, "sum", p->sum);
	atio_json_string(j, "unit", p->unit);
	if (p->valid || (p->complete && json_is_object(json_object_get(p->rec, "merge")))) {
		atio_json_object_begin(j, "latency_us");
		atio_json_double(j, "p50", p->p50 / 1e3);
		atio_json_double(j, "p99", p->p99 / 1e3);
		atio_json_double(j, "p99.9", p->p999 / 1e3);
		atio_json_object_end(j);
	} else {
		atio_json_null(j, "latency_us");
	}
	if (sw->target_pct)
		atio_json_double(j, "target_percentile_us", p->at_target / 1e3);
	if (sw->kind == SWEEP_CURVE && k > 0) {
		atio_json_double(j, "share_percent", p->pct);
		atio_json_double(j, "aim", p->aim);
		atio_json_bool(j, "held", p->held);
	} else {
		atio_json_null(j, "share_percent");
		atio_json_null(j, "aim");
		atio_json_null(j, "held");
	}
	/* Each node's figure of the point (null: it failed), and a step's cap. */
	atio_json_array_begin(j, "nodes");
	for (unsigned i = 0; i < p->nodes; i++) {
		const json_t *n = dsweep_node(p, i);

		atio_json_object_begin(j, NULL);
		atio_json_copy(j, "host", json_object_get(n, "host"));
		atio_json_bool(j, "ok", json_is_true(json_object_get(n, "ok")));
		if (json_is_true(json_object_get(n, "ok")))
			atio_json_double(j, "value", dsweep_num(n, "value"));
		else
			atio_json_null(j, "value");
		if (sw->kind == SWEEP_CURVE && k > 0 && i < pts[0].nodes) {
			dsweep_cap_text(cap, sizeof(cap), dsweep_node_cap(dsweep_node(&pts[0], i), p->pct));
			atio_json_double(j, "cap", strtod(cap, NULL));
		}
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
	atio_json_copy(j, "iteration", p->rec);
	atio_json_object_end(j);
}

/* The sweep's summary as one JSON object to file @path. */
int dsweep_json(const char *path, const struct args *a, const struct sweep *sw,
		const struct dpoint *pts, unsigned n, const struct dchoice *c, const char *ended)
{
	FILE *f = driver_open_out(a, "--out", path);
	struct atio_json j;

	if (!f)
		return ATIO_EXIT_USAGE;
	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	if (strspn(a->val[SW_THREADS], "0123456789") == strlen(a->val[SW_THREADS]))
		atio_json_number_text(&j, "threads", a->val[SW_THREADS]);
	else
		atio_json_string(&j, "threads", a->val[SW_THREADS]);
	atio_json_string(&j, "test", a->val[SW_TEST]);
	atio_json_string(&j, "kind", sw->kind == SWEEP_CURVE ? "curve" : "grid");
	atio_json_array_begin(&j, "axes");
	for (unsigned k = 0; sw->kind == SWEEP_GRID && k < sw->naxes; k++) {
		atio_json_object_begin(&j, NULL);
		atio_json_string(&j, "name", sw->axes[k].name);
		atio_json_string(&j, "option", sw->axes[k].option);
		atio_json_array_begin(&j, "values");
		for (unsigned v = 0; v < sw->axes[k].nvalues; v++)
			atio_json_string(&j, NULL, sw->axes[k].values[v]);
		atio_json_array_end(&j);
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	atio_json_double(&j, "knee_pct", sw->knee_pct);
	if (sw->target_pct) {
		atio_json_object_begin(&j, "target");
		atio_json_double(&j, "percentile", sw->target_pct);
		atio_json_double(&j, "limit_us", sw->target_ns / 1e3);
		atio_json_object_end(&j);
	} else {
		atio_json_null(&j, "target");
	}
	if (sw->kind == SWEEP_CURVE) {
		atio_json_object_begin(&j, "curve");
		atio_json_array_begin(&j, "steps_percent");
		for (unsigned k = 0; k < sw->ncurve; k++)
			atio_json_double(&j, NULL, sw->curve_pct[k]);
		atio_json_array_end(&j);
		atio_json_double(&j, "held_share", ATIO_CURVE_HELD);
		if (sw->stop_pct) {
			atio_json_object_begin(&j, "stop_latency");
			atio_json_double(&j, "percentile", sw->stop_pct);
			atio_json_double(&j, "limit_us", sw->stop_ns / 1e3);
			atio_json_object_end(&j);
		} else {
			atio_json_null(&j, "stop_latency");
		}
		atio_json_object_end(&j);
	} else {
		atio_json_null(&j, "curve");
	}
	atio_json_string(&j, "ended", ended ? ended : "running");
	atio_json_array_begin(&j, "points");
	for (unsigned k = 0; k < n; k++)
		json_point(&j, sw, pts, k);
	atio_json_array_end(&j);
	json_choice(&j, "peak", c->peak);
	json_choice(&j, "knee", c->knee);
	json_choice(&j, "kneedle", c->kneedle);
	json_choice(&j, "target_point", c->target);
	atio_json_object_end(&j);
	return driver_close_out(a, f, path) ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
}

/*
 * atio merge --sweep-document --matrix FILE -- SWEEP...: the driver's -o
 * document FILE (merge --matrix) with the sweeps' summaries (each a JSON
 * object of --sweep-summary --out) as its "sweeps", before its
 * "interrupted". Exit 0, or 2 for a file that could not be read.
 */
int driver_sweep_document(int argc, char **argv)
{
	static const char *const names[] = { "--matrix", NULL };
	struct args a = { .mode = "--sweep-document", .names = names };
	struct atio_error e = { 0 };
	struct atio_json j;
	json_t *doc = NULL, *v;
	const char *k;
	bool done = false;
	int ret = driver_parse(argc, argv, &a, "--matrix FILE -- SWEEP...");

	if (!ret && atio_json_read_file(a.val[0], &doc, &e)) {
		say("merge --sweep-document: %s", e.msg);
		ret = ATIO_EXIT_USAGE;
	}
	if (!ret && !json_is_object(doc)) {
		say("merge --sweep-document: %s: not the driver's document", a.val[0]);
		ret = ATIO_EXIT_USAGE;
	}
	if (ret)
		goto out;
	atio_json_init(&j, stdout);
	atio_json_object_begin(&j, NULL);
	json_object_foreach(doc, k, v) {
		if (!done && !strcmp(k, "interrupted")) {
			atio_json_array_begin(&j, "sweeps");
			for (int i = 0; i < a.nfiles && !ret; i++) {
				json_t *s = NULL;

				if (atio_json_read_file(a.files[i], &s, &e)) {
					say("merge --sweep-document: %s", e.msg);
					ret = ATIO_EXIT_USAGE;
					break;
				}
				atio_json_copy(&j, NULL, s);
				json_decref(s);
			}
			atio_json_array_end(&j);
			done = true;
		}
		atio_json_copy(&j, k, v);
	}
	atio_json_object_end(&j);
	if (flush_stdout("the document") && !ret)
		ret = ATIO_EXIT_FAIL;
out:
	json_decref(doc);
	driver_args_free(&a);
	return ret;
}
