/* SPDX-License-Identifier: MIT */
#ifndef ATIO_LOCK_H
#define ATIO_LOCK_H

/*
 * The lock on a dataset, so that two atio never work on the same files at
 * once (one would truncate or fill what the other measures).
 *
 * A dataset of files is locked through its lock file PREFIXlock (atio.lock
 * in the directory of -f DIR, PATH.lock for -f PATH), a block device
 * through its entry in sysfs (/sys/dev/block/MAJOR:MINOR/dev, one for the
 * device whichever of its nodes -f names; its node where sysfs is not
 * mounted). The lock is a flock(): read tests share it,
 * write tests and fills hold it alone. A run that cannot have the lock at
 * once is refused, naming the process that holds it (from /proc/locks).
 *
 * The lock file is atio's: it is created with O_EXCL, marked (the extended
 * attribute user.atio, "atio-lock 1") and holds one line of text saying
 * what it is. An existing file at that name is atio's when it holds that
 * line, or what a crash leaves of it where it was never synced (nothing, a
 * first part of it, or zeros no longer than it) with the mark; such a file
 * without the mark (a user's empty file, or a filesystem without user
 * extended attributes) is used for the lock and never removed; any other
 * is foreign and is neither used nor changed. A run removes the lock file
 * when it ends holding the lock alone.
 *
 * A reader that cannot create the lock file (a read-only filesystem, a
 * directory it may not write, no space or quota left) locks the dataset's
 * directory shared instead, creating nothing; a writer, once it holds the
 * lock file alone, is refused while such a reader holds the directory.
 * Writes always need the lock file.
 */

#include <stdbool.h>
#include <sys/types.h>

#include "atio/base/error.h"

struct atio_lock {
	int fd;                    /* -1 when not held */
	char *path;                /* lock file or device node (as given) */
	bool file;                 /* a lock file of atio's (removed at the end) */
	bool keep;                 /* a file without atio's line or mark: never removed */
	bool exclusive;
	bool dir;                  /* a reader's lock on the dataset's directory */
	int why;                   /* with dir: errno of creating the lock file */
};

/*
 * Take the lock of the dataset whose files are named PREFIX0, PREFIX1 ...
 * (@prefix; @device: the block device @prefix itself), shared or
 * @exclusive, without waiting. Returns 0; -EAGAIN with e->exit 1 and a
 * message naming the holder when another process has it (a writer: also
 * a reader holding the directory); or another -errno with @e filled (exit
 * 2 for a foreign file at the lock's name). A shared lock taken on the
 * directory sets l->dir and l->why, for the caller to say so.
 */
int atio_lock_take(struct atio_lock *l, const char *prefix, bool device, bool exclusive,
		   struct atio_error *e);

/*
 * Turn a shared lock into an exclusive one, without waiting. flock() may
 * drop the shared lock on the way, so a caller that looked at the files
 * under the shared lock looks again. Returns 0 or -errno as above; a lock
 * on the directory (l->dir) cannot be, and gives l->why.
 */
int atio_lock_exclusive(struct atio_lock *l, struct atio_error *e);

/* Release the lock, removing the lock file when no one else holds it. */
void atio_lock_release(struct atio_lock *l);

#endif
