/* SPDX-License-Identifier: MIT */
/*
 * The text report: the settings header, the result line and the lines
 * below it, and --prepare's lines. The figures it shares with the JSON
 * report (the reported value, per-second rates, the share of a --rate cap,
 * signal and engine names) are report_figures.c's, so the text and the
 * JSON of one run cannot disagree. Everything goes to the FILE the caller
 * gives; nothing here prints to stderr or exits.
 *
 * The text output keeps at_io_iops' shapes: scripts run
 * grep rate | awk '{print $6}', so the word "rate" is written on the result
 * line and nowhere else. The fixed texts below avoid it (also inside longer
 * words), and strings that come from the user (path, command line) go
 * through atio_report_put_text(), which breaks up any "rate" they contain and escapes
 * control characters, so a path can neither add a matching line nor start a
 * new line of its own.
 */
#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include "atio/print/bsmix.h"
#include "atio/print/check_report.h"
#include "atio/print/device_report.h"
#include "atio/run/expand.h"
#include "atio/stats/interval.h"
#include "atio/print/cpu.h"
#include "atio/print/pct.h"
#include "atio/print/report.h"
#include "atio/print/report_steady.h"
#include "atio/base/units.h"
#include "atio/print/report_figures.h"


/*
 * Below this share of the cap the storage is said to have fallen behind.
 * A run that keeps up reaches the cap to within the wake-up of its last
 * I/O; the final sync of a write run (inside the time unless -S) costs a
 * little more.
 */
#define BEHIND 0.99

/*
 * Write "%.3f" of @x into @buf and drop trailing zeros and a trailing
 * point: 60 -> "60", 1.5 -> "1.5", 0.25 -> "0.25". at_io_iops printed
 * whole seconds; this keeps that form for whole values and still shows
 * fractions down to a millisecond.
 */
static void format_trimmed(char *buf, size_t len, double x)
{
	char *end;

	snprintf(buf, len, "%.3f", x);
	if (!strchr(buf, '.'))
		return;
	end = buf + strlen(buf);
	while (end > buf && end[-1] == '0')
		*--end = '\0';
	if (end > buf && end[-1] == '.')
		*--end = '\0';
}

/*
 * The workload as the Testcase line words it: at_io_iops' "read" and
 * "write", and for the sync modes the write with its sync interval.
 */
static void format_op(char *buf, size_t len, const struct atio_opts *o)
{
	switch (o->mode) {
	case ATIO_MODE_READ:
		snprintf(buf, len, "read");
		break;
	case ATIO_MODE_WRITE:
		snprintf(buf, len, "write");
		break;
	case ATIO_MODE_FSYNC:
		snprintf(buf, len, "write+fsync every %u writes", o->qsync);
		break;
	case ATIO_MODE_FDATASYNC:
		snprintf(buf, len, "write+fdatasync every %u writes", o->qsync);
		break;
	case ATIO_MODE_MIX:
		snprintf(buf, len, "%u%% read / %u%% write", o->mix, 100 - o->mix);
		break;
	case ATIO_MODE_REWRITE:
		snprintf(buf, len, "rewrite (read each block, then write new data back in place)");
		break;
	default:
		snprintf(buf, len, "%s", atio_mode_name(o->mode));
		break;
	}
}

/* --expand: the end of the Testcase line, after the file names. */
static void put_expand_testcase(FILE *f, const struct atio_opts *o, const char *kb)
{
	fprintf(f, ", truncate them to zero, start %u thread(s) and append %s %sKB blocks "
		"to files that grow from zero to %.2f MB, each emptied again when full\n",
		o->threads, o->direct ? "uncached" : "cached", kb,
		atio_mib(atio_expand_max_size(o)));
}

/*
 * The header lines of durable writes and sizing by the node, each only
 * when it applies: how the files are opened, and where -u auto took the
 * total size from.
 */
