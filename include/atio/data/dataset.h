/* SPDX-License-Identifier: MIT */
#ifndef ATIO_DATASET_H
#define ATIO_DATASET_H

/*
 * The files a run works on: naming, the share of each thread, creation,
 * filling with incompressible data, reuse, resizing and dropping from the
 * page cache.
 *
 * -f PATH is a directory (files PATH/atio.0, PATH/atio.1, ...) or, when it
 * is not one, a file-name prefix (PATH.0, PATH.1, ...). Every file is
 * -u / -n bytes rounded down to 4 KiB.
 *
 * Sharing. With -n < -p several threads share a file: thread t uses file
 * t % n, and the k threads of one file cut it into k equal disjoint regions,
 * each a whole number of blocks. With -n > -p a thread owns several files,
 * t, t + p, t + 2p, ..., and works on all of them. Either way a thread's
 * work is a list of equal-sized segments (file, start, blocks).
 *
 * Ownership. atio works only on files it made: they carry its mark (see
 * atio/data/owner.h). A file at one of its names without the mark, a symbolic
 * link there, or anything but a regular file is refused (exit 2) before any
 * file is touched; with --take-over a foreign regular file is rewritten
 * whole and marked. Files are opened with O_NOFOLLOW, and each open checks
 * that the name still leads to the file the survey examined.
 *
 * Filling. A file is complete when its size is the target and it has no
 * hole (SEEK_HOLE finds none before the end, FIEMAP no unwritten extent).
 * Files are filled only by appending, never by extending with ftruncate,
 * so an interrupted fill leaves a short file (or one with a hole) that the
 * next run resumes from the first hole, rounded down to a fill chunk; a
 * longer file of atio's is truncated. The fill data is keystream stamped
 * like every write.
 *
 * Locking. The survey takes the dataset's lock (atio/data/lock.h), shared for a
 * read test, alone when anything is to be written; the lock is held until
 * atio_dataset_close().
 *
 * --expand. No fill: after the survey (the same ownership checks and an
 * exclusive lock) every file is created or truncated to zero, and the run
 * grows it by appends; each thread owns its files (-n >= -p). A later run
 * of another mode finds the files short and resumes their fill.
 *
 * A block device (-f /dev/X) is a dataset of one file, the device itself:
 * it is never created, filled, truncated or removed.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "atio/base/opts.h"
#include "atio/base/error.h"
#include "atio/data/lock.h"

/*
 * The fill appends in chunks of this size, one buffer of it per fill
 * thread; a resumed fill restarts at one.
 */
#define ATIO_FILL_CHUNK (4u << 20)

struct atio_file {
	char *path;
	int fd;                    /* opened for the run, -1 before */
	uint64_t size;             /* size the survey found */
	uint64_t valid;            /* bytes of it the survey found complete */
	bool exists;               /* the survey found it */
	bool take;                 /* foreign, to be taken over (--take-over) */
	dev_t dev;                 /* what the survey (or the fill) found */
	ino_t ino;
	int owner;                 /* its mark, as the survey read it (enum atio_owner) */
	uint64_t mark_id;          /* the dataset id its mark names (owner OURS) */
	/*
	 * --expand: bytes appended since the run last emptied the file,
	 * written only by the one thread whose file it is, read after the
	 * threads are joined.
	 */
	uint64_t grown;
};

struct atio_segment {
	int fd;                    /* filled in by atio_dataset_open() */
	unsigned slot;             /* index of fd in its worker's file table */
	unsigned file;             /* index in atio_dataset.files */
	uint64_t start;            /* byte offset of the region in the file */
	uint64_t blocks;           /* region length in blocks */
	uint64_t tag;              /* the file's stamp tag (atio/data/stamp.h), by atio_dataset_open() */
};

struct atio_dataset {
	struct atio_file *files;
	unsigned nfiles;
	uint64_t file_size;
	unsigned nthreads;
	struct atio_segment *segs; /* all threads' segments, thread by thread */
	unsigned *first_seg;       /* [nthreads + 1]: thread t has segs[first_seg[t] .. first_seg[t+1]) */
	uint64_t seg_blocks;       /* blocks in every segment */
	char *prefix;              /* file names without the number */
	char *dir;                 /* the files' directory (NULL for a device or no -f) */
	bool device;               /* -f is a block device */
	struct atio_lock lock;
	unsigned unmarked;         /* files created unmarked (no user xattrs) */
	bool surveyed;             /* the survey accepted every file */
	bool remove_kept;          /* --remove kept the files: another atio shares them */
	bool expand;               /* --expand: files grow from zero during the run */
	/*
	 * The dataset's id (atio/data/owner.h), in its stamps' tags: what the
	 * marks of most of its files name (the first such file's where as
	 * many name another), a new random one when none does, 0 where no
	 * mark can be kept (a block device, a filesystem without user
	 * extended attributes). Set by the survey and by atio_dataset_look().
	 */
	uint64_t id;
	uint64_t id_new;           /* the id drawn for a new dataset, 0 before */
	unsigned marked;           /* files whose mark names the id */
	void *probe_buf;           /* the O_DIRECT probe's buffer, freed with the rest */
};

