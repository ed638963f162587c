/* SPDX-License-Identifier: MIT */
/*
 * The page of atio report: one HTML file with its CSS inline and its
 * charts as inline SVG (svg.c), nothing fetched and no script, so that it
 * opens from a mail attachment. In order: the documents, a summary table
 * and the ratios of each to the first (report_summary.c), the matrix of a
 * driver's document as bars, each sweep (report_sweep.c), the runs' spans
 * on the wall clock when they overlapped (report_timeline.c), then for each run (or test of a
 * matrix) its rate over time with the stalls marked, its latency
 * percentiles over time and its latency histogram, the documents' runs
 * overlaid; last the record: everything the documents say about settings,
 * versions and systems.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atio/page/report_page.h"
#include "atio/page/report_sweep.h"
#include "atio/page/svg.h"

#define HIST_BIN_SHIFT 4           /* 16 buckets a bin: an eighth of a power of two */

static const char *const pct_name[ATIO_RPCT] = { "p50", "p99", "p99.9", "max" };

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:800px;color:#111}"
	"h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #888;margin-top:2em}"
	"h3{font-size:1.05em}table{border-collapse:collapse;margin:.5em 0;font-size:.85em}"
	"td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#eee}"
	"p.note{font-style:italic}svg.chart{display:block;margin:1em 0;font-family:sans-serif}"
	"svg .title{font-size:15px;font-weight:bold}svg .tick{font-size:11px;fill:#333}"
	"svg .axis{font-size:12px}svg .legend{font-size:12px}svg .value{font-size:10px}"
	"svg .grid{stroke:#ddd;stroke-width:1}svg .nodata{font-size:14px;fill:#666}"
	"td.k{word-break:break-all}tr.differ td{font-weight:bold}"
	"@media print{h2{break-before:auto}svg.chart{break-inside:avoid}}";

static void esc(FILE *f, const char *s)
{
	atio_html_escape(f, s);
}

/* The keys of the runs of every document, each once, in order of appearance. */
static unsigned keys(const struct atio_rfile *files, unsigned n, const char **out, unsigned max)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		for (unsigned r = 0; r < files[i].nruns; r++) {
			unsigned j;

			for (j = 0; j < k && strcmp(out[j], files[i].runs[r].key) != 0; j++)
				;
			if (j == k && k < max)
				out[k++] = files[i].runs[r].key;
		}
	return k;
}

/* The matrices of the driver's documents: one bar chart per unit. */
static int matrix(FILE *f, const struct atio_rfile *files, unsigned n)
{
	const char *units[8];
	unsigned nunits = 0, nsets = 0, chart = 0;

	for (unsigned i = 0; i < n; i++)
		for (unsigned c = 0; c < files[i].ncells; c++) {
			unsigned u;

			for (u = 0; u < nunits && strcmp(units[u], files[i].cells[c].unit) != 0; u++)
				;
			if (u == nunits && nunits < 8)
				units[nunits++] = files[i].cells[c].unit;
		}
	if (!nunits)
		return 0;
	fputs("<h2>Matrix: average over the iterations, whiskers from min to max</h2>\n", f);
	const char *sets[n];
	unsigned setfile[n];

	for (unsigned i = 0; i < n; i++)
		if (files[i].ncells) {
			setfile[nsets] = i;
			sets[nsets++] = files[i].name;
		}
	for (unsigned u = 0; u < nunits; u++) {
		unsigned max = 0, ng = 0;

		for (unsigned i = 0; i < n; i++)
			max += files[i].ncells;
		char **groups = calloc(max, sizeof(char *));
		double *avg = calloc((size_t)max * nsets, sizeof(double));
		double *mn = calloc((size_t)max * nsets, sizeof(double));
		double *mx = calloc((size_t)max * nsets, sizeof(double));
		char id[32], title[96], ylabel[64];

		if (!groups || !avg || !mn || !mx) {
			free(groups), free(avg), free(mn), free(mx);
			return -ENOMEM;
		}
		for (size_t i = 0; i < (size_t)max * nsets; i++)
			avg[i] = mn[i] = mx[i] = NAN;
		for (unsigned s = 0; s < nsets; s++) {
			const struct atio_rfile *fl = &files[setfile[s]];

			for (unsigned c = 0; c < fl->ncells; c++) {
				const struct atio_rcell *cl = &fl->cells[c];
				char g[160];
				unsigned j;

				if (strcmp(cl->unit, units[u]) != 0)
					continue;
				snprintf(g, sizeof(g), "%s\n%s", cl->test, cl->threads);
				for (j = 0; j < ng && strcmp(groups[j], g) != 0; j++)
					;
				if (j == ng)
					groups[ng++] = strdup(g);
				if (!groups[j])
					continue;
				avg[j * nsets + s] = cl->avg;
				mn[j * nsets + s] = cl->min;
				mx[j * nsets + s] = cl->max;
			}
		}
		snprintf(id, sizeof(id), "bars-%u", chart++);
		snprintf(title, sizeof(title), "Average rate per test and thread count (%s)",
			 units[u]);
		snprintf(ylabel, sizeof(ylabel), "rate (%s)", units[u]);
		struct atio_svg_bars b = {
			.id = id, .title = title, .ylabel = ylabel, .ngroups = ng, .nsets = nsets,
			.groups = (const char *const *)groups, .sets = sets,
			.avg = avg, .min = mn, .max = mx,
		};
		atio_svg_bar_chart(f, &b);
		for (unsigned j = 0; j < ng; j++)
			free(groups[j]);
		free(groups), free(avg), free(mn), free(mx);
	}
	return 0;
}

