/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CHECK_SECTOR_H
#define ATIO_CHECK_SECTOR_H

/*
 * One block's sectors against their stamps and against the write expected
 * there (src/data/check_sector.c): what --check, --verify and the journal of
 * --fsync --verify judge every sector with, and the kinds of bad sector.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atio/data/dataset.h"
#include "atio/data/keystream.h"
#include "atio/data/stamp.h"

enum atio_check_kind {
	ATIO_CHECK_ZEROS,          /* every byte zero */
	ATIO_CHECK_NO_STAMP,       /* no stamp atio reads: another program's data */
	ATIO_CHECK_MISPLACED,      /* a good stamp of another offset */
	ATIO_CHECK_CORRUPT,        /* the data differs from what its stamp names */
	ATIO_CHECK_UNREADABLE,     /* the read failed */
	/*
	 * With a record of what was written (--verify on writes, the
	 * journal of --fsync --verify): a good sector of the wrong write.
	 */
	ATIO_CHECK_OLDER,          /* an older write of the block, or the fill: a lost write */
	ATIO_CHECK_NEWER,          /* a later write of the thread, not to this block: misdirected */
	ATIO_CHECK_OTHER,          /* another key's write: another run's (each draws its keys) */
	ATIO_CHECK_ABSENT,         /* no data where the journal says a synced write is */
	ATIO_CHECK_DAMAGED,        /* a stamp whose fields and check word disagree */
	ATIO_CHECK_FOREIGN,        /* a good stamp of another dataset (no file's tag) */
	ATIO_CHECK_OLD_VERSION,    /* a stamp of version 1, not checked */
	ATIO_CHECK_HOLE,           /* a hole inside a file: lost data */
};

/* One range of consecutive bad sectors of one kind. */
struct atio_check_bad {
	unsigned file;             /* index in the dataset's files */
	uint64_t off;              /* offset of the first bad sector */
	uint64_t len;              /* bytes */
	enum atio_check_kind kind;
	/*
	 * MISPLACED, FOREIGN: the offset the first sector's stamp names;
	 * CORRUPT: the first differing byte of the first sector; UNREADABLE:
	 * the errno.
	 */
	uint64_t detail;
	unsigned from_file;        /* MISPLACED: the file whose data it is (may be file) */
	const char *from_path;     /* its path when another file's, else NULL */
	/* OLDER, NEWER, OTHER, ABSENT: the write expected there. */
	uint64_t want_gen;
	uint64_t want_key;
};

/*
 * Check the @len bytes at @buf (whole sectors), read at file offset @off
 * of file @file of dataset @ds (its id and number of files), against their
 * stamps, with @ks (@len bytes) to make the keystream in and @kctx to keep
 * the cipher context between calls.
 * Returns 0 when every sector is good; 1 for the first bad one, with @bad
 * saying where (file, off, len 512), which kind and the kind's detail
 * (from_file for a misplaced one), and @found the stamp the sector holds
 * when it decodes; -EIO when the keystream cannot be made. --check calls
 * it again past each bad sector; --verify stops at the first.
 */
int atio_check_block(const void *buf, size_t len, uint64_t off, const struct atio_dataset *ds,
		     unsigned file, struct atio_keystream *kctx, void *ks,
		     struct atio_check_bad *bad, struct atio_stamp *found);

/*
 * What bad sector @b holds, in words, into @buf: "zeros (...)", "the data
 * written for offset N of PATH (misplaced: another file's; ...)", and so
 * on; @found is the stamp atio_check_block() gave with it.
 */
void atio_check_describe(char *buf, size_t len, const struct atio_check_bad *b,
			 const struct atio_stamp *found);

/*
 * Check that the 512-byte @sector, already found good by
 * atio_check_block(), is the data of the write of generation @gen with
 * key @key (with @newer_ok, or a later write of the same key). Returns 0
 * when it is (or holds no stamp: atio_check_block() names that); 1 with
 * @bad's kind (OLDER: the fill or an older generation, detail the found
 * generation, 0 for the fill; NEWER: a later one, meant for another block;
 * OTHER: another key, detail that key), want_gen and want_key set and
 * @found the sector's stamp. @bad's file, off and len are the caller's.
 */
int atio_check_write(const void *sector, uint64_t gen, uint64_t key, bool newer_ok,
		     struct atio_check_bad *bad, struct atio_stamp *found);

/*
 * The same for reduced data (atio/data/reduce.h), which carries no
 * generation: the sector at @sector must hold this run's reduced data, of
 * the file's key @key and shape @word (atio_reduce_word()). Returns 0 when
 * it does (or holds no whole stamp, left to atio_check_block()), 1 when it
 * holds the fill (OLDER) or other data (OTHER, detail its key).
 */
int atio_check_reduced(const void *sector, uint64_t key, uint64_t word,
		       struct atio_check_bad *bad, struct atio_stamp *found);

/* Words for a kind, e.g. "zeros", for text and JSON. */
const char *atio_check_kind_name(enum atio_check_kind k);

#endif
