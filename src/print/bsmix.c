/* SPDX-License-Identifier: MIT */
/* An -s mix in the result (atio/print/bsmix.h). */
#include <stdio.h>

#include "atio/base/units.h"
#include "atio/print/bsmix.h"

/* One direction's sizes, "4K 50%, 64K 30%", at @buf + *@at. */
static void dir_words(char *buf, size_t len, size_t *at, const struct atio_bsmix *m)
{
	for (unsigned i = 0; i < m->n && *at < len; i++) {
		char size[24];
		int n;

		atio_format_size(size, sizeof(size), m->size[i]);
		n = snprintf(buf + *at, len - *at, "%s%s %g%%", i ? ", " : "", size, m->share[i]);
		*at += n > 0 ? (size_t)n : 0;
	}
}

void atio_bsmix_words(char *buf, size_t len, const struct atio_opts *o)
{
	size_t at = 0;
	int n;

	*buf = 0;
	if (!o->bs_text || !len)
		return;
	n = snprintf(buf, len, "a mix of block sizes by share of the I/Os: %s",
		     o->bsmix[1].n ? "reads " : "");
	at = n > 0 ? (size_t)n : 0;
	dir_words(buf, len, &at, &o->bsmix[0]);
	if (o->bsmix[1].n && at < len) {
		n = snprintf(buf + at, len - at, "; writes ");
		at += n > 0 ? (size_t)n : 0;
		dir_words(buf, len, &at, &o->bsmix[1]);
	}
	if (at < len)
		snprintf(buf + at, len - at, " (MB/s counts the bytes, IOPS every I/O "
			 "whatever its size)");
}

void atio_bsmix_json(struct atio_json *j, const struct atio_opts *o)
{
	bool sync = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;

	if (!o->bs_text) {
		atio_json_null(j, "block_mix");
	} else {
		atio_json_array_begin(j, "block_mix");
		for (unsigned d = 0; d < 2; d++)
			for (unsigned i = 0; i < o->bsmix[d].n; i++) {
				atio_json_object_begin(j, NULL);
				atio_json_string(j, "direction", !o->bsmix[1].n ? "all"
						 : d ? "write" : "read");
				atio_json_uint(j, "size", o->bsmix[d].size[i]);
				atio_json_double(j, "share", o->bsmix[d].share[i]);
				atio_json_object_end(j);
			}
		atio_json_array_end(j);
	}
	atio_json_string(j, "rate_counts", o->unit == ATIO_UNIT_MBS ? "bytes"
			 : sync ? "syncs" : "ios");
}
