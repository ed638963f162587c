/* SPDX-License-Identifier: MIT */
/* Figures as comma-separated values: see atio/print/csv.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atio/base/json.h"
#include "atio/print/cpu.h"
#include "atio/print/csv.h"
#include "atio/print/report_figures.h"

unsigned atio_csv_points(const double *pct, unsigned npct, double *p)
{
	unsigned a = 0, b = 0, n = 0;

	while (a < ATIO_PCT_FIO || b < npct) {
		if (b == npct || (a < ATIO_PCT_FIO && atio_pct_fio[a] < pct[b]))
			p[n++] = atio_pct_fio[a++];
		else if (a == ATIO_PCT_FIO || pct[b] < atio_pct_fio[a])
			p[n++] = pct[b++];
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

int atio_csv_columns(char *buf, size_t len, const char *lead, const double *p, unsigned n)
{
	int at;

	at = snprintf(buf, len, "%s%sjob,direction,start_epoch_s,time_s,interrupted,value,unit,iops,"
		      "bw_mib_s,bw_bytes_s,ops,bytes,syncs,share_pct,lat_count,lat_min_us,"
		      "lat_mean_us,lat_stdev_us", lead ? lead : "", lead ? "," : "");
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

int atio_csv_header(char *buf, size_t len, const struct atio_opts *o)
{
	double p[ATIO_CSV_POINTS];

	return atio_csv_columns(buf, len, NULL, p, atio_csv_points(o->pct, o->npct, p));
}

void atio_csv_row_empty(struct atio_csv_row *r)
{
	*r = (struct atio_csv_row){ .job = ATIO_CSV_NONE, .start_epoch = NAN, .time_s = NAN,
				    .value = NAN, .iops = NAN, .bw_mib_s = NAN,
				    .bw_bytes_s = NAN, .ops = ATIO_CSV_NONE,
				    .bytes = ATIO_CSV_NONE, .syncs = ATIO_CSV_NONE,
				    .share_pct = NAN, .lat_count = ATIO_CSV_NONE,
				    .lat_min = NAN, .lat_mean = NAN, .lat_stdev = NAN,
				    .lat_max = NAN, .cpu_user_pct = NAN, .cpu_sys_pct = NAN,
				    .ctx_voluntary = ATIO_CSV_NONE,
				    .ctx_involuntary = ATIO_CSV_NONE, .threads = ATIO_CSV_NONE,
				    .block_size = ATIO_CSV_NONE };
	for (unsigned i = 0; i < ATIO_CSV_POINTS; i++)
		r->lat_p[i] = NAN;
}

void atio_csv_row_hist(struct atio_csv_row *r, const struct atio_hist *h, const double *p,
		       unsigned n)
{
	bool empty = h->count == 0;

	r->lat_count = h->count;
	r->lat_min = empty ? 0.0 : (double)h->min / 1000.0;
	r->lat_mean = empty ? 0.0 : atio_hist_mean(h) / 1000.0;
	r->lat_stdev = empty ? 0.0 : atio_hist_stdev(h) / 1000.0;
	for (unsigned i = 0; i < n && i < ATIO_CSV_POINTS; i++)
		r->lat_p[i] = empty ? 0.0 : (double)atio_hist_percentile(h, p[i]) / 1000.0;
	r->lat_max = empty ? 0.0 : (double)h->max / 1000.0;
}

/* A number as the JSON writes it, after a comma; nothing for NAN. */
static void num(FILE *f, double v)
{
	char buf[ATIO_JSON_DOUBLE_LEN];

	atio_json_format_double(buf, v);
	fprintf(f, ",%s", strcmp(buf, "null") ? buf : "");
}

/* Microseconds to the nanosecond, after a comma; nothing for NAN. */
static void usec(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.3f", v);
	else
		putc(',', f);
}

/* A count after a comma; nothing for ATIO_CSV_NONE. */
static void count(FILE *f, uint64_t v)
{
	if (v == ATIO_CSV_NONE)
		putc(',', f);
	else
		fprintf(f, ",%" PRIu64, v);
}

