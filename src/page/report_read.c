/* SPDX-License-Identifier: MIT */
/*
 * Reading the documents of atio report: a run (atio --json), a merge
 * (atio merge --json) or a driver's matrix (atio-parallel.sh -o), parsed by
 * jansson through json_read.c, whose checks of a run and of a histogram
 * are the ones atio merge applies. The intervals, timeline and stalls
 * follow the interval schema: "intervals" [{start_sec, duration_sec,
 * value, latency_ns {..., buckets}}], "timeline" {stalls,
 * longest_stall_sec, stall_list [{start_sec, duration_sec}]}, and a
 * merge's documents_merged[i].interval_values.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/document/json_read.h"
#include "atio/page/report_page.h"
#include "atio/page/report_sweep.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

static const double pct_of[ATIO_RPCT] = { 50.0, 99.0, 99.9, 100.0 };
static const char *const pct_key[ATIO_RPCT] = { "p50", "p99", "p99.9", "max" };

/* calloc that fails the read, not the program. */
static void *alloc(size_t n, size_t size, const char *name, struct atio_error *e)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
	return p;
}

static char *dup(const char *s)
{
	return strdup(s ? s : "");
}

/* A number member, or NaN when it is missing or not a number. */
static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A count member as an unsigned: 0 when missing, negative or not whole. */
static unsigned count(json_t *o, const char *key)
{
	double x = num(o, key);

	return x >= 0 && x <= 4294967295.0 && x == floor(x) ? (unsigned)x : 0;
}

/* The percentiles of @h as the page shows them (max is p100). */
static void hist_pct(const struct atio_hist *h, double *out)
{
	for (unsigned p = 0; p < ATIO_RPCT; p++)
		out[p] = h->count ? (double)atio_hist_percentile(h, pct_of[p]) : NAN;
}

/* The percentiles a histogram object wrote (no buckets: a merge's summary). */
static void figures_pct(json_t *lat, double *out)
{
	for (unsigned p = 0; p < ATIO_RPCT; p++)
		out[p] = num(lat, "count") > 0 ? num(lat, pct_key[p]) : NAN;
}

/*
 * The "intervals" array of @doc into @r: each interval's middle, rate and
 * percentiles from its buckets, and with @whole the buckets summed into
 * r->hist (a merge has no whole-run buckets of its own).
 */
static int read_intervals(json_t *doc, struct atio_rrun *r, bool whole, const char *name,
			  struct atio_error *e)
{
	json_t *a = json_object_get(doc, "intervals"), *it;
	struct atio_hist *h;
	double full = 0, last_len = 0;
	size_t i;
	char where[64];

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return BAD("%s: intervals: not an array", name);
	r->nint = (unsigned)json_array_size(a);
	r->mid = alloc(r->nint, sizeof(double), name, e);
	r->rate = alloc(r->nint, sizeof(double), name, e);
	for (unsigned p = 0; p < ATIO_RPCT; p++)
		r->ipct[p] = alloc(r->nint, sizeof(double), name, e);
	h = alloc(1, sizeof(*h), name, e);
	if (whole && !r->hist) {
		r->hist = alloc(1, sizeof(*r->hist), name, e);
		if (r->hist)
			atio_hist_init(r->hist);
	}
	if (!r->mid || !r->rate || !r->ipct[ATIO_RPCT - 1] || !h || (whole && !r->hist)) {
		free(h);
		return -ENOMEM;
	}
	json_array_foreach(a, i, it) {
		double start = num(it, "start_sec"), len = num(it, "duration_sec");

		last_len = len;
		if (len > full)
			full = len;

		r->rate[i] = num(it, "value");
		if (!isfinite(start) || !isfinite(len) || !isfinite(r->rate[i])) {
			free(h);
			return BAD("%s: intervals[%zu]: start_sec, duration_sec and value must be "
				   "numbers", name, i);
		}
		r->mid[i] = start + len / 2;
		snprintf(where, sizeof(where), "%s: intervals[%zu]", name, i);
		if (atio_json_read_hist(it, "latency_ns", h, where, e)) {
			free(h);
			return -EINVAL;
		}
		for (unsigned p = 0; p < ATIO_RPCT; p++)
			r->ipct[p][i] = h->count ? (double)atio_hist_percentile(h, pct_of[p]) : NAN;
		if (whole)
			atio_hist_merge(r->hist, h);
	}
	free(h);
	/*
	 * A last interval shorter than half of one (the run's last few
	 * microseconds) is left out of the charts, as the text's intervals
	 * line leaves it out of its figures: its I/Os are in the whole run's
	 * histogram, but 2 I/Os in 6 us drawn as 340,000 IOPS is no rate.
	 */
	if (r->nint > 1 && last_len < full / 2)
		r->nint--;
	return 0;
}

