/* SPDX-License-Identifier: MIT */
#ifndef ATIO_JOURNAL_H
#define ATIO_JOURNAL_H

/*
 * The journal of --fsync/--fdatasync --verify: which write every block
 * held when a sync completed, so that after a crash (of atio, the machine
 * or the storage) atio --check proves that every write a completed sync
 * acknowledged is still there.
 *
 * The file is PREFIXjournal (atio.journal in the directory of -f DIR,
 * PATH.journal for -f PATH), beside the lock file; a block device has
 * none. It is atio's: created, truncated and removed by atio only, marked
 * as its files are (atio/data/owner.h; on a filesystem without user extended
 * attributes its header alone tells it), and refused when something else
 * is at its name (exit 2, nothing touched).
 *
 * Format: a 64-byte header (the text "atio journal 1\n", then the number
 * of files, their size and the block size as little-endian 64-bit words
 * at bytes 32, 40 and 48), then 40-byte records, each
 * one write: magic 0x6a6f6974 ("tioj"), file index (32-bit), offset,
 * generation, key (the write's stamp, atio/data/stamp.h) and a check word over
 * the others, all little-endian.
 *
 * When. A thread notes every write it issues. When one of its syncs
 * (the timed ones every -q writes and the final one) has completed, which
 * is only after every write before it has completed, it appends the
 * records of those writes in one write() and then fdatasync()s the
 * journal: a record is written only after the sync that acknowledged its
 * write, so the journal never claims a write no completed sync
 * acknowledged, and when the sync is counted done its claims are durable.
 * Cost per sync: one append of 40 bytes per write since the last sync and
 * one fdatasync() of the journal. The threads append to one file opened
 * with O_APPEND: each record batch lands whole at the end.
 *
 * What it claims. The last record of a block (the highest generation)
 * names a write a completed sync acknowledged: after any crash the block
 * must hold that write or a later write of the same thread (written after
 * the sync, it may or may not have reached the storage). The fill, an
 * older generation, another key, zeros, or no data there fail the check.
 * A thread's key is drawn for its run (atio/data/stamp.h), so an earlier
 * run's write is another key's even when that run had the same --seed and
 * wrote the block at a higher generation: storage rolled back to before
 * the run fails the check.
 * A record cut by a crash (the last, not yet made durable) fails its check
 * word: the journal is read up to it, and what follows is counted, not
 * trusted. So is a record whose check word holds but that names no whole
 * block of the files (an offset off the block size, or past the end).
 *
 * Every other run that writes to the dataset (any write test but
 * --fsync/--fdatasync --verify, a fill, --expand, --prepare) removes the
 * journal first: its claims would no longer hold. --remove removes it
 * with the files.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atio/data/check_sector.h"
#include "atio/base/opts.h"
#include "atio/data/dataset.h"
#include "atio/base/error.h"

#define ATIO_JOURNAL_MAGIC 0x6a6f6974u
#define ATIO_JOURNAL_HEAD 64u

struct atio_journal_rec {
	uint32_t magic;
	uint32_t file;
	uint64_t off;
	uint64_t gen;
	uint64_t key;
	uint64_t sum;
};

/* The run's journal. */
struct atio_journal {
	int fd;                    /* -1: no journal in this run */
	char *path;
};

/* One thread's writes since its last completed sync. */
struct atio_journal_list {
	struct atio_journal_rec *recs;
	unsigned n, cap;
};

/*
 * Whether the run @o keeps a journal: --verify with --fsync or
 * --fdatasync, on files (not a block device).
 */
bool atio_journal_wanted(const struct atio_opts *o, const struct atio_dataset *d);

/*
 * Before anything is written to the dataset @d (the survey done, the
 * lock held alone): when the run keeps a journal, create PREFIXjournal or
 * truncate atio's, mark it, write the header and make it durable;
 * otherwise remove atio's journal if there is one. @j->fd is -1 when
 * there is no journal. Returns 0, or -errno with @e filled (exit 2 for a
 * file at the name that is not atio's journal); a journal whose header
 * cannot be written or made durable is removed again.
 */
