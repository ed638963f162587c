/* SPDX-License-Identifier: MIT */
#ifndef ATIO_MOUNTINFO_H
#define ATIO_MOUNTINFO_H

/*
 * The mounts of /proc/self/mountinfo, one line read into one struct
 * (proc(5): "ID PARENT MAJ:MIN ROOT POINT OPTIONS [TAGS...] - TYPE SOURCE
 * SUPER-OPTIONS"). The kernel writes a space, tab, newline and backslash
 * in a path as \040, \011, \012 and \134: they are read back as the
 * characters, so that a mount point with a space is a path atio can open.
 */

#include <limits.h>
#include <stdbool.h>

struct atio_mount {
	unsigned major, minor;     /* of the device the mount's files are on */
	char root[PATH_MAX];       /* the directory of the filesystem mounted */
	char point[PATH_MAX];      /* where it is mounted */
	char type[64];             /* "ext4", "cgroup2" */
	char super_opts[1024];     /* the filesystem's options ("rw,blkio") */
};

/*
 * Read mountinfo line @line into @m. Returns false when it is not such a
 * line or a field does not fit (@m then undefined).
 */
bool atio_mount_parse(const char *line, struct atio_mount *m);

/*
 * Call @fn with each mount of /proc/self/mountinfo, in its order, until it
 * returns true. Returns true when @fn did, false when no mount was taken
 * (or the file could not be read).
 */
bool atio_mounts_find(bool (*fn)(const struct atio_mount *m, void *arg), void *arg);

/*
 * The first mount of the device @major:@minor into @m (its path fields
 * each PATH_MAX: a caller keeps it off a small stack). False when none.
 */
bool atio_mount_of_dev(unsigned major, unsigned minor, struct atio_mount *m);

/*
 * Where @path lies under @root: the rest of @path after @root when @path
 * is @root or a path below it ("/a/b" under "/a": "/b"; "/a" under "/a":
 * ""; anything under "/": itself), NULL when it is not ("/ab" is not
 * under "/a").
 */
const char *atio_path_under(const char *path, const char *root);

#endif
