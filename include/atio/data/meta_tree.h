/* SPDX-License-Identifier: MIT */
#ifndef ATIO_META_TREE_H
#define ATIO_META_TREE_H

/*
 * The tree of a metadata run (--meta) and its ownership.
 *
 * The tree is the directory DIR/atio-meta under -f DIR, made by atio and
 * marked with the extended attribute user.atio (the mark of atio's data
 * files, atio/data/owner.h) holding "atio-meta 1 ID STATE THREADS FILES
 * DIRS SIZE SHARED SEED": ID the tree's random 64-bit id (16 lowercase
 * hexadecimal digits, in the tags of the stamps of its files' data),
 * STATE what it holds (empty, files, renamed or partial: a phase began
 * and did not end), then the shape its files were made with. In it, each
 * thread's tree t0, t1 ... (or with --shared-dir one tree, shared) holds
 * the directories d0 .. dDIRS-1, which hold the files: fK or, renamed,
 * rK (with --shared-dir tI.fK and tI.rK, I the thread), file K of a
 * thread in directory K % DIRS.
 *
 * atio works only in a tree that carries its mark: an atio-meta without
 * it is foreign and is neither used nor changed. It removes only the
 * names of that layout, and leaves a directory holding anything else.
 *
 * Several atio (one a node) may share one tree as its members (--shared-by
 * I/N): SHARED in the mark is then N; member I's thread t is thread
 * I * THREADS + t of the tree, so no two members' names meet. Whichever
 * member comes first makes the tree; the others take it only when its
 * mark is the one they would write (same shape, N and SEED). Each member
 * removes only its own files, the last one the directories. The members
 * write no STATE (it stays empty): each is at its own phase, and finds
 * its files by their names.
 * The tree is locked as a dataset is (atio/data/lock.h), through
 * DIR/atio-meta.lock, so that two atio never work on it at once.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atio/base/error.h"
#include "atio/data/lock.h"

#define ATIO_META_TREE "atio-meta"

enum atio_meta_state {
	ATIO_META_EMPTY,           /* the directories, no files */
	ATIO_META_FILES,           /* every file, at its first name */
	ATIO_META_RENAMED,         /* every file, renamed */
	ATIO_META_PARTIAL,         /* a phase began and did not end */
};

/* What the mark of a tree says. */
struct atio_meta_mark {
	uint64_t id;
	enum atio_meta_state state;
	unsigned threads;
	uint64_t files;            /* a thread */
	unsigned dirs;
	uint64_t file_size;
	bool shared;
	unsigned members;          /* --shared-by's N, or 0 */
	uint64_t seed;
};

struct atio_meta_tree {
	char *top;                 /* DIR/atio-meta */
	struct atio_lock lock;
	bool exists;               /* the tree was there (ours), or atio made it */
	struct atio_meta_mark mark;/* what its mark says, once it exists */
};

/* "empty", "files", "renamed", "partial". */
const char *atio_meta_state_name(enum atio_meta_state s);

/* The mark's text of @m into @buf; what snprintf returns. */
int atio_meta_mark_format(char *buf, size_t len, const struct atio_meta_mark *m);

/* Parse the mark's text @text into @m: 0, or -EINVAL when it is no mark of this format. */
int atio_meta_mark_parse(const char *text, struct atio_meta_mark *m);

/*
 * Lock the tree under directory @dir and look at it: absent, or atio's
 * (t->exists, t->mark read). A @member of a shared tree (--shared-by)
 * shares the lock with the other members, and waits a while for the mark
 * of a tree another member is making. Returns 0; -errno with @e filled when the
 * lock is held by another atio (exit 1), @dir is no directory or the
 * tree is foreign (exit 2).
 */
int atio_meta_tree_open(struct atio_meta_tree *t, const char *dir, bool member,
			struct atio_error *e);

/*
 * Read the mark of the tree another atio made under @dir (DIR/atio-meta)
 * into @m, neither locking nor changing it: 0, or exit 2 with @e when
 * there is no such tree or it bears no mark.
 */
int atio_meta_tree_peek(const char *dir, struct atio_meta_mark *m, struct atio_error *e);

/* Make the tree's top directory with mark @m (state empty): 0 or -errno with @e. */
int atio_meta_tree_make(struct atio_meta_tree *t, const struct atio_meta_mark *m,
			struct atio_error *e);

/*
 * A member of a shared tree (--shared-by): make the top with mark @m, or,
 * when another member made it first, take it as it is when its mark is
 * @m's (state aside); else refuse it (exit 2), leaving it as it is.
 * Returns 0 or -errno with @e.
 */
int atio_meta_tree_join(struct atio_meta_tree *t, const struct atio_meta_mark *m,
			struct atio_error *e);

/* Refuse the tree @top of mark @found, another run's than @want's: exit 2 with @e. */
int atio_meta_tree_other(const char *top, const struct atio_meta_mark *found,
			 const struct atio_meta_mark *want, struct atio_error *e);

/*
 * A member of a shared tree, its own files removed: rmdir of the shared
 * tree's @dirs directories, then of the tree and its top; one that is not
 * empty (other members' files) or gone (another member removed it) is
 * passed over, so that the last member removes them. 0 or -errno with @e.
 */
int atio_meta_tree_prune(struct atio_meta_tree *t, unsigned dirs, struct atio_error *e);

/* Write @state into the tree's mark: 0 or -errno with @e. */
int atio_meta_tree_state(struct atio_meta_tree *t, enum atio_meta_state state,
			 struct atio_error *e);

/*
 * Whether @name is a file name of the layout above (fK, rK, tI.fK, tI.rK)
 * or, with @dir, a directory name (tI, shared, dK).
 */
bool atio_meta_tree_name(const char *name, bool dir);

/*
 * Remove the tree whole: its files, directories and top, only names of
 * its layout. Returns 0; -errno with @e filled when something else is in
 * it (left there, with the directories that hold it) or a removal failed.
 */
int atio_meta_tree_remove(struct atio_meta_tree *t, struct atio_error *e);

/* Release the lock and free @t. */
void atio_meta_tree_close(struct atio_meta_tree *t);

/*
 * Drop the caches of what the tree holds: its filesystem synced
 * (syncfs), then the kernel's page, dentry and inode caches dropped
 * (/proc/sys/vm/drop_caches: every filesystem's, as no narrower drop of
 * dentries and inodes exists). Returns 0 or -errno (-EACCES: not root)
 * with @why saying what could not be done.
 */
int atio_meta_tree_drop(const struct atio_meta_tree *t, char *why, size_t len);

#endif
