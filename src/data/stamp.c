/* SPDX-License-Identifier: MIT */
/* Reading the stamp back: see include/atio/data/stamp.h for the format. */
#include <errno.h>

#include "atio/data/keystream.h"
#include "atio/data/reduce.h"
#include "atio/data/stamp.h"

/* The inverse of odd @k modulo 2^64, by Newton's iteration. */
static uint64_t inverse(uint64_t k)
{
	uint64_t x = k;

	for (int i = 0; i < 5; i++)
		x *= 2 - k * x;
	return x;
}

/* fmix64 undone: x ^= x >> 33 is its own inverse. */
static uint64_t unfmix(uint64_t x)
{
	x ^= x >> 33;
	x *= inverse(ATIO_STAMP_F2);
	x ^= x >> 33;
	x *= inverse(ATIO_STAMP_F1);
	return x ^ (x >> 33);
}

uint64_t atio_stamp_tag_file(uint64_t tag, uint64_t dataset)
{
	return unfmix(unfmix(tag) - dataset) - 1;
}

uint64_t atio_stamp_tag_dataset(uint64_t tag, uint64_t file)
{
	return unfmix(tag) - atio_stamp_fmix(file + 1);
}

int atio_stamp_get(const void *sector, struct atio_stamp *st)
{
	const unsigned char *s = sector;
	uint64_t n = atio_stamp_load(s + 8) * inverse(ATIO_STAMP_K1);
	uint64_t head = atio_stamp_load(s) - n * ATIO_STAMP_K0;
	uint64_t head1 = atio_stamp_load(s) ^ n * ATIO_STAMP_K0;   /* version 1's mask */
	unsigned kind = (unsigned)(head >> 40) & 0xff;
	struct atio_reduce rd;

	st->offset = (n - 1) * ATIO_SECTOR;
	if ((head1 & 0xffffffffu) == ATIO_STAMP_MAGIC && (head1 >> 32 & 0xff) == 1 &&
	    !(head1 >> 48)) {
		st->version = 1;
		st->kind = (enum atio_stamp_kind)(head1 >> 40 & 0xff);
		return -EPROTONOSUPPORT;
	}
	if ((head & 0xffffffffu) != ATIO_STAMP_MAGIC || head >> 48 ||
	    (head >> 32 & 0xff) != ATIO_STAMP_VERSION)
		return -EBADMSG;
	st->version = ATIO_STAMP_VERSION;
	st->kind = (enum atio_stamp_kind)kind;
	st->gen = atio_stamp_load(s + 16) - n * ATIO_STAMP_K2;
	st->key = atio_stamp_load(s + 24) - n * ATIO_STAMP_K3;
	st->pos = atio_stamp_load(s + 32) - n * ATIO_STAMP_K4;
	st->tag = atio_stamp_load(s + 40) - n * ATIO_STAMP_K5;
	if ((kind != ATIO_STAMP_FILL && kind != ATIO_STAMP_WRITE && kind != ATIO_STAMP_REDUCED) ||
	    (kind == ATIO_STAMP_FILL) != (st->gen == 0) ||
	    (kind == ATIO_STAMP_REDUCED && !atio_reduce_unword(&rd, st->gen, 0)) ||
	    atio_stamp_load(s + 48) != atio_stamp_sum(head, st->gen, st->key, st->tag) +
					 n * ATIO_STAMP_C1 + st->pos * ATIO_STAMP_C2)
		return -EUCLEAN;
	return 0;
}

int atio_stamp_check(const void *sector, uint64_t off, struct atio_stamp *st, size_t *bad)
{
	const unsigned char *s = sector;
	unsigned char want[ATIO_SECTOR];
	int ret = atio_stamp_get(sector, st);

	if (ret)
		return ret;
	if (st->offset != off)
		return -EFAULT;
	if (atio_keystream(want, sizeof(want), st->key, st->pos))
		return -EIO;
	for (size_t i = ATIO_STAMP_BYTES; i < ATIO_SECTOR; i++)
		if (s[i] != want[i]) {
			*bad = i;
			return -EILSEQ;
		}
	return 0;
}