/* "timeline": the stall count, the longest and the list. */
static int read_timeline(json_t *doc, struct atio_rrun *r, const char *name,
			 struct atio_error *e)
{
	json_t *t = json_object_get(doc, "timeline"), *l, *s;
	size_t i;

	if (!t || json_is_null(t))
		return 0;
	if (!json_is_object(t))
		return BAD("%s: timeline: not an object", name);
	r->timeline = true;
	r->partial = json_is_false(json_object_get(t, "complete"));
	r->stalls = count(t, "stalls");
	r->longest_stall = isfinite(num(t, "longest_stall_sec")) ? num(t, "longest_stall_sec") : 0;
	l = json_object_get(t, "stall_list");
	if (l && !json_is_array(l))
		return BAD("%s: timeline.stall_list: not an array", name);
	r->nstall_list = (unsigned)json_array_size(l);
	r->stall_start = alloc(r->nstall_list, sizeof(double), name, e);
	r->stall_len = alloc(r->nstall_list, sizeof(double), name, e);
	if (!r->stall_start || !r->stall_len)
		return -ENOMEM;
	json_array_foreach(l, i, s) {
		r->stall_start[i] = num(s, "start_sec");
		r->stall_len[i] = num(s, "duration_sec");
		if (!isfinite(r->stall_start[i]) || !isfinite(r->stall_len[i]))
			return BAD("%s: timeline.stall_list[%zu]: start_sec and duration_sec must "
				   "be numbers", name, i);
	}
	return 0;
}

/* The last component of @path, for labels. */
static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* An atio --json run. */
static int read_run(json_t *doc, struct atio_rrun *r, const char *name, struct atio_error *e)
{
	struct atio_merge_doc *d = alloc(1, sizeof(*d), name, e);
	int ret;

	if (!d)
		return -ENOMEM;
	ret = atio_json_read_run(doc, name, d, e);
	if (!ret) {
		snprintf(r->unit, sizeof(r->unit), "%s", d->unit);
		r->value = d->value;
		r->hist = malloc(sizeof(*r->hist));
		if (!r->hist)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
		else
			*r->hist = d->st.lat;
	}
	atio_merge_doc_free(d);
	free(d);
	if (ret)
		return ret;
	hist_pct(r->hist, r->pct);
	r->has_pct = true;
	r->start_epoch = num(doc, "start_epoch");
	r->end_epoch = num(doc, "end_epoch");
	atio_rrun_read_dirs(doc, r);
	return read_intervals(doc, r, false, name, e) ?: read_timeline(doc, r, name, e) ?:
	       atio_rsteady_read(doc, r, NULL, name, e);
}

/*
 * An atio merge --json document: the sum, the latency figures it wrote,
 * its intervals (their buckets summed are the run's histogram), and each
 * node's rates per interval: from @hosts, a driver's node records, when
 * given, else from documents_merged.
 */
static int read_merge(json_t *doc, struct atio_rrun *r, json_t *hosts, const char *name,
		      struct atio_error *e)
{
	json_t *u = json_object_get(doc, "unit"), *dm = json_object_get(doc, "documents_merged");
	json_t *m, *src;
	size_t i, k = 0;

