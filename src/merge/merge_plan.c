/* SPDX-License-Identifier: MIT */
/*
 * atio merge of plans (atio/merge/merge_plan.h): each job of each phase
 * merged over the nodes' documents by the merge of single runs, and each
 * phase's combined figures made from its merged jobs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/json.h"
#include "atio/base/units.h"
#include "atio/document/json_read.h"
#include "atio/merge/merge_check.h"
#include "atio/merge/merge_plan.h"
#include "atio/merge/merge_runs.h"
#include "atio/print/report.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

bool atio_merge_is_plan(json_t *doc)
{
	return json_is_object(doc) && json_is_object(json_object_get(doc, "plan"));
}

void atio_merge_plan_init(struct atio_merge_plan *p, bool sequential, bool unaligned)
{
	memset(p, 0, sizeof(*p));
	p->sequential = sequential;
	p->unaligned = unaligned;
}

void atio_merge_plan_free(struct atio_merge_plan *p)
{
	for (unsigned k = 0; p->phases && k < p->nphases; k++) {
		struct atio_merge_phase *ph = &p->phases[k];

		for (unsigned j = 0; ph->jobs && j < ph->njobs; j++)
			atio_merge_free(&ph->jobs[j]);
		free(ph->jobs);
		free(ph->docs);
	}
	free(p->phases);
	p->phases = NULL;
	p->nphases = 0;
}

/* A whole number from 1 up in member @key of @obj, into *@out. */
static int get_count(json_t *obj, const char *where, const char *key, unsigned *out,
		     const char *file, struct atio_error *e)
{
	json_t *v = json_object_get(obj, key);
	double x = json_is_number(v) ? json_number_value(v) : -1;

	if (x < 1 || x > 1e6 || x != (double)(unsigned)x)
		return BAD("%s: %s%s: missing or not a whole number from 1 up: not an atio "
			   "plan's document", file, where, key);
	*out = (unsigned)x;
	return 0;
}

/* The plan's first document: make its phases and their jobs' merges. */
static int shape_from(struct atio_merge_plan *p, json_t *phases, unsigned nphases,
		      struct atio_error *e)
{
	p->phases = calloc(nphases, sizeof(*p->phases));
	if (!p->phases)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory for %u phases",
				      nphases);
	p->nphases = nphases;
	for (unsigned k = 0; k < nphases; k++) {
		struct atio_merge_phase *ph = &p->phases[k];
		size_t n = json_array_size(json_object_get(json_array_get(phases, k), "jobs"));

		ph->jobs = calloc(n, sizeof(*ph->jobs));
		if (!ph->jobs)
			return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory for the "
					      "jobs of phase %u", k + 1);
		ph->njobs = (unsigned)n;
		for (unsigned j = 0; j < ph->njobs; j++) {
			atio_merge_init(&ph->jobs[j]);
			ph->jobs[j].sequential = p->sequential;
			ph->jobs[j].unaligned = p->unaligned;
		}
	}
	return 0;
}

/*
 * Whether @doc is a plan of @p's shape (of its own when it is the first):
 * the phases it declares and runs, and the jobs of each. Its phases
 * array into *@phases.
 */
static int check_shape(struct atio_merge_plan *p, json_t *doc, const char *file,
		       json_t **phases, struct atio_error *e)
{
	json_t *a = json_object_get(doc, "atio");
	unsigned declared = 0, run;

	if (!json_is_object(a) || !json_is_string(json_object_get(a, "version")))
		return BAD("%s: not an atio --json result (no \"atio\": {\"version\"} in it)",
			   file);
	*phases = json_object_get(doc, "phases");
	if (get_count(json_object_get(doc, "plan"), "plan.", "phases", &declared, file, e))
		return -EINVAL;
	if (!json_is_array(*phases) || json_array_size(*phases) < 1 ||
	    json_array_size(*phases) > declared)
		return BAD("%s: phases: missing, empty or longer than the plan's %u: not an atio "
			   "plan's document", file, declared);
	if (p->ndocs && declared != p->nphases)
		return BAD("%s: a plan of %u phases, the first document's (%s) of %u: not the "
			   "same plan", file, declared, p->first, p->nphases);
	run = (unsigned)json_array_size(*phases);
	for (unsigned k = 0; k < run; k++) {
		json_t *ph = json_array_get(*phases, k);
		json_t *jobs = json_object_get(ph, "jobs");

		if (!json_is_array(jobs) || json_array_size(jobs) < 1 ||
		    !json_is_boolean(json_object_get(ph, "interrupted")))
			return BAD("%s: phases[%u]: no jobs, or no interrupted true/false: not an "
				   "atio plan's document", file, k);
		if (p->ndocs && json_array_size(jobs) != p->phases[k].njobs)
			return BAD("%s: phase %u has %zu jobs, the first document's (%s) %u: not "
				   "the same plan", file, k + 1, json_array_size(jobs), p->first,
				   p->phases[k].njobs);
	}
	if (run < declared)
		return BAD("%s: its plan stopped after phase %u of %u: the phases it did not "
			   "run cannot be summed with the other documents'", file, run, declared);
	return p->ndocs ? 0 : shape_from(p, *phases, declared, e);
}

