/* SPDX-License-Identifier: MIT */
/*
 * The devices under the target and the caps in force on atio, in the
 * result (atio/print/device_report.h). The figures are iostat's, from the
 * stat files read at the measured window's two ends (atio/stats/devstat.h);
 * MB/s is 2^20 bytes a second, as in the result line.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "atio/base/sysinfo.h"
#include "atio/print/device_report.h"
#include "atio/print/report.h"
#include "atio/stats/devstat.h"

/* At or above this share of a cap, the run ran into it. */
#define CAP_HELD 0.9
/* Above this share (and the start's burst), the cap was not in force on the run's I/O. */
#define CAP_ABOVE 1.1
/*
 * What a throttle lets through as a run starts, in seconds of its cap:
 * blk-throttle grants I/O by slices of up to 100 ms and may begin with one
 * granted whole, so a short window sees more than the cap (a 1 s run under
 * a v1 blkio cap of 200 read IOPS measured 230): two slices are allowed.
 */
#define CAP_BURST_SEC 0.2
/* The run's own --rate at or below this percentage of a cap held the run itself. */
#define CAP_AIM_PCT 95

/* The figures of device @d over @w's window; false when a reading is missing. */
static bool figures(const struct atio_device_window *w, const struct atio_device_node *d,
		    struct atio_devstat_fig *f)
{
	struct atio_devsnap a = { .ns = w->begin_ns }, b = { .ns = w->end_ns };

	if (!atio_device_measured(w) || atio_devsnap_parse(d->stat_begin, &a) < 0 ||
	    atio_devsnap_parse(d->stat_end, &b) < 0)
		return false;
	atio_devstat_figures(&a, &b, f);
	return true;
}

static const char *relation(enum atio_device_rel rel)
{
	return rel == ATIO_DEV_DISK ? "the disk of" : rel == ATIO_DEV_MEMBER ? "a member of"
	       : rel == ATIO_DEV_BACKING ? "holds the backing file of" : "target";
}

/* One direction's part of the line. */
static void dir_text(FILE *f, const struct atio_devstat_fig *fig, enum atio_devstat_dir d)
{
	const struct atio_devstat_dir_fig *df = &fig->dir[d];
	const char *name = atio_devstat_dir_name(d);

	if (!df->known || isnan(df->iops)) {
		fprintf(f, "%s unknown", name);
		return;
	}
	fprintf(f, "%s %.1f IOPS", name, df->iops);
	if (isnan(df->req_bytes))
		return;
	fprintf(f, " %.2f MB/s", df->bytes_per_sec / 1048576.0);
	if (!isnan(df->merges))
		fprintf(f, ", %.0f merged", df->merges);
	fprintf(f, ", %.1f KiB a request", df->req_bytes / 1024.0);
	if (!isnan(df->await_ms))
		fprintf(f, ", await %.3f ms", df->await_ms);
}

static void node_text(FILE *f, const struct atio_device_window *w, unsigned i)
{
	const struct atio_device_node *d = &w->node[i];
	struct atio_devstat_fig fig;

	fprintf(f, "device: %s (%u:%u", d->name, d->major, d->minor);
	if (d->above >= 0)
		fprintf(f, ", %s %s", relation(d->rel), w->node[d->above].name);
	if (d->backing[0]) {
		fputs(", backing file ", f);
		atio_report_put_text(f, d->backing);
	}
	fputs("): ", f);
	if (!figures(w, d, &fig)) {
		fputs("its counters could not be read at both ends of the measured time\n", f);
		return;
	}
	dir_text(f, &fig, ATIO_DS_READ);
	fputs("; ", f);
	dir_text(f, &fig, ATIO_DS_WRITE);
	if (fig.dir[ATIO_DS_DISCARD].known && fig.delta[ATIO_DS_DISCARD_IOS]) {
		fputs("; ", f);
		dir_text(f, &fig, ATIO_DS_DISCARD);
	}
	if (!isnan(fig.flush_per_sec) && fig.delta[ATIO_DS_FLUSH_IOS])
		fprintf(f, "; flush %.1f a sec, await %.3f ms", fig.flush_per_sec, fig.flush_await_ms);
	if (isnan(fig.aqu_sz))
		fputs("; aqu-sz unknown", f);
	else
		fprintf(f, "; aqu-sz %.2f", fig.aqu_sz);
	if (isnan(fig.util))
		fputs(", util unknown", f);
	else
		fprintf(f, ", util %.1f%%", fig.util * 100.0);
	fprintf(f, " (%u fields, over %.3f sec)\n", fig.fields, (double)fig.elapsed_ns / 1e9);
}

