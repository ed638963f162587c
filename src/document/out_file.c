/* SPDX-License-Identifier: MIT */
/*
 * The file an -o option names, replaced whole (atio/document/out_file.h): the
 * symbolic links at its name followed only where the kernel's
 * protected_symlinks rule would follow them, its mode and owner kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atio/document/out_file.h"

#define MAX_LINKS 40               /* as the kernel's path walk */

/* The file that an -o name leads to. */
struct target {
	char path[PATH_MAX];       /* where the name leads, its links followed */
	char dir[PATH_MAX];        /* the directory of path ("." for none) */
	char shown[PATH_MAX + 64]; /* the name given, and where it leads if elsewhere */
	bool exists;
	struct stat st;            /* lstat() of path, when it exists */
};

/* "name (uid N)", or "uid N" for a user without a name, in @buf. */
static const char *user_of(uid_t uid, char *buf, size_t n)
{
	const struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, n, "%s (uid %u)", pw->pw_name, (unsigned)uid);
	else
		snprintf(buf, n, "uid %u", (unsigned)uid);
	return buf;
}

/* True for the mode of a directory that is sticky and writable by anyone. */
static bool sticky_public(const struct stat *d)
{
	return (d->st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH);
}

/*
 * True when the kernel's protected_symlinks rule follows the link of
 * lstat() @l in the directory of stat() @d: outside a directory that is
 * both sticky and writable by anyone, or when the link is the caller's or
 * the directory owner's. The kernel's protected_regular rule lets an
 * O_CREAT open reach an existing file of lstat() @l by the same test.
 */
static bool may_follow(const struct stat *l, const struct stat *d)
{
	if (!sticky_public(d))
		return true;
	return l->st_uid == geteuid() || l->st_uid == d->st_uid;
}

/*
 * Take the first component of *@rest off into @comp (PATH_MAX bytes),
 * past the slashes before it. *@last says whether it is the last one,
 * *@trailing whether slashes follow it then. False when none is left.
 */
static bool next_comp(const char **rest, char *comp, bool *last, bool *trailing)
{
	const char *p = *rest, *end;

	while (*p == '/')
		p++;
	if (!*p)
		return false;
	end = strchrnul(p, '/');
	snprintf(comp, PATH_MAX, "%.*s", (int)(end - p), p);
	*rest = end;
	while (*end == '/')
		end++;
	*last = !*end;
	*trailing = *last && end != *rest;
	return true;
}

/*
 * Take @dir, a path without links, up to its parent, as ".." does.
 * False when that is too long.
 */
static bool go_up(char dir[PATH_MAX])
{
	char *slash = strrchr(dir, '/');
	const char *last = slash ? slash + 1 : dir;

	if (!*dir || strcmp(last, "..") == 0) {
		if (strlen(dir) + 4 > PATH_MAX)
			return false;
		strcat(dir, *dir ? "/.." : "..");
	} else if (slash == dir) {
		dir[1] = '\0';
	} else if (slash) {
		*slash = '\0';
	} else {
		dir[0] = '\0';
	}
	return true;
}

/*
 * Walk @given's components to the regular file (or nothing) to replace,
 * into @t: each symbolic link met on the way, in a directory part or at
 * the end, followed as may_follow() allows, by putting its target in its
 * place (".." after it is taken from where it led, as the kernel does).
 * Returns 0, or -errno with @e filled (exit 2).
 */
