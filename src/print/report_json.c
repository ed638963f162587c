/* SPDX-License-Identifier: MIT */
/*
 * The JSON report: the "atio" and "settings" objects every document starts
 * with (alone for -a --json), the result document with its totals, merged
 * histograms and buckets, wall-clock span and each thread's figures, and
 * --prepare's document. Every derived figure comes from the helpers of
 * report_figures.h, the ones the text report uses, so the two cannot
 * disagree. Everything goes to the FILE the caller gives; nothing here
 * prints to stderr or exits.
 */
#include <inttypes.h>
#include <time.h>

#include "atio/print/bsmix.h"
#include "atio/print/check_report.h"
#include "atio/print/device_report.h"
#include "atio/run/expand.h"
#include "atio/stats/interval.h"
#include "atio/base/json.h"
#include "atio/print/cpu.h"
#include "atio/print/pct.h"
#include "atio/print/report.h"
#include "atio/print/report_steady.h"
#include "atio/base/sysinfo.h"
#include "atio/print/report_figures.h"

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
	atio_json_string(j, "fadvise", atio_fadvise_name(o->fadvise));
}

/*
 * The "settings" object, shared by the -a --json document and the result
 * document. The command line carries "-a " in front under -a, as the text
 * header does. sync_every is written in every mode so that the object has
 * one shape; it only means something with --fsync/--fdatasync.
 */
static void json_settings(struct atio_json *j, const struct atio_opts *o, const char *engine)
{
	char cmd[ATIO_CMDLINE_MAX], seed[24];

	atio_json_object_begin(j, "settings");
	atio_opts_cmdline(cmd, sizeof(cmd), o);
	atio_json_string(j, "cmdline", cmd);
	atio_pct_settings_json(j, o);
	atio_json_string(j, "mode", atio_mode_name(o->mode));
	atio_json_string(j, "pattern", o->random ? "rand" : "seq");
	atio_json_string(j, "distribution", !o->random ? "none"
			 : o->dist_text ? o->dist_text : "uniform");
	atio_json_bool(j, "backward", o->backward);
	atio_json_uint(j, "stride", o->stride ? o->stride : o->random ? 0 : o->bs);
	atio_json_bool(j, "cached", !o->direct);
	atio_json_uint(j, "block_size", o->bs);
	atio_bsmix_json(j, o);
	atio_json_uint(j, "threads", o->threads);
	atio_json_uint(j, "files", o->nfiles);
	/* --size, --loops: a time limit only when -t was given; null without one. */
	if (o->time_ns)
		atio_json_double(j, "time_sec", atio_report_sec(o->time_ns));
	else
		atio_json_null(j, "time_sec");
	if (o->size)
		atio_json_uint(j, "size", o->size);
	else
		atio_json_null(j, "size");
	if (o->loops)
		atio_json_uint(j, "loops", o->loops);
	else
		atio_json_null(j, "loops");
	atio_json_double(j, "warmup_sec", atio_report_sec(o->warmup_ns));
	atio_json_double(j, "delay_sec", atio_report_sec(o->delay_ns));
	atio_json_uint(j, "total_size", o->total);
	atio_json_uint(j, "sync_every", o->qsync);
	atio_json_bool(j, "skip_final_sync", o->skip_sync);
	atio_json_string(j, "path", o->path);
	atio_json_string(j, "engine", atio_report_engine_name(o, engine));
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
	/* The data written: ratios of 1 for incompressible and unique (atio/data/reduce.h). */
	atio_json_double(j, "compress_ratio", o->compress > 1.0 ? o->compress : 1.0);
	atio_json_double(j, "dedup_ratio", o->dedup > 1.0 ? o->dedup : 1.0);
	if (o->dedup > 1.0)
		atio_json_uint(j, "dedup_unit", o->dedup_unit);
	else
		atio_json_null(j, "dedup_unit");
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
		atio_json_string(j, "arrivals", o->arrivals_exponential ? "exponential" : "uniform");
		atio_json_object_end(j);
	}
	atio_json_bool(j, "verify", o->verify);
	atio_json_double(j, "interval_sec", atio_report_sec(o->interval_ns));
	atio_report_steady_settings_json(j, o);
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
		atio_json_double(j, key, (double)ts->tv_sec + atio_report_sec((uint64_t)ts->tv_nsec));
}