/* The series of one chart, with the names they own; room made by lines_new(). */
struct lines {
	unsigned n, cap;
	struct atio_svg_series *s;
	char **names;
	unsigned nbands, bcap;
	struct atio_svg_band *bands;
	bool nomem;
};

static struct lines *lines_new(unsigned cap, unsigned bcap)
{
	struct lines *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->cap = cap;
	l->bcap = bcap;
	l->s = calloc(cap ? cap : 1, sizeof(*l->s));
	l->names = calloc(cap ? cap : 1, sizeof(*l->names));
	l->bands = calloc(bcap ? bcap : 1, sizeof(*l->bands));
	if (!l->s || !l->names || !l->bands) {
		free(l->s), free(l->names), free(l->bands), free(l);
		return NULL;
	}
	return l;
}

static void add(struct lines *l, char *name, unsigned count, const double *x, const double *y,
		bool thick)
{
	if (l->n == l->cap || !name) {
		free(name);
		l->nomem = true;
		return;
	}
	l->names[l->n] = name;
	l->s[l->n] = (struct atio_svg_series){ .name = name, .n = count, .x = x, .y = y,
					       .style = l->n, .thick = thick };
	l->n++;
}

/* Empty @l for the next chart. */
static void lines_free(struct lines *l)
{
	for (unsigned i = 0; i < l->n; i++)
		free(l->names[i]);
	l->n = 0;
	l->nbands = 0;
}

/* "@a @b", or @b alone when @a is NULL: a series' name, owned by the caller. */
static char *str(const char *a, const char *b)
{
	char *s = NULL;

	if (!a)
		return strdup(b);
	return asprintf(&s, "%s %s", a, b) < 0 ? NULL : s;
}

/* The last bucket of the bin of bucket @i. */
static unsigned hi_of(unsigned i)
{
	unsigned hi = (i | ((1u << HIST_BIN_SHIFT) - 1));

	return hi < ATIO_HIST_BUCKETS ? hi : ATIO_HIST_BUCKETS - 1;
}

/* The middle, on a log scale, of buckets @lo to @hi. */
static double mid(unsigned lo, unsigned hi)
{
	if (hi >= ATIO_HIST_BUCKETS)
		hi = lo = ATIO_HIST_BUCKETS - 1;
	return sqrt((double)(atio_hist_bucket_low(lo) | 1) * (double)atio_hist_bucket_high(hi));
}

/*
 * The histogram of @h in bins of 2^HIST_BIN_SHIFT buckets: the middles, the
 * shares, and an empty bin on each side (@x and @y hold ATIO_HIST_BUCKETS).
 */
