/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CHECK_H
#define ATIO_CHECK_H

/*
 * --check: read a dataset whole and check every 512-byte sector against its
 * stamp (include/atio/data/stamp.h), the integrity pass after a failover, a
 * power loss or a firmware update.
 *
 * A sector is good when its stamp decodes whole (its check word agrees
 * with its fields), carries the tag of the file it was read from (the
 * dataset's id and the file's index, atio/data/stamp.h), names the offset it
 * was read from, and the rest of it is the keystream the stamp names.
 * Otherwise it is bad, for one of the reasons of enum atio_check_kind: a
 * sector of another file of the dataset is misplaced and names that file,
 * one with the tag of no file of the dataset is foreign. The dataset's id
 * is what the files' marks name (atio/data/owner.h, atio/data/dataset.h); files
 * whose marks name another id or another file are said apart
 * (atio_check_marks()), and where no file carries a mark the id is the one
 * the data of most files names. Holes (SEEK_HOLE) are not read: they are
 * counted as unwritten, and are bad (lost data) in a file of the planned
 * size or with data after them, since atio fills and grows files only by
 * appending; what a file lacks to reach its planned size is unwritten,
 * not bad, since without a record of what was written atio cannot tell
 * lost data from data never written. Past the planned size (a file
 * longer than planned, which a run truncates) holes are not the
 * dataset's: unwritten, never bad. With the journal of an --fsync --verify run
 * (atio/data/journal.h) it can: every sector the journal claims must hold the
 * claimed write or a later one, and a claimed sector no read reached is
 * bad (ABSENT).
 *
 * The work. Every file is cut into units of the read size (-s, 4 MiB by
 * default); threads (-p of them, at most one per unit) take units in order
 * from a shared counter, read each with one pread() (O_DIRECT unless
 * --cached) and check its sectors. The keystream is made once per run of
 * sectors that continue each other's keystream (a whole unit of fill
 * data, one block of a write), so checking costs about what making the
 * data cost. Consecutive bad sectors of one kind in a unit are one range;
 * the first ATIO_CHECK_LIST ranges found are kept, the others counted.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atio/data/dataset.h"
#include "atio/base/error.h"
#include "atio/data/pool.h"
#include "atio/data/check_sector.h"
#include "atio/data/stamp.h"

#define ATIO_CHECK_LIST 100

struct atio_journal_claims;

/* What a file's mark says, for --check (atio_check_marks()). */
enum atio_check_mark {
	ATIO_CHECK_MARK_OK,        /* atio's mark of the file, of the dataset's id */
	ATIO_CHECK_MARK_NONE,      /* no mark (or no user xattrs kept) */
	ATIO_CHECK_MARK_OTHER_NAME,    /* the mark of another file name: renamed or copied */
	ATIO_CHECK_MARK_OTHER_DATASET, /* the mark of another dataset's id */
	ATIO_CHECK_MARK_MALFORMED, /* "atio-file ..." but no mark atio writes */
};

struct atio_check_file {
	bool missing;              /* no file at the name */
	uint64_t size;             /* its size when the check began */
	uint64_t unwritten;        /* bytes in holes */
	enum atio_check_mark mark;
	uint64_t mark_id;          /* MARK_OTHER_DATASET: the id its mark names */
	char *mark_text;           /* MARK_MALFORMED: the mark (allocated) */
	const char *mark_why;      /* MARK_MALFORMED: what is wrong with it */
};

struct atio_check {
	/* Set by the caller before atio_check_start(). */
	struct atio_dataset *ds;   /* planned and looked at (atio_dataset_look) */
	size_t unit;               /* bytes per read, a multiple of 512 */
	unsigned nthreads;         /* at most; after start, how many run */
	bool direct;               /* O_DIRECT */
	int *stop;                 /* non-zero: stop at the next unit */
	int done_fd;               /* eventfd each thread signals at exit */

	/* Progress, read with relaxed atomic loads while the threads run. */
	uint64_t checked;          /* bytes read and checked */
	uint64_t to_check;         /* bytes in the files, holes included */

	/* Results, complete after atio_check_finish(). */
	struct atio_check_file *files;
	uint64_t bad_sectors;
	uint64_t bad_ranges;
	struct atio_check_bad bad[ATIO_CHECK_LIST];
	unsigned nlisted;          /* ranges in bad[], sorted by file and offset */
	uint64_t unwritten;        /* bytes in holes, all files */
	uint64_t elapsed_ns;
	unsigned started;          /* threads started: the eventfd counts to this */
	unsigned marks_bad;        /* files whose mark names another file or dataset, or is malformed */
	/*
	 * No file carried a mark: the dataset's id is the one the data of
	 * this many files named (0 when none did: the id is 0).
	 */
	unsigned id_from_data;
	bool no_marks;
	/*
	 * The journal of the run that wrote the dataset (atio/data/journal.h),
	 * or NULL: every sector it claims is also checked against the
	 * claim (set by the caller before start).
	 */
	struct atio_journal_claims *journal;

	/* Private. */
	pthread_mutex_t lock;
	pthread_t *threads;
	void *checkers;            /* [nthreads]: each thread's buffers */
	uint64_t *first_unit;      /* [nfiles + 1]: units of file i from first_unit[i] */
	uint64_t next_unit;
	uint64_t t0;
	int *fds;
	int err;                   /* first error that ended a thread */
	struct atio_error e;
};

/*
 * Before atio_check_start(), after atio_dataset_look(): read what the
 * files' marks say (c->files[i].mark, c->marks_bad), and where no file
 * carries a mark, take the dataset's id from the first sector of every
 * file (c->no_marks, c->id_from_data, c->ds->id). Allocates c->files.
 * Returns 0, or -errno with @e filled: a file made by an older atio
 * (mark or stamp version 1) is refused with a message saying to make
 * the dataset again (exit 1).
 */
int atio_check_marks(struct atio_check *c, struct atio_error *e);

/*
 * Open every existing file of @c->ds for reading and start the threads.
 * Each thread signals @c->done_fd once when it ends; c->started says how
 * many there are. Returns 0 or a negative errno with @e filled (nothing
 * runs then; atio_check_free() still frees what was allocated).
 */
int atio_check_start(struct atio_check *c, struct atio_error *e);

/*
 * Wait for the threads, sort the listed ranges, close the files. Returns
 * 0, or the negative errno that ended a thread (with @e filled): a bad
 * sector is a result, not an error; an unreadable one too.
 */
int atio_check_finish(struct atio_check *c, struct atio_error *e);

/* Free what atio_check_start() allocated. */
void atio_check_free(struct atio_check *c);

#endif
