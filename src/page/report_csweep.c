/* SPDX-License-Identifier: MIT */
/*
 * The cluster's sweeps of a driver's -o document (atio-parallel.sh
 * --sweep, --curve: its "sweeps"), read as report_sweep.h's sweeps and
 * drawn by report_sweep.c as atio sweep's are: the cluster's sum curve,
 * and each node's own value and p99 beside it. Only a valid point
 * (complete, concurrent, measured) is the cluster's and is drawn or
 * marked; a node that failed at a point is left out of its own curve
 * there, and the page says so. A curve without a maximum says it and
 * draws nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/document/json_read.h"
#include "atio/page/report_page.h"
#include "atio/page/report_sweep.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

static const char *const choice_key[] = { "peak", "knee", "kneedle", "target_point" };

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int atio_rcsweep_check(json_t *doc, const char *path, struct atio_error *e)
{
	json_t *sws = json_object_get(doc, "sweeps"), *sw, *p, *a, *n;
	size_t i, k, j;

	if (!sws || json_is_null(sws))
		return 0;
	if (!json_is_array(sws))
		return BAD("%s: sweeps: not an array", path);
	json_array_foreach(sws, i, sw) {
		json_t *axes = json_object_get(sw, "axes"), *pts = json_object_get(sw, "points");

		if (!json_is_object(sw) || !json_is_array(axes) || !json_is_array(pts))
			return BAD("%s: sweeps[%zu]: a sweep without axes or points", path, i);
		if (json_array_size(axes) > ATIO_RSW_AXES)
			return BAD("%s: sweeps[%zu].axes: more than %d axes", path, i, ATIO_RSW_AXES);
		json_array_foreach(axes, k, a)
			if (!json_is_string(json_object_get(a, "name")) ||
			    !json_is_array(json_object_get(a, "values")) ||
			    !json_array_size(json_object_get(a, "values")))
				return BAD("%s: sweeps[%zu].axes[%zu]: no name or values", path, i, k);
		json_array_foreach(pts, k, p) {
			json_t *v = json_object_get(p, "sum"), *u = json_object_get(p, "unit");

			if (!json_is_object(p) || !json_is_array(json_object_get(p, "nodes")))
				return BAD("%s: sweeps[%zu].points[%zu]: not a point with nodes", path,
					   i, k);
			if (v && !json_is_null(v) && !json_is_number(v))
				return BAD("%s: sweeps[%zu].points[%zu].sum: not a number", path, i, k);
			if (u && !json_is_null(u) && !atio_json_unit_ok(u))
				return BAD("%s: sweeps[%zu].points[%zu].unit: not MB/s, IOPS or sync/s",
					   path, i, k);
			json_array_foreach(json_object_get(p, "nodes"), j, n)
				if (!json_is_string(json_object_get(n, "host")))
					return BAD("%s: sweeps[%zu].points[%zu].nodes[%zu]: no host",
						   path, i, k, j);
		}
	}
	return 0;
}

/* Node @host's entry in @nodes (an array of objects with "host"), or NULL. */
static json_t *node_of(json_t *nodes, const char *host)
{
	json_t *n;
	size_t i;

	json_array_foreach(nodes, i, n)
		if (json_is_string(json_object_get(n, "host")) &&
		    strcmp(json_string_value(json_object_get(n, "host")), host) == 0)
			return n;
	return NULL;
}

/* The nodes of sweep @sw, in the order they first appear in its points. */
static int nodes_of(json_t *sw, struct atio_rsw *s)
{
	json_t *p, *n;
	size_t i, k, most = 0;

	json_array_foreach(json_object_get(sw, "points"), i, p)
		most += json_array_size(json_object_get(p, "nodes"));
	s->node = calloc(most + 1, sizeof(char *));
	if (!s->node)
		return -ENOMEM;
	json_array_foreach(json_object_get(sw, "points"), i, p)
		json_array_foreach(json_object_get(p, "nodes"), k, n) {
			const char *h = json_string_value(json_object_get(n, "host"));
			unsigned j;

			for (j = 0; j < s->nnodes && strcmp(s->node[j], h) != 0; j++)
				;
			if (j == s->nnodes)
				s->node[s->nnodes++] = h;
		}
	return 0;
}

/* Point @k (from 0) of a grid: its value on each axis, the last axis fastest. */
static void grid_values(struct atio_rsw *s, unsigned k, struct atio_rsw_point *q)
{
	for (int a = (int)s->naxes - 1; a >= 0; a--) {
		json_t *v = json_object_get(json_array_get(s->axes, (size_t)a), "values");
		size_t nv = json_array_size(v);

		q->axis[a] = json_string_value(json_array_get(v, k % nv)) ?: "?";
		k /= (unsigned)nv;
	}
}

/* Each node's figures of point @p into @q; a failed one said in @said. */
static int read_nodes(struct atio_rsw *s, json_t *p, unsigned k, const char *label,
		      struct atio_rsw_point *q, FILE *said)
{
	json_t *recs = json_object_get(json_object_get(p, "iteration"), "nodes");
	unsigned nn = s->nnodes;

