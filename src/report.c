/* SPDX-License-Identifier: MIT */
/*
 * Rendering of settings and results, as text and as JSON.
 *
 * Both renderers read the same struct atio_result and compute every derived
 * figure (MB/s, IOPS, percentiles) through the same helpers, so the text and
 * the JSON of one run cannot disagree. Everything goes to the FILE the
 * caller gives; nothing here prints to stderr or exits.
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
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atio/expand.h"
#include "atio/interval.h"
#include "atio/check_report.h"
#include "atio/json.h"
#include "atio/report.h"
#include "atio/sysinfo.h"
#include "atio/units.h"

#define NS_PER_SEC 1000000000.0

/* Nanoseconds to seconds as a double. */
static double ns_to_sec(uint64_t ns)
{
	return (double)ns / NS_PER_SEC;
}

/* @n events over @ns nanoseconds, per second; 0 when no time ran. */
static double per_sec(uint64_t n, uint64_t ns)
{
	return ns ? (double)n / ns_to_sec(ns) : 0.0;
}

/* Bytes over @ns nanoseconds in MB/s (2^20 bytes); 0 when no time ran. */
static double mb_per_sec(uint64_t bytes, uint64_t ns)
{
	return atio_mib(per_sec(bytes, ns));
}

static bool sync_mode(enum atio_mode m)
{
	return m == ATIO_MODE_FSYNC || m == ATIO_MODE_FDATASYNC;
}

/*
 * The reported value. In the sync modes with --iops the figure users want
 * is how many syncs the storage completed per second (the write count
 * would only be -q times that), hence "sync/s"; otherwise operations or
 * MiB per second. A run of zero length reports 0 rather than NaN.
 */
double atio_result_value(const struct atio_result *r)
{
	const struct atio_opts *o = r->opts;

	if (r->elapsed_ns == 0)
		return 0.0;
	if (o->unit == ATIO_UNIT_MBS)
		return mb_per_sec(r->total.bytes, r->elapsed_ns);
	if (sync_mode(o->mode))
		return per_sec(r->total.syncs, r->elapsed_ns);
	return per_sec(r->total.ops, r->elapsed_ns);
}

/* --rate: the share of the cap the run reached (1 = all of it), 0 without a cap. */
static double reached(const struct atio_result *r)
{
	return r->opts->rate > 0 ? atio_result_value(r) / r->opts->rate : 0.0;
}

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

/* See report.h: a user-supplied string, kept on its line and off grep rate. */
void atio_report_put_text(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (strncmp(p, "rate", 4) == 0) {
			fputs("r\\x61", f);
			p++;            /* the loop's p++ then skips the 'a' */
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\x%02x", c);
		} else {
			putc(c, f);
		}
	}
}

/* The engine to name: the one that ran, else the one asked for. */
static const char *engine_name(const struct atio_opts *o, const char *engine)
{
	if (engine)
		return engine;
	return o->engine ? o->engine : "(none)";
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
	if (o->open_sync)
		fprintf(f, "Open: %s: each write is durable when it returns\n",
			atio_open_sync_flag(o->open_sync));
	if (o->total_auto)
		fprintf(f, "Size: %.2f MB (auto: twice MemTotal, %.2f MB)\n",
			atio_mib(o->total), atio_mib(o->node_mem_total));
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
void atio_report_header(FILE *f, const struct atio_opts *o, const char *version,
			const char *engine)
{
	char cmd[256], t[32], w[32], kb[32], op[64];

	atio_cli_cmdline(cmd, sizeof(cmd), o);
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
	fprintf(f, "Time: %s sec\n", t);
	fprintf(f, "Warmup: %s sec\n", w);

	if (o->bs % 1024 == 0)
		snprintf(kb, sizeof(kb), "%" PRIu64, o->bs / 1024);
	else
		format_trimmed(kb, sizeof(kb), (double)o->bs / 1024.0);
	format_op(op, sizeof(op), o);
	fprintf(f, "Testcase: create/open %u file(s) of total size %.2f MB named ",
		o->nfiles, atio_mib(o->total));
	atio_report_put_text(f, o->path ? o->path : "(none)");
	if (o->mode == ATIO_MODE_EXPAND)
		put_expand_testcase(f, o, kb);
	else
		fprintf(f, ", start %u thread(s) and do %s %s %s by %sKB blocks\n",
			o->threads, o->direct ? "uncached" : "cached",
			o->random ? "random" : "sequential", op, kb);

	fputs("Engine: ", f);
	atio_report_put_text(f, engine_name(o, engine));
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
	header_extras(f, o);
	if (o->rate > 0)
		put_cap_header(f, o);
}

/*
 * Name of the signal that ended the run. Only the signals atio handles get
 * names; anything else is "signal N", which needs no libc table and reads
 * the same on every system.
 */
static const char *signal_name(int signo, char *buf, size_t len)
{
	switch (signo) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	default:
		snprintf(buf, len, "signal %d", signo);
		return buf;
	}
}

