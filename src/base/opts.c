/* SPDX-License-Identifier: MIT */
/* The options in words: names and the canonical command line (atio/base/opts.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "atio/base/opts.h"
#include "atio/base/units.h"

/* A command line being written: its buffer, and the length it has so far. */
struct line {
	char *buf;
	size_t len;
	size_t at;                 /* what snprintf would have written, even past len */
};

static void add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->at < l->len ? l->buf + l->at : NULL,
		      l->at < l->len ? l->len - l->at : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->at += (size_t)n;
}

/* Whether the shell takes @s as one word as it is: no quoting needed. */
static bool shell_plain(const char *s)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_./:,%+=@-", *p))
			return false;
	return true;
}

/*
 * " NAME VALUE", the value quoted for the shell when it needs it ('...',
 * with a ' inside written '\'' ). The values the options take never need
 * it today; a new spelling of one must not make the line run otherwise.
 */
static void add_opt(struct line *l, const char *name, const char *value)
{
	add(l, " %s ", name);
	if (shell_plain(value)) {
		add(l, "%s", value);
		return;
	}
	add(l, "'");
	for (const char *p = value; *p; p++)
		add(l, *p == '\'' ? "'\\''" : "%c", *p);
	add(l, "'");
}

/* " NAME SIZE" and " NAME TIME", in the units the options take them. */
static void add_size(struct line *l, const char *name, uint64_t bytes)
{
	char v[24];

	atio_format_size(v, sizeof(v), bytes);
	add(l, " %s %s", name, v);
}

static void add_time(struct line *l, const char *name, uint64_t ns)
{
	char v[32];

	atio_format_time(v, sizeof(v), ns);
	add(l, " %s %s", name, v);
}

/* -u: "auto" stays "auto", so that the line sizes the test by its node. */
static void add_total(struct line *l, const struct atio_opts *o)
{
	if (o->total_auto)
		add(l, " -u auto");
	else
		add_size(l, "-u", o->total);
}

/*
 * See opts.h. at_io_iops' options first, in its order, so its scripts still
 * match; then the atio options that change what is done, each when it
 * differs from its default. Not shown: -f and what names or guards the
 * target (--take-over, --allow-*, --remove), and what only shapes the
 * output or its start (-v, --json, --start-at): the line is the test, to
 * run again here or on another node with its own -f.
 */
int atio_opts_cmdline(char *buf, size_t len, const struct atio_opts *o)
{
	struct line l = { .buf = buf, .len = len };
	char v[ATIO_BSMIX_MAX_TEXT + 1];
	bool sync = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;

	if (len)
		buf[0] = '\0';
	if (o->bs_text)
		snprintf(v, sizeof(v), "%s", o->bs_text);
	else
		atio_format_size(v, sizeof(v), o->bs);
	/*
	 * --prepare runs no test: its line has only what shapes the files, so
	 * that it runs again as it is.
	 */
	if (o->prepare) {
		add(&l, "--prepare");
		add_opt(&l, "-s", v);
	} else {
		/* --mix carries its read percentage: "--mix 70". */
		add(&l, "%s--%s", o->settings_only ? "-a " : "", atio_mode_name(o->mode));
		if (o->mode == ATIO_MODE_MIX)
			add(&l, " %u", o->mix);
		add(&l, " --%s", o->random ? "rand" : "seq");
		/* The order of a sequential pass, after --seq. */
		if (o->backward)
			add(&l, " --backward");
		if (o->stride)
			add_size(&l, "--stride", o->stride);
		/*
		 * --dist after --rand; with --seed, that too: it places the hot
		 * blocks (atio/run/dist.h), so the line without it would test
		 * other ones.
		 */
		if (o->dist_text && o->random) {
			add_opt(&l, "--dist", o->dist_text);
			if (o->seed_given)
				add(&l, " --seed %" PRIu64, o->seed);
		}
		add_opt(&l, "-s", v);
		if (sync)
			add(&l, " -q %u", o->qsync);
		add(&l, " --%s", o->unit == ATIO_UNIT_IOPS ? "iops" : "mbs");
	}
	/*
	 * -p auto and -u auto stay "auto", so that the line run on another
	 * node sizes the test by that node; -n that follows -p is left out.
	 */
	if (o->threads_auto)
		add(&l, " -p auto");
	else
		add(&l, " -p %u", o->threads);
	if (!o->threads_auto || o->nfiles_given)
		add(&l, " -n %u", o->nfiles);
	if (o->prepare) {
		add(&l, " --%s", o->direct ? "uncached" : "cached");
		add_total(&l, o);
		return (int)l.at;
	}
	/* No -t with --size or --loops alone: no time limit (atio/run/limits.h). */
	if (o->time_ns)
		add_time(&l, "-t", o->time_ns);
	if (o->size)
		add_size(&l, "--size", o->size);
	if (o->loops)
		add(&l, " --loops %" PRIu64, o->loops);
	if (o->warmup_ns)
		add_time(&l, "-w", o->warmup_ns);
	if (o->delay_ns)
		add_time(&l, "--delay", o->delay_ns);
	/* --steady in -w's place: the warm-up it decides, how it judges, its precondition. */
	if (o->steady) {
		static const char *const judge[] = { "", "iops", "mbs", "lat" };

		add(&l, " --steady %s", judge[o->steady]);
		add_time(&l, "--round", o->round_ns);
		add(&l, " --rounds %u%s%s", o->rounds, o->all_rounds ? " --all-rounds" : "",
		    o->precondition ? " --precondition" : "");
	}
	add(&l, " --%s", o->direct ? "uncached" : "cached");
	add_total(&l, o);
	if (o->skip_sync)
		add(&l, " -S");
	if (o->open_sync != ATIO_OPEN_PLAIN)
		add(&l, " --%s", o->open_sync == ATIO_OPEN_DSYNC ? "dsync" : "osync");
	/* The cap by the name without the result line's word (grep rate). */
	if (o->rate_text)
		add_opt(&l, "--cap", o->rate_text);
	if (o->rate_text && o->arrivals_exponential)
		add(&l, " --arrivals exponential");
	if (o->verify)
		add(&l, " --verify");
	/* --fadvise when given, so that the line gives the same advice again. */
	if (o->fadvise_given)
		add(&l, " --fadvise %s", atio_fadvise_name(o->fadvise));
	/* Reducible data: the ratios asked, and a unit given. */
	if (o->compress_text)
		add_opt(&l, "--compress", o->compress_text);
	if (o->dedup_text)
		add_opt(&l, "--dedup", o->dedup_text);
	if (o->dedup_text && o->dedup_unit)
		add_size(&l, "--dedup-unit", o->dedup_unit);
	/* How atio does the I/O, when not by default. */
	if (o->engine)
		add_opt(&l, "--engine", o->engine);
	if (o->iodepth > 1)
		add(&l, " --iodepth %u", o->iodepth);
	if (!o->iodepth_batch_auto && o->iodepth_batch && o->iodepth > 1)
		add(&l, " --iodepth-batch %u", o->iodepth_batch);
	if (!o->thp)
		add(&l, " --no-thp");
	if (o->keep_cache)
		add(&l, " --keep-cache");
	/* A seed given: the same offsets and data again (with --dist, above). */
	if (o->seed_given && !(o->dist_text && o->random))
		add(&l, " --seed %" PRIu64, o->seed);
	if (o->interval_text)
		add_opt(&l, "--interval", o->interval_text);
	if (o->pct_text)
		add_opt(&l, "--percentiles", o->pct_text);
	return (int)l.at;
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