static void header_extras(FILE *f, const struct atio_opts *o)
{
	char data[200];

	if (o->open_sync)
		fprintf(f, "Open: %s: each write is durable when it returns\n",
			atio_open_sync_flag(o->open_sync));
	if (o->total_auto)
		fprintf(f, "Size: %.2f MB (auto: twice MemTotal, %.2f MB)\n",
			atio_mib(o->total), atio_mib(o->node_mem_total));
	if (o->fadvise != ATIO_FADVISE_NONE)
		fprintf(f, "Fadvise: %s on each thread's share of the files\n",
			atio_fadvise_name(o->fadvise));
	if (atio_mode_writes(o->mode) && atio_opts_data_text(data, sizeof(data), o) > 0)
		fprintf(f, "Data: %s\n", data);
	if (atio_opts_reduced(o))
		return;
	if (o->pool_cover && o->pool_cover >= o->pool_share)
		fprintf(f, "Write pool: %.2f MiB of keystream a thread, covering its %.2f MiB: "
			"no data repeats in a thread's share\n",
			atio_mib(o->pool_cover), atio_mib(o->pool_share));
	else if (o->pool_cover)
		fprintf(f, "Write pool: %.2f MiB of keystream a thread, less than its %.2f MiB: "
			"data repeats every %.2f MiB of a thread's share (with other stamps)\n",
			atio_mib(o->pool_cover), atio_mib(o->pool_share), atio_mib(o->pool_cover));
}

/*
 * --rate's figures as text: whole numbers as they are, fractions to three
 * decimals, and what is smaller than that to three significant digits.
 */
static void format_amount(char *buf, size_t len, double x)
{
	if (x >= 1.0)
		format_trimmed(buf, len, x);
	else
		snprintf(buf, len, "%.3g", x);
}

/*
 * The header's "Cap:" line of --rate: the cap of the run and of a thread,
 * in the unit of the result, and the interval between two intended starts
 * of one thread.
 */
static void put_cap_header(FILE *f, const struct atio_opts *o)
{
	char run[32], thread[32], every[32];

	format_amount(run, sizeof(run), o->rate);
	format_amount(thread, sizeof(thread), o->rate / o->threads);
	format_amount(every, sizeof(every), o->rate_interval_ns / 1000.0);
	fprintf(f, "Cap: %s %s per run, %s per thread, an I/O every %s usec per thread on a "
		"fixed schedule; latency from each I/O's intended start\n",
		run, atio_unit_name(o), thread, every);
}

/*
 * The at_io_iops header, line for line as at_io_iops printed it (with
 * "atio" as the title), then atio's Engine, Buffers, Seed and Filesystem
 * lines. The block size
 * is in KB as at_io_iops had it; a size that is not a whole number of KiB
 * (512 bytes, say) shows its fraction rather than rounding down to 0KB.
 */
/* --dist in words, for the Testcase line: "" without it. */
static void format_dist(char *buf, size_t len, const struct atio_opts *o)
{
	const struct atio_dist_spec *d = &o->dist;

	*buf = 0;
	if (!o->random || !o->dist_text)
		return;
	if (d->kind == ATIO_DIST_ZIPF)
		snprintf(buf, len, ", zipf with theta %g over a permutation of the blocks",
			 d->arg);
	else if (d->kind == ATIO_DIST_PARETO)
		snprintf(buf, len, ", pareto with h %g (%g%% of the I/Os to %g%% of the blocks) "
			 "over a permutation of the blocks", d->arg, 100.0 * d->arg,
			 100.0 - 100.0 * d->arg);
	else if (d->kind == ATIO_DIST_NORMAL)
		snprintf(buf, len, ", normal around the middle of each share with a "
			 "deviation of %g%% of it", d->arg);
	else if (d->kind == ATIO_DIST_ZONES)
		snprintf(buf, len, ", in hot spots %s (%%I/Os/%%share from each share's start)",
			 o->dist_text);
}