static int resolve(const char *given, struct target *t, struct atio_error *e)
{
	char rest[PATH_MAX], next[2 * PATH_MAX], comp[PATH_MAX], link[PATH_MAX], who[96];
	const char *r = rest;
	size_t len = strlen(given);
	bool last = false, trailing = false, final_link = false, found = false;
	struct stat ds;
	ssize_t n;
	int hops = 0;

	if (!len)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "no file named");
	if (given[len - 1] == '/')
		return atio_error_set(e, ATIO_EXIT_USAGE, EISDIR,
				      "%s: ends in /: give the name of a file", given);
	if (len >= PATH_MAX)
		return atio_error_set(e, ATIO_EXIT_USAGE, ENAMETOOLONG, "%s: name too long", given);
	memcpy(rest, given, len + 1);
	strcpy(t->dir, given[0] == '/' ? "/" : "");
	while (next_comp(&r, comp, &last, &trailing)) {
		if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0) {
			if (last)
				break;
			if (comp[1] && !go_up(t->dir))
				return atio_error_set(e, ATIO_EXIT_USAGE, ENAMETOOLONG,
						      "%s: name too long", given);
			continue;
		}
		if (snprintf(t->path, sizeof(t->path), "%s%s%s", t->dir,
			     *t->dir && strcmp(t->dir, "/") ? "/" : "", comp) >= (int)sizeof(t->path))
			return atio_error_set(e, ATIO_EXIT_USAGE, ENAMETOOLONG, "%s: the name it "
					      "leads to is too long", given);
		if (lstat(t->path, &t->st) != 0) {
			if (!last)
				return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: cannot write "
						      "there (%s): %s", given, t->path,
						      strerror(errno));
			if (errno != ENOENT)
				return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: %s", given,
						      strerror(errno));
			if (final_link)
				return atio_error_set(e, ATIO_EXIT_USAGE, ENOENT,
						      "%s: a symbolic link to %s, which does not "
						      "exist: give the file itself", given, t->path);
			t->exists = false;
			found = true;
			break;
		}
		if (!S_ISLNK(t->st.st_mode)) {
			if (last) {
				t->exists = found = true;
				break;
			}
			if (!S_ISDIR(t->st.st_mode))
				return atio_error_set(e, ATIO_EXIT_USAGE, ENOTDIR, "%s: %s is not a "
						      "directory", given, t->path);
			strcpy(t->dir, t->path);
			continue;
		}
		if (hops++ == MAX_LINKS)
			return atio_error_set(e, ATIO_EXIT_USAGE, ELOOP, "%s: more than %d symbolic "
					      "links on the way", given, MAX_LINKS);
		if (stat(*t->dir ? t->dir : ".", &ds) != 0)
			return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: %s: %s", given,
					      *t->dir ? t->dir : ".", strerror(errno));
		if (!may_follow(&t->st, &ds))
			return atio_error_set(e, ATIO_EXIT_USAGE, EPERM,
					      "%s: %s%s%sa symbolic link of user %s in %s, a sticky "
					      "directory that anyone may write to: not followed (the "
					      "rule of fs.protected_symlinks): give the file itself",
					      given, hops > 1 || !last ? "leads through " : "",
					      hops > 1 || !last ? t->path : "",
					      hops > 1 || !last ? ", " : "",
					      user_of(t->st.st_uid, who, sizeof(who)),
					      *t->dir ? t->dir : ".");
		n = readlink(t->path, link, sizeof(link) - 1);
		if (n < 0)
			return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: %s: %s", given,
					      t->path, strerror(errno));
		link[n] = '\0';
		if (snprintf(next, sizeof(next), "%s%s", link, r) >= PATH_MAX)
			return atio_error_set(e, ATIO_EXIT_USAGE, ENAMETOOLONG, "%s: the name it "
					      "leads to is too long", given);
		memcpy(rest, next, strlen(next) + 1);
		r = rest;
		if (link[0] == '/')
			strcpy(t->dir, "/");
		final_link = final_link || last;
	}
	if (!found || (trailing && (!t->exists || !S_ISDIR(t->st.st_mode))))
		return atio_error_set(e, ATIO_EXIT_USAGE, EISDIR, "%s: leads to a directory: give "
				      "the name of a file", given);
	if (!*t->dir)
		strcpy(t->dir, ".");
	if (hops)
		snprintf(t->shown, sizeof(t->shown), "%s (a link to %s)", given, t->path);
	else
		snprintf(t->shown, sizeof(t->shown), "%s", given);
	if (t->exists && S_ISDIR(t->st.st_mode))
		return atio_error_set(e, ATIO_EXIT_USAGE, EISDIR, "%s: is a directory: give the "
				      "name of a file", t->shown);
	if (t->exists && !S_ISREG(t->st.st_mode))
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: exists and is not a regular "
				      "file (a device, FIFO or socket): -o writes only a regular "
				      "file", t->shown);
	if (!t->exists)
		return 0;
	if (stat(t->dir, &ds) != 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: %s: %s", t->shown, t->dir,
				      strerror(errno));
	if (!may_follow(&t->st, &ds))
		return atio_error_set(e, ATIO_EXIT_USAGE, EPERM,
				      "%s: a file of user %s in %s, a sticky directory that anyone "
				      "may write to: not replaced (the rule of fs.protected_regular): "
				      "remove it first, or give another name", t->shown,
				      user_of(t->st.st_uid, who, sizeof(who)), t->dir);
	return 0;
}

