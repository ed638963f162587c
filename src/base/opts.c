/* SPDX-License-Identifier: MIT */
/* The options in words: names and the canonical command line (atio/base/opts.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "atio/base/opts.h"
#include "atio/base/units.h"

/*
 * See opts.h. at_io_iops' options first, in its order, so its scripts still
 * match; then the atio options that change what is done (--dsync, --osync,
 * --prepare). The other atio options are not shown.
 */
int atio_opts_cmdline(char *buf, size_t len, const struct atio_opts *o)
{
	char bs[ATIO_BSMIX_MAX_TEXT + 1], total[24], t[32], w[32], q[24] = "", wopt[160] = "";
	char mode[24], topt[40] = "", size[24], limits[64];
	char p[16] = "auto", n[24] = "";
	char rate[96] = "", order[48] = "", stride[24], dist[ATIO_DIST_MAX_TEXT + 40] = "";
	char fadv[32] = "";
	char reduce[112] = "", unit[24];
	size_t at;
	bool sync = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;
	const char *osync = o->open_sync == ATIO_OPEN_DSYNC ? " --dsync"
		: o->open_sync == ATIO_OPEN_OSYNC ? " --osync" : "";

	if (o->bs_text)
		snprintf(bs, sizeof(bs), "%s", o->bs_text);
	else
		atio_format_size(bs, sizeof(bs), o->bs);
	if (o->total_auto)
		snprintf(total, sizeof(total), "auto");
	else
		atio_format_size(total, sizeof(total), o->total);
	/*
	 * -p auto and -u auto stay "auto", so that the line run on another
	 * node sizes the test by that node; -n that follows -p is left out.
	 */
	if (!o->threads_auto)
		snprintf(p, sizeof(p), "%u", o->threads);
	if (!o->threads_auto || o->nfiles_given)
		snprintf(n, sizeof(n), " -n %u", o->nfiles);
	atio_format_time(t, sizeof(t), o->time_ns);
	/* No -t with --size or --loops alone: no time limit (atio/run/limits.h). */
	if (o->time_ns)
		snprintf(topt, sizeof(topt), " -t %s", t);
	atio_format_size(size, sizeof(size), o->size);
	snprintf(limits, sizeof(limits), "%s%s", o->size ? " --size " : "", o->size ? size : "");
	if (o->loops)
		snprintf(limits + strlen(limits), sizeof(limits) - strlen(limits),
			 " --loops %" PRIu64, o->loops);
	if (sync)
		snprintf(q, sizeof(q), " -q %u", o->qsync);
	if (o->warmup_ns) {
		atio_format_time(w, sizeof(w), o->warmup_ns);
		snprintf(wopt, sizeof(wopt), " -w %s", w);
	}
	if (o->delay_ns) {
		size_t used = strlen(wopt);

		atio_format_time(w, sizeof(w), o->delay_ns);
		snprintf(wopt + used, sizeof(wopt) - used, " --delay %s", w);
	}
	/* --steady in -w's place: the warm-up it decides, how it judges, its precondition. */
	if (o->steady) {
		size_t used = strlen(wopt);
		static const char *const judge[] = { "", "iops", "mbs", "lat" };

		atio_format_time(w, sizeof(w), o->round_ns);
		snprintf(wopt + used, sizeof(wopt) - used, " --steady %s --round %s --rounds %u%s",
			 judge[o->steady], w, o->rounds, o->precondition ? " --precondition" : "");
	}
	/*
	 * --prepare runs no test: its line has only what shapes the files, so
	 * that it runs again as it is.
	 */
	if (o->prepare)
		return snprintf(buf, len, "--prepare -s %s -p %s%s --%s -u %s", bs, p, n,
				o->direct ? "uncached" : "cached", total);
	/* --mix carries its read percentage: "--mix 70". */
	if (o->mode == ATIO_MODE_MIX)
		snprintf(mode, sizeof(mode), "mix %u", o->mix);
	else
		snprintf(mode, sizeof(mode), "%s", atio_mode_name(o->mode));
	if (o->rate_text)
		snprintf(rate, sizeof(rate), " --rate %s%s", o->rate_text,
			 o->arrivals_exponential ? " --arrivals exponential" : "");
	/* The order of a sequential pass, after --seq. */
	atio_format_size(stride, sizeof(stride), o->stride);
	snprintf(order, sizeof(order), "%s%s%s", o->backward ? " --backward" : "",
		 o->stride ? " --stride " : "", o->stride ? stride : "");
	/*
	 * --dist after --rand; with --seed, that too: it places the hot blocks
	 * (atio/run/dist.h), so the line without it would test other ones.
	 */
	if (o->dist_text && o->random && o->seed_given)
		snprintf(dist, sizeof(dist), " --dist %s --seed %" PRIu64, o->dist_text, o->seed);
	else if (o->dist_text && o->random)
		snprintf(dist, sizeof(dist), " --dist %s", o->dist_text);
	/* --fadvise when given, so that the line gives the same advice again. */
	if (o->fadvise_given)
		snprintf(fadv, sizeof(fadv), " --fadvise %s", atio_fadvise_name(o->fadvise));
	/* Reducible data, last: the ratios asked, and a unit given. */
	if (o->compress_text)
		snprintf(reduce, sizeof(reduce), " --compress %s", o->compress_text);
	if (o->dedup_text) {
		at = strlen(reduce);
		snprintf(reduce + at, sizeof(reduce) - at, " --dedup %s", o->dedup_text);
	}
	if (o->dedup_text && o->dedup_unit) {
		at = strlen(reduce);
		atio_format_size(unit, sizeof(unit), o->dedup_unit);
		snprintf(reduce + at, sizeof(reduce) - at, " --dedup-unit %s", unit);
	}
	return snprintf(buf, len,
			"%s--%s --%s%s%s -s %s%s --%s -p %s%s%s%s%s --%s -u %s%s%s%s%s%s%s",
			o->settings_only ? "-a " : "", mode,
			o->random ? "rand" : "seq", order, dist, bs, q,
			o->unit == ATIO_UNIT_IOPS ? "iops" : "mbs",
			p, n, topt, limits, wopt,
			o->direct ? "uncached" : "cached", total,
			o->skip_sync ? " -S" : "", osync, rate, o->verify ? " --verify" : "", fadv,
			reduce);
}

