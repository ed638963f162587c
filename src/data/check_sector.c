/* SPDX-License-Identifier: MIT */
/*
 * One block's sectors against their stamps and against the write expected
 * there: what --check, --verify and the journal's check share. See
 * include/atio/data/check_sector.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "atio/data/check_sector.h"
#include "atio/data/pool.h"
#include "atio/data/reduce.h"
#include "atio/data/stamp.h"

const char *atio_check_kind_name(enum atio_check_kind k)
{
	static const char *const names[] = { "zeros", "no stamp", "misplaced", "corrupt",
					     "unreadable", "older", "newer", "other", "absent",
					     "damaged", "foreign", "old version", "hole" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

void atio_check_describe(char *buf, size_t len, const struct atio_check_bad *b,
			 const struct atio_stamp *found)
{
	switch (b->kind) {
	case ATIO_CHECK_ZEROS:
		snprintf(buf, len, "zeros (atio's data is never all zeros)");
		break;
	case ATIO_CHECK_NO_STAMP:
		snprintf(buf, len, "no stamp of atio's (another program's data, or damaged)");
		break;
	case ATIO_CHECK_MISPLACED:
		if (b->from_file != b->file)
			snprintf(buf, len, "the data written for offset %" PRIu64 " of %s (misplaced: "
				 "another file's; generation %" PRIu64 ", key %016" PRIx64 ")",
				 b->detail, b->from_path ? b->from_path : "?", found->gen, found->key);
		else
			snprintf(buf, len, "the data written for offset %" PRIu64 " (misplaced; "
				 "generation %" PRIu64 ", key %016" PRIx64 ")", b->detail,
				 found->gen, found->key);
		break;
	case ATIO_CHECK_CORRUPT:
		snprintf(buf, len, "its stamp (generation %" PRIu64 ", key %016" PRIx64 ") over "
			 "other data from byte %" PRIu64 " of the sector on (torn or corrupted)",
			 found->gen, found->key, b->detail);
		break;
	case ATIO_CHECK_UNREADABLE:
		snprintf(buf, len, "an error: %s", strerror((int)b->detail));
		break;
	case ATIO_CHECK_OLDER:
		if (found->kind == ATIO_STAMP_FILL)
			snprintf(buf, len, "the fill's data, older than that write (a lost write)");
		else
			snprintf(buf, len, "generation %" PRIu64 ", an older write of the block "
				 "(a lost write, or the block rolled back)", found->gen);
		break;
	case ATIO_CHECK_NEWER:
		snprintf(buf, len, "generation %" PRIu64 ", a later write meant for another "
			 "block (misdirected)", found->gen);
		break;
	case ATIO_CHECK_OTHER:
		snprintf(buf, len, "generation %" PRIu64 " of key %016" PRIx64 ", another run's "
			 "write (a lost write)", found->gen, found->key);
		break;
	case ATIO_CHECK_ABSENT:
		snprintf(buf, len, "no data (a hole, or past the end of the file)");
		break;
	case ATIO_CHECK_DAMAGED:
		snprintf(buf, len, "a damaged stamp (its fields and check word disagree: "
			 "corrupted in its first %u bytes)", ATIO_STAMP_BYTES);
		break;
	case ATIO_CHECK_FOREIGN:
		snprintf(buf, len, "the data of another dataset (its stamp's tag is no file's "
			 "of this dataset)");
		break;
	case ATIO_CHECK_OLD_VERSION:
		snprintf(buf, len, "a stamp of an older atio (version 1), which this atio does "
			 "not check (make the data again: --prepare for files, a --seq write test "
			 "over the whole of a block device)");
		break;
	case ATIO_CHECK_HOLE:
		snprintf(buf, len, "no data: a hole inside the file (lost data)");
		break;
	}
}

int atio_check_write(const void *sector, uint64_t gen, uint64_t key, bool newer_ok,
		     struct atio_check_bad *bad, struct atio_stamp *found)
{
	if (atio_stamp_get(sector, found))
		return 0;  /* not a whole stamp: atio_check_block() names it */
	bad->want_gen = gen;
	bad->want_key = key;
	if (found->kind == ATIO_STAMP_WRITE && found->key == key &&
	    (found->gen == gen || (newer_ok && found->gen > gen)))
		return 0;
	if (found->kind == ATIO_STAMP_FILL || (found->key == key && found->gen < gen)) {
		bad->kind = ATIO_CHECK_OLDER;
		bad->detail = found->kind == ATIO_STAMP_FILL ? 0 : found->gen;
	} else if (found->key == key) {
		bad->kind = ATIO_CHECK_NEWER;
		bad->detail = found->gen;
	} else {
		bad->kind = ATIO_CHECK_OTHER;
		bad->detail = found->key;
	}
	return 1;
}

static const unsigned char zero[ATIO_SECTOR];

static bool all_zero(const unsigned char *s)
{
	return memcmp(s, zero, ATIO_SECTOR) == 0;
}

/*
 * Where the stamp of a sector read at @off must place it: @off itself,
 * or for reduced data the place of the group @off holds
 * (atio/data/reduce.h), from the shape the stamp names; UINT64_MAX for a
 * shape atio never writes.
 */
