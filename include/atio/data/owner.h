/* SPDX-License-Identifier: MIT */
#ifndef ATIO_OWNER_H
#define ATIO_OWNER_H

/*
 * Telling atio's own files from everybody else's.
 *
 * The mark. Every test file atio creates carries the extended attribute
 * user.atio with the text "atio-file 2 ID NAME", ID being the dataset's id
 * (16 lowercase hexadecimal digits: a random 64-bit number drawn when the
 * dataset's first file is made, the same in every file of the dataset,
 * and in the tag of every sector atio writes there, atio/data/stamp.h) and
 * NAME the file's own name within its directory (atio.0, log.3). A mark
 * "atio-file 1 NAME" is of an older atio, whose stamps had no tag: its
 * files are atio's, of an older format, and are made again. atio reuses, resizes,
 * truncates, fills, writes and removes only files that carry the mark with
 * their own name: a file renamed or copied to another of atio's names is not
 * one of its files there. A file without the mark (the user's, or one made
 * by an atio that did not mark its files yet) is foreign; atio touches it
 * only with --take-over, and then rewrites it whole with its own data and
 * marks it. On a filesystem that keeps no user extended attributes atio
 * cannot mark what it creates: an existing file at one of its names is then
 * foreign (never silently trusted).
 *
 * The data. Of a file of its own, atio trusts the bytes up to the first
 * hole, where a hole is what SEEK_HOLE reports or an extent FIEMAP reports
 * as unwritten (fallocated space reads as zeros without device I/O, so it
 * is not test data; SEEK_HOLE counts it as data where its pages are cached).
 */

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define ATIO_OWNER_XATTR "user.atio"

enum atio_owner {
	ATIO_OWNER_OURS,           /* marked with its own name */
	ATIO_OWNER_FOREIGN,        /* no mark */
	ATIO_OWNER_OTHER_NAME,     /* marked, but as another file of atio's */
	ATIO_OWNER_NO_XATTR,       /* the filesystem keeps no user xattrs */
	ATIO_OWNER_OLD,            /* marked with its own name by an older atio (version 1) */
	/*
	 * "atio-file ..." but no mark atio writes (atio_owner_malformed()
	 * says why): edited or damaged; not one of atio's files.
	 */
	ATIO_OWNER_MALFORMED,
	/*
	 * Never from atio_owner_check(): the survey's word for a file marked
	 * with its own name but with the id of another dataset than the
	 * other files' (atio/data/dataset.h).
	 */
	ATIO_OWNER_OTHER_DATASET,
};

/*
 * Mark the open file @fd as atio's file @name (its base name) of dataset
 * @id. Returns 0, -EOPNOTSUPP when the filesystem keeps no user extended
 * attributes, or another -errno.
 */
int atio_owner_mark(int fd, const char *name, uint64_t id);

/*
 * Whose the open file @fd is, for the base name @name: one of enum
 * atio_owner (>= 0), or -errno when the attribute cannot be read. For
 * OURS, and for OTHER_NAME with a mark of this version, *@id (when not
 * NULL) gets the dataset id the mark names; otherwise 0.
 */
int atio_owner_check(int fd, const char *name, uint64_t *id);

/*
 * Why the mark @text (NUL-terminated) starts as atio's ("atio-file ")
 * but is no mark atio writes, in words ("its file name ends in a
 * newline", "its dataset id has upper-case digits", ...); NULL for a mark
 * atio writes, or text that is no mark of atio's at all.
 */
const char *atio_owner_malformed(const char *text);

/*
 * The text of @fd's mark into @buf (@len bytes, NUL-terminated, cut to
 * fit). Returns 0 or -errno (-ENODATA: no mark).
 */
int atio_owner_read(int fd, char *buf, size_t len);

/*
 * A new dataset id (or a run's, which its write keys are made of): 64
 * random bits from getrandom(), never 0. Returns 0, or -errno when the
 * kernel gives none.
 */
int atio_owner_new_id(uint64_t *id);

/*
 * Whether the filesystem of directory @dir keeps user extended
 * attributes (so that atio's marks can be kept there): 1, 0, or -errno.
 */
int atio_owner_xattrs(const char *dir);

/*
 * Where trusted data ends in the open file @fd of @size bytes: the offset
 * of the first hole or unwritten extent, or @size when there is none.
 * FIEMAP is asked where the filesystem answers it; elsewhere SEEK_HOLE
 * alone decides. Returns 0 with *@end set, or -errno.
 */
int atio_owner_data_end(int fd, uint64_t size, uint64_t *end);

/* The base name of @path (what follows the last '/'). */
const char *atio_owner_basename(const char *path);

/*
 * True when @path (not following a last symbolic link) names the file
 * open at @fd: checked right before atio removes a file by its name, so
 * that what another program put there since is left alone.
 */
bool atio_owner_same(int fd, const char *path);

#endif