/*
 * One latency line: "NAME (usec): min A, mean B, p50 ..., max G", or
 * "NAME (usec): none" when nothing completed. Percentiles are the
 * histogram's (within 0.39% of the true value); min, max and mean are
 * exact.
 */
static void put_latency(FILE *f, const char *name, const struct atio_hist *h)
{
	if (h->count == 0) {
		fprintf(f, "%s (usec): none\n", name);
		return;
	}
	fprintf(f, "%s (usec): min %.2f, mean %.2f, p50 %.2f, p90 %.2f, p99 %.2f, p99.9 %.2f, max %.2f\n",
		name, (double)h->min / 1000.0, atio_hist_mean(h) / 1000.0,
		(double)atio_hist_percentile(h, 50.0) / 1000.0,
		(double)atio_hist_percentile(h, 90.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.9) / 1000.0,
		(double)h->max / 1000.0);
}

/*
 * A thread's own elapsed time, or the run's when the thread recorded none,
 * so that a per-thread figure is never divided by zero needlessly.
 */
static uint64_t thread_ns(const struct atio_result *r, const struct atio_stats *s)
{
	return s->elapsed_ns ? s->elapsed_ns : r->elapsed_ns;
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
	char t_sec[32], sig[32];

	if (r->nothing_measured) {
		fprintf(f, "interrupted: by %s before the measured time began; nothing was "
			"measured\n", signal_name(r->signo, sig, sizeof(sig)));
		fprintf(f, "seed: %" PRIu64 "\n", o->seed);
		return;
	}
	fprintf(f, "time: %f sec; rate: { %.5f } %s;\n", ns_to_sec(r->elapsed_ns),
		atio_result_value(r), atio_unit_name(o));
	/* --mix: the value above counts both; each direction below it. */
	for (unsigned i = 0; r->dir && i < ATIO_DIRS; i++)
		atio_report_dir_text(f, atio_dir_name(i), &r->dir[i], t->ops,
				     per_sec(r->dir[i].ops, r->elapsed_ns),
				     mb_per_sec(r->dir[i].bytes, r->elapsed_ns));

	if (r->interrupted) {
		atio_format_time(t_sec, sizeof(t_sec), o->time_ns);
		fputs("interrupted: ", f);
		if (r->signo)
			fprintf(f, "by %s ", signal_name(r->signo, sig, sizeof(sig)));
		fprintf(f, "after %.3f of %s sec; the figures cover the time run\n",
			ns_to_sec(r->elapsed_ns), t_sec);
	}

	if (o->rate > 0) {
		char run[32], thread[32];

		format_amount(run, sizeof(run), o->rate);
		format_amount(thread, sizeof(thread), o->rate / o->threads);
		fprintf(f, "cap: %s %s per run, %s per thread; reached %.1f%%%s\n", run,
			atio_unit_name(o), thread, reached(r) * 100.0,
			reached(r) < BEHIND ? ": the storage fell behind" : "");
		put_latency(f, "latency from intended start", &t->lat);
		put_latency(f, "service", &t->service);
	} else {
		put_latency(f, "latency", &t->lat);
	}
	if (t->syncs > 0)
		put_latency(f, "sync latency", &t->sync_lat);
	if (r->timeline)
		atio_ival_text(f, r->timeline, atio_unit_name(o));
	if (r->readback)
		atio_check_report_readback_text(f, r->readback);
	else if (o->verify)
		fprintf(f, "verify: every block read checked against its stamps: %.2f MiB, "
			"none bad\n", atio_mib(t->bytes));
	fprintf(f, "cpu (sec): user %.3f, system %.3f\n",
		ns_to_sec(t->cpu_user_ns), ns_to_sec(t->cpu_sys_ns));
	fprintf(f, "io: %" PRIu64 " %s, %" PRIu64 " bytes (%.2f MiB), %" PRIu64 " syncs\n",
		t->ops, o->mode == ATIO_MODE_READ ? "reads" : o->mode == ATIO_MODE_MIX ? "ops" : "writes",
		t->bytes, atio_mib(t->bytes), t->syncs);
	if (o->mode == ATIO_MODE_EXPAND)
		fprintf(f, "expand: %" PRIu64 " truncations to zero of files full at %.2f MiB\n",
			t->truncations, atio_mib(atio_expand_max_size(o)));
	fprintf(f, "seed: %" PRIu64 "\n", o->seed);

	if (o->verbose < 1 || !r->threads)
		return;
	for (unsigned i = 0; i < r->nthreads; i++) {
		const struct atio_stats *s = &r->threads[i];
		uint64_t ns = thread_ns(r, s);

		fprintf(f, "thread %u: %" PRIu64 " ops, %.2f MB/s, %.2f IOPS, %" PRIu64
			" syncs, p99 %.2f usec, elapsed %.3f sec\n",
			i, s->ops, mb_per_sec(s->bytes, ns), per_sec(s->ops, ns), s->syncs,
			(double)atio_hist_percentile(&s->lat, 99.0) / 1000.0, ns_to_sec(ns));
	}
}