	if (!json_is_string(u) || !isfinite(num(doc, "sum")) || !json_is_array(dm))
		return BAD("%s: a merge without sum, unit or documents_merged", name);
	if (!atio_json_unit_ok(u))
		return BAD("%s: unit: not MB/s, IOPS or sync/s", name);
	snprintf(r->unit, sizeof(r->unit), "%s", json_string_value(u));
	r->value = num(doc, "sum");
	r->ndocs = (unsigned)json_array_size(dm);
	figures_pct(json_object_get(doc, "latency_ns"), r->pct);
	r->has_pct = json_is_object(json_object_get(doc, "latency_ns"));
	atio_rrun_read_dirs(doc, r);
	if (read_intervals(doc, r, true, name, e) || read_timeline(doc, r, name, e) ||
	    atio_rsteady_read(doc, r, hosts, name, e))
		return -EINVAL;
	if (r->hist && r->hist->count == 0) {
		free(r->hist);
		r->hist = NULL;
	}
	if (!r->nint)
		return 0;
	/*
	 * A driver's node records carry their own interval_values (a failed
	 * node's null); documents_merged holds only the nodes that succeeded,
	 * named by result file.
	 */
	src = hosts ? hosts : dm;
	json_array_foreach(src, i, m)
		r->nnodes += !hosts || json_is_array(json_object_get(m, "interval_values"));
	r->nodes = alloc(r->nnodes, sizeof(*r->nodes), name, e);
	if (!r->nodes)
		return -ENOMEM;
	json_array_foreach(src, i, m) {
		json_t *v = json_object_get(m, "interval_values");
		const char *label = json_string_value(json_object_get(m, hosts ? "host" : "file"));
		struct atio_rnode *n;

		if (hosts && !json_is_array(v))
			continue;
		if (v && !json_is_null(v) && !json_is_array(v))
			return BAD("%s: %s[%zu].interval_values: not an array", name,
				   hosts ? "nodes" : "documents_merged", i);
		n = &r->nodes[k++];
		n->name = dup(label ? base(label) : "?");
		n->rate = alloc(r->nint, sizeof(double), name, e);
		if (!n->name || !n->rate)
			return -ENOMEM;
		for (unsigned t = 0; t < r->nint; t++) {
			json_t *x = json_array_get(v, t);

			n->rate[t] = json_is_number(x) ? json_number_value(x) : NAN;
		}
	}
	return 0;
}

/* Move the times of @r by @off seconds: its intervals and its stalls. */
static void shift(struct atio_rrun *r, double off)
{
	r->offset = off;
	for (unsigned i = 0; i < r->nint; i++)
		r->mid[i] += off;
	for (unsigned s = 0; s < r->nstall_list; s++)
		r->stall_start[s] += off;
}

/*
 * A plan, run (atio --and/--then --json) or merged (atio merge --json of
 * such documents): for each phase a row of its combined figures, then
 * each job as a run or a merge of its own, its intervals and stalls
 * placed at its start, so that the jobs of a phase share one time axis
 * from the phase's start.
 */
static int read_plan(json_t *doc, struct atio_rfile *f, struct atio_error *e)
{
	json_t *phases = json_object_get(doc, "phases"), *ph, *job;
	size_t k, j, total = 0;

	if (!json_is_array(phases) || json_array_size(phases) == 0)
		return BAD("%s: a plan's document without phases", f->path);
	json_array_foreach(phases, k, ph) {
		if (!json_is_array(json_object_get(ph, "jobs")))
			return BAD("%s: phases[%zu]: no jobs", f->path, k);
		total += 1 + json_array_size(json_object_get(ph, "jobs"));
	}
	f->runs = alloc(total, sizeof(*f->runs), f->path, e);
	if (!f->runs)
		return -ENOMEM;
	json_array_foreach(phases, k, ph) {
		json_t *res = json_object_get(ph, "result"), *u = json_object_get(res, "unit");
		double t0 = num(res, "start_epoch");
		struct atio_rrun *r = &f->runs[f->nruns++];
		char key[64], where[512];

		snprintf(key, sizeof(key), "phase %zu", k + 1);
		r->key = dup(key);
		if (!r->key)
			return -ENOMEM;
		r->combined = true;
		r->value = num(res, "value");
		snprintf(r->unit, sizeof(r->unit), "%s", atio_json_unit_ok(u) ? json_string_value(u)
									 : "");
		figures_pct(json_object_get(res, "latency_ns"), r->pct);
		r->has_pct = json_is_object(json_object_get(res, "latency_ns"));
		r->ndocs = count(res, "documents");
		json_array_foreach(json_object_get(ph, "jobs"), j, job) {
			bool merged = json_is_array(json_object_get(job, "documents_merged"));
			double start = num(job, merged ? "first_start_epoch" : "start_epoch");

			r = &f->runs[f->nruns++];
			snprintf(key, sizeof(key), "phase %zu, job %zu", k + 1, j + 1);
			snprintf(where, sizeof(where), "%s: phases[%zu].jobs[%zu]", f->path, k, j);
			r->key = dup(key);
			if (!r->key)
				return -ENOMEM;
			if (merged ? read_merge(job, r, NULL, where, e) : read_run(job, r, where, e))
				return -EINVAL;
			if (isfinite(t0) && isfinite(start) && start > t0)
				shift(r, start - t0);
		}
	}
	return 0;
}