/* A field as RFC 4180 has it: in double quotes, a quote doubled; nothing for NULL. */
static void quoted(FILE *f, const char *s)
{
	if (!s)
		return;
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

/* A text field after a comma: written as it is when nothing in it needs quotes. */
static void text(FILE *f, const char *s)
{
	putc(',', f);
	if (s && s[strcspn(s, ",\"\r\n")] == '\0')
		fputs(s, f);
	else
		quoted(f, s);
}

void atio_csv_row(FILE *f, const struct atio_csv_row *r, unsigned nlead, unsigned n)
{
	for (unsigned i = 0; i < nlead && i < ATIO_CSV_LEAD; i++) {
		quoted(f, r->lead[i]);
		putc(',', f);
	}
	if (r->job != ATIO_CSV_NONE)
		fprintf(f, "%" PRIu64, r->job);
	text(f, r->direction);
	num(f, r->start_epoch);
	num(f, r->time_s);
	text(f, r->interrupted);
	num(f, r->value);
	text(f, r->unit);
	num(f, r->iops);
	num(f, r->bw_mib_s);
	num(f, r->bw_bytes_s);
	count(f, r->ops);
	count(f, r->bytes);
	count(f, r->syncs);
	num(f, r->share_pct);
	count(f, r->lat_count);
	usec(f, r->lat_min);
	num(f, r->lat_mean);
	num(f, r->lat_stdev);
	for (unsigned i = 0; i < n && i < ATIO_CSV_POINTS; i++)
		usec(f, r->lat_p[i]);
	usec(f, r->lat_max);
	num(f, r->cpu_user_pct);
	num(f, r->cpu_sys_pct);
	count(f, r->ctx_voluntary);
	count(f, r->ctx_involuntary);
	count(f, r->threads);
	count(f, r->block_size);
	text(f, r->seed);
	putc(',', f);
	quoted(f, r->cmdline ? r->cmdline : "");
	putc('\n', f);
}

/*
 * A run's row: @dir NULL for the run ("all"), else a direction of --mix.
 * A direction has no value of its own, nor syncs, CPU or context
 * switches: those columns are empty on its row.
 */
static void run_row(FILE *f, const struct atio_result *r, const struct atio_dir_stats *dir,
		    const char *name, const struct atio_csv_row *lead, unsigned nlead,
		    const double *p, unsigned n, const char *cmd)
{
	const struct atio_opts *o = r->opts;
	const struct atio_stats *t = &r->total;
	uint64_t ops = dir ? dir->ops : t->ops, bytes = dir ? dir->bytes : t->bytes;
	char seed[24];
	struct atio_csv_row w;

	atio_csv_row_empty(&w);
	memcpy(w.lead, lead->lead, sizeof(w.lead));
	w.job = lead->job;
	w.direction = name;
	w.start_epoch = (double)r->wall_start.tv_sec +
			atio_report_sec((uint64_t)r->wall_start.tv_nsec);
	w.time_s = atio_report_sec(r->elapsed_ns);
	w.interrupted = r->interrupted ? "true" : "false";
	if (!dir) {
		w.value = atio_result_value(r);
		w.unit = atio_unit_name(o);
		w.syncs = t->syncs;
		w.cpu_user_pct = atio_cpu_pct(t->cpu_user_ns, r->elapsed_ns);
		w.cpu_sys_pct = atio_cpu_pct(t->cpu_sys_ns, r->elapsed_ns);
		w.ctx_voluntary = t->ctx_vol;
		w.ctx_involuntary = t->ctx_invol;
	}
	w.iops = atio_report_per_sec(ops, r->elapsed_ns);
	w.bw_mib_s = atio_report_mb_per_sec(bytes, r->elapsed_ns);
	w.bw_bytes_s = atio_report_per_sec(bytes, r->elapsed_ns);
	w.ops = ops;
	w.bytes = bytes;
	w.share_pct = dir ? (t->ops ? (double)dir->ops * 100.0 / (double)t->ops : 0.0) : 100.0;
	atio_csv_row_hist(&w, dir ? &dir->lat : &t->lat, p, n);
	w.threads = o->threads;
	w.block_size = o->bs;
	snprintf(seed, sizeof(seed), "%" PRIu64, o->seed);
	w.seed = seed;
	w.cmdline = cmd;
	atio_csv_row(f, &w, nlead, n);
}

void atio_csv_job_rows(FILE *f, const struct atio_result *r, const struct atio_csv_row *lead,
		       unsigned nlead, const double *p, unsigned n)
{
	char cmd[ATIO_CMDLINE_MAX];

	if (r->nothing_measured)
		return;
	atio_opts_cmdline(cmd, sizeof(cmd), r->opts);
	run_row(f, r, NULL, "all", lead, nlead, p, n, cmd);
	for (unsigned i = 0; r->dir && i < ATIO_DIRS; i++)
		run_row(f, r, &r->dir[i], atio_dir_name(i), lead, nlead, p, n, cmd);
}

void atio_csv_rows(FILE *f, const struct atio_result *r)
{
	double p[ATIO_CSV_POINTS];
	unsigned n = atio_csv_points(r->opts->pct, r->opts->npct, p);
	struct atio_csv_row lead = { .job = 1 };

	atio_csv_job_rows(f, r, &lead, 0, p, n);
}

/* Whether @name means standard output. */
static bool is_stdout(const char *name)
{
	return strcmp(name, "-") == 0 || strcmp(name, "stdout") == 0;
}

/*
 * Whether the rows may go after what open file @f (read from its start)
 * holds: nothing (*@empty then), or @header as its first line and a line's
 * end as its last byte. Returns 0, or -1 with @e filled (exit 2).
 */
static int content_ok(FILE *f, const char *opt, const char *name, const char *header,
		      bool *empty, struct atio_error *e)
{
	char first[8192] = "";

	*empty = !fgets(first, sizeof(first), f);
	if (*empty)
		return 0;
	if (strcmp(first, header) != 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s %s: holds something else than "
				      "these columns (its first line is not this header); left "
				      "alone: give another file", opt, name);
	/* A row appended there would be glued to a cut one: rows of two widths. */
	if (fseek(f, -1, SEEK_END) != 0 || fgetc(f) != '\n')
		return atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s %s: its last row does not end "
				      "with a line's end (cut short?); left alone: mend it or give "
				      "another file", opt, name);
	return 0;
}