	q->node_value = calloc(nn + 1, sizeof(double));
	q->node_p99 = calloc(nn + 1, sizeof(double));
	q->node_cap = calloc(nn + 1, sizeof(double));
	q->node_failed = calloc(nn + 1, sizeof(bool));
	if (!q->node_value || !q->node_p99 || !q->node_cap || !q->node_failed)
		return -ENOMEM;
	for (unsigned i = 0; i < nn; i++) {
		json_t *n = node_of(json_object_get(p, "nodes"), s->node[i]);
		json_t *r = node_of(recs, s->node[i]);

		q->node_value[i] = q->node_p99[i] = q->node_cap[i] = NAN;
		if (!n)
			continue;
		q->node_cap[i] = num(n, "cap");
		if (!json_is_true(json_object_get(n, "ok"))) {
			q->node_failed[i] = true;
			fprintf(said, " %s failed at point %u (%s): left out of its curve.",
				s->node[i], k + 1, label);
			continue;
		}
		q->node_value[i] = num(n, "value");
		/* Its own p99, as its record of the point has it. */
		if (json_is_true(json_object_get(r, "ok")))
			q->node_p99[i] = num(json_object_get(r, "latency_us"), "p99") * 1e3;
		if (!isfinite(q->node_value[i]) || !isfinite(q->node_p99[i]))
			fprintf(said, " %s at point %u (%s): no value or p99 in the document, left "
				"out of its curve.", s->node[i], k + 1, label);
	}
	return 0;
}

/* Why point @p is not the cluster's: its nodes, its start. */
static void why_not(json_t *p, struct atio_rsw_point *q)
{
	json_t *n;
	size_t i, ok = 0, all = json_array_size(json_object_get(p, "nodes"));

	json_array_foreach(json_object_get(p, "nodes"), i, n)
		ok += json_is_true(json_object_get(n, "ok"));
	if (!json_is_true(json_object_get(p, "complete")))
		snprintf(q->why, sizeof(q->why), "INCOMPLETE (%zu of %zu nodes): its sum not drawn",
			 ok, all);
	else if (!json_is_true(json_object_get(p, "concurrent")))
		snprintf(q->why, sizeof(q->why), "NOT CONCURRENT: its sum not drawn");
	else
		snprintf(q->why, sizeof(q->why), "not measured: its sum not drawn");
}

/* How the chosen point @k runs, for the legend. */
static char *pick_text(const struct atio_rsw *s, json_t *pts, int k, bool curve)
{
	char *t = NULL;

	if (!curve)
		return strdup(json_string_value(json_object_get(json_array_get(pts, (size_t)k),
								 "options")) ?: "?");
	if (k == 0)
		return strdup("maximum (uncapped)");
	return asprintf(&t, "step %d: %s of the maximum", k + 1, s->pt[k].step) < 0 ? NULL : t;
}

/* The "use:" line of the chosen point: the target's, else the knee's, else the peak's. */
static char *use_text(const struct atio_rsw *s, bool curve)
{
	int k = s->pick[3] >= 0 ? s->pick[3] : s->pick[1] >= 0 ? s->pick[1] : s->pick[0];
	char *t = NULL;
	size_t len = 0;
	FILE *f;

	if (k < 0 || !s->pt[k].measured)
		return NULL;
	f = open_memstream(&t, &len);
	if (!f)
		return NULL;
	if (curve && k == 0) {
		fputs("no cap (the maximum, every node uncapped)", f);
	} else if (curve) {
		fputs("each node's --cap:", f);
		for (unsigned i = 0; i < s->nnodes; i++)
			if (isfinite(s->pt[k].node_cap[i]))
				fprintf(f, " %s %.10g", s->node[i], s->pt[k].node_cap[i]);
			else
				fprintf(f, " %s ?", s->node[i]);
	} else {
		fputs("--sweep '", f);
		for (unsigned a = 0; a < s->naxes; a++)
			fprintf(f, "%s%s=%s", a ? " " : "", json_string_value(json_object_get(
				json_array_get(s->axes, a), "name")), s->pt[k].axis[a]);
		fputs("' (every node runs the test with those options)", f);
	}
	if (fclose(f)) {
		free(t);
		return NULL;
	}
	return t;
}

/* What ended sweep @sw, when it is not its last point. */
static const char *ended_text(const char *ended)
{
	if (!ended || strcmp(ended, "done") == 0)
		return "";
	if (strcmp(ended, "no maximum") == 0)
		return " No maximum: the curve's uncapped run was not summed from every node at one "
		       "instant, so no node's share of it is known and no step ran.";
	if (strcmp(ended, "stop-latency") == 0)
		return " The curve ended at its last step: its latency exceeded --stop-latency.";
	if (strcmp(ended, "running") == 0)
		return " The driver was stopped during the sweep: the points done are kept.";
	return " The sweep ended early.";
}

