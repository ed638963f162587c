/* SPDX-License-Identifier: MIT */
/* A run as comma-separated values: see atio/print/csv.h. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "atio/base/json.h"
#include "atio/print/cpu.h"
#include "atio/print/csv.h"
#include "atio/print/pct.h"
#include "atio/print/report_figures.h"

/*
 * The percentile columns: fio's 17 points and those of --percentiles,
 * ascending, each once, into @p; their number. The same points as the
 * JSON's "percentiles" object.
 */
static unsigned points(const struct atio_opts *o, double *p)
{
	unsigned a = 0, b = 0, n = 0;

	while (a < ATIO_PCT_FIO || b < o->npct) {
		if (b == o->npct || (a < ATIO_PCT_FIO && atio_pct_fio[a] < o->pct[b]))
			p[n++] = atio_pct_fio[a++];
		else if (a == ATIO_PCT_FIO || o->pct[b] < atio_pct_fio[a])
			p[n++] = o->pct[b++];
		else {
			p[n++] = atio_pct_fio[a++];
			b++;
		}
	}
	return n;
}

/* "lat_p99_9_us": the point with its decimal point written as '_'. */
static void point_name(char *buf, size_t len, double p)
{
	char v[32];

	snprintf(v, sizeof(v), "%.10g", p);
	for (char *c = v; *c; c++)
		if (*c == '.')
			*c = '_';
	snprintf(buf, len, "lat_p%s_us", v);
}

int atio_csv_header(char *buf, size_t len, const struct atio_opts *o)
{
	double p[ATIO_PCT_FIO + ATIO_PCT_MAX];
	unsigned n = points(o, p);
	int at;

	at = snprintf(buf, len, "job,direction,start_epoch_s,time_s,value,unit,iops,bw_mib_s,"
		      "bw_bytes_s,ops,bytes,syncs,share_pct,lat_count,lat_min_us,lat_mean_us,"
		      "lat_stdev_us");
	for (unsigned i = 0; i < n && at >= 0 && (size_t)at < len; i++) {
		char name[48];

		point_name(name, sizeof(name), p[i]);
		at += snprintf(buf + at, len - (size_t)at, ",%s", name);
	}
	if (at >= 0 && (size_t)at < len)
		at += snprintf(buf + at, len - (size_t)at, ",lat_max_us,cpu_user_pct,cpu_sys_pct,"
			       "ctx_voluntary,ctx_involuntary,threads,block_size_bytes,seed,"
			       "cmdline\n");
	return at;
}

/* A number as the JSON writes it, after a comma. */
static void num(FILE *f, double v)
{
	char buf[ATIO_JSON_DOUBLE_LEN];

	atio_json_format_double(buf, v);
	fprintf(f, ",%s", strcmp(buf, "null") ? buf : "");
}

/* A field quoted as RFC 4180 has it: in double quotes, a quote doubled. */
static void quoted(FILE *f, const char *s)
{
	fputs(",\"", f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

/* The latency columns of @h: count, min, mean, stdev, the points, max (us). */
static void latency(FILE *f, const struct atio_hist *h, const double *p, unsigned n)
{
	bool empty = h->count == 0;

	fprintf(f, ",%" PRIu64 ",%.3f", h->count, empty ? 0.0 : (double)h->min / 1000.0);
	num(f, empty ? 0.0 : atio_hist_mean(h) / 1000.0);
	num(f, empty ? 0.0 : atio_hist_stdev(h) / 1000.0);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, ",%.3f", empty ? 0.0 : (double)atio_hist_percentile(h, p[i]) / 1000.0);
	fprintf(f, ",%.3f", empty ? 0.0 : (double)h->max / 1000.0);
}

/*
 * One row: @dir NULL for the run ("all"), else a direction of --mix. A
 * direction has no value of its own, nor syncs, CPU or context switches:
 * those columns are empty on its row.
 */
static void row(FILE *f, const struct atio_result *r, const struct atio_dir_stats *dir,
		const char *name, const double *p, unsigned n, const char *cmd)
{
	const struct atio_opts *o = r->opts;
	const struct atio_stats *t = &r->total;
	uint64_t ops = dir ? dir->ops : t->ops, bytes = dir ? dir->bytes : t->bytes;

	fprintf(f, "1,%s", name);
	num(f, (double)r->wall_start.tv_sec + atio_report_sec((uint64_t)r->wall_start.tv_nsec));
	num(f, atio_report_sec(r->elapsed_ns));
	if (dir)
		fputs(",,", f);
	else {
		num(f, atio_result_value(r));
		fprintf(f, ",%s", atio_unit_name(o));
	}
	num(f, atio_report_per_sec(ops, r->elapsed_ns));
	num(f, atio_report_mb_per_sec(bytes, r->elapsed_ns));
	num(f, atio_report_per_sec(bytes, r->elapsed_ns));
	fprintf(f, ",%" PRIu64 ",%" PRIu64, ops, bytes);
	if (dir)
		fputs(",", f);
	else
		fprintf(f, ",%" PRIu64, t->syncs);
	num(f, dir ? (t->ops ? (double)dir->ops * 100.0 / (double)t->ops : 0.0) : 100.0);
	latency(f, dir ? &dir->lat : &t->lat, p, n);
	if (dir) {
		fputs(",,,,", f);
	} else {
		num(f, atio_cpu_pct(t->cpu_user_ns, r->elapsed_ns));
		num(f, atio_cpu_pct(t->cpu_sys_ns, r->elapsed_ns));
		fprintf(f, ",%" PRIu64 ",%" PRIu64, t->ctx_vol, t->ctx_invol);
	}
	fprintf(f, ",%u,%" PRIu64 ",%" PRIu64, o->threads, o->bs, o->seed);
	quoted(f, cmd);
	putc('\n', f);
}

void atio_csv_rows(FILE *f, const struct atio_result *r)
{
	double p[ATIO_PCT_FIO + ATIO_PCT_MAX];
	unsigned n = points(r->opts, p);
	char cmd[ATIO_CMDLINE_MAX];

	if (r->nothing_measured)
		return;
	atio_opts_cmdline(cmd, sizeof(cmd), r->opts);
	row(f, r, NULL, "all", p, n, cmd);
	for (unsigned i = 0; r->dir && i < ATIO_DIRS; i++)
		row(f, r, &r->dir[i], atio_dir_name(i), p, n, cmd);
}

/* Whether @name means standard output. */
static bool is_stdout(const char *name)
{
	return strcmp(name, "-") == 0 || strcmp(name, "stdout") == 0;
}

int atio_csv_write(const struct atio_result *r, struct atio_error *e)
{
	const char *name = r->opts->csv;
	char header[4096], first[4096] = "";
	FILE *f;
	bool append = false;

	atio_csv_header(header, sizeof(header), r->opts);
	if (is_stdout(name)) {
		fputs(header, stdout);
		atio_csv_rows(stdout, r);
		return 0;
	}
	f = fopen(name, "a+");
	if (!f)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "--csv %s: %s", name,
				      strerror(errno));
	/* a+ reads from the start and writes at the end. */
	if (fgets(first, sizeof(first), f)) {
		if (strcmp(first, header) != 0) {
			fclose(f);
			return atio_error_set(e, ATIO_EXIT_USAGE, 0, "--csv %s: holds something else "
					      "than this run's columns (its first line is not this "
					      "header); left alone: give another file", name);
		}
		append = true;
	}
	if (!append)
		fputs(header, f);
	atio_csv_rows(f, r);
	if (fclose(f) != 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "--csv %s: %s", name,
				      strerror(errno));
	return 0;
}