/*
 * The settings of durable writes, sizing by the node and --prepare:
 * "open_sync" is "dsync", "osync" or null; "threads_auto" and
 * "total_size_auto" say whether -p and -u were auto, and "node_cpus" and
 * "node_mem_total" (bytes) what they were taken from (null when not auto).
 */
static void json_settings_extras(struct atio_json *j, const struct atio_opts *o)
{
	if (o->open_sync)
		atio_json_string(j, "open_sync", o->open_sync == ATIO_OPEN_DSYNC ? "dsync" : "osync");
	else
		atio_json_null(j, "open_sync");
	atio_json_bool(j, "threads_auto", o->threads_auto);
	if (o->threads_auto)
		atio_json_uint(j, "node_cpus", o->node_cpus);
	else
		atio_json_null(j, "node_cpus");
	atio_json_bool(j, "total_size_auto", o->total_auto);
	if (o->total_auto)
		atio_json_uint(j, "node_mem_total", o->node_mem_total);
	else
		atio_json_null(j, "node_mem_total");
	atio_json_bool(j, "prepare", o->prepare);
}

/*
 * The "settings" object, shared by the -a --json document and the result
 * document. The command line carries "-a " in front under -a, as the text
 * header does. sync_every is written in every mode so that the object has
 * one shape; it only means something with --fsync/--fdatasync.
 */
static void json_settings(struct atio_json *j, const struct atio_opts *o, const char *engine)
{
	char cmd[256], seed[24];

	atio_json_object_begin(j, "settings");
	atio_cli_cmdline(cmd, sizeof(cmd), o);
	atio_json_string(j, "cmdline", cmd);
	atio_json_string(j, "mode", atio_mode_name(o->mode));
	atio_json_string(j, "pattern", o->random ? "rand" : "seq");
	atio_json_bool(j, "cached", !o->direct);
	atio_json_uint(j, "block_size", o->bs);
	atio_json_uint(j, "threads", o->threads);
	atio_json_uint(j, "files", o->nfiles);
	atio_json_double(j, "time_sec", ns_to_sec(o->time_ns));
	atio_json_double(j, "warmup_sec", ns_to_sec(o->warmup_ns));
	atio_json_uint(j, "total_size", o->total);
	atio_json_uint(j, "sync_every", o->qsync);
	atio_json_bool(j, "skip_final_sync", o->skip_sync);
	atio_json_string(j, "path", o->path);
	atio_json_string(j, "engine", engine_name(o, engine));
	atio_json_uint(j, "iodepth", o->iodepth);
	atio_json_uint(j, "iodepth_batch", o->iodepth_batch);
	atio_json_bool(j, "thp", o->thp);
	/* Write pools: null in modes that do not write; repeat null when nothing repeats. */
	if (o->pool_cover) {
		atio_json_uint(j, "pool_bytes", o->pool_cover);
		atio_json_uint(j, "pool_share_bytes", o->pool_share);
	} else {
		atio_json_null(j, "pool_bytes");
		atio_json_null(j, "pool_share_bytes");
	}
	if (o->pool_cover && o->pool_cover < o->pool_share)
		atio_json_uint(j, "data_repeats_every", o->pool_cover);
	else
		atio_json_null(j, "data_repeats_every");
	atio_json_uint(j, "seed", o->seed);
	/* The same as a string: a parser that reads numbers as doubles keeps it whole. */
	snprintf(seed, sizeof(seed), "%" PRIu64, o->seed);
	atio_json_string(j, "seed_string", seed);
	atio_json_bool(j, "keep_cache", o->keep_cache);
	atio_json_bool(j, "remove", o->remove);
	if (o->fstype)
		atio_json_string(j, "filesystem", o->fstype);
	else
		atio_json_null(j, "filesystem");
	/* --mix: the read percentage; null in the other modes. */
	if (o->mode == ATIO_MODE_MIX)
		atio_json_uint(j, "mix", o->mix);
	else
		atio_json_null(j, "mix");
	json_settings_extras(j, o);
	if (o->rate > 0) {
		atio_json_object_begin(j, "rate");
		atio_json_double(j, "value", o->rate);
		atio_json_string(j, "unit", atio_unit_name(o));
		atio_json_double(j, "per_thread", o->rate / o->threads);
		atio_json_double(j, "interval_ns", o->rate_interval_ns);
		atio_json_object_end(j);
	}
	atio_json_bool(j, "verify", o->verify);
	atio_json_double(j, "interval_sec", ns_to_sec(o->interval_ns));
	/* --expand: files grow from zero to expand_max_size, then start again. */
	atio_json_bool(j, "expand", o->mode == ATIO_MODE_EXPAND);
	if (o->mode == ATIO_MODE_EXPAND)
		atio_json_uint(j, "expand_max_size", atio_expand_max_size(o));
	else
		atio_json_null(j, "expand_max_size");
	atio_json_object_end(j);
}