static uint64_t stamp_place(const struct atio_stamp *st, uint64_t off,
			    const struct atio_dataset *ds)
{
	struct atio_reduce rd;

	if (st->kind != ATIO_STAMP_REDUCED)
		return off;
	if (!atio_reduce_unword(&rd, st->gen, ds->file_size))
		return UINT64_MAX;
	return atio_reduce_pos(&rd, st->key, off);
}

/* The bytes of a sector of @st that are keystream's; zeros follow. */
static size_t stamp_cut(const struct atio_stamp *st)
{
	struct atio_reduce rd;

	if (st->kind != ATIO_STAMP_REDUCED || !atio_reduce_unword(&rd, st->gen, 0))
		return ATIO_SECTOR;
	return rd.cut;
}

int atio_check_reduced(const void *sector, uint64_t key, uint64_t word,
		       struct atio_check_bad *bad, struct atio_stamp *found)
{
	if (atio_stamp_get(sector, found))
		return 0;  /* not a whole stamp: atio_check_block() names it */
	bad->want_gen = word;
	bad->want_key = key;
	if (found->kind == ATIO_STAMP_REDUCED && found->key == key && found->gen == word)
		return 0;
	bad->kind = found->kind == ATIO_STAMP_FILL ? ATIO_CHECK_OLDER : ATIO_CHECK_OTHER;
	bad->detail = found->kind == ATIO_STAMP_FILL ? 0 : found->key;
	return 1;
}

/*
 * Decode sector @s read at @off of file @file of @ds: 0, or 1 with the
 * kind of fault and its detail in @bad (file and from_file set).
 */
static int decode(const unsigned char *s, uint64_t off, const struct atio_dataset *ds,
		  unsigned file, struct atio_stamp *st, struct atio_check_bad *bad)
{
	int ret = atio_stamp_get(s, st);
	uint64_t from;

	bad->file = bad->from_file = file;
	bad->from_path = NULL;
	bad->detail = 0;
	if (ret == -EPROTONOSUPPORT) {
		bad->kind = ATIO_CHECK_OLD_VERSION;
		return 1;
	}
	if (ret == -EUCLEAN) {
		bad->kind = ATIO_CHECK_DAMAGED;
		return 1;
	}
	if (ret) {
		bad->kind = all_zero(s) ? ATIO_CHECK_ZEROS : ATIO_CHECK_NO_STAMP;
		return 1;
	}
	if (st->tag != atio_stamp_tag(ds->id, file)) {
		from = atio_stamp_tag_file(st->tag, ds->id);
		bad->detail = st->offset;
		if (from >= ds->nfiles) {
			bad->kind = ATIO_CHECK_FOREIGN;
			return 1;
		}
		bad->kind = ATIO_CHECK_MISPLACED;
		bad->from_file = (unsigned)from;
		bad->from_path = ds->files[from].path;
		return 1;
	}
	if (st->offset != stamp_place(st, off, ds)) {
		bad->kind = ATIO_CHECK_MISPLACED;
		bad->detail = st->offset;
		return 1;
	}
	return 0;
}

int atio_check_block(const void *buf, size_t len, uint64_t off, const struct atio_dataset *ds,
		     unsigned file, struct atio_keystream *kctx, void *ks,
		     struct atio_check_bad *bad, struct atio_stamp *found)
{
	const unsigned char *b = buf;
	size_t n = len / ATIO_SECTOR;
	struct atio_stamp st, next;
	size_t cut;

	for (size_t i = 0; i < n;) {
		size_t run = 1;

		bad->off = off + i * ATIO_SECTOR;
		bad->len = ATIO_SECTOR;
		memset(&st, 0, sizeof(st));
		if (decode(b + i * ATIO_SECTOR, bad->off, ds, file, &st, bad)) {
			*found = st;
			return 1;
		}
		/* The sectors after it that continue its keystream: one call makes it all. */
		while (i + run < n && !decode(b + (i + run) * ATIO_SECTOR,
					      bad->off + run * ATIO_SECTOR, ds, file, &next, bad) &&
		       next.key == st.key && next.pos == st.pos + run * ATIO_SECTOR &&
		       next.kind == st.kind && next.gen == st.gen)
			run++;
		cut = stamp_cut(&st);
		if (atio_keystream_at(kctx, ks, run * ATIO_SECTOR, st.key, st.pos))
			return -EIO;
		for (size_t j = 0; j < run; j++) {
			const unsigned char *got = b + (i + j) * ATIO_SECTOR;
			const unsigned char *want = (const unsigned char *)ks + j * ATIO_SECTOR;

			if (memcmp(got + ATIO_STAMP_BYTES, want + ATIO_STAMP_BYTES,
				   cut - ATIO_STAMP_BYTES) == 0 &&
			    memcmp(got + cut, zero, ATIO_SECTOR - cut) == 0)
				continue;
			bad->off = off + (i + j) * ATIO_SECTOR;
			bad->len = ATIO_SECTOR;
			bad->kind = ATIO_CHECK_CORRUPT;
			bad->file = bad->from_file = file;
			bad->from_path = NULL;
			for (size_t k = ATIO_STAMP_BYTES; k < ATIO_SECTOR; k++)
				if (got[k] != (k < cut ? want[k] : 0)) {
					bad->detail = k;
					break;
				}
			atio_stamp_get(got, found);
			return 1;
		}
		i += run;
	}
	return 0;
}