void atio_report_header(FILE *f, const struct atio_opts *o, const char *version,
			const char *engine)
{
	char cmd[ATIO_CMDLINE_MAX], t[32], w[32], kb[ATIO_BSMIX_WORDS], op[64], sz[24], stride[48] = "",
	     dist[ATIO_DIST_MAX_TEXT + 80];

	atio_opts_cmdline(cmd, sizeof(cmd), o);
	fputs("Title: atio\nCmdline: ", f);
	atio_report_put_text(f, cmd);
	putc('\n', f);

	fputs("Version: ", f);
	atio_report_put_text(f, version ? version : "unknown");
	putc('\n', f);
	fprintf(f, "Processes: %u%s\n", o->threads,
		o->threads_auto ? " (auto: the CPUs atio may run on)" : "");

	atio_format_time(t, sizeof(t), o->time_ns);
	atio_format_time(w, sizeof(w), o->warmup_ns);
	if (o->time_ns)
		fprintf(f, "Time: %s sec\n", t);
	else
		fputs("Time: no limit (--size or --loops ends the run)\n", f);
	if (o->steady)
		fputs("Warmup: until steady (below)\n", f);
	else
		fprintf(f, "Warmup: %s sec\n", w);

	if (o->bs_text)
		atio_bsmix_words(kb, sizeof(kb), o);
	else if (o->bs % 1024 == 0)
		snprintf(kb, sizeof(kb), "%" PRIu64, o->bs / 1024);
	else
		format_trimmed(kb, sizeof(kb), (double)o->bs / 1024.0);
	format_op(op, sizeof(op), o);
	format_dist(dist, sizeof(dist), o);
	if (o->stride) {
		atio_format_size(sz, sizeof(sz), o->stride);
		snprintf(stride, sizeof(stride), " with a stride of %s", sz);
	}
	fprintf(f, "Testcase: create/open %u file(s) of total size %.2f MB named ",
		o->nfiles, atio_mib(o->total));
	atio_report_put_text(f, o->path ? o->path : "(none)");
	if (o->mode == ATIO_MODE_EXPAND)
		put_expand_testcase(f, o, kb);
	else
		fprintf(f, ", start %u thread(s) and do %s %s%s %s by %s%s%s%s\n",
			o->threads, o->direct ? "uncached" : "cached",
			o->backward ? "backward " : "", o->random ? "random" : "sequential", op,
			kb, o->bs_text ? "" : "KB blocks", stride, dist);

	fputs("Engine: ", f);
	atio_report_put_text(f, atio_report_engine_name(o, engine));
	fprintf(f, ", iodepth %u", o->iodepth);
	if (o->iodepth > 1)
		fprintf(f, ", batch %u%s", o->iodepth_batch, o->iodepth_batch_auto ? " (auto)" : "");
	fputc('\n', f);
	fprintf(f, "Buffers: %s\n",
		o->thp ? "transparent huge pages where 2M or more" : "base pages");
	fprintf(f, "Seed: %" PRIu64 "\n", o->seed);
	fputs("Filesystem: ", f);
	atio_report_put_text(f, o->fstype ? o->fstype : "unknown");
	putc('\n', f);
	atio_device_report_header(f, o->path);
	header_extras(f, o);
	fputs("Units: MB/s is 2^20 bytes a second (MiB/s), as at_io_iops counts it; "
	      "latency in usec\n", f);
	atio_report_limits_header(f, o);
	if (o->rate > 0)
		put_cap_header(f, o);
	atio_report_steady_header(f, o);
}

/*
 * One latency line: "NAME (usec): min A, mean B, p50 ..., max G, stdev S"
 * (the points of --percentiles), or "NAME (usec): none" when nothing
 * completed. Percentiles are the histogram's (within 0.39% of the true
 * value); min, max and mean are exact.
 */