/* {"version": ...}: which atio produced the document. */
static void json_atio(struct atio_json *j, const char *version)
{
	atio_json_object_begin(j, "atio");
	atio_json_string(j, "version", version);
	atio_json_object_end(j);
}

/*
 * The settings of -a --json: the same "atio" and "settings" objects the
 * result document starts with, so one parser reads both.
 */
void atio_report_settings_json(FILE *f, const struct atio_opts *o, const char *version,
			       const char *engine)
{
	struct atio_json j;

	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	json_atio(&j, version);
	json_settings(&j, o, engine);
	atio_json_object_end(&j);
}

/*
 * A histogram in nanoseconds: count, exact min/mean/max, the percentiles
 * as atio_hist_percentile() gives them, and, when @buckets, every non-empty
 * bucket as [index, lowest value, count].
 *
 * The buckets are what makes results mergeable: the bucket index of a value
 * depends on the value alone (and on sub_bits, written alongside), so adding
 * the counts of equal indices across threads, runs or hosts yields exactly
 * the histogram a single recorder of all those values would have held, and
 * its percentiles are the true cluster-wide percentiles, not an average of
 * per-host ones. "low" is redundant with the index but lets a reader that
 * does not know the index formula still place each bucket.
 *
 * An empty histogram writes count 0, zeros for every figure (its min is
 * UINT64_MAX internally) and an empty bucket list.
 */
static void json_hist(struct atio_json *j, const char *key, const struct atio_hist *h,
		      bool buckets)
{
	bool empty = h->count == 0;

	atio_json_object_begin(j, key);
	atio_json_uint(j, "count", h->count);
	atio_json_uint(j, "min", empty ? 0 : h->min);
	atio_json_double(j, "mean", empty ? 0.0 : atio_hist_mean(h));
	atio_json_uint(j, "p50", empty ? 0 : atio_hist_percentile(h, 50.0));
	atio_json_uint(j, "p90", empty ? 0 : atio_hist_percentile(h, 90.0));
	atio_json_uint(j, "p99", empty ? 0 : atio_hist_percentile(h, 99.0));
	atio_json_uint(j, "p99.9", empty ? 0 : atio_hist_percentile(h, 99.9));
	atio_json_uint(j, "max", empty ? 0 : h->max);
	atio_json_uint(j, "sub_bits", ATIO_HIST_SUB_BITS);
	if (buckets) {
		atio_json_array_begin(j, "buckets");
		for (unsigned i = 0; i < ATIO_HIST_BUCKETS && !empty; i++) {
			if (!h->bucket[i])
				continue;
			atio_json_array_begin(j, NULL);
			atio_json_uint(j, NULL, i);
			atio_json_uint(j, NULL, atio_hist_bucket_low(i));
			atio_json_uint(j, NULL, h->bucket[i]);
			atio_json_array_end(j);
		}
		atio_json_array_end(j);
	}
	atio_json_object_end(j);
}

