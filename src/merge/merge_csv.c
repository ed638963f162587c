/* SPDX-License-Identifier: MIT */
/* atio merge --csv: see atio/merge/merge_csv.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/merge/merge_csv.h"

#define LEAD "row,file,host"
#define NLEAD 3u

double atio_csv_json_number(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

uint64_t atio_csv_json_count(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	double x = json_is_number(v) ? json_number_value(v) : -1.0;

	if (json_is_integer(v))
		return (uint64_t)json_integer_value(v);
	return x >= 0 && x < 18446744073709551615.0 ? (uint64_t)x : ATIO_CSV_NONE;
}

/* A string member of @o, or NULL. */
static const char *string(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Open the file for the columns of the first document, @doc. */
static int start(struct atio_merge_csv *c, const json_t *doc, struct atio_error *e)
{
	const json_t *list = json_object_get(json_object_get(doc, "settings"), "percentiles");
	double pct[ATIO_PCT_MAX];
	unsigned npct = 0;
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v)
		if (json_is_number(v) && npct < ATIO_PCT_MAX)
			pct[npct++] = json_number_value(v);
	c->n = atio_csv_points(pct, npct, c->p);
	c->f = open_memstream(&c->rows, &c->len);
	if (!c->f)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "merge: --csv %s: out of memory",
				      c->name);
	return 0;
}

/* The share of @part in @total, in percent. */
static double percent(uint64_t part, uint64_t total)
{
	return total ? (double)part * 100.0 / (double)total : 0.0;
}

int atio_merge_csv_doc(struct atio_merge_csv *c, const json_t *doc,
		       const struct atio_merge_doc *d, struct atio_error *e)
{
	const json_t *set = json_object_get(doc, "settings");
	const json_t *res = json_object_get(doc, "result");
	struct atio_csv_row w;

	if (!c->name)
		return 0;
	if (!c->f && start(c, doc, e))
		return -1;
	atio_csv_row_empty(&w);
	w.lead[0] = "document";
	w.lead[1] = d->file;
	w.lead[2] = d->run.host[0] ? d->run.host : NULL;
	w.job = 1;
	w.direction = "all";
	w.start_epoch = d->run.start_epoch ? d->run.start_epoch : NAN;
	w.time_s = d->time_sec;
	w.interrupted = d->interrupted ? "true" : "false";
	w.value = d->value;
	w.unit = d->unit;
	w.iops = atio_csv_json_number(res, "iops");
	w.bw_mib_s = atio_csv_json_number(res, "mbs");
	w.bw_bytes_s = atio_csv_json_number(res, "bytes_per_sec");
	w.ops = d->st.ops;
	w.bytes = d->st.bytes;
	w.syncs = d->st.syncs;
	w.share_pct = 100.0;
	atio_csv_row_hist(&w, &d->st.lat, c->p, c->n);
	w.cpu_user_pct = atio_csv_json_number(res, "cpu_user_pct");
	w.cpu_sys_pct = atio_csv_json_number(res, "cpu_sys_pct");
	w.ctx_voluntary = atio_csv_json_count(res, "ctx_voluntary");
	w.ctx_involuntary = atio_csv_json_count(res, "ctx_involuntary");
	w.threads = atio_csv_json_count(set, "threads");
	w.block_size = atio_csv_json_count(set, "block_size");
	w.seed = string(set, "seed_string");
	w.cmdline = string(set, "cmdline");
	atio_csv_row(c->f, &w, NLEAD, c->n);
	/* The sum's rates are the documents' added up, as its value is. */
	c->iops += isfinite(w.iops) ? w.iops : 0.0;
	c->mbs += isfinite(w.bw_mib_s) ? w.bw_mib_s : 0.0;
	c->bytes_per_sec += isfinite(w.bw_bytes_s) ? w.bw_bytes_s : 0.0;
	c->cpu_user_pct += isfinite(w.cpu_user_pct) ? w.cpu_user_pct : 0.0;
	c->cpu_sys_pct += isfinite(w.cpu_sys_pct) ? w.cpu_sys_pct : 0.0;
	for (unsigned i = 0; d->mixed && i < ATIO_DIRS; i++) {
		const json_t *dir = json_object_get(doc, atio_dir_name(i));

		w.direction = atio_dir_name(i);
		w.value = NAN;
		w.unit = NULL;
		w.iops = d->dir_iops[i];
		w.bw_mib_s = d->dir_mbs[i];
		w.bw_bytes_s = atio_csv_json_number(dir, "bytes_per_sec");
		w.ops = d->dir[i].ops;
		w.bytes = d->dir[i].bytes;
		w.syncs = ATIO_CSV_NONE;
		w.share_pct = percent(d->dir[i].ops, d->st.ops);
		atio_csv_row_hist(&w, &d->dir[i].lat, c->p, c->n);
		w.cpu_user_pct = w.cpu_sys_pct = NAN;
		w.ctx_voluntary = w.ctx_involuntary = ATIO_CSV_NONE;
		atio_csv_row(c->f, &w, NLEAD, c->n);
	}
	return 0;
}