/* The "result" object: the reported value and the totals behind it. */
static void json_result(struct atio_json *j, const struct atio_result *r)
{
	const struct atio_stats *t = &r->total;

	atio_json_object_begin(j, "result");
	atio_json_double(j, "time_sec", atio_report_sec(r->elapsed_ns));
	atio_json_double(j, "value", atio_result_value(r));
	atio_json_string(j, "unit", atio_unit_name(r->opts));
	atio_json_double(j, "mbs", atio_report_mb_per_sec(t->bytes, r->elapsed_ns));
	atio_json_double(j, "bytes_per_sec", atio_report_per_sec(t->bytes, r->elapsed_ns));
	atio_json_double(j, "iops", atio_report_per_sec(t->ops, r->elapsed_ns));
	atio_json_double(j, "syncs_per_sec", atio_report_per_sec(t->syncs, r->elapsed_ns));
	atio_json_uint(j, "ops", t->ops);
	atio_json_uint(j, "bytes", t->bytes);
	atio_json_uint(j, "syncs", t->syncs);
	atio_cpu_json(j, t, r->elapsed_ns);
	if (r->opts->rate > 0) {
		atio_json_double(j, "target", r->opts->rate);
		atio_json_double(j, "target_reached", atio_report_reached(r));
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
	uint64_t ns = atio_report_thread_ns(r, s);

	atio_json_object_begin(j, NULL);
	atio_json_uint(j, "id", id);
	atio_json_uint(j, "ops", s->ops);
	atio_json_uint(j, "bytes", s->bytes);
	atio_json_uint(j, "syncs", s->syncs);
	atio_json_double(j, "elapsed_sec", atio_report_sec(ns));
	atio_json_double(j, "mbs", atio_report_mb_per_sec(s->bytes, ns));
	atio_json_double(j, "iops", atio_report_per_sec(s->ops, ns));
	atio_cpu_json(j, s, ns);
	atio_json_uint(j, "truncations", s->truncations);
	atio_report_json_hist(j, "latency_ns", &s->lat, false);
	if (r->opts->rate > 0)
		atio_report_json_hist(j, "service_latency_ns", &s->service, false);
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
		atio_json_string(&j, "signal", atio_report_signal_name(r->signo, sig, sizeof(sig)));
	else
		atio_json_null(&j, "signal");
	atio_json_bool(&j, "measured", !r->nothing_measured);
	if (r->nothing_measured)
		atio_json_null(&j, "result");
	else
		json_result(&j, r);
	atio_report_passes_json(&j, r);
	atio_report_steady_json(&j, r);
	atio_report_json_latency(&j, "latency_ns", &r->total.lat, true, r->opts);
	atio_report_json_latency(&j, "sync_latency_ns", &r->total.sync_lat, true, r->opts);
	/* --mix: each direction beside the totals; null in the other modes. */
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		const char *key = atio_dir_name(i);

		if (r->dir && !r->nothing_measured)
			atio_report_dir_json(&j, key, &r->dir[i], r->total.ops,
					     atio_report_per_sec(r->dir[i].ops, r->elapsed_ns),
					     atio_report_mb_per_sec(r->dir[i].bytes, r->elapsed_ns), true,
					     r->opts);
		else
			atio_json_null(&j, key);
	}
	if (r->opts->rate > 0)
		atio_report_json_latency(&j, "service_latency_ns", &r->total.service, true, r->opts);
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
	atio_device_report_json(&j, r->nothing_measured ? NULL : r->device);
	atio_json_array_begin(&j, "threads");
	for (unsigned i = 0; r->threads && !r->nothing_measured && i < r->nthreads; i++)
		json_thread(&j, r, i);
	atio_json_array_end(&j);
	atio_json_object_end(&j);
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
	atio_json_double(&j, "time_sec", atio_report_sec(p->elapsed_ns));
	if (p->written)
		atio_json_double(&j, "mbs", atio_report_mb_per_sec(p->written, p->elapsed_ns));
	else
		atio_json_null(&j, "mbs");
	atio_json_bool(&j, "complete_already", p->written == 0 && p->truncated == 0);
	atio_json_object_end(&j);
	atio_json_object_end(&j);
}