/* See opts.h. */
bool atio_mode_writes(enum atio_mode m)
{
	return m != ATIO_MODE_READ;
}

/* See opts.h. */
bool atio_mode_two_way(enum atio_mode m)
{
	return m == ATIO_MODE_MIX || m == ATIO_MODE_REWRITE;
}

/* See opts.h. */
const char *atio_open_sync_flag(enum atio_open_sync s)
{
	return s == ATIO_OPEN_DSYNC ? "O_DSYNC" : s == ATIO_OPEN_OSYNC ? "O_SYNC" : NULL;
}

/* See opts.h; an unknown mode (a bug elsewhere) reads "?" rather than NULL. */
const char *atio_mode_name(enum atio_mode m)
{
	static const char *const names[] = { "read", "write", "fsync", "fdatasync", "mix",
					     "expand", "rewrite" };

	return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : "?";
}

/* See opts.h; an unknown advice reads "?". */
const char *atio_fadvise_name(enum atio_fadvise a)
{
	static const char *const names[] = { "none", "normal", "random", "sequential" };

	return (unsigned)a < sizeof(names) / sizeof(names[0]) ? names[a] : "?";
}

/* See opts.h: in the sync modes an "operation" counted by --iops is a sync. */
const char *atio_unit_name(const struct atio_opts *o)
{
	if (o->unit == ATIO_UNIT_MBS)
		return "MB/s";
	return o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC
		? "sync/s" : "IOPS";
}

/* See opts.h. */
int atio_opts_data_text(char *buf, size_t len, const struct atio_opts *o)
{
	char unit[24], comp[80] = "incompressible", dedup[64] = "unique";

	if (!atio_opts_reduced(o))
		return snprintf(buf, len, "incompressible and unique");
	if (o->compress > 1.0)
		snprintf(comp, sizeof(comp), "compresses to 1/%s (measured with zstd -1 and "
			 "gzip -1 over 4K chunks)", o->compress_text);
	atio_format_size(unit, sizeof(unit), o->dedup_unit ? o->dedup_unit : 4096);
	if (o->dedup > 1.0)
		snprintf(dedup, sizeof(dedup), "1 in %s units of %s unique", o->dedup_text, unit);
	return snprintf(buf, len, "%s, %s; the same for the same block and --seed", comp,
			dedup);
}