static unsigned hist_bins(const struct atio_hist *h, double *x, double *y)
{
	unsigned first = ATIO_HIST_BUCKETS, last = 0, n = 0;

	for (unsigned i = 0; i < ATIO_HIST_BUCKETS; i++)
		if (h->bucket[i]) {
			if (first == ATIO_HIST_BUCKETS)
				first = i;
			last = i;
		}
	if (first == ATIO_HIST_BUCKETS)
		return 0;
	if (first >> HIST_BIN_SHIFT) {
		x[n] = mid(((first >> HIST_BIN_SHIFT) - 1) << HIST_BIN_SHIFT,
			   ((first >> HIST_BIN_SHIFT) << HIST_BIN_SHIFT) - 1);
		y[n++] = 0;
	}
	for (unsigned b = first >> HIST_BIN_SHIFT; b <= last >> HIST_BIN_SHIFT; b++) {
		unsigned lo = b << HIST_BIN_SHIFT, hi = lo + (1u << HIST_BIN_SHIFT) - 1;
		uint64_t c = 0;

		if (hi >= ATIO_HIST_BUCKETS)
			hi = ATIO_HIST_BUCKETS - 1;
		for (unsigned i = lo; i <= hi; i++)
			c += h->bucket[i];
		x[n] = mid(lo, hi);
		y[n++] = 100.0 * (double)c / (double)h->count;
	}
	/* From zero to zero: the bins on either side, empty. */
	x[n] = mid(hi_of(last) + 1, hi_of(hi_of(last) + 1));
	y[n++] = 0;
	return n;
}

/* True when the documents' runs were put on one timeline. */
static bool aligned(const struct atio_rfile *files, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (files[i].aligned)
			return true;
	return false;
}

/* The three charts of the runs with key @key (index @k), overlaid. */
/* A latency title's note when a run of @r[@n] synced: its charts are its write() calls'. */
static const char *synced(const struct atio_rrun *const *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (r[i] && r[i]->has_sync)
			return " (of the write() calls; the sync calls' in the summary)";
	return "";
}

