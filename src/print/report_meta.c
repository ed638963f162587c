/* SPDX-License-Identifier: MIT */
/*
 * A metadata run's output (atio/print/report_meta.h). The result line is
 * at_io_iops' (atio_report_result_line()), its figure the phase of
 * --figure: files a second with the slowest thread setting the phase's
 * time. Below it each phase has its line with that figure ("wall"), the
 * sum of each thread's files over its own time ("sum"), and the
 * latency of one operation. No fixed text here holds the letters of the
 * result line's word.
 */
#include <inttypes.h>
#include <string.h>

#include "atio/base/json.h"
#include "atio/base/units.h"
#include "atio/print/report.h"
#include "atio/print/report_meta.h"
#include "atio/print/report_figures.h"

const struct atio_meta_rec *atio_meta_figure(const struct atio_meta_result *r)
{
	for (unsigned i = 0; i < r->nrec; i++)
		if (r->rec[i].phase == r->opts->meta.figure)
			return &r->rec[i];
	return NULL;
}

double atio_meta_rec_value(const struct atio_meta_rec *rec)
{
	return rec->elapsed_ns ? (double)rec->ops * 1e9 / (double)rec->elapsed_ns : 0;
}

bool atio_meta_rec_too_fast(const struct atio_meta_rec *rec)
{
	return rec->passes && rec->shortest_ns < ATIO_META_MIN_NS;
}

/* The command line of a metadata run, canonical: what runs it again. */
static void put_cmdline(FILE *f, const struct atio_opts *o)
{
	const struct atio_meta_opts *m = &o->meta;
	char size[24];

	atio_format_size(size, sizeof(size), m->file_size);
	fputs("--meta ", f);
	atio_report_put_text(f, m->phases_text ? m->phases_text : "?");
	if (o->threads_auto)
		fputs(" -p auto", f);
	else
		fprintf(f, " -p %u", o->threads);
	fprintf(f, " --files %" PRIu64 " --file-size %s --dirs %u", m->files, size, m->dirs);
	if (m->members)
		fprintf(f, " --shared-by %u/%u", m->member, m->members);
	else if (m->shared)
		fputs(" --shared-dir", f);
	if (m->neighbour)
		fputs(" --neighbour", f);
	if (o->random)
		fputs(" --rand", f);
	if (m->fsync_files)
		fputs(" --fsync-files", f);
	if (m->fsync_dir)
		fputs(" --fsync-dir", f);
	if (m->figure_given)
		fprintf(f, " --figure %s", atio_meta_phase_name(m->figure));
	if (o->loops)
		fprintf(f, " --loops %" PRIu64, o->loops);
	if (o->verify)
		fputs(" --verify", f);
	if (o->keep_cache)
		fputs(" --keep-cache", f);
	if (o->remove)
		fputs(" --remove", f);
	fputs(" -f ", f);
	atio_report_put_text(f, o->path ? o->path : "(none)");
}

void atio_report_meta_header(FILE *f, const struct atio_meta_result *r)
{
	const struct atio_opts *o = r->opts;
	const struct atio_meta_opts *m = &o->meta;
	char size[24];

	atio_format_size(size, sizeof(size), m->file_size);
	fputs("Title: atio\nCmdline: ", f);
	put_cmdline(f, o);
	fputs("\nVersion: ", f);
	atio_report_put_text(f, r->version ? r->version : "unknown");
	fprintf(f, "\nProcesses: %u%s\n", o->threads,
		o->threads_auto ? " (auto: the CPUs atio may run on)" : "");
	fputs("Testcase: metadata: ", f);
	atio_report_put_text(f, m->phases_text ? m->phases_text : "?");
	fprintf(f, " of %" PRIu64 " %s%s a thread in %u director%s of %s under ",
		m->files, m->file_size ? "file(s) of " : "empty file(s)", m->file_size ? size : "",
		m->dirs, m->dirs == 1 ? "y" : "ies",
		m->members ? "one tree the threads of its members share" : m->shared ?
		"one tree all threads share" : "a tree of its own");
	atio_report_put_text(f, r->tree ? r->tree : "(none)");
	fprintf(f, "; stat and read %s%s\n", o->random ? "in an order drawn from the seed"
		: "in the order of creation", m->neighbour ? m->members ? ", each thread the "
		"next member's files" : ", each thread the next one's files" : "");
	if (m->members)
		fprintf(f, "Shared by: member %u of %u (its threads are the tree's %u to %u)\n",
			m->member, m->members, m->member * o->threads,
			(m->member + 1) * o->threads - 1);
	if (o->loops > 1)
		fprintf(f, "Loops: %" PRIu64 " passes of the phases\n", o->loops);
	fprintf(f, "Durability: %s%s\n",
		m->fsync_files ? "fsync of each file before its close"
		: "none: created files may be in the page cache only",
		m->fsync_dir ? ", fsync of each directory after create" : "");
	fputs("Cache: ", f);
	atio_report_put_text(f, r->cache ? r->cache : "unknown");
	fprintf(f, "\nSeed: %" PRIu64 "\nFilesystem: ", o->seed);
	atio_report_put_text(f, r->fstype ? r->fstype : "unknown");
	putc('\n', f);
}