/*
 * The iteration of @its whose charts a test shows: the last counted one
 * (complete and concurrent: those the average is of), else the last
 * complete one; with a merge. NULL when there is none.
 */
static json_t *shown(json_t *its)
{
	json_t *it, *counted = NULL, *complete = NULL;
	size_t n;

	json_array_foreach(its, n, it) {
		if (!json_is_true(json_object_get(it, "complete")) ||
		    !json_is_object(json_object_get(it, "merge")))
			continue;
		complete = it;
		if (!json_is_false(json_object_get(it, "concurrent")))
			counted = it;
	}
	return counted ? counted : complete;
}

/*
 * A test's "threads" as the page names it: "1 thread", "4 threads", or for
 * THREADS=auto (each node one thread per CPU, its own count in its
 * record) "auto threads".
 */
static void threads_text(json_t *v, char *out, size_t len)
{
	if (json_is_string(v))
		snprintf(out, len, "%.8s threads", json_string_value(v));
	else if (json_is_number(v) && json_number_value(v) >= 0 && json_number_value(v) < 1e9)
		snprintf(out, len, "%.0f thread%s", json_number_value(v),
			 json_number_value(v) == 1 ? "" : "s");
	else
		snprintf(out, len, "? threads");
}

/* The tests of results[] of a driver's document: their averages, and the iteration shown. */
static int read_driver(json_t *doc, struct atio_rfile *f, struct atio_error *e)
{
	json_t *res = json_object_get(doc, "results"), *row, *t;
	size_t i, k, total = 0;

	json_array_foreach(res, i, row)
		total += json_array_size(json_object_get(row, "tests"));
	f->cells = alloc(total, sizeof(*f->cells), f->path, e);
	f->runs = alloc(total, sizeof(*f->runs), f->path, e);
	if (!f->cells || !f->runs)
		return -ENOMEM;
	json_array_foreach(res, i, row) {
		json_array_foreach(json_object_get(row, "tests"), k, t) {
			json_t *name = json_object_get(t, "test"), *its = json_object_get(t, "iterations");
			json_t *unit = json_object_get(t, "unit"), *last, *it;
			struct atio_rcell *c;
			size_t n;
			char key[160], where[512];

			if (!json_is_string(name) || !json_is_string(unit))
				return BAD("%s: results[%zu].tests[%zu]: no test or unit", f->path, i, k);
			if (!atio_json_unit_ok(unit))
				return BAD("%s: results[%zu].tests[%zu].unit: not MB/s, IOPS or sync/s",
					   f->path, i, k);
			if (strcmp(json_string_value(name), "warmup") == 0)
				continue;
			c = &f->cells[f->ncells++];
			c->test = dup(json_string_value(name));
			threads_text(json_object_get(t, "threads"), c->threads, sizeof(c->threads));
			snprintf(c->unit, sizeof(c->unit), "%s", json_string_value(unit));
			c->avg = num(t, "average");
			c->min = num(t, "min");
			c->max = num(t, "max");
			c->runs = (unsigned)json_array_size(its);
			last = shown(its);
			if (!last)
				continue;
			struct atio_rrun *r = &f->runs[f->nruns++];
			unsigned no = count(last, "iteration");

			snprintf(key, sizeof(key), "%s, %s", c->test, c->threads);
			r->key = dup(key);
			snprintf(where, sizeof(where), "%s: results[%zu].tests[%zu] (%s)", f->path, i,
				 k, key);
			if (!r->key)
				return -ENOMEM;
			if (read_merge(json_object_get(last, "merge"), r, json_object_get(last, "nodes"),
				       where, e))
				return -EINVAL;
			/* The test's figure is its average; the charts are of this iteration. */
			if (json_is_array(json_object_get(last, "nodes")))
				r->node_records = json_object_get(last, "nodes");
			r->iter_value = r->value;
			r->value = c->avg;
			json_array_foreach(its, n, it)
				if (it == last)
					r->iteration = no ? no : (unsigned)n + 1;
			r->runs = c->runs;
			r->counted = count(t, "complete_iterations");
		}
	}
	return 0;
}

