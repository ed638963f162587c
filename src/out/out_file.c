/* SPDX-License-Identifier: MIT */
/*
 * The file an -o option names, replaced whole (atio/out/out_file.h): the
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

#include "atio/out/out_file.h"

#define MAX_LINKS 40               /* as the kernel's path walk */

/* The file that an -o name leads to. */
struct target {
	char path[PATH_MAX];       /* the name given, or where its links lead */
	char shown[PATH_MAX + 64]; /* the name given, and where it leads if elsewhere */
	bool exists;
	struct stat st;            /* lstat() of path, when it exists */
};

/* The directory part of @path in @dir: "." when it has none. */
static void dir_of(const char *path, char dir[PATH_MAX])
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		strcpy(dir, ".");
	else if (slash == path)
		strcpy(dir, "/");
	else
		snprintf(dir, PATH_MAX, "%.*s", (int)(slash - path), path);
}

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

/*
 * True when the kernel's protected_symlinks rule follows the link of
 * lstat() @l in the directory of stat() @d: outside a directory that is
 * both sticky and writable by anyone, or when the link is the caller's or
 * the directory owner's.
 */
static bool may_follow(const struct stat *l, const struct stat *d)
{
	if ((d->st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return true;
	return l->st_uid == geteuid() || l->st_uid == d->st_uid;
}

/*
 * Follow the links at @given's name, as may_follow() allows, to the
 * regular file (or nothing) to replace, into @t. The directories on the
 * way are the kernel's to resolve. Returns 0, or -errno with @e filled
 * (exit 2).
 */
static int resolve(const char *given, struct target *t, struct atio_error *e)
{
	char dir[PATH_MAX], link[PATH_MAX], who[96];
	size_t len = strlen(given);
	struct stat ds;
	ssize_t n;
	int hops;

	if (!len)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "no file named");
	if (given[len - 1] == '/')
		return atio_error_set(e, ATIO_EXIT_USAGE, EISDIR,
				      "%s: ends in /: give the name of a file", given);
	if (len >= PATH_MAX)
		return atio_error_set(e, ATIO_EXIT_USAGE, ENAMETOOLONG, "%s: name too long", given);
	memcpy(t->path, given, len + 1);
	for (hops = 0;; hops++) {
		if (lstat(t->path, &t->st) != 0) {
			if (errno != ENOENT)
				return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: %s", given,
						      strerror(errno));
			if (hops)
				return atio_error_set(e, ATIO_EXIT_USAGE, ENOENT,
						      "%s: a symbolic link to %s, which does not "
						      "exist: give the file itself", given, t->path);
			t->exists = false;
			break;
		}
		t->exists = true;
		if (!S_ISLNK(t->st.st_mode))
			break;
		if (hops == MAX_LINKS)
			return atio_error_set(e, ATIO_EXIT_USAGE, ELOOP, "%s: more than %d symbolic "
					      "links in a row", given, MAX_LINKS);
		dir_of(t->path, dir);
		if (stat(dir, &ds) != 0)
			return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: %s: %s", given, dir,
					      strerror(errno));
		if (!may_follow(&t->st, &ds))
			return atio_error_set(e, ATIO_EXIT_USAGE, EPERM,
					      "%s: %s%s%sa symbolic link of user %s in %s, a sticky "
					      "directory that anyone may write to: not followed (the "
					      "rule of fs.protected_symlinks): give the file itself",
					      given, hops ? "leads to " : "", hops ? t->path : "",
					      hops ? ", " : "", user_of(t->st.st_uid, who, sizeof(who)),
					      dir);
		n = readlink(t->path, link, sizeof(link) - 1);
		if (n < 0)
			return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: %s: %s", given,
					      t->path, strerror(errno));
		link[n] = '\0';
		if ((link[0] == '/' ? snprintf(t->path, sizeof(t->path), "%s", link)
				    : snprintf(t->path, sizeof(t->path), "%s/%s", dir, link)) >=
		    (int)sizeof(t->path))
			return atio_error_set(e, ATIO_EXIT_USAGE, ENAMETOOLONG, "%s: the name it "
					      "leads to is too long", given);
	}
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
	return 0;
}

int atio_out_file_check(const char *given, struct atio_error *e)
{
	char dir[PATH_MAX];
	struct target t;
	int ret = resolve(given, &t, e);

	if (ret)
		return ret;
	dir_of(t.path, dir);
	if (faccessat(AT_FDCWD, dir, W_OK, AT_EACCESS) != 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: cannot write there (%s): %s",
				      t.shown, dir, strerror(errno));
	return 0;
}

/*
 * Give the temporary file @fd the owner and mode of the file @t it
 * replaces, or those of a new file. Returns 0 or -errno.
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
	return fchmod(fd, t->st.st_mode & 07777) ? -errno : 0;
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
	char tmp[PATH_MAX + 8], dir[PATH_MAX];
	const char *what = "cannot write it";
	struct target t;
	int fd, err = 0;
	FILE *f;
	int ret = resolve(given, &t, e);

	if (ret)
		return ret;
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", t.path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		dir_of(t.path, dir);
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: cannot write there (%s): %s",
				      t.shown, dir, strerror(errno));
	}
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
	if (!err && (ret = take_mode(fd, &t)) != 0) {
		err = -ret;
		what = t.exists ? "cannot give it the owner and mode of the file it replaces"
				: "cannot set its mode";
	}
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
	return atio_error_set(e, ATIO_EXIT_FAIL, err, "%s: %s: %s", t.shown, what, strerror(err));
}