/* What document @file says of phase @ph as a whole (@r its result) into @x. */
static int read_phase(json_t *ph, const char *file, unsigned k, double offset,
		      struct atio_merge_phase_doc *x, struct atio_error *e)
{
	json_t *r = json_object_get(ph, "result"), *u = json_object_get(r, "unit");
	char where[32];

	*x = (struct atio_merge_phase_doc){ .file = file,
					    .interrupted = json_is_true(json_object_get(ph,
										"interrupted")) };
	if (json_is_null(r))
		return 0;
	snprintf(where, sizeof(where), "phases[%u].result.", k);
	if (!json_is_object(r) || !atio_json_unit_ok(u))
		return BAD("%s: %s: not an object with a unit atio writes: not an atio plan's "
			   "document", file, where);
	if (atio_json_get_number(r, where, "value", &x->value, file, e) ||
	    atio_json_get_number(r, where, "time_sec", &x->time_sec, file, e) ||
	    atio_json_get_number(r, where, "start_epoch", &x->start_epoch, file, e) ||
	    atio_json_get_number(r, where, "end_epoch", &x->end_epoch, file, e))
		return -EINVAL;
	snprintf(x->unit, sizeof(x->unit), "%s", json_string_value(u));
	if (x->start_epoch)
		x->start_epoch -= offset;
	if (x->end_epoch)
		x->end_epoch -= offset;
	x->measured = true;
	return 0;
}

/* Prefix @e's message with where in the plan it came from. */
static int in_job(struct atio_error *e, int ret, unsigned k, unsigned j)
{
	char msg[sizeof(e->msg)];

	memcpy(msg, e->msg, sizeof(msg));
	msg[sizeof(msg) - 1] = '\0';
	/* What does not fit is the end of a long message, cut. */
	snprintf(e->msg, sizeof(e->msg), "phase %u, job %u: %.9150s", k + 1, j + 1, msg);
	return ret;
}

/* Job @j of phase @k of document @file, the object @job, into its merge. */
static int add_job(struct atio_merge_plan *p, json_t *job, const char *file, double offset,
		   unsigned k, unsigned j, struct atio_error *e)
{
	struct atio_merge *m = &p->phases[k].jobs[j];
	struct atio_merge_doc *d = malloc(sizeof(*d));
	int ret;

	if (!d)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", file);
	ret = atio_json_read_run(job, file, d, e);
	if (ret) {
		free(d);
		return in_job(e, ret, k, j);
	}
	if (d->start_epoch)
		d->start_epoch -= offset;
	if (d->end_epoch)
		d->end_epoch -= offset;
	ret = atio_merge_check_run(m, d, e);
	if (!ret)
		ret = atio_merge_add(m, d, e);
	atio_merge_doc_free(d);
	free(d);
	return ret ? in_job(e, ret, k, j) : 0;
}

int atio_merge_plan_add(struct atio_merge_plan *p, json_t *doc, const char *file, double offset,
			struct atio_error *e)
{
	json_t *phases = NULL;
	int ret = check_shape(p, doc, file, &phases, e);

	if (ret)
		return ret;
	for (unsigned k = 0; k < p->nphases; k++) {
		struct atio_merge_phase *ph = &p->phases[k];
		json_t *o = json_array_get(phases, k);
		struct atio_merge_phase_doc *x = realloc(ph->docs, (p->ndocs + 1) * sizeof(*x));

		if (!x)
			return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", file);
		ph->docs = x;
		ret = read_phase(o, file, k, offset, &x[p->ndocs], e);
		for (unsigned j = 0; !ret && j < ph->njobs; j++)
			ret = add_job(p, json_array_get(json_object_get(o, "jobs"), j), file, offset,
				      k, j, e);
		if (ret)
			return ret;
		ph->ninterrupted += x[p->ndocs].interrupted;
	}
	if (!json_is_true(json_object_get(doc, "complete")))
		p->nincomplete++;
	if (!p->ndocs)
		p->first = file;
	p->ndocs++;
	return 0;
}

