/* SPDX-License-Identifier: MIT */
/*
 * -s with a mix of sizes (see atio/cli/cli.h): SIZE/SHARE,SIZE/SHARE,...
 * by share of the I/Os, a blank share taking an even part of the rest;
 * with --mix, READS:WRITES, one mix for each direction. Nothing here
 * prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/units.h"
#include "atio/cli/cli.h"
#include "atio/run/genmap.h"
#include "cli_parse.h"

/* Sums of percentages are compared with this slack, for decimals such as 33.3. */
#define SLACK          1e-9

/* A share: digits with at most one point, nothing else. */
static bool share_of(const char *s, size_t n, double *v)
{
	bool digit = false, point = false;
	char text[32], *end;

	if (n == 0 || n >= sizeof(text))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.' && !point)
			point = true;
		else if (s[i] >= '0' && s[i] <= '9')
			digit = true;
		else
			return false;
	}
	memcpy(text, s, n);
	text[n] = 0;
	*v = strtod(text, &end);
	return digit && *end == 0;
}

/*
 * One direction's mix, the @n characters at @s of the value @arg: its
 * sizes and shares into @m, the blank shares given an even part of what
 * the others leave.
 */
static int one_mix(const char *arg, const char *s, size_t n, struct atio_bsmix *m,
		   struct atio_error *e)
{
	const char *end = s + n;
	unsigned blank = 0;
	double sum = 0.0;
	bool given[ATIO_BSMIX_MAX];