/* One phase's line; @cut: a signal ended it. */
static void put_phase(FILE *f, const struct atio_meta_rec *rec, unsigned threads, bool cut)
{
	const struct atio_hist *h = &rec->lat;

	fprintf(f, "%s: %s", atio_meta_phase_name(rec->phase), cut ? "(interrupted) " : "");
	if (atio_meta_rec_too_fast(rec))
		fprintf(f, "too fast to measure (a pass of %.3f sec, under %.1f)",
			atio_report_sec(rec->shortest_ns), atio_report_sec(ATIO_META_MIN_NS));
	else
		fprintf(f, "%.2f ops/s wall, %.2f ops/s sum of threads", atio_meta_rec_value(rec),
			atio_meta_thread_sum(rec, threads));
	fprintf(f, ", %" PRIu64 " ops in %.3f sec", rec->ops, atio_report_sec(rec->elapsed_ns));
	if (!h->count) {
		fputs(", latency (usec): none\n", f);
		return;
	}
	fprintf(f, ", latency (usec): p50 %.2f, p99 %.2f, p99.9 %.2f, max %.2f\n",
		(double)atio_hist_percentile(h, 50.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.9) / 1000.0, (double)h->max / 1000.0);
}

/* The line saying where a signal cut the run, if one did. */
static void put_interrupted(FILE *f, const struct atio_meta_result *r)
{
	char sig[32];

	if (!r->signo)
		return;
	fprintf(f, "interrupted: by %s ", atio_report_signal_name(r->signo, sig, sizeof(sig)));
	if (r->interrupted)
		fprintf(f, "in %s: its figures cover the files done before the signal; the "
			"phases above it ran whole\n", atio_meta_phase_name(r->interrupted->phase));
	else if (r->nrec)
		fputs("between phases: those above ran whole, the next did not begin\n", f);
	else
		fputs("before the first phase began; nothing was measured\n", f);
}

void atio_report_meta_text(FILE *f, const struct atio_meta_result *r)
{
	const struct atio_opts *o = r->opts;
	const struct atio_meta_rec *fig = atio_meta_figure(r);

	if (fig && fig->passes)
		atio_report_result_line(f, fig->elapsed_ns, "rate", atio_meta_rec_value(fig),
					"ops/s");
	for (unsigned i = 0; i < r->nrec; i++)
		if (r->rec[i].passes)
			put_phase(f, &r->rec[i], o->threads, &r->rec[i] == r->interrupted);
	/* Each phase's intervals and stalls, as a data run's line says them. */
	for (unsigned i = 0; i < r->nrec; i++)
		if (r->rec[i].passes && r->rec[i].timeline) {
			fprintf(f, "%s ", atio_meta_phase_name(r->rec[i].phase));
			atio_ival_text(f, r->rec[i].timeline, "ops/s");
		}
	put_interrupted(f, r);
	if (o->verify && !r->signo)
		fputs("verify: every file read checked against its stamps, none bad\n", f);
	fprintf(f, "seed: %" PRIu64 "\n", o->seed);
	if (o->verbose < 1)
		return;
	for (unsigned i = 0; i < r->nrec; i++)
		for (unsigned t = 0; r->rec[i].passes && t < o->threads; t++)
			fprintf(f, "%s: thread %u: %" PRIu64 " ops in %.3f sec\n",
				atio_meta_phase_name(r->rec[i].phase), t, r->rec[i].thread_ops[t],
				atio_report_sec(r->rec[i].thread_ns[t]));
}

static void json_settings(struct atio_json *j, const struct atio_meta_result *r)
{
	const struct atio_opts *o = r->opts;
	const struct atio_meta_opts *m = &o->meta;

	atio_json_object_begin(j, "settings");
	atio_json_string(j, "workload", "meta");
	atio_json_array_begin(j, "phases");
	for (unsigned i = 0; i < m->nphases; i++)
		atio_json_string(j, NULL, atio_meta_phase_name(m->phase[i]));
	atio_json_array_end(j);
	atio_json_uint(j, "threads", o->threads);
	atio_json_uint(j, "files", m->files);
	atio_json_uint(j, "file_size", m->file_size);
	atio_json_uint(j, "dirs", m->dirs);
	atio_json_bool(j, "shared_dir", m->shared);
	if (m->members) {
		atio_json_uint(j, "member", m->member);
		atio_json_uint(j, "members", m->members);
	}
	atio_json_bool(j, "neighbour", m->neighbour);
	atio_json_string(j, "order", o->random ? "random" : "creation");
	atio_json_bool(j, "fsync_files", m->fsync_files);
	atio_json_bool(j, "fsync_dir", m->fsync_dir);
	atio_json_bool(j, "verify", o->verify);
	atio_json_uint(j, "loops", o->loops ? o->loops : 1);
	atio_json_string(j, "figure", atio_meta_phase_name(m->figure));
	atio_json_string(j, "path", o->path);
	atio_json_string(j, "tree", r->tree);
	atio_json_string(j, "cache", r->cache);
	atio_json_string(j, "filesystem", r->fstype);
	atio_json_uint(j, "seed", o->seed);
	atio_json_object_end(j);
}