/* What a cap's counter counts, in words. */
static const char *cap_unit(enum atio_cap_kind k)
{
	return k == ATIO_CAP_RIOPS ? "read IOPS" : k == ATIO_CAP_WIOPS ? "write IOPS"
	       : k == ATIO_CAP_RBPS ? "read bytes/s" : "written bytes/s";
}

/* The v1 file a cap is set in, or v2's io.max key. */
static const char *cap_where(const struct atio_io_cap *c)
{
	static const char *const v1[] = {
		"blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device",
		"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
	};

	return c->version == 1 ? v1[c->kind] : "io.max";
}

/* What went through a cap's cgroup a second over the window, or NaN. */
static double cap_measured(const struct atio_device_window *w, const struct atio_io_cap *c)
{
	if (!atio_device_measured(w) || !c->have_count)
		return NAN;
	return atio_devstat_per_sec(c->count_begin, c->count_end, w->end_ns - w->begin_ns);
}

/* The I/O pressure on atio's v2 cgroup over the window, 0..1, or NaN. */
static double pressure(const struct atio_device_window *w, bool full)
{
	const struct atio_io_caps *c = &w->caps;

	if (!atio_device_measured(w) || !c->have_pressure)
		return NAN;
	/* Microseconds over the window's microseconds. */
	return full ? atio_devstat_per_sec(c->full_begin, c->full_end, w->end_ns - w->begin_ns) / 1e6
		    : atio_devstat_per_sec(c->some_begin, c->some_end, w->end_ns - w->begin_ns) / 1e6;
}

/* What a cap did to the run. */
enum cap_verdict { CAP_UNKNOWN, CAP_BELOW, CAP_RAN_INTO, CAP_OWN_RATE, CAP_NOT_IN_FORCE };

/*
 * How @got a second through cap @c is judged: far above the cap, the cap
 * was not applied to this I/O (a v1 throttle some I/O paths go around, a
 * cap on another device); the run's own --rate aimed well below the cap
 * and got there, the run held itself; near the cap, it ran into it.
 */
static enum cap_verdict cap_judge(const struct atio_device_window *w, const struct atio_io_cap *c,
				  double got)
{
	double share = got / (double)c->limit, aim = w->aim[c->kind];
	double sec = (double)(w->end_ns - w->begin_ns) / 1e9;

	if (isnan(got) || !c->limit)
		return CAP_UNKNOWN;
	if (share > CAP_ABOVE + (sec > 0 ? CAP_BURST_SEC / sec : 0))
		return CAP_NOT_IN_FORCE;
	if (aim > 0 && aim * 100 <= CAP_AIM_PCT * (double)c->limit && got >= CAP_HELD * aim)
		return CAP_OWN_RATE;
	return share >= CAP_HELD ? CAP_RAN_INTO : CAP_BELOW;
}

static const char *const verdict_text[] = {
	[CAP_BELOW] = "below it, the cap did not hold the run back",
	[CAP_RAN_INTO] = "the cap held, the run ran into it",
	[CAP_OWN_RATE] = "below it: the run's own --cap held it there",
	[CAP_NOT_IN_FORCE] = "above the cap: it was not in force on this I/O",
};

static const char *const verdict_json[] = {
	[CAP_BELOW] = "below", [CAP_RAN_INTO] = "held", [CAP_OWN_RATE] = "own_rate",
	[CAP_NOT_IN_FORCE] = "not_in_force",
};