int atio_journal_begin(struct atio_journal *j, const struct atio_dataset *d,
		       const struct atio_opts *o, struct atio_error *e);

/* A list for @cap writes between two syncs (-q). Returns 0 or -ENOMEM. */
int atio_journal_list_init(struct atio_journal_list *l, unsigned cap);
void atio_journal_list_free(struct atio_journal_list *l);

/* Note a write issued: @gen of @key at @off of file @file. */
static inline void atio_journal_note(struct atio_journal_list *l, unsigned file, uint64_t off,
				     uint64_t gen, uint64_t key)
{
	if (l->n < l->cap)
		l->recs[l->n++] = (struct atio_journal_rec){ .file = file, .off = off,
							     .gen = gen, .key = key };
}

/*
 * A sync covering every write in @l has completed: append their records
 * and fdatasync() the journal, then empty @l. Returns 0 or -errno.
 */
int atio_journal_commit(struct atio_journal *j, struct atio_journal_list *l);

/*
 * Close the journal; with @remove (--remove, the files removed) remove
 * dataset @d's journal, this run's or an older one, when it is atio's.
 */
void atio_journal_end(struct atio_journal *j, const struct atio_dataset *d, bool remove);

/* For --check: the journal as read, one claim per block. */
struct atio_journal_claim {
	uint64_t off;
	uint64_t gen;
	uint64_t key;
	uint32_t file;
	uint32_t seen;             /* sectors of it checked (atomic) */
};

struct atio_journal_claims {
	char *path;
	struct atio_journal_claim *c;  /* sorted by file, then offset */
	size_t n;
	size_t *first;             /* [nfiles + 1]: claims of file i from first[i] */
	unsigned nfiles;
	uint64_t bs;               /* the run's block size */
	uint64_t records;          /* records read */
	uint64_t cut;              /* bytes after the last good record */
	uint64_t absent;           /* claimed sectors no read reached */
	/*
	 * atio's journal (by its mark) without a whole header: the run that
	 * made it failed before writing one, and could not remove it. It
	 * claims nothing (n 0), and says so.
	 */
	bool headless;
};

/*
 * Read the journal of dataset @d, if there is one: *@jc is NULL when there
 * is none, else allocated. A journal of another dataset shape (files,
 * their size) is refused, naming what it is of; atio's journal (by its
 * mark) whose header was never written whole is read as headless,
 * claiming nothing. Returns 0, or -errno with
 * @e filled (exit 2 for a file that is no journal of atio's).
 */
int atio_journal_load(struct atio_journal_claims **jc, const struct atio_dataset *d,
		      struct atio_error *e);

/*
 * Check the sectors of the @len bytes at @buf, read at @off of file
 * @file (whose stamp tag is @tag), that a claim covers, from *@from on:
 * each must hold the claimed write or a later one of its key. Returns 1
 * for a bad sector, with @bad (file unset) and @found filled and *@from
 * past it; 0 when none is left. Sectors that hold no whole stamp of their
 * file and offset are left to atio_check_block(), so that a damaged
 * generation never passes for a later write.
 */
int atio_journal_judge(struct atio_journal_claims *jc, unsigned file, uint64_t off,
		       const void *buf, size_t len, uint64_t tag, uint64_t *from,
		       struct atio_check_bad *bad, struct atio_stamp *found);

/*
 * After a whole check: call @note for every range of claimed sectors that
 * no read reached (a hole, a short file), as ATIO_CHECK_ABSENT.
 */
void atio_journal_unseen(struct atio_journal_claims *jc,
			 void (*note)(void *arg, const struct atio_check_bad *b), void *arg);

void atio_journal_claims_free(struct atio_journal_claims *jc);

#endif