static int charts(FILE *f, const struct atio_rfile *files, unsigned n, const char *key,
		  unsigned k)
{
	const struct atio_rrun *r[n];
	struct lines *l;
	unsigned m = 0, timed = 0, cap = 0, bcap = 0;
	const char *unit = NULL;
	char id[32], title[256];
	int ret = 0;

	for (unsigned i = 0; i < n; i++) {
		r[i] = atio_rfile_find(&files[i], key);
		/* A plan's phase as a whole: a row of the summary, no charts. */
		if (r[i] && r[i]->combined)
			r[i] = NULL;
		if (r[i]) {
			m++;
			timed += r[i]->nint > 0;
			unit = unit ? unit : r[i]->unit;
			cap += ATIO_RPCT + 1 + r[i]->nnodes;
			bcap += r[i]->nstall_list;
		}
	}
	if (!m)
		return 0;
	l = lines_new(cap, bcap);
	if (!l)
		return -ENOMEM;
	fputs("<h2>", f);
	esc(f, key[0] ? key : (m > 1 ? "The runs" : "The run"));
	fputs("</h2>\n", f);
	for (unsigned i = 0; i < n; i++)
		if (r[i] && r[i]->offset >= 0.001) {
			fputs("<p class=\"note\">", f);
			esc(f, files[i].name);
			fprintf(f, ": this job's measured time began %.3f s after its phase's; its "
				"times below are from the phase's start.</p>\n", r[i]->offset);
		}
	for (unsigned i = 0; i < n; i++)
		if (r[i] && r[i]->iteration) {
			fputs("<p class=\"note\">", f);
			esc(f, files[i].name);
			fprintf(f, ": the charts below are of iteration %u of %u, whose sum is %.2f ",
				r[i]->iteration, r[i]->runs, r[i]->iter_value);
			esc(f, r[i]->unit);
			fputs("; the summary's rate is the test's average.</p>\n", f);
		}
	for (unsigned i = 0; i < n; i++)
		if (r[i])
			atio_report_nodes(f, files[i].name, r[i]);
	for (unsigned i = 0; i < n; i++)
		if (r[i])
			atio_report_steady(f, files[i].name, r[i], k, i);
	for (unsigned i = 0; i < n; i++)
		if (r[i] && !r[i]->nint) {
			fputs("<p class=\"note\">No time series was recorded in ", f);
			esc(f, files[i].name);
			fputs(": the document has no intervals. Its result, histogram and "
			      "settings are shown.</p>\n", f);
		}
	for (unsigned i = 0; i < n; i++)
		if (r[i] && r[i]->partial) {
			fputs("<p class=\"note\">The time series of ", f);
			esc(f, files[i].name);
			fputs(" is partial: atio ran out of memory while recording its "
			      "intervals.</p>\n", f);
		}
	if (timed) {
		/* One rate chart per unit: IOPS and MB/s never share an axis. */
		const char *units[n], *xl = aligned(files, n) ? "time since the earliest start (s)"
							     : "time since the measured start (s)";
		unsigned nu = 0;
		struct atio_svg_chart c;
		double lo = INFINITY, hi = -INFINITY;

		/* Charts of one timeline show one span of it. */
		for (unsigned i = 0; i < n; i++)
			for (unsigned t = 0; aligned(files, n) && r[i] && t < r[i]->nint; t++)
				lo = fmin(lo, r[i]->mid[t]), hi = fmax(hi, r[i]->mid[t]);

		for (unsigned i = 0; i < n; i++) {
			unsigned u;

			for (u = 0; u < nu && r[i] && strcmp(units[u], r[i]->unit) != 0; u++)
				;
			if (r[i] && r[i]->nint && u == nu)
				units[nu++] = r[i]->unit;
		}
		for (unsigned u = 0; u < nu; u++) {
			for (unsigned i = 0; i < n; i++) {
				if (!r[i] || !r[i]->nint || strcmp(r[i]->unit, units[u]) != 0)
					continue;
				add(l, str(NULL, timed == 1 && r[i]->nnodes ? "cluster sum"
									    : files[i].name),
				    r[i]->nint, r[i]->mid, r[i]->rate, true);
				for (unsigned s = 0; s < r[i]->nstall_list && l->nbands < l->bcap; s++)
					l->bands[l->nbands++] = (struct atio_svg_band){
						r[i]->stall_start[s],
						r[i]->stall_start[s] + r[i]->stall_len[s] };
				for (unsigned d = 0; timed == 1 && d < r[i]->nnodes; d++)
					add(l, str(NULL, r[i]->nodes[d].name), r[i]->nint, r[i]->mid,
					    r[i]->nodes[d].rate, false);
			}
			snprintf(id, sizeof(id), u ? "rate-%u-%u" : "rate-%u", k, u);
			snprintf(title, sizeof(title), "Rate over time%s%s%s%s%s", key[0] ? ": " : "",
				 key, nu > 1 ? " (" : "", nu > 1 ? units[u] : "", nu > 1 ? ")" : "");
			char ylabel[64];

			snprintf(ylabel, sizeof(ylabel), "rate (%s)", units[u]);
			c = (struct atio_svg_chart){
				.id = id, .title = title, .nseries = l->n, .series = l->s,
				.x = { .label = xl, .zero = true, .cover = { lo, hi } },
				.y = { .label = ylabel, .zero = true },
				.nbands = l->nbands, .bands = l->bands,
				.band_name = "stall: no I/O completed",
			};
			atio_svg_line_chart(f, &c);
			lines_free(l);
		}
		for (unsigned i = 0; i < n; i++)
			for (unsigned p = 0; r[i] && r[i]->nint && p < ATIO_RPCT; p++)
				add(l, str(timed > 1 ? files[i].name : NULL, pct_name[p]),
				    r[i]->nint, r[i]->mid, r[i]->ipct[p], false);
		snprintf(id, sizeof(id), "lat-%u", k);
		snprintf(title, sizeof(title), "Latency percentiles over time%s%s%s",
			 key[0] ? ": " : "", key, synced(r, n));
		c = (struct atio_svg_chart){
			.id = id, .title = title, .nseries = l->n, .series = l->s,
			.x = { .label = xl, .zero = true, .cover = { lo, hi } },
			.y = { .label = "latency (log scale)", .log = true, .fmt = ATIO_SVG_NS },
		};
		atio_svg_line_chart(f, &c);
		lines_free(l);
	}
	double *bx[n], *by[n];
	unsigned nh = 0;

	for (unsigned i = 0; i < n; i++) {
		bx[i] = by[i] = NULL;
		if (!r[i] || !r[i]->hist || !r[i]->hist->count)
			continue;
		bx[i] = calloc(ATIO_HIST_BUCKETS, sizeof(double));
		by[i] = calloc(ATIO_HIST_BUCKETS, sizeof(double));
		if (bx[i] && by[i]) {
			add(l, str(NULL, files[i].name), hist_bins(r[i]->hist, bx[i], by[i]),
			    bx[i], by[i], false);
			nh++;
		} else {
			l->nomem = true;
		}
	}
	if (nh) {
		snprintf(id, sizeof(id), "hist-%u", k);
		snprintf(title, sizeof(title), "Latency histogram of the whole run%s%s%s",
			 key[0] ? ": " : "", key, synced(r, n));
		struct atio_svg_chart c = {
			.id = id, .title = title, .nseries = l->n, .series = l->s,
			.x = { .label = "latency (log scale)", .log = true, .fmt = ATIO_SVG_NS },
			.y = { .label = "share of the I/Os (% per eighth of a power of 2)",
			       .zero = true },
		};
		atio_svg_line_chart(f, &c);
	} else {
		fputs("<p class=\"note\">No latency buckets in the documents for this run: no "
		      "histogram.</p>\n", f);
	}
	ret = l->nomem ? -ENOMEM : 0;
	lines_free(l);
	for (unsigned i = 0; i < n; i++)
		free(bx[i]), free(by[i]);
	free(l->s), free(l->names), free(l->bands), free(l);
	return ret;
}

