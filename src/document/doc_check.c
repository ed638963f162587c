/* SPDX-License-Identifier: MIT */
/*
 * What a run document must agree with before atio merge adds it: its
 * rates are figures of its own counts. result.value is what atio computes
 * from result.ops (IOPS), result.bytes (MB/s) or result.syncs (sync/s)
 * over result.time_sec; a --mix run's read and write iops and mbs from
 * their ops and bytes over the same time; an interval's value, mbs, iops
 * and syncs_per_sec from its counts over its duration_sec. atio writes
 * every double so that it reads back exactly, so a value that differs
 * from its counts by more than a rounding is not atio's figure: an edited
 * or forged document, whose value the sum would otherwise trust.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "atio/stats/interval.h"
#include "atio/document/doc.h"

#define MIB 1048576.0

/*
 * Room for the roundings between counts and a rate as atio writes them
 * (a few units in the last place), with a margin for a reader of another
 * libc: far below any difference that matters.
 */
#define REL 1e-9

/* @n per second over @sec (0 when no time ran), in MiB when @mib. */
static double per_sec(uint64_t n, double sec, bool mib)
{
	double x = sec > 0 ? (double)n / sec : 0.0;

	return mib ? x / MIB : x;
}

/* Whether @got is @want to within the roundings. */
static bool agrees(double got, double want)
{
	return isfinite(got) && isfinite(want) && fabs(got - want) <= REL * fabs(want) + 1e-12;
}

/* The count the value of unit @unit is made of, and its name. */
static uint64_t count_of(const char *unit, uint64_t ops, uint64_t bytes, uint64_t syncs,
			 const char **name)
{
	enum atio_ival_unit u = atio_ival_unit_named(unit);

	*name = u == ATIO_IVAL_MBS ? "bytes" : u == ATIO_IVAL_IOPS ? "ops" : "syncs";
	return u == ATIO_IVAL_MBS ? bytes : u == ATIO_IVAL_IOPS ? ops : syncs;
}

/* See doc.h. */
double atio_merge_rate(const char *unit, uint64_t ops, uint64_t bytes, uint64_t syncs,
		       double sec)
{
	const char *name;

	return per_sec(count_of(unit, ops, bytes, syncs, &name), sec,
		       atio_ival_unit_named(unit) == ATIO_IVAL_MBS);
}

#define CONTRA(where, what, got, cname, c, tname, sec, want, unit)                             \
	atio_error_set(e, ATIO_EXIT_USAGE, 0,                                                   \
		       "%s: %s%s is %.12g %s, but its %s%s %llu over %s %.12g s make %.12g %s: " \
		       "the document contradicts itself (edited, or not atio's), its value "   \
		       "is not added", d->file, where, what, got, unit, where, cname,          \
		       (unsigned long long)(c), tname, sec, want, unit)

/* The intervals of @d: each one's rates against its counts. */
static int check_intervals(const struct atio_merge_doc *d, struct atio_error *e)
{
	const char *cname;
	char where[48];

	for (size_t k = 0; d->ivals && k < atio_ival_count(d->ivals); k++) {
		const struct atio_ival *iv = atio_ival_get(d->ivals, k);
		double sec = (double)iv->dur_ns / 1e9;
		uint64_t ops = iv->ops[0] + iv->ops[1], bytes = iv->bytes[0] + iv->bytes[1];
		uint64_t c = count_of(d->unit, ops, bytes, iv->syncs, &cname);
		double want = atio_merge_rate(d->unit, ops, bytes, iv->syncs, sec);

		snprintf(where, sizeof(where), "intervals[%zu].", k);
		if (!agrees(iv->value, want))
			return CONTRA(where, "value", iv->value, cname, c, "duration_sec", sec, want,
				      d->unit);
		if (!agrees(iv->mbs, per_sec(bytes, sec, true)))
			return CONTRA(where, "mbs", iv->mbs, "bytes", bytes, "duration_sec", sec,
				      per_sec(bytes, sec, true), "MB/s");
		if (!agrees(iv->iops, per_sec(ops, sec, false)))
			return CONTRA(where, "iops", iv->iops, "ops", ops, "duration_sec", sec,
				      per_sec(ops, sec, false), "IOPS");
		if (!agrees(iv->syncs_per_sec, per_sec(iv->syncs, sec, false)))
			return CONTRA(where, "syncs_per_sec", iv->syncs_per_sec, "syncs", iv->syncs,
				      "duration_sec", sec, per_sec(iv->syncs, sec, false), "sync/s");
	}
	return 0;
}