/* A timespec that was never taken (e.g. the run failed before it began). */
static bool instant_unset(const struct timespec *ts)
{
	return ts->tv_sec == 0 && ts->tv_nsec == 0;
}

/*
 * A wall-clock instant as ISO 8601 UTC with microseconds,
 * "2026-11-21T20:55:07.123456Z": sortable as text and unambiguous across
 * the hosts of a cluster whatever their time zones. An unset instant is
 * null rather than 1970.
 */
static void json_iso(struct atio_json *j, const char *key, const struct timespec *ts)
{
	char buf[64];
	struct tm tm;
	size_t n;

	if (instant_unset(ts) || !gmtime_r(&ts->tv_sec, &tm)) {
		atio_json_null(j, key);
		return;
	}
	n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof(buf) - n, ".%06ldZ", (long)(ts->tv_nsec / 1000));
	atio_json_string(j, key, buf);
}

/*
 * The same instant as seconds since the epoch, for arithmetic. A double
 * holds today's epoch to about 0.2 microseconds.
 */
static void json_epoch(struct atio_json *j, const char *key, const struct timespec *ts)
{
	if (instant_unset(ts))
		atio_json_null(j, key);
	else
		atio_json_double(j, key, (double)ts->tv_sec + (double)ts->tv_nsec / NS_PER_SEC);
}

/* The "result" object: the reported value and the totals behind it. */
static void json_result(struct atio_json *j, const struct atio_result *r)
{
	const struct atio_stats *t = &r->total;

	atio_json_object_begin(j, "result");
	atio_json_double(j, "time_sec", ns_to_sec(r->elapsed_ns));
	atio_json_double(j, "value", atio_result_value(r));
	atio_json_string(j, "unit", atio_unit_name(r->opts));
	atio_json_double(j, "mbs", mb_per_sec(t->bytes, r->elapsed_ns));
	atio_json_double(j, "iops", per_sec(t->ops, r->elapsed_ns));
	atio_json_double(j, "syncs_per_sec", per_sec(t->syncs, r->elapsed_ns));
	atio_json_uint(j, "ops", t->ops);
	atio_json_uint(j, "bytes", t->bytes);
	atio_json_uint(j, "syncs", t->syncs);
	atio_json_double(j, "cpu_user_sec", ns_to_sec(t->cpu_user_ns));
	atio_json_double(j, "cpu_sys_sec", ns_to_sec(t->cpu_sys_ns));
	if (r->opts->rate > 0) {
		atio_json_double(j, "target", r->opts->rate);
		atio_json_double(j, "target_reached", reached(r));
	}
	atio_json_uint(j, "truncations", t->truncations);
	atio_json_object_end(j);
}

/*
 * One thread's figures. Its histogram goes without buckets: the merged
 * buckets are in the top-level "latency_ns", and per-thread buckets would
 * multiply the document's size by the thread count for no merge that the
 * total does not already allow.
 */
static void json_thread(struct atio_json *j, const struct atio_result *r, unsigned id)
{
	const struct atio_stats *s = &r->threads[id];
	uint64_t ns = thread_ns(r, s);

	atio_json_object_begin(j, NULL);
	atio_json_uint(j, "id", id);
	atio_json_uint(j, "ops", s->ops);
	atio_json_uint(j, "bytes", s->bytes);
	atio_json_uint(j, "syncs", s->syncs);
	atio_json_double(j, "elapsed_sec", ns_to_sec(ns));
	atio_json_double(j, "mbs", mb_per_sec(s->bytes, ns));
	atio_json_double(j, "iops", per_sec(s->ops, ns));
	atio_json_double(j, "cpu_user_sec", ns_to_sec(s->cpu_user_ns));
	atio_json_double(j, "cpu_sys_sec", ns_to_sec(s->cpu_sys_ns));
	atio_json_uint(j, "truncations", s->truncations);
	json_hist(j, "latency_ns", &s->lat, false);
	if (r->opts->rate > 0)
		json_hist(j, "service_latency_ns", &s->service, false);
	if (r->timeline)
		atio_ival_json(j, "intervals", r->thread_ivals[id], false);
	atio_json_object_end(j);
}

/*
 * The JSON result: one document with the settings, the wall-clock span,
 * whether and by what the run was interrupted, the totals, the merged
 * latency histograms with buckets, and each thread's figures.
 */