static const char *kind_name(enum atio_rkind k)
{
	return k == ATIO_RDOC_RUN ? "atio --json run" :
	       k == ATIO_RDOC_MERGE ? "atio merge --json" :
	       k == ATIO_RDOC_PLAN ? "plan: jobs and phases" :
	       k == ATIO_RDOC_SWEEP ? "atio sweep --json" :
	       k == ATIO_RDOC_META ? "metadata run: atio --meta" : "atio-parallel.sh -o matrix";
}

int atio_report_page(FILE *out, const struct atio_rfile *files, unsigned n, const char *version)
{
	const char *key[256];
	unsigned nkeys = keys(files, n, key, 256);
	char when[64];
	time_t now = time(NULL);
	struct tm tm;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&now, &tm));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>atio report: ", out);
	for (unsigned i = 0; i < n; i++) {
		esc(out, files[i].name);
		fputs(i + 1 < n ? ", " : "", out);
	}
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>atio report</h1>\n"
		"<p>Made by atio %s on %s from %u document%s:</p>\n<ul>\n", css, version, when, n,
		n == 1 ? "" : "s");
	for (unsigned i = 0; i < n; i++) {
		fputs("<li><code>", out);
		esc(out, files[i].path);
		fprintf(out, "</code> (%s)</li>\n", kind_name(files[i].kind));
	}
	fputs("</ul>\n", out);
	atio_report_summary(out, files, n, key, nkeys);
	atio_report_meta(out, files, n);
	if (matrix(out, files, n))
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		if ((files[i].kind == ATIO_RDOC_SWEEP && atio_report_sweep(out, &files[i], i)) ||
		    (files[i].kind == ATIO_RDOC_DRIVER && atio_report_csweeps(out, &files[i], i)))
			return -ENOMEM;
	atio_report_wallclock(out, files, n);
	for (unsigned k = 0; k < nkeys; k++)
		if (charts(out, files, n, key[k], k))
			return -ENOMEM;
	if (atio_report_record(out, files, n))
		return -ENOMEM;
	fputs("</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}