int atio_merge_check_figures(const struct atio_merge_doc *d, struct atio_error *e)
{
	const char *cname;
	uint64_t c = count_of(d->unit, d->st.ops, d->st.bytes, d->st.syncs, &cname);
	double sec = d->time_sec;
	double want = atio_merge_rate(d->unit, d->st.ops, d->st.bytes, d->st.syncs, sec);

	/* atio counts time in nanoseconds: less than one is no run's time. */
	if (sec > 0 && sec < 1e-9)
		return atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: result.time_sec is %g s, less "
				      "than the nanosecond atio counts time in: not atio's figure",
				      d->file, sec);
	if (!agrees(d->value, want))
		return CONTRA("result.", "value", d->value, cname, c, "result.time_sec", sec, want,
			      d->unit);
	for (unsigned i = 0; d->mixed && i < ATIO_DIRS; i++) {
		const struct atio_dir_stats *s = &d->dir[i];
		char where[16];

		snprintf(where, sizeof(where), "%s.", atio_dir_name(i));
		if (!agrees(d->dir_iops[i], per_sec(s->ops, sec, false)))
			return CONTRA(where, "iops", d->dir_iops[i], "ops", s->ops,
				      "result.time_sec", sec, per_sec(s->ops, sec, false), "IOPS");
		if (!agrees(d->dir_mbs[i], per_sec(s->bytes, sec, true)))
			return CONTRA(where, "mbs", d->dir_mbs[i], "bytes", s->bytes,
				      "result.time_sec", sec, per_sec(s->bytes, sec, true), "MB/s");
	}
	return check_intervals(d, e);
}

/*
 * The settings merge compares, as the run document's "settings" (and
 * "atio") name them, with the option a user knows them by. Runs that
 * differ in any of them still add up (a cluster may be uneven on purpose)
 * but the sum is then of unlike runs: said on stderr. Direction is
 * compared apart (see fold below): reads and writes are refused.
 */
static const struct {
	const char *key, *option;
} setting[ATIO_MERGE_NSETTINGS] = {
	{ "mode", "the workload (--write, --fsync, --fdatasync, --expand, --rewrite)" },
	{ "pattern", "--seq/--rand" },
	{ "block_size", "-s" },
	{ "cached", "--cached/--uncached" },
	{ "threads", "-p" },
	{ "files", "-n" },
	{ "time_sec", "-t" },
	{ "warmup_sec", "-w" },
	{ "total_size", "-u" },
	{ "sync_every", "-q" },
	{ "skip_final_sync", "-S" },
	{ "engine", "--engine" },
	{ "iodepth", "--iodepth" },
	{ "mix", "--mix" },
	{ "open_sync", "--dsync/--osync" },
	{ "interval_sec", "--interval" },
	{ "rate", "--rate" },
	{ "version", "the atio version" },
};

/* A scalar as text: numbers as %.12g (the reader holds integers as doubles). */
static void scalar(json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_number(v))
		snprintf(buf, len, "%.12g", json_number_value(v));
	else if (json_is_true(v) || json_is_false(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else if (json_is_null(v))
		snprintf(buf, len, "null");
	else if (json_is_object(v))
		scalar(json_object_get(v, "value"), buf, len); /* "rate": {"value": ...} */
	else
		buf[0] = '\0';
}

void atio_merge_settings_read(json_t *doc, struct atio_merge_settings *s)
{
	json_t *set = json_object_get(doc, "settings");

	for (unsigned i = 0; i < ATIO_MERGE_NSETTINGS; i++) {
		json_t *v = i == ATIO_MERGE_NSETTINGS - 1
			? json_object_get(json_object_get(doc, "atio"), "version")
			: json_object_get(set, setting[i].key);

		s->val[i][0] = '\0';
		/* A run without --rate has no "rate": the same as null. */
		if (!v && strcmp(setting[i].key, "rate") == 0 && json_is_object(set))
			v = json_null();
		if (v)
			scalar(v, s->val[i], sizeof(s->val[i]));
	}
}

const char *atio_merge_setting_option(unsigned i)
{
	return setting[i].option;
}

const char *atio_merge_setting_key(unsigned i)
{
	return setting[i].key;
}