static void cap_text(FILE *f, const struct atio_device_window *w, const struct atio_io_cap *c)
{
	const struct atio_device_node *d = &w->node[c->node];
	double got = cap_measured(w, c), share = got / (double)c->limit;

	fprintf(f, "cgroup: %s %s%s%" PRIu64 " on %s (%u:%u), set by ", cap_where(c),
		c->version == 2 ? atio_io_cap_name(c->kind) : "", c->version == 2 ? "=" : "",
		c->limit, d->name, d->major, d->minor);
	atio_report_put_text(f, c->cgroup);
	if (isnan(got)) {
		fputs(": what went through it could not be read; whether the run ran into it "
		      "is not known\n", f);
		return;
	}
	fprintf(f, ": %.1f %s went through it, %.1f%% of the cap: %s", got, cap_unit(c->kind),
		share * 100.0, verdict_text[c->limit ? cap_judge(w, c, got) : CAP_BELOW]);
	if (c->version == 1)
		fputs(" (cgroup v1 keeps no time spent throttled)", f);
	else if (!isnan(pressure(w, false)))
		fprintf(f, "; io pressure: some %.1f%%, full %.1f%% of the time",
			pressure(w, false) * 100.0, pressure(w, true) * 100.0);
	fputc('\n', f);
}

void atio_device_report_text(FILE *f, const struct atio_device_window *w)
{
	if (!w || !w->n)
		return;
	for (unsigned i = 0; i < w->n; i++)
		node_text(f, w, i);
	for (unsigned i = 0; i < w->caps.n; i++)
		cap_text(f, w, &w->caps.cap[i]);
}

/* @v, or null when NaN. */
static void num(struct atio_json *j, const char *key, double v)
{
	if (isnan(v))
		atio_json_null(j, key);
	else
		atio_json_double(j, key, v);
}

/* The names of the stat file's fields in "raw". */
static const char *const raw_names[ATIO_DS_FIELDS] = {
	"read_ios", "read_merges", "read_sectors", "read_ticks_ms",
	"write_ios", "write_merges", "write_sectors", "write_ticks_ms",
	"in_flight", "io_ticks_ms", "time_in_queue_ms",
	"discard_ios", "discard_merges", "discard_sectors", "discard_ticks_ms",
	"flush_ios", "flush_ticks_ms",
};

static void dir_json(struct atio_json *j, const struct atio_devstat_fig *fig, enum atio_devstat_dir d)
{
	const struct atio_devstat_dir_fig *df = &fig->dir[d];

	if (!df->known) {
		atio_json_null(j, atio_devstat_dir_name(d));
		return;
	}
	atio_json_object_begin(j, atio_devstat_dir_name(d));
	num(j, "iops", df->iops);
	num(j, "bytes_per_sec", df->bytes_per_sec);
	num(j, "merges", df->merges);
	num(j, "merges_per_sec", df->merges_per_sec);
	num(j, "request_bytes", df->req_bytes);
	num(j, "await_ms", df->await_ms);
	atio_json_object_end(j);
}