void atio_report_json(FILE *f, const struct atio_result *r)
{
	struct atio_json j;
	char sig[32];

	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	json_atio(&j, r->version);
	json_settings(&j, r->opts, r->engine);
	atio_sysinfo_json(&j, r->opts->path);
	json_iso(&j, "start", &r->wall_start);
	json_iso(&j, "end", &r->wall_end);
	json_epoch(&j, "start_epoch", &r->wall_start);
	json_epoch(&j, "end_epoch", &r->wall_end);
	atio_json_bool(&j, "interrupted", r->interrupted);
	if (r->signo)
		atio_json_string(&j, "signal", signal_name(r->signo, sig, sizeof(sig)));
	else
		atio_json_null(&j, "signal");
	atio_json_bool(&j, "measured", !r->nothing_measured);
	if (r->nothing_measured)
		atio_json_null(&j, "result");
	else
		json_result(&j, r);
	json_hist(&j, "latency_ns", &r->total.lat, true);
	json_hist(&j, "sync_latency_ns", &r->total.sync_lat, true);
	/* --mix: each direction beside the totals; null in the other modes. */
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		const char *key = atio_dir_name(i);

		if (r->dir && !r->nothing_measured)
			atio_report_dir_json(&j, key, &r->dir[i], r->total.ops,
					     per_sec(r->dir[i].ops, r->elapsed_ns),
					     mb_per_sec(r->dir[i].bytes, r->elapsed_ns), true);
		else
			atio_json_null(&j, key);
	}
	if (r->opts->rate > 0)
		json_hist(&j, "service_latency_ns", &r->total.service, true);
	/* --verify: what was checked; a run that read bad data has no result. */
	if (r->readback)
		atio_check_report_readback_json(&j, r->readback);
	else if (r->opts->verify && !r->nothing_measured) {
		atio_json_object_begin(&j, "verify");
		atio_json_bool(&j, "ok", true);
		atio_json_uint(&j, "bytes_checked", r->total.bytes);
		atio_json_object_end(&j);
	}
	if (r->timeline && !r->nothing_measured) {
		atio_ival_json(&j, "intervals", r->timeline, true);
		atio_ival_json_timeline(&j, r->timeline);
	}
	atio_json_array_begin(&j, "threads");
	for (unsigned i = 0; r->threads && !r->nothing_measured && i < r->nthreads; i++)
		json_thread(&j, r, i);
	atio_json_array_end(&j);
	atio_json_object_end(&j);
}

/* See report.h: json_hist() for report_mix.c. */
void atio_report_json_hist(struct atio_json *j, const char *key, const struct atio_hist *h,
			   bool buckets)
{
	json_hist(j, key, h, buckets);
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
			atio_mib(p->written), ns_to_sec(p->elapsed_ns),
			mb_per_sec(p->written, p->elapsed_ns));
	else if (p->truncated)
		fprintf(f, "prepare: nothing written: %u file(s) cut to size\n", p->truncated);
	else
		fputs("prepare: nothing written: the dataset was complete\n", f);
	fprintf(f, "files: %u of %.2f MiB at ", p->files, atio_mib(p->file_size));
	atio_report_put_text(f, p->opts->path ? p->opts->path : "(none)");
	fprintf(f, ": %u new, %u resumed, %u reused, %u truncated, %u taken over\n",
		p->created, p->resumed, p->reused, p->truncated, p->taken);
}

/*
 * --prepare --json: the "atio" and "settings" objects of every document,
 * then "prepare" with the same figures as the text; "mbs" is null when
 * nothing was written.
 */
void atio_report_prepare_json(FILE *f, const struct atio_prepare_result *p)
{
	struct atio_json j;

	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	json_atio(&j, p->version);
	json_settings(&j, p->opts, NULL);
	atio_json_object_begin(&j, "prepare");
	atio_json_uint(&j, "files", p->files);
	atio_json_uint(&j, "file_size", p->file_size);
	atio_json_uint(&j, "created", p->created);
	atio_json_uint(&j, "resumed", p->resumed);
	atio_json_uint(&j, "reused", p->reused);
	atio_json_uint(&j, "truncated", p->truncated);
	atio_json_uint(&j, "taken_over", p->taken);
	atio_json_uint(&j, "bytes_written", p->written);
	atio_json_double(&j, "time_sec", ns_to_sec(p->elapsed_ns));
	if (p->written)
		atio_json_double(&j, "mbs", mb_per_sec(p->written, p->elapsed_ns));
	else
		atio_json_null(&j, "mbs");
	atio_json_bool(&j, "complete_already", p->written == 0 && p->truncated == 0);
	atio_json_object_end(&j);
	atio_json_object_end(&j);
}
