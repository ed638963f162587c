/* SPDX-License-Identifier: MIT */
/* Reducible data: see include/atio/data/reduce.h. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "atio/data/reduce.h"
#include "atio/data/stamp.h"

unsigned atio_reduce_cut(double compress)
{
	double cut;

	if (compress <= 1.0)
		return ATIO_SECTOR;
	cut = floor(ATIO_SECTOR / compress + 0.5) - ATIO_REDUCE_SLACK;
	return cut < ATIO_STAMP_BYTES ? ATIO_STAMP_BYTES
		: cut > ATIO_SECTOR ? ATIO_SECTOR : (unsigned)cut;
}

void atio_reduce_plan(struct atio_reduce *rd, double compress, double dedup, uint64_t unit,
		      uint64_t file_size, uint64_t seed)
{
	double groups;

	rd->cut = atio_reduce_cut(compress);
	rd->unit = unit ? unit : ATIO_REDUCE_UNIT;
	rd->units = (file_size + rd->unit - 1) / rd->unit;
	if (!rd->units)
		rd->units = 1;
	rd->groups = rd->units;
	if (dedup > 1.0) {
		groups = floor((double)rd->units / dedup + 0.5);
		rd->groups = groups < 1 ? 1 : groups > (double)ATIO_REDUCE_MAX_GROUPS
			? ATIO_REDUCE_MAX_GROUPS : (uint64_t)groups;
	}
	rd->base = atio_data_key(seed, "reduce", 0);
}

/* The host's part was mixed in once, by atio_reduce_plan(): no system call per write. */
uint64_t atio_reduce_key(const struct atio_reduce *rd, uint64_t tag)
{
	uint64_t x = rd->base ^ tag;

	return atio_splitmix64(&x);
}

/* Bits 0-9 cut, 10-31 the unit in sectors, 32-63 groups (0: a unit is its own group). */
uint64_t atio_reduce_word(const struct atio_reduce *rd)
{
	uint64_t groups = rd->groups < rd->units ? rd->groups : 0;

	return rd->cut | (rd->unit / ATIO_SECTOR) << 10 | groups << 32;
}

bool atio_reduce_unword(struct atio_reduce *rd, uint64_t word, uint64_t file_size)
{
	memset(rd, 0, sizeof(*rd));
	rd->cut = (unsigned)(word & 0x3ff);
	rd->unit = (word >> 10 & 0x3fffff) * ATIO_SECTOR;
	if (rd->cut < ATIO_STAMP_BYTES || rd->cut > ATIO_SECTOR || !rd->unit)
		return false;
	rd->units = (file_size + rd->unit - 1) / rd->unit;
	if (!rd->units)
		rd->units = 1;
	rd->groups = word >> 32 ? word >> 32 : rd->units;
	return true;
}

/* The group of unit @i: perm(i) mod groups, perm keyed by the file's key. */
static uint64_t group_of(const struct atio_reduce *rd, const struct atio_perm *perm, uint64_t i)
{
	if (rd->groups >= rd->units || i >= rd->units)
		return i;
	return atio_perm_at(perm, i) % rd->groups;
}

uint64_t atio_reduce_pos(const struct atio_reduce *rd, uint64_t key, uint64_t off)
{
	struct atio_perm perm;

	atio_perm_init(&perm, rd->units, key);
	return group_of(rd, &perm, off / rd->unit) * rd->unit + off % rd->unit;
}

int atio_reduce_fill(const struct atio_reduce *rd, struct atio_keystream *ks, void *buf,
		     size_t len, uint64_t off, uint64_t tag)
{
	const uint64_t key = atio_reduce_key(rd, tag), word = atio_reduce_word(rd);
	unsigned char *b = buf;
	struct atio_perm perm;
	size_t done = 0;

	len -= len % ATIO_SECTOR;
	atio_perm_init(&perm, rd->units, key);
	/* A run of sectors in one unit continues one keystream: made in one call. */
	while (done < len) {
		uint64_t at = off + done, in = at % rd->unit;
		uint64_t pos = group_of(rd, &perm, at / rd->unit) * rd->unit + in;
		size_t run = rd->unit - in < len - done ? (size_t)(rd->unit - in) : len - done;
		int ret = atio_keystream_short(ks, b + done, run, key, pos);

		if (ret)
			return ret;
		atio_stamp_put(b + done, run, pos, pos, key, word, ATIO_STAMP_REDUCED, tag);
		if (rd->cut < ATIO_SECTOR)
			for (size_t s = 0; s < run; s += ATIO_SECTOR)
				memset(b + done + s + rd->cut, 0, ATIO_SECTOR - rd->cut);
		done += run;
	}
	return 0;
}