int atio_merge_csv_sum(struct atio_merge_csv *c, const struct atio_merge *m,
		       struct atio_error *e)
{
	const struct atio_stats *t = &m->total;
	struct atio_csv_row w;
	char header[8192];
	FILE *out;
	int ret;

	if (!c->name || !c->f)
		return 0;
	atio_csv_row_empty(&w);
	w.lead[0] = "sum";
	w.direction = "all";
	w.start_epoch = m->first_start;
	w.value = m->sum;
	w.interrupted = m->ninterrupted ? "true" : "false";
	w.unit = m->unit;
	w.iops = c->iops;
	w.bw_mib_s = c->mbs;
	w.bw_bytes_s = c->bytes_per_sec;
	w.ops = t->ops;
	w.bytes = t->bytes;
	w.syncs = t->syncs;
	w.share_pct = 100.0;
	atio_csv_row_hist(&w, &t->lat, c->p, c->n);
	w.cpu_user_pct = c->cpu_user_pct;
	w.cpu_sys_pct = c->cpu_sys_pct;
	w.ctx_voluntary = t->ctx_vol;
	w.ctx_involuntary = t->ctx_invol;
	atio_csv_row(c->f, &w, NLEAD, c->n);
	for (unsigned i = 0; m->mixed && i < ATIO_DIRS; i++) {
		atio_csv_row_empty(&w);
		w.lead[0] = "sum";
		w.direction = atio_dir_name(i);
		w.start_epoch = m->first_start;
		w.iops = m->dir_iops[i];
		w.bw_mib_s = m->dir_mbs[i];
		/* MB/s is 2^20 bytes a second: scaling by a power of two is exact. */
		w.bw_bytes_s = m->dir_mbs[i] * 1048576.0;
		w.ops = m->dir[i].ops;
		w.bytes = m->dir[i].bytes;
		w.share_pct = percent(m->dir[i].ops, t->ops);
		atio_csv_row_hist(&w, &m->dir[i].lat, c->p, c->n);
		atio_csv_row(c->f, &w, NLEAD, c->n);
	}
	if (fclose(c->f) != 0) {
		c->f = NULL;
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "merge: --csv %s: out of memory",
				      c->name);
	}
	c->f = NULL;
	/* The file is touched only now: a merge refused leaves it as it was. */
	atio_csv_columns(header, sizeof(header), LEAD, c->p, c->n);
	out = atio_csv_open("merge: --csv", c->name, header, e);
	if (!out)
		return -1;
	if (fwrite(c->rows, 1, c->len, out) != c->len) {
		if (out != stdout)
			fclose(out);
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "merge: --csv %s: %s", c->name,
				      strerror(errno));
	}
	ret = atio_csv_close("merge: --csv", c->name, out, e);
	return ret;
}

void atio_merge_csv_free(struct atio_merge_csv *c)
{
	if (c->f)
		fclose(c->f);
	c->f = NULL;
	free(c->rows);
	c->rows = NULL;
}