static void put_latency(FILE *f, const char *name, const struct atio_hist *h,
			const struct atio_opts *o)
{
	if (h->count == 0) {
		fprintf(f, "%s (usec): none\n", name);
		return;
	}
	fprintf(f, "%s (usec): ", name);
	atio_pct_text(f, h, o);
	putc('\n', f);
}

/* See report.h. */
void atio_report_result_line(FILE *f, uint64_t elapsed_ns, const char *word, double value,
			     const char *unit)
{
	fprintf(f, "time: %f sec; %s: { %.5f } %s;\n", atio_report_sec(elapsed_ns), word, value,
		unit);
}

/*
 * The text result: the at_io_iops result line first and exactly in its
 * format, then what at_io_iops never showed (interruption, latency, CPU,
 * counts, seed), and with -v one line per thread. The per-thread MB/s and
 * IOPS are over each thread's own elapsed time.
 */
void atio_report_text(FILE *f, const struct atio_result *r)
{
	const struct atio_opts *o = r->opts;
	const struct atio_stats *t = &r->total;
	char t_sec[32], sig[32], mib[24];

	if (r->nothing_measured) {
		fprintf(f, "interrupted: by %s before the measured time began; nothing was "
			"measured\n", atio_report_signal_name(r->signo, sig, sizeof(sig)));
		fprintf(f, "seed: %" PRIu64 "\n", o->seed);
		return;
	}
	atio_report_result_line(f, r->elapsed_ns, r->in_jobs ? "value" : "rate",
				atio_result_value(r), atio_unit_name(o));
	/* --mix: the value above counts both; each direction below it. */
	for (unsigned i = 0; r->dir && i < ATIO_DIRS; i++)
		atio_report_dir_text(f, atio_dir_name(i), &r->dir[i], t->ops,
				     atio_report_per_sec(r->dir[i].ops, r->elapsed_ns),
				     atio_report_mb_per_sec(r->dir[i].bytes, r->elapsed_ns), o);

	if (r->interrupted) {
		atio_format_time(t_sec, sizeof(t_sec), o->time_ns);
		fputs("interrupted: ", f);
		if (r->signo)
			fprintf(f, "by %s ", atio_report_signal_name(r->signo, sig, sizeof(sig)));
		if (r->in_final_sync)
			fprintf(f, "in the final sync, after the %s sec of I/O (%.3f sec with "
				"the sync); the figures cover the time run\n", t_sec,
				atio_report_sec(r->elapsed_ns));
		else if (o->time_ns)
			fprintf(f, "after %.3f of %s sec; the figures cover the time run\n",
				atio_report_sec(r->elapsed_ns), t_sec);
		else
			fprintf(f, "after %.3f sec; the figures cover the time run\n",
				atio_report_sec(r->elapsed_ns));
	}
	atio_report_passes_text(f, r);

	if (o->rate > 0) {
		char run[32], thread[32];

		format_amount(run, sizeof(run), o->rate);
		format_amount(thread, sizeof(thread), o->rate / o->threads);
		fprintf(f, "cap: %s %s per run, %s per thread; reached %.1f%%%s\n", run,
			atio_unit_name(o), thread, atio_report_reached(r) * 100.0,
			atio_report_reached(r) < BEHIND ? ": the storage fell behind" : "");
		put_latency(f, "latency from intended start", &t->lat, o);
		put_latency(f, "service", &t->service, o);
	} else {
		put_latency(f, "latency", &t->lat, o);
	}
	if (t->syncs > 0)
		put_latency(f, "sync latency", &t->sync_lat, o);
	/* -v: how the latencies spread, as fio's lat (usec) lines. */
	if (o->verbose >= 1) {
		atio_pct_dist_text(f, "latency", &t->lat);
		for (unsigned i = 0; r->dir && i < ATIO_DIRS; i++) {
			char name[32];

			snprintf(name, sizeof(name), "%s latency", atio_dir_name(i));
			atio_pct_dist_text(f, name, &r->dir[i].lat);
		}
		if (t->syncs > 0)
			atio_pct_dist_text(f, "sync latency", &t->sync_lat);
	}
	if (r->timeline)
		atio_ival_text(f, r->timeline, atio_unit_name(o));
	atio_report_steady_text(f, r);
	if (r->readback)
		atio_check_report_readback_text(f, r->readback);
	else if (o->verify)
		fprintf(f, "verify: every block read checked against its stamps: %.2f MiB, "
			"none bad\n", atio_mib(t->bytes));
	atio_cpu_text(f, t, r->elapsed_ns);
	atio_format_mib(mib, sizeof(mib), t->bytes);
	fprintf(f, "io: %" PRIu64 " %s, %" PRIu64 " bytes (%s, %.2f MB), %" PRIu64 " syncs\n",
		t->ops, o->mode == ATIO_MODE_READ ? "reads" : atio_mode_two_way(o->mode) ? "ops" : "writes",
		t->bytes, mib, (double)t->bytes / 1e6, t->syncs);
	if (o->mode == ATIO_MODE_EXPAND)
		fprintf(f, "expand: %" PRIu64 " truncations to zero of files full at %.2f MiB\n",
			t->truncations, atio_mib(atio_expand_max_size(o)));
	atio_device_report_text(f, r->device);
	fprintf(f, "seed: %" PRIu64 "\n", o->seed);

	if (o->verbose < 1 || !r->threads)
		return;
	for (unsigned i = 0; i < r->nthreads; i++) {
		const struct atio_stats *s = &r->threads[i];
		uint64_t ns = atio_report_thread_ns(r, s);

		fprintf(f, "thread %u: %" PRIu64 " ops, %.2f MB/s, %.2f IOPS, %" PRIu64
			" syncs, p99 %.2f usec, elapsed %.3f sec\n",
			i, s->ops, atio_report_mb_per_sec(s->bytes, ns), atio_report_per_sec(s->ops, ns),
			s->syncs, (double)atio_hist_percentile(&s->lat, 99.0) / 1000.0,
			atio_report_sec(ns));
		/* --mix: the thread's reads and writes apart, over its time. */
		for (unsigned d = 0; r->thread_dir && d < ATIO_DIRS; d++) {
			const struct atio_dir_stats *ds = &r->thread_dir[i][d];

			fprintf(f, "thread %u %s: %" PRIu64 " ops, %.2f MB/s, %.2f IOPS, p99 %.2f "
				"usec\n", i, atio_dir_name(d), ds->ops,
				atio_report_mb_per_sec(ds->bytes, ns), atio_report_per_sec(ds->ops, ns),
				(double)atio_hist_percentile(&ds->lat, 99.0) / 1000.0);
		}
	}
}

/*
 * --prepare's text: one "prepare:" line with what the fill wrote, its time
 * and MB/s (2^20 bytes a second), or that the dataset was complete and
 * nothing was written; then a "files:" line with what the survey found.
 */
void atio_report_prepare_text(FILE *f, const struct atio_prepare_result *p)
{
	if (p->written)
		fprintf(f, "prepare: %.2f MiB written in %.3f sec; %.2f MB/s\n",
			atio_mib(p->written), atio_report_sec(p->elapsed_ns),
			atio_report_mb_per_sec(p->written, p->elapsed_ns));
	else if (p->truncated)
		fprintf(f, "prepare: nothing written: %u file(s) cut to size\n", p->truncated);
	else
		fputs("prepare: nothing written: the dataset was complete\n", f);
	fprintf(f, "files: %u of %.2f MiB at ", p->files, atio_mib(p->file_size));
	atio_report_put_text(f, p->opts->path ? p->opts->path : "(none)");
	fprintf(f, ": %u new, %u resumed, %u reused, %u truncated, %u taken over\n",
		p->created, p->resumed, p->reused, p->truncated, p->taken);
}