/* Sweep @sw (number @j of driver document @fl) as a sweep to draw. */
static int from_cluster(const struct atio_rfile *fl, unsigned index, size_t j, json_t *sw,
			struct atio_rsw *s)
{
	json_t *pts = json_object_get(sw, "points"), *t = json_object_get(sw, "target"), *p;
	json_t *th = json_object_get(sw, "threads");
	bool curve = json_is_string(json_object_get(sw, "kind")) &&
		     strcmp(json_string_value(json_object_get(sw, "kind")), "curve") == 0;
	char *said = NULL, threads[32];
	size_t i, len = 0;
	FILE *f;
	int ret;

	if (json_is_number(th))
		snprintf(threads, sizeof(threads), "%g thread%s", json_number_value(th),
			 json_number_value(th) == 1 ? "" : "s");
	else
		snprintf(threads, sizeof(threads), "%.8s threads", json_string_value(th) ?: "?");
	snprintf(s->title, sizeof(s->title), "Cluster %s: %s, %s, %s", curve ? "curve" : "sweep",
		 fl->name, json_string_value(json_object_get(sw, "test")) ?: "?", threads);
	snprintf(s->chart_id, sizeof(s->chart_id), "csweep-%u-%zu", index, j);
	snprintf(s->heat_id, sizeof(s->heat_id), "cheat-%u-%zu", index, j);
	s->axes = json_object_get(sw, "axes");
	s->naxes = curve ? 0 : (unsigned)json_array_size(s->axes);
	s->knee_pct = num(sw, "knee_pct");
	if (json_is_object(t)) {
		s->target_pct = num(t, "percentile");
		s->target_ns = num(t, "limit_us") * 1e3;
	}
	s->n = (unsigned)json_array_size(pts);
	s->pt = calloc(s->n + 1, sizeof(*s->pt));
	if (!s->pt || nodes_of(sw, s))
		return -ENOMEM;
	f = open_memstream(&said, &len);
	if (!f)
		return -ENOMEM;
	ret = 0;
	json_array_foreach(pts, i, p) {
		struct atio_rsw_point *q = &s->pt[i];
		json_t *lat = json_object_get(p, "latency_us"), *held = json_object_get(p, "held");
		const char *label;
		char step[32];

		if (curve && i > 0) {
			snprintf(step, sizeof(step), "%g%%", num(p, "share_percent"));
			q->step = strdup(step);
		} else if (curve) {
			q->step = strdup("maximum");
		}
		if (curve && !q->step) {
			ret = -ENOMEM;
			break;
		}
		if (!curve)
			grid_values(s, (unsigned)i, q);
		label = curve ? q->step : json_string_value(json_object_get(p, "options")) ?: "?";
		q->value = num(p, "sum");
		q->measured = json_is_true(json_object_get(p, "valid")) && isfinite(q->value) &&
			      isfinite(num(lat, "p99"));
		if (q->measured) {
			q->p50 = num(lat, "p50") * 1e3;
			q->p99 = num(lat, "p99") * 1e3;
			q->p999 = num(lat, "p99.9") * 1e3;
			if (!s->unit)
				s->unit = json_string_value(json_object_get(p, "unit"));
		} else {
			q->value = q->p50 = q->p99 = q->p999 = NAN;
			why_not(p, q);
			fprintf(f, " Point %zu (%s): %s.", i + 1, label, q->why);
		}
		q->cpu = NAN;
		q->aim = num(p, "aim");
		q->held = json_is_boolean(held) ? json_is_true(held) : -1;
		ret = read_nodes(s, p, (unsigned)i, label, q, f);
		if (ret)
			break;
	}
	for (unsigned c = 0; !ret && c < ATIO_RSW_CHOICES; c++) {
		double k = num(sw, choice_key[c]);

		s->pick[c] = k >= 1 && k == floor(k) && k <= s->n ? (int)k - 1 : -1;
		if (s->pick[c] >= 0 && !(s->pick_opts[c] = pick_text(s, pts, s->pick[c], curve)))
			ret = -ENOMEM;
	}
	fputs(ended_text(json_string_value(json_object_get(sw, "ended"))), f);
	if (fclose(f) || ret) {
		free(said);
		return ret ? ret : -ENOMEM;
	}
	if (*said) {
		memmove(said, said + 1, strlen(said)); /* the space before the first sentence */
		s->note = said;
	}
	else
		free(said);
	s->use = use_text(s, curve);
	return 0;
}

int atio_report_csweeps(FILE *f, const struct atio_rfile *fl, unsigned index)
{
	json_t *sw;
	size_t j;

	json_array_foreach(json_object_get(fl->doc, "sweeps"), j, sw) {
		struct atio_rsw s = { 0 };
		int ret = from_cluster(fl, index, j, sw, &s);

		if (!ret)
			ret = atio_rsw_section(f, &s);
		for (unsigned i = 0; s.pt && i < s.n; i++)
			free((char *)s.pt[i].step);
		atio_rsw_free(&s);
		if (ret)
			return ret;
	}
	return 0;
}
