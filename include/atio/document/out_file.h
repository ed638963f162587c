/* SPDX-License-Identifier: MIT */
#ifndef ATIO_OUT_FILE_H
#define ATIO_OUT_FILE_H

/*
 * The file an -o option names (atio report -o, atio-parallel.sh -o through
 * atio merge --output-file), replaced whole: written into a temporary file
 * beside it, which is then renamed over it, so that a reader never sees
 * half of it and a failed write leaves it as it was.
 *
 * The temporary file has a short name of its own (.atio-XXXXXX), so that
 * any name that may be given can be written.
 *
 * A symbolic link met on the way to the file, in a directory part of the
 * name or at its end, is followed (a link at the end stays) only where
 * the kernel's fs.protected_symlinks rule would follow it, whatever that
 * setting is: the link's owner is the caller (the effective user), or the
 * owner of the directory that holds the link, or that directory is not
 * both sticky and writable by anyone. atio walks the name itself and
 * renames over where it leads, so the kernel's rule could not protect a
 * root atio from a link another user planted in /tmp; this one does. By
 * the same test (the kernel's fs.protected_regular), another user's file
 * in such a directory is not replaced. A file that is replaced keeps its
 * mode, less its set-user-ID and set-group-ID bits, and its owner; a new
 * one gets 0666 less the umask.
 */

#include <stdio.h>

#include "atio/base/error.h"

/*
 * Check that @given could be written as an -o file: it does not end in /,
 * leads, through links the rule above follows, to a regular file the
 * rule lets be replaced, or to nothing; and the temporary file can be
 * made in its directory (it is, and removed) and given the owner and mode
 * the file will have. Returns 0, or -errno with @e filled (exit 2), its
 * message beginning with @given.
 */
int atio_out_file_check(const char *given, struct atio_error *e);

/*
 * Replace @given (checked as atio_out_file_check() does) by what @fill
 * puts into the stream it is given (called with @arg; non-zero when it
 * failed, then nothing is replaced). When, before the rename, the file
 * found at the name is no longer the one that was checked, nothing is
 * replaced either. Returns 0, or -errno with @e filled (exit 2 for what
 * the check refuses, 1 for a write that failed), its message beginning
 * with @given; no temporary file is left behind.
 */
int atio_out_file_write(const char *given, int (*fill)(FILE *f, void *arg), void *arg,
			struct atio_error *e);

#endif