/* What the fill did, for the report on stderr. */
struct atio_fill_stats {
	unsigned reused;           /* complete at the planned size */
	unsigned created;          /* did not exist */
	unsigned resumed;          /* short, or with a hole: filled from there */
	unsigned truncated;        /* longer than planned */
	unsigned taken;            /* foreign, taken over with --take-over */
	unsigned older;            /* atio's, of an older format (stamp version 1): rewritten */
	unsigned strays;           /* atio's, marked for another dataset: rewritten (in older too) */
	uint64_t to_write;         /* bytes the fill has to write */
	/*
	 * The fill cuts every file at what it trusts before it appends: it
	 * gives back to_free, the blocks atio's own files hold past that
	 * (st_blocks, also past their ends, as xfs keeps after appends),
	 * and then takes to_allocate, everything from there to the plan.
	 */
	uint64_t to_allocate;
	uint64_t to_free;
};

/*
 * Whether the survey found @f anything but complete at @d's planned size:
 * the fill cuts it at what it trusts and appends the rest.
 */
static inline bool atio_file_needs_work(const struct atio_dataset *d, const struct atio_file *f)
{
	return f->size != d->file_size || f->valid != d->file_size;
}

/* The size of every file of @o's dataset: -u / -n rounded down to 4 KiB. */
uint64_t atio_dataset_file_size(const struct atio_opts *o);

/*
 * Name the files and cut them into segments from @o; no I/O except
 * checking that -f (or its parent, for a prefix) is an existing directory.
 * Without -f (the null engine) the files have no names and only the
 * segments are planned.
 * Returns 0 or a negative errno with @e filled.
 */
int atio_dataset_plan(struct atio_dataset *d, const struct atio_opts *o, struct atio_error *e);

/*
 * Check that the open-file limit (RLIMIT_NOFILE) allows the run, raising
 * the soft limit up to the hard one when that is enough; take the lock;
 * then look at the files as they are, changing nothing: which are atio's,
 * which are complete, which are longer than planned, and how much of a
 * short or holed one can be trusted (up to its first hole, rounded down to
 * a fill chunk). Count in @fs the bytes still to write and check that the
 * filesystem has room for what of them atio's files do not already hold.
 * A refused run leaves every file as it was.
 * Returns 0 or a negative errno with @e filled.
 */
int atio_dataset_survey(struct atio_dataset *d, const struct atio_opts *o,
			struct atio_fill_stats *fs, struct atio_error *e);

/*
 * What atio_dataset_survey() does for a reader that writes nothing
 * (--check): the open-file limit, the lock (shared), and every file's
 * state (which exist and their sizes), but no plan to fill and no
 * free-space check; files without atio's mark are accepted, since reading
 * them changes nothing (a symbolic link or a non-regular file is still
 * refused). Returns 0 or a negative errno with @e filled.
 */
int atio_dataset_look(struct atio_dataset *d, const struct atio_opts *o, struct atio_error *e);

/*
 * Cut every existing file that needs work at what the survey trusts of it
 * (which frees its blocks past that, also those past its end), all before
 * the first append, then append incompressible data to every one, in
 * parallel (one thread per file, at most @o->threads at once), and make it
 * durable with fdatasync(). *@stop becoming non-zero abandons the fill with
 * -EINTR; what was written stays and the next run resumes from it
 * (unless --remove deletes it).
 * Returns 0 or a negative errno with @e filled.
 */
int atio_dataset_fill(struct atio_dataset *d, const struct atio_opts *o,
		      const int *stop, struct atio_error *e);

/*
 * --expand, after the survey: create every missing file (and mark it),
 * mark a file taken over, and truncate every file to zero, so that the run
 * grows each from nothing. Only files the survey accepted (atio's, or
 * foreign ones with --take-over) are touched, and each open checks that
 * the name still leads to the file the survey examined.
 * Returns 0 or a negative errno with @e filled.
 */
int atio_dataset_empty(struct atio_dataset *d, struct atio_error *e);

/*
 * Open every file for the run (O_DIRECT with --uncached, O_DSYNC with
 * --dsync, O_SYNC with --osync), check that the
 * filesystem accepts O_DIRECT at the block size, and fill in the segments'
 * descriptors. Returns 0 or a negative errno with @e filled.
 */
int atio_dataset_open(struct atio_dataset *d, const struct atio_opts *o, struct atio_error *e);

/*
 * After the run: every file still has the name, the inode and the size it
 * had when the run began (with --expand, the size its appends since it
 * was last emptied give it: f->grown), and no hole before that size
 * (SEEK_HOLE). A file that changed under the run (another
 * program truncated, extended, replaced it, or cut it and grew it again,
 * or punched a hole in it) makes the measurement worthless. Returns 0, or -ESTALE with @e filled (exit 1).
 */
int atio_dataset_verify(struct atio_dataset *d, struct atio_error *e);

/*
 * Write back and drop the files' pages from the page cache, so that the
 * measured run starts cold. Returns 0 or a negative errno with @e filled.
 */
int atio_dataset_drop_cache(struct atio_dataset *d, struct atio_error *e);

/*
 * Close the descriptors; with @remove also unlink the files, but only
 * where the survey accepted the whole dataset, only files that still are
 * the ones the run used and are atio's (not a file waiting to be taken
 * over), and only with the lock held alone: when another atio shares it,
 * the files stay and d->remove_kept says so. Release the lock.
 */
int atio_dataset_close(struct atio_dataset *d, bool remove, struct atio_error *e);

/* Free what atio_dataset_plan() allocated. */
void atio_dataset_free(struct atio_dataset *d);

#endif