/*
 * Give the temporary file @fd the owner and mode of the file @t it
 * replaces, less its set-user-ID and set-group-ID bits, or the mode of a
 * new file. Returns 0 or -errno.
 */
static int take_mode(int fd, const struct target *t)
{
	mode_t mask = umask(0);
	struct stat st;

	umask(mask);
	if (!t->exists)
		return fchmod(fd, 0666 & ~mask) ? -errno : 0;
	if (fstat(fd, &st) != 0)
		return -errno;
	if ((st.st_uid != t->st.st_uid || st.st_gid != t->st.st_gid) &&
	    fchown(fd, t->st.st_uid, t->st.st_gid) != 0)
		return -errno;
	return fchmod(fd, t->st.st_mode & 07777 & ~(mode_t)(S_ISUID | S_ISGID)) ? -errno : 0;
}

/*
 * Resolve @given into @t and make the temporary file beside what it leads
 * to, given the mode and owner the file will have, into @tmp; open on
 * *@fd. The name of the temporary file is short and its own, never longer
 * than a name may be. Returns 0, or -errno with @e filled (exit 2), no
 * temporary file left then.
 */
static int start(const char *given, struct target *t, char tmp[PATH_MAX + 16], int *fd,
		 struct atio_error *e)
{
	int ret = resolve(given, t, e);

	if (ret)
		return ret;
	if (snprintf(tmp, PATH_MAX + 16, "%s/.atio-XXXXXX", t->dir) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		*fd = -1;
	} else {
		*fd = mkostemp(tmp, O_CLOEXEC);
	}
	if (*fd < 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: cannot write there (%s): %s",
				      t->shown, t->dir, strerror(errno));
	ret = take_mode(*fd, t);
	if (ret) {
		close(*fd);
		unlink(tmp);
		return atio_error_set(e, ATIO_EXIT_USAGE, -ret, "%s: %s: %s", t->shown,
				      t->exists ? "cannot give it the owner and mode of the file "
						  "it replaces" : "cannot set its mode",
				      strerror(-ret));
	}
	return 0;
}

int atio_out_file_check(const char *given, struct atio_error *e)
{
	char tmp[PATH_MAX + 16];
	struct target t;
	int fd;
	int ret = start(given, &t, tmp, &fd, e);

	if (ret)
		return ret;
	close(fd);
	unlink(tmp);
	return 0;
}

/* True when what @t's name holds now is not what resolve() found there. */
static bool changed(const struct target *t)
{
	struct stat now;

	if (lstat(t->path, &now) != 0)
		return errno != ENOENT || t->exists;
	return !t->exists || now.st_dev != t->st.st_dev || now.st_ino != t->st.st_ino;
}

int atio_out_file_write(const char *given, int (*fill)(FILE *f, void *arg), void *arg,
			struct atio_error *e)
{
	char tmp[PATH_MAX + 16];
	struct target t;
	int fd, err = 0;
	FILE *f;
	int ret = start(given, &t, tmp, &fd, e);

	if (ret)
		return ret;
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		goto fail;
	}
	if (fill(f, arg))
		err = EIO;
	if (fflush(f) != 0 && !err)
		err = errno;
	if (!err && fsync(fd) != 0)
		err = errno;
	if (fclose(f) != 0 && !err)
		err = errno;
	if (!err && changed(&t)) {
		unlink(tmp);
		return atio_error_set(e, ATIO_EXIT_FAIL, EBUSY, "%s: replaced by another file while "
				      "it was written: left as it is", t.shown);
	}
	if (!err && rename(tmp, t.path) != 0)
		err = errno;
	if (!err)
		return 0;
fail:
	unlink(tmp);
	return atio_error_set(e, ATIO_EXIT_FAIL, err, "%s: cannot write it: %s", t.shown,
			      strerror(err));
}
