/* SPDX-License-Identifier: MIT */
/*
 * A run of several jobs at once, and a plan of phases (atio/print/report.h):
 * the run's figures combined from its jobs', its result line, then each
 * job's own lines under a "job N: " prefix, rendered by the one text and
 * one JSON renderer of a single run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/opts.h"
#include "atio/print/report.h"
#include "atio/print/report_figures.h"

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

/* See report.h. */
void atio_result_combine(struct atio_result *all, const struct atio_result *const *jobs,
			 unsigned n)
{
	uint64_t first = UINT64_MAX, last = 0;

	*all = (struct atio_result){ .opts = jobs[0]->opts, .version = jobs[0]->version,
				     .engine = jobs[0]->engine };
	atio_stats_init(&all->total);
	all->nothing_measured = true;
	for (unsigned j = 0; j < n; j++) {
		const struct atio_result *r = jobs[j];

		all->interrupted |= r->interrupted;
		if (r->signo)
			all->signo = r->signo;
		all->in_final_sync |= r->in_final_sync;
		if (r->nothing_measured)
			continue;
		all->nothing_measured = false;
		atio_stats_merge(&all->total, &r->total);
		if (ts_ns(&r->wall_start) < first) {
			first = ts_ns(&r->wall_start);
			all->wall_start = r->wall_start;
		}
		if (ts_ns(&r->wall_end) > last) {
			last = ts_ns(&r->wall_end);
			all->wall_end = r->wall_end;
		}
	}
	all->elapsed_ns = last > first && first != UINT64_MAX ? last - first : 0;
}

/* See report.h. */
void atio_report_prefixed(FILE *f, unsigned job, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		fprintf(f, "job %u: %.*s\n", job, (int)len, text);
		text += len + (nl != NULL);
	}
}

/* See report.h. */
void atio_report_jobs_text(FILE *f, const struct atio_result *all,
			   struct atio_result *const *jobs, unsigned n)
{
	const struct atio_opts *o = all->opts;

	if (all->nothing_measured)
		fputs("interrupted: before any job's measured time began; nothing was "
		      "measured\n", f);
	else
		fprintf(f, "time: %f sec; rate: { %.5f } %s;\n", atio_report_sec(all->elapsed_ns),
			atio_result_value(all), atio_unit_name(o));
	fprintf(f, "jobs: %u at once; the value above counts every job's %s over the run's time, "
		"from the first job's start to the last one's end\n", n,
		o->unit == ATIO_UNIT_MBS ? "bytes (MB/s)" : !strcmp(atio_unit_name(o), "sync/s")
		? "syncs (sync/s)" : "I/Os (IOPS)");
	for (unsigned j = 0; j < n; j++) {
		char cmd[ATIO_CMDLINE_MAX], *text = NULL;
		size_t len = 0;
		FILE *m;

		atio_opts_cmdline(cmd, sizeof(cmd), jobs[j]->opts);
		/* The command line as text output carries it: no second line with the result's word. */
		fprintf(f, "job %u: ", j + 1);
		atio_report_put_text(f, cmd);
		if (jobs[j]->opts->path) {
			fputs(" -f ", f);
			atio_report_put_text(f, jobs[j]->opts->path);
		}
		fputc('\n', f);
		jobs[j]->in_jobs = true;
		m = open_memstream(&text, &len);
		if (!m) {
			fprintf(f, "job %u: out of memory for its figures\n", j + 1);
			continue;
		}
		atio_report_text(m, jobs[j]);
		if (fclose(m) == 0)
			atio_report_prefixed(f, j + 1, text);
		free(text);
	}
}

/* See report.h. */
void atio_report_jobs_json(FILE *f, const struct atio_result *all,
			   struct atio_result *const *jobs, unsigned n)
{
	const struct atio_opts *o = all->opts;

	fprintf(f, "\"result\":");
	if (all->nothing_measured)
		fputs("null", f);
	else
		fprintf(f, "{\"time_sec\":%.9f,\"value\":%.6f,\"unit\":\"%s\",\"mbs\":%.6f,"
			"\"iops\":%.6f,\"ops\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"syncs\":%" PRIu64
			",\"start_epoch\":%.6f,\"end_epoch\":%.6f}",
			atio_report_sec(all->elapsed_ns), atio_result_value(all), atio_unit_name(o),
			atio_report_mb_per_sec(all->total.bytes, all->elapsed_ns),
			atio_report_per_sec(all->total.ops, all->elapsed_ns), all->total.ops,
			all->total.bytes, all->total.syncs,
			(double)all->wall_start.tv_sec + all->wall_start.tv_nsec / 1e9,
			(double)all->wall_end.tv_sec + all->wall_end.tv_nsec / 1e9);
	fprintf(f, ",\"interrupted\":%s,\"jobs\":[", all->interrupted ? "true" : "false");
	for (unsigned j = 0; j < n; j++) {
		if (j)
			fputc(',', f);
		atio_report_json(f, jobs[j]);
	}
	fputc(']', f);
}