void atio_merge_phase_combine(const struct atio_merge_phase *ph, struct atio_merge_phase_sum *s)
{
	s->measured = false;
	s->unit = ph->jobs[0].unit;
	s->start_epoch = s->end_epoch = 0;
	atio_stats_init(&s->st);
	for (unsigned j = 0; j < ph->njobs; j++) {
		const struct atio_merge *m = &ph->jobs[j];

		if (!m->ndocs)
			continue;
		atio_stats_merge(&s->st, &m->total);
		if (m->first_start && (!s->measured || m->first_start < s->start_epoch))
			s->start_epoch = m->first_start;
		if (m->last_end > s->end_epoch)
			s->end_epoch = m->last_end;
		s->measured = true;
	}
	s->time_sec = s->end_epoch > s->start_epoch ? s->end_epoch - s->start_epoch : 0;
	s->value = atio_merge_rate(s->unit, s->st.ops, s->st.bytes, s->st.syncs, s->time_sec);
	s->mbs = atio_merge_rate("MB/s", s->st.ops, s->st.bytes, s->st.syncs, s->time_sec);
	s->iops = atio_merge_rate("IOPS", s->st.ops, s->st.bytes, s->st.syncs, s->time_sec);
}

unsigned atio_merge_plan_warnings(const struct atio_merge_plan *p)
{
	unsigned n = 0;

	for (unsigned k = 0; k < p->nphases; k++)
		for (unsigned j = 0; j < p->phases[k].njobs; j++)
			n += atio_merge_warnings(&p->phases[k].jobs[j]);
	return n;
}

void atio_merge_plan_warning(const struct atio_merge_plan *p, unsigned k, char *buf, size_t len)
{
	for (unsigned i = 0; i < p->nphases; i++)
		for (unsigned j = 0; j < p->phases[i].njobs; j++) {
			const struct atio_merge *m = &p->phases[i].jobs[j];
			unsigned n = atio_merge_warnings(m);
			int at;

			if (k >= n) {
				k -= n;
				continue;
			}
			at = snprintf(buf, len, "phase %u, job %u: ", i + 1, j + 1);
			if (at >= 0 && (size_t)at < len)
				atio_merge_warning(m, k, buf + at, len - (size_t)at);
			return;
		}
	snprintf(buf, len, "(no such warning)");
}

/* Each document's own combined figure of phase @ph, "[N] ...: FILE". */
static void text_docs(FILE *f, const struct atio_merge_phase *ph, unsigned ndocs)
{
	for (unsigned i = 0; i < ndocs; i++) {
		const struct atio_merge_phase_doc *x = &ph->docs[i];

		if (x->measured)
			fprintf(f, "[%u] %.6f %s over %.6f s%s: ", i + 1, x->value, x->unit,
				x->time_sec, x->interrupted ? " (interrupted)" : "");
		else
			fprintf(f, "[%u] nothing measured: ", i + 1);
		for (const char *c = x->file; *c; c++)
			putc((unsigned char)*c < 0x20 ? '?' : *c, f);
		putc('\n', f);
	}
}

/* One phase's text: its line, its totals, each document's figure, each job's merge. */
static void text_phase(FILE *f, const struct atio_merge_plan *p, unsigned k,
		       struct atio_merge_phase_sum *s)
{
	const struct atio_merge_phase *ph = &p->phases[k];

	atio_merge_phase_combine(ph, s);
	if (p->nphases > 1)
		fprintf(f, "phase: %u of %u\n", k + 1, p->nphases);
	if (p->sequential)
		fprintf(f, "passes: %u documents one after another: tabulated, not summed\n",
			p->ndocs);
	else if (!s->measured)
		fputs("interrupted: before any job's measured time began; nothing was measured\n",
		      f);
	else
		fprintf(f, "time: %f sec; rate: { %.5f } %s;\n", s->time_sec, s->value, s->unit);
	if (p->sequential)
		fprintf(f, "jobs: %u at once, each tabulated over %u documents\n", ph->njobs,
			p->ndocs);
	else
		fprintf(f, "jobs: %u at once, each merged from %u documents; the value above "
			"counts every job's I/O of every document in the first job's unit over "
			"the phase's time, from the first job's start to the last one's end\n",
			ph->njobs, p->ndocs);
	if (ph->ninterrupted)
		fprintf(f, "interrupted: in %u of the documents\n", ph->ninterrupted);
	atio_merge_text_latency(f, "latency", &s->st.lat, p->ndocs);
	if (s->st.syncs > 0)
		atio_merge_text_latency(f, "sync latency", &s->st.sync_lat, p->ndocs);
	fprintf(f, "io: %" PRIu64 " ops, %" PRIu64 " bytes (%.2f MiB), %" PRIu64 " syncs\n",
		s->st.ops, s->st.bytes, atio_mib(s->st.bytes), s->st.syncs);
	text_docs(f, ph, p->ndocs);
	for (unsigned j = 0; j < ph->njobs; j++) {
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		if (!m) {
			fprintf(f, "job %u: out of memory for its figures\n", j + 1);
			continue;
		}
		atio_merge_text(m, &ph->jobs[j]);
		if (fclose(m) == 0)
			atio_report_prefixed(f, j + 1, text);
		free(text);
	}
}