int atio_csv_check(const char *opt, const char *name, const char *header,
		   struct atio_error *e)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(name, '/');
	struct stat st;
	bool empty;
	FILE *f;
	int ret;

	if (is_stdout(name))
		return 0;
	if (stat(name, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s %s: not a regular file: "
					      "give a file for the CSV", opt, name);
		if (!(f = fopen(name, "r")))
			return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s %s: cannot read: %s",
					      opt, name, strerror(errno));
		ret = content_ok(f, opt, name, header, &empty, e);
		fclose(f);
		if (ret)
			return ret;
		if (access(name, W_OK) != 0)
			return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s %s: cannot write: %s",
					      opt, name, strerror(errno));
		return 0;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - name) + 1 : 1,
		 slash ? name : ".");
	if (errno != ENOENT || access(dir, W_OK | X_OK) != 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s %s: cannot write there: %s",
				      opt, name, strerror(errno));
	return 0;
}

FILE *atio_csv_open(const char *opt, const char *name, const char *header,
		    struct atio_error *e)
{
	bool empty;
	FILE *f;

	if (is_stdout(name)) {
		fputs(header, stdout);
		return stdout;
	}
	f = fopen(name, "a+");
	if (!f) {
		atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s %s: %s", opt, name, strerror(errno));
		return NULL;
	}
	/* a+ reads from the start and writes at the end. */
	if (content_ok(f, opt, name, header, &empty, e)) {
		fclose(f);
		return NULL;
	}
	if (empty)
		fputs(header, f);
	return f;
}

int atio_csv_close(const char *opt, const char *name, FILE *f, struct atio_error *e)
{
	if (f == stdout)
		return fflush(f) == 0 ? 0 : atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s %s: %s",
							    opt, name, strerror(errno));
	if (fclose(f) != 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s %s: %s", opt, name,
				      strerror(errno));
	return 0;
}

int atio_csv_write(const struct atio_result *r, struct atio_error *e)
{
	char header[8192];
	FILE *f;

	atio_csv_header(header, sizeof(header), r->opts);
	f = atio_csv_open("--csv", r->opts->csv, header, e);
	if (!f)
		return -1;
	atio_csv_rows(f, r);
	return atio_csv_close("--csv", r->opts->csv, f, e);
}