static void json_phase(struct atio_json *j, const struct atio_meta_rec *rec, unsigned threads,
		       bool cut)
{
	bool fast = atio_meta_rec_too_fast(rec);

	atio_json_object_begin(j, NULL);
	atio_json_string(j, "phase", atio_meta_phase_name(rec->phase));
	atio_json_bool(j, "interrupted", cut);
	atio_json_uint(j, "passes", rec->passes);
	atio_json_uint(j, "ops", rec->ops);
	atio_json_uint(j, "elapsed_ns", rec->elapsed_ns);
	atio_json_uint(j, "shortest_pass_ns", rec->shortest_ns);
	atio_json_bool(j, "too_fast", fast);
	atio_json_double(j, "cpu_user_sec", atio_report_sec(rec->cpu_user_ns));
	atio_json_double(j, "cpu_sys_sec", atio_report_sec(rec->cpu_sys_ns));
	if (fast) {
		atio_json_null(j, "ops_per_sec");
		atio_json_null(j, "threads_sum_ops_per_sec");
	} else {
		atio_json_double(j, "ops_per_sec", atio_meta_rec_value(rec));
		atio_json_double(j, "threads_sum_ops_per_sec", atio_meta_thread_sum(rec, threads));
	}
	atio_report_json_hist(j, "latency_ns", &rec->lat, true);
	/* One pass's intervals (those of --loops' last alone would not add up). */
	if (rec->timeline && rec->passes == 1) {
		atio_ival_json(j, "intervals", rec->timeline, true);
		atio_ival_json_timeline(j, rec->timeline);
	} else {
		atio_json_null(j, "intervals");
		atio_json_null(j, "timeline");
	}
	atio_json_array_begin(j, "threads");
	for (unsigned t = 0; t < threads; t++) {
		atio_json_object_begin(j, NULL);
		atio_json_uint(j, "ops", rec->thread_ops[t]);
		atio_json_uint(j, "elapsed_ns", rec->thread_ns[t]);
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
	atio_json_object_end(j);
}

void atio_report_meta_json(FILE *f, const struct atio_meta_result *r)
{
	const struct atio_meta_rec *fig = atio_meta_figure(r);
	struct atio_json j;
	char sig[32];

	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_object_begin(&j, "atio");
	atio_json_string(&j, "version", r->version);
	atio_json_object_end(&j);
	json_settings(&j, r);
	atio_json_double(&j, "start_epoch", (double)r->wall_start.tv_sec +
			 atio_report_sec((uint64_t)r->wall_start.tv_nsec));
	atio_json_double(&j, "end_epoch", (double)r->wall_end.tv_sec +
			 atio_report_sec((uint64_t)r->wall_end.tv_nsec));
	atio_json_bool(&j, "complete", !r->signo);
	atio_json_bool(&j, "interrupted", r->signo != 0);
	if (r->signo)
		atio_json_string(&j, "signal", atio_report_signal_name(r->signo, sig, sizeof(sig)));
	else
		atio_json_null(&j, "signal");
	if (r->interrupted)
		atio_json_string(&j, "interrupted_phase", atio_meta_phase_name(r->interrupted->phase));
	else
		atio_json_null(&j, "interrupted_phase");
	if (fig && fig->passes) {
		atio_json_object_begin(&j, "result");
		atio_json_string(&j, "phase", atio_meta_phase_name(fig->phase));
		atio_json_double(&j, "value", atio_meta_rec_value(fig));
		atio_json_string(&j, "unit", "ops/s");
		atio_json_uint(&j, "elapsed_ns", fig->elapsed_ns);
		atio_json_object_end(&j);
	} else {
		atio_json_null(&j, "result");
	}
	atio_json_array_begin(&j, "phases");
	for (unsigned i = 0; i < r->nrec; i++)
		json_phase(&j, &r->rec[i], r->opts->threads, &r->rec[i] == r->interrupted);
	atio_json_array_end(&j);
	atio_json_object_end(&j);
	fputc('\n', f);
}