void atio_merge_plan_text(FILE *f, const struct atio_merge_plan *p)
{
	struct atio_merge_phase_sum *s = malloc(sizeof(*s));

	if (!s) {
		fputs("merge: out of memory for the phases' figures\n", f);
		return;
	}
	for (unsigned k = 0; k < p->nphases; k++)
		text_phase(f, p, k, s);
	if (p->nincomplete)
		fprintf(f, "plan: %u of the documents' plans did not complete\n", p->nincomplete);
	free(s);
}

/* Phase @k's combined figures, as "result" ({...} or null). */
static void json_result(struct atio_json *j, const struct atio_merge_phase_sum *s,
			unsigned ndocs)
{
	if (!s->measured) {
		atio_json_null(j, "result");
		return;
	}
	atio_json_object_begin(j, "result");
	atio_json_double(j, "time_sec", s->time_sec);
	atio_json_double(j, "value", s->value);
	atio_json_string(j, "unit", s->unit);
	atio_json_double(j, "mbs", s->mbs);
	atio_json_double(j, "iops", s->iops);
	atio_json_uint(j, "ops", s->st.ops);
	atio_json_uint(j, "bytes", s->st.bytes);
	atio_json_uint(j, "syncs", s->st.syncs);
	atio_json_double(j, "start_epoch", s->start_epoch);
	atio_json_double(j, "end_epoch", s->end_epoch);
	atio_json_uint(j, "documents", ndocs);
	atio_merge_json_hist(j, "latency_ns", &s->st.lat);
	atio_merge_json_hist(j, "sync_latency_ns", &s->st.sync_lat);
	atio_json_object_end(j);
}

/* Each document's own combined figures of phase @ph. */
static void json_docs(struct atio_json *j, const struct atio_merge_phase *ph, unsigned ndocs)
{
	atio_json_array_begin(j, "documents_merged");
	for (unsigned i = 0; i < ndocs; i++) {
		const struct atio_merge_phase_doc *x = &ph->docs[i];

		atio_json_object_begin(j, NULL);
		atio_json_string(j, "file", x->file);
		if (x->measured) {
			atio_json_double(j, "value", x->value);
			atio_json_string(j, "unit", x->unit);
			atio_json_double(j, "time_sec", x->time_sec);
			atio_json_double(j, "start_epoch", x->start_epoch);
			atio_json_double(j, "end_epoch", x->end_epoch);
		} else {
			atio_json_null(j, "value");
		}
		atio_json_bool(j, "interrupted", x->interrupted);
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
}

void atio_merge_plan_json(FILE *f, const struct atio_merge_plan *p, const char *version)
{
	struct atio_merge_phase_sum *s = malloc(sizeof(*s));
	struct atio_json j;

	if (!s) {
		fputs("null\n", f);
		return;
	}
	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_object_begin(&j, "atio");
	atio_json_string(&j, "version", version);
	atio_json_object_end(&j);
	atio_json_object_begin(&j, "plan");
	atio_json_uint(&j, "phases", p->nphases);
	atio_json_object_end(&j);
	atio_json_array_begin(&j, "phases");
	for (unsigned k = 0; k < p->nphases; k++) {
		const struct atio_merge_phase *ph = &p->phases[k];

		atio_merge_phase_combine(ph, s);
		atio_json_object_begin(&j, NULL);
		atio_json_uint(&j, "phase", k + 1);
		if (p->sequential)
			atio_json_null(&j, "result");
		else
			json_result(&j, s, p->ndocs);
		atio_json_bool(&j, "interrupted", ph->ninterrupted > 0);
		json_docs(&j, ph, p->ndocs);
		atio_json_array_begin(&j, "jobs");
		for (unsigned i = 0; i < ph->njobs; i++)
			atio_merge_json_value(&j, NULL, &ph->jobs[i]);
		atio_json_array_end(&j);
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	atio_json_uint(&j, "phases_run", p->nphases);
	atio_json_bool(&j, "complete", p->nincomplete == 0);
	atio_json_uint(&j, "documents", p->ndocs);
	atio_json_object_end(&j);
	free(s);
}
