/* SPDX-License-Identifier: MIT */
/*
 * A block device's figures from two snapshots of its stat file, as iostat
 * computes them (atio/stats/devstat.h). Sectors are 512 bytes whatever
 * the device's logical block size; times are in milliseconds.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "atio/stats/devstat.h"

int atio_devsnap_parse(const char *text, struct atio_devsnap *s)
{
	const char *p = text;
	unsigned n = 0;

	while (n < ATIO_DS_FIELDS) {
		char *end;
		unsigned long long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '\n')
			break;
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno || (*end != '\0' && *end != ' ' && *end != '\t' && *end != '\n'))
			return -1;
		s->f[n++] = v;
		p = end;
	}
	s->n = n;
	return n ? (int)n : -1;
}

bool atio_devstat_known(const struct atio_devstat_fig *f, enum atio_devstat_field field)
{
	return (f->known >> field) & 1u;
}

const char *atio_devstat_dir_name(enum atio_devstat_dir d)
{
	return d == ATIO_DS_READ ? "read" : d == ATIO_DS_WRITE ? "write" : "discard";
}

double atio_devstat_per_sec(uint64_t a, uint64_t b, uint64_t ns)
{
	if (b < a || ns == 0)
		return NAN;
	return (double)(b - a) * 1e9 / (double)ns;
}

/* @d over @f's window, per second; NaN when @field is unknown. */
static double per_sec(const struct atio_devstat_fig *f, enum atio_devstat_field field, double d)
{
	if (!atio_devstat_known(f, field) || f->elapsed_ns == 0)
		return NAN;
	return d * 1e9 / (double)f->elapsed_ns;
}

/* @num / the requests of @ios, or NaN when either is unknown or none were made. */
static double per_req(const struct atio_devstat_fig *f, enum atio_devstat_field num,
		      enum atio_devstat_field ios, double scale)
{
	if (!atio_devstat_known(f, num) || !atio_devstat_known(f, ios) || f->delta[ios] == 0)
		return NAN;
	return (double)f->delta[num] * scale / (double)f->delta[ios];
}

/* The first field of direction @d: its requests; merges, sectors and ticks follow. */
static enum atio_devstat_field dir_base(enum atio_devstat_dir d)
{
	return d == ATIO_DS_READ ? ATIO_DS_READ_IOS : d == ATIO_DS_WRITE ? ATIO_DS_WRITE_IOS
	       : ATIO_DS_DISCARD_IOS;
}

void atio_devstat_figures(const struct atio_devsnap *a, const struct atio_devsnap *b,
			  struct atio_devstat_fig *f)
{
	*f = (struct atio_devstat_fig){ .fields = a->n < b->n ? a->n : b->n };
	f->elapsed_ns = b->ns > a->ns ? b->ns - a->ns : 0;
	for (unsigned i = 0; i < f->fields && i < ATIO_DS_FIELDS; i++) {
		if (i == ATIO_DS_IN_FLIGHT) {
			f->delta[i] = b->f[i];
			f->known |= 1u << i;
		} else if (b->f[i] >= a->f[i]) {
			f->delta[i] = b->f[i] - a->f[i];
			f->known |= 1u << i;
		}
	}
	for (unsigned d = 0; d < ATIO_DS_DIRS; d++) {
		enum atio_devstat_field ios = dir_base(d), merges = ios + 1, sectors = ios + 2,
			ticks = ios + 3;
		struct atio_devstat_dir_fig *df = &f->dir[d];

		df->known = atio_devstat_known(f, ios);
		df->iops = per_sec(f, ios, (double)f->delta[ios]);
		df->bytes_per_sec = per_sec(f, sectors, (double)f->delta[sectors] * 512.0);
		df->merges = atio_devstat_known(f, merges) ? (double)f->delta[merges] : NAN;
		df->merges_per_sec = per_sec(f, merges, (double)f->delta[merges]);
		df->req_bytes = per_req(f, sectors, ios, 512.0);
		df->await_ms = per_req(f, ticks, ios, 1.0);
	}
	f->flush_per_sec = per_sec(f, ATIO_DS_FLUSH_IOS, (double)f->delta[ATIO_DS_FLUSH_IOS]);
	f->flush_await_ms = per_req(f, ATIO_DS_FLUSH_TICKS, ATIO_DS_FLUSH_IOS, 1.0);
	/* Milliseconds over the window's milliseconds. */
	f->aqu_sz = per_sec(f, ATIO_DS_TIME_IN_QUEUE, (double)f->delta[ATIO_DS_TIME_IN_QUEUE] / 1e3);
	f->util = per_sec(f, ATIO_DS_IO_TICKS, (double)f->delta[ATIO_DS_IO_TICKS] / 1e3);
	/*
	 * io_ticks counts in jiffies at the counters' reads, which are not the
	 * window's ends: over a short window it can exceed the window. Busy
	 * all the time is the most it can mean (as iostat clamps it).
	 */
	if (f->util > 1.0)
		f->util = 1.0;
}