int atio_rfile_read(const char *path, struct atio_rfile *f, struct atio_error *e)
{
	json_t *doc;
	int ret;

	memset(f, 0, sizeof(*f));
	f->path = path;
	f->name = base(path);
	ret = atio_json_read_file(path, &doc, e);
	if (ret)
		return ret;
	f->doc = doc;
	if (!json_is_object(doc))
		return BAD("%s: not one of atio's documents (a JSON object is)", path);
	if (json_is_object(json_object_get(doc, "sweep"))) {
		f->kind = ATIO_RDOC_SWEEP;
		return atio_rsweep_check(doc, path, e);
	} else if (json_is_object(json_object_get(doc, "plan"))) {
		f->kind = ATIO_RDOC_PLAN;
		return read_plan(doc, f, e);
	} else if (json_is_array(json_object_get(doc, "phases")) &&
		   json_is_string(json_object_get(json_object_get(doc, "settings"), "workload"))) {
		f->kind = ATIO_RDOC_META;
		return atio_rmeta_read(doc, f, e);
	} else if (json_is_object(json_object_get(doc, "atio"))) {
		f->kind = ATIO_RDOC_RUN;
	} else if (json_is_array(json_object_get(doc, "documents_merged"))) {
		f->kind = ATIO_RDOC_MERGE;
	} else if (json_is_array(json_object_get(doc, "results")) &&
		   json_is_object(json_object_get(doc, "settings"))) {
		f->kind = ATIO_RDOC_DRIVER;
		ret = read_driver(doc, f, e);
		return ret ? ret : atio_rcsweep_check(doc, path, e);
	} else {
		return BAD("%s: not an atio --json run, atio merge --json or atio-parallel.sh -o "
			   "document", path);
	}
	f->runs = alloc(1, sizeof(*f->runs), path, e);
	if (!f->runs)
		return -ENOMEM;
	f->nruns = 1;
	f->runs[0].key = dup("");
	if (!f->runs[0].key)
		return -ENOMEM;
	if (f->kind == ATIO_RDOC_RUN)
		return read_run(doc, &f->runs[0], path, e);
	return read_merge(doc, &f->runs[0], NULL, path, e);
}

void atio_rfile_free(struct atio_rfile *f)
{
	for (unsigned i = 0; i < f->nruns; i++) {
		struct atio_rrun *r = &f->runs[i];

		free(r->key);
		free(r->hist);
		free(r->mid);
		free(r->rate);
		for (unsigned p = 0; p < ATIO_RPCT; p++)
			free(r->ipct[p]);
		for (unsigned n = 0; n < r->nnodes; n++) {
			free(r->nodes[n].name);
			free(r->nodes[n].rate);
		}
		free(r->nodes);
		free(r->stall_start);
		free(r->stall_len);
		atio_rsteady_free(r->steady);
	}
	free(f->runs);
	for (unsigned i = 0; i < f->ncells; i++)
		free(f->cells[i].test);
	free(f->cells);
	free(f->phases);
	if (f->doc)
		json_decref(f->doc);
	memset(f, 0, sizeof(*f));
}