static void node_json(struct atio_json *j, const struct atio_device_window *w, unsigned i)
{
	const struct atio_device_node *d = &w->node[i];
	struct atio_devstat_fig fig;
	int chain[ATIO_DEVICE_MAX], n = 0;

	atio_json_object_begin(j, NULL);
	atio_json_string(j, "name", d->name);
	atio_json_uint(j, "major", d->major);
	atio_json_uint(j, "minor", d->minor);
	atio_json_string(j, "relation", d->rel == ATIO_DEV_DISK ? "disk" : d->rel == ATIO_DEV_MEMBER
			 ? "member" : d->rel == ATIO_DEV_BACKING ? "backing" : "target");
	atio_json_string(j, "above", d->above >= 0 ? w->node[d->above].name : NULL);
	/* From the target's device down to this one. */
	for (int k = (int)i; k >= 0 && n < ATIO_DEVICE_MAX; k = w->node[k].above)
		chain[n++] = k;
	atio_json_array_begin(j, "path");
	while (n--)
		atio_json_string(j, NULL, w->node[chain[n]].name);
	atio_json_array_end(j);
	atio_json_string(j, "backing_file", d->backing[0] ? d->backing : NULL);
	if (!figures(w, d, &fig)) {
		atio_json_null(j, "figures");
		atio_json_object_end(j);
		return;
	}
	atio_json_object_begin(j, "figures");
	atio_json_uint(j, "fields", fig.fields);
	atio_json_uint(j, "elapsed_ns", fig.elapsed_ns);
	for (unsigned k = 0; k < ATIO_DS_DIRS; k++)
		dir_json(j, &fig, k);
	num(j, "flush_per_sec", fig.flush_per_sec);
	num(j, "flush_await_ms", fig.flush_await_ms);
	num(j, "aqu_sz", fig.aqu_sz);
	num(j, "util_pct", fig.util * 100.0);
	atio_json_object_begin(j, "raw");
	for (unsigned k = 0; k < ATIO_DS_FIELDS; k++)
		if (atio_devstat_known(&fig, k))
			atio_json_uint(j, raw_names[k], fig.delta[k]);
		else
			atio_json_null(j, raw_names[k]);
	atio_json_object_end(j);
	atio_json_object_end(j);
	atio_json_object_end(j);
}

static void cap_json(struct atio_json *j, const struct atio_device_window *w,
		     const struct atio_io_cap *c)
{
	double got = cap_measured(w, c);

	atio_json_object_begin(j, NULL);
	atio_json_string(j, "device", w->node[c->node].name);
	atio_json_uint(j, "cgroup_version", c->version);
	atio_json_string(j, "cgroup", c->cgroup);
	atio_json_string(j, "file", cap_where(c));
	atio_json_string(j, "kind", atio_io_cap_name(c->kind));
	atio_json_uint(j, "limit", c->limit);
	num(j, "measured", got);
	num(j, "share", isnan(got) ? NAN : got / (double)c->limit);
	if (isnan(got)) {
		atio_json_null(j, "held");
		atio_json_null(j, "verdict");
	} else {
		enum cap_verdict v = c->limit ? cap_judge(w, c, got) : CAP_BELOW;

		atio_json_bool(j, "held", v == CAP_RAN_INTO);
		atio_json_string(j, "verdict", verdict_json[v]);
	}
	if (c->have_count && atio_device_measured(w)) {
		atio_json_uint(j, "count_begin", c->count_begin);
		atio_json_uint(j, "count_end", c->count_end);
	}
	atio_json_object_end(j);
}

void atio_device_report_json(struct atio_json *j, const struct atio_device_window *w)
{
	if (!w || !w->n) {
		atio_json_null(j, "device");
		return;
	}
	atio_json_object_begin(j, "device");
	atio_json_bool(j, "measured", atio_device_measured(w));
	atio_json_array_begin(j, "devices");
	for (unsigned i = 0; i < w->n; i++)
		node_json(j, w, i);
	atio_json_array_end(j);
	atio_json_array_begin(j, "caps");
	for (unsigned i = 0; i < w->caps.n; i++)
		cap_json(j, w, &w->caps.cap[i]);
	atio_json_array_end(j);
	atio_json_string(j, "cgroup_v1", w->caps.v1[0] ? w->caps.v1 : NULL);
	atio_json_string(j, "cgroup_v2", w->caps.v2[0] ? w->caps.v2 : NULL);
	if (isnan(pressure(w, false))) {
		atio_json_null(j, "io_pressure");
	} else {
		atio_json_object_begin(j, "io_pressure");
		num(j, "some_pct", pressure(w, false) * 100.0);
		num(j, "full_pct", pressure(w, true) * 100.0);
		atio_json_object_end(j);
	}
	atio_json_object_end(j);
}

void atio_device_report_header(FILE *f, const char *path)
{
	struct atio_queue_info q;
	char line[1024];

	if (!path || !atio_sysinfo_queue(path, &q))
		return;
	atio_sysinfo_queue_text(line, sizeof(line), &q);
	fputs("Device: ", f);
	atio_report_put_text(f, line);
	fputc('\n', f);
}