	m->n = 0;
	for (const char *p = s; p <= end; ) {
		size_t len = (size_t)(memchr(p, ',', (size_t)(end - p)) ?
			     (const char *)memchr(p, ',', (size_t)(end - p)) - p : end - p);
		const char *slash = memchr(p, '/', len);
		size_t slen = slash ? (size_t)(slash - p) : len;
		char size[32];
		int r;

		if (m->n == ATIO_BSMIX_MAX)
			return USAGE("-s %s: more than %u sizes", arg, ATIO_BSMIX_MAX);
		if (len == 0)
			return USAGE("-s %s: an empty size in the mix (e.g. -s 4K/50,64K/30,1M/20)",
				     arg);
		if (slen == 0 || slen >= sizeof(size))
			return USAGE("-s %s: \"%.*s\" is not SIZE or SIZE/SHARE (e.g. -s "
				     "4K/50,64K/30,1M/20)", arg, (int)len, p);
		memcpy(size, p, slen);
		size[slen] = 0;
		r = atio_parse_size(size, &m->size[m->n]);
		if (r)
			return USAGE("-s %s: %s: %s", arg, size, r == -EDOM
				     ? "not a whole number of bytes" : r == -ERANGE ? "too large"
				     : "not a size (a number with an optional K, M, G or T)");
		for (unsigned i = 0; i < m->n; i++)
			if (m->size[i] == m->size[m->n])
				return USAGE("-s %s: %s is in the mix twice: give each size once",
					     arg, size);
		given[m->n] = slash != NULL;
		if (!slash) {
			blank++;
		} else if (slash[1] == '-') {
			return USAGE("-s %s: %.*s: a share cannot be negative", arg, (int)len, p);
		} else if (!share_of(slash + 1, len - slen - 1, &m->share[m->n])) {
			return USAGE("-s %s: %.*s: the share is not a number of percent (e.g. "
				     "4K/50)", arg, (int)len, p);
		} else if (!(m->share[m->n] > 0.0)) {
			return USAGE("-s %s: %.*s: a share of 0%%: leave the size out", arg,
				     (int)len, p);
		} else {
			sum += m->share[m->n];
		}
		m->n++;
		p += len + 1;
	}
	if (sum > 100.0 + SLACK)
		return USAGE("-s %s: the shares add up to %g%%, more than 100%%", arg, sum);
	if (!blank && sum < 100.0 - SLACK)
		return USAGE("-s %s: the shares add up to %g%%, not 100%% (a size without a "
			     "share takes the rest)", arg, sum);
	if (blank && sum > 100.0 - SLACK)
		return USAGE("-s %s: the shares add up to 100%% and leave nothing to the sizes "
			     "without one", arg);
	for (unsigned i = 0; i < m->n; i++)
		if (!given[i])
			m->share[i] = (100.0 - sum) / blank;
	return 0;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int atio_cli_bsmix(const char *arg, struct atio_opts *o, struct atio_error *e)
{
	const char *colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
	int r;

	memset(o->bsmix, 0, sizeof(o->bsmix));
	/* The Cmdline and the Testcase line carry it whole (atio_opts_cmdline()). */
	if (strlen(arg) > ATIO_BSMIX_MAX_TEXT)
		return USAGE("-s %.32s...: longer than %u characters", arg, ATIO_BSMIX_MAX_TEXT);
	if (colon && strchr(colon + 1, ':'))
		return USAGE("-s %s: more than one ':' (READS:WRITES with --mix, e.g. -s "
			     "4K/100:64K/100)", arg);
	if ((r = one_mix(arg, arg, n, &o->bsmix[0], e)) != 0 ||
	    (colon && (r = one_mix(arg, colon + 1, strlen(colon + 1), &o->bsmix[1], e)) != 0))
		return r;
	/* One size for every I/O is a plain -s. */
	if (!colon && o->bsmix[0].n == 1) {
		o->bs = o->bsmix[0].size[0];
		o->bsmix[0].n = 0;
		return 0;
	}
	o->bs_text = arg;
	o->bs = o->bs_unit = 0;
	for (unsigned d = 0; d < 2; d++)
		for (unsigned i = 0; i < o->bsmix[d].n; i++) {
			uint64_t s = o->bsmix[d].size[i];

			o->bs = s > o->bs ? s : o->bs;
			o->bs_unit = gcd(o->bs_unit, s);
		}
	return 0;
}

/* What each size of the mix must be, or NULL (cli_judge.c's rule for -s). */
static const char *size_rule(const struct atio_opts *o, uint64_t s)
{
	if (s < ATIO_MIN_BS)
		return "at least 512";
	if (s > ATIO_MAX_BS)
		return "at most 1G";
	if (s % ATIO_MIN_BS)
		return "a multiple of 512";
	if (o->direct && s % ATIO_DIRECT_ALIGN)
		return "a multiple of 4096 with --uncached";
	return NULL;
}

int atio_cli_bsmix_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e)
{
	const char *other = NULL;
	char a[24];

	if (!o->bs_text)
		return 0;
	for (unsigned d = 0; d < 2; d++)
		for (unsigned i = 0; i < o->bsmix[d].n; i++) {
			const char *why = size_rule(o, o->bsmix[d].size[i]);

			if (why) {
				atio_format_size(a, sizeof(a), o->bsmix[d].size[i]);
				return USAGE("-s %s: %s: block size must be %s", o->bs_text, a,
					     why);
			}
		}
	if (o->bsmix[1].n && o->mode != ATIO_MODE_MIX)
		return USAGE("-s %s: READS:WRITES sizes need --mix (give one mix without ':' "
			     "otherwise)", o->bs_text);
	if (o->check || o->prepare || o->mode == ATIO_MODE_EXPAND || o->mode == ATIO_MODE_REWRITE)
		other = o->check ? "--check" : o->prepare ? "--prepare"
			: o->mode == ATIO_MODE_EXPAND ? "--expand" : "--rewrite";
	else if (st->seen[OPT_BACKWARD] || st->seen[OPT_STRIDE])
		other = st->seen[OPT_BACKWARD] ? "--backward" : "--stride";
	else if (o->dist_text && o->random)
		other = "--dist";
	else if (o->compress_text || o->dedup_text)
		other = o->compress_text ? "--compress" : "--dedup";
	else if (o->verify && (o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC))
		other = o->mode == ATIO_MODE_FSYNC ? "--fsync --verify" : "--fdatasync --verify";
	if (other)
		return USAGE("-s %s: a mix of sizes does not go with %s: give one size", o->bs_text,
			     other);
	/*
	 * --verify on writes: an I/O of a size that does not divide the
	 * largest may straddle two of its blocks, so that a thread needs two
	 * of them for each I/O in flight.
	 */
	if (o->verify && atio_mode_writes(o->mode) && o->iodepth > 1 &&
	    atio_genmap_thread_blocks(o, false) < 2ULL * o->iodepth) {
		atio_format_size(a, sizeof(a), o->bs);
		return USAGE("--verify --iodepth %u -s %s: a thread has %llu block(s) of %s, "
			     "fewer than twice the I/Os it may have in flight: use a larger -u "
			     "or a smaller --iodepth", o->iodepth, o->bs_text,
			     (unsigned long long)atio_genmap_thread_blocks(o, false), a);
	}
	return 0;
}

double atio_cli_bsmix_mean(const struct atio_opts *o)
{
	double mean[2] = { 0.0, 0.0 };

	if (!o->bs_text)
		return (double)o->bs;
	for (unsigned d = 0; d < 2; d++)
		for (unsigned i = 0; i < o->bsmix[d].n; i++)
			mean[d] += (double)o->bsmix[d].size[i] * o->bsmix[d].share[i] / 100.0;
	if (!o->bsmix[1].n)
		return mean[0];
	return (mean[0] * o->mix + mean[1] * (100.0 - o->mix)) / 100.0;
}
