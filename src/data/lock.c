/* SPDX-License-Identifier: MIT */
/*
 * The dataset lock: a flock() on atio's lock file or on the block device's
 * entry in sysfs; for a reader that can make no lock file, on the
 * dataset's directory.
 * See include/atio/data/lock.h for the rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "atio/data/lock.h"
#include "atio/data/owner.h"

#define LOCK_TEXT "atio lock file: atio holds it while it works on the files next to it\n"
/* The mark a lock file gets when it is made, before its line (ATIO_OWNER_XATTR). */
#define LOCK_MARK "atio-lock 1"

/*
 * The processes /proc/locks shows holding a flock on the inode of @fd,
 * written into @buf as "pid N (NAME)[, pid M (NAME)]"; empty when none is
 * visible (a holder on another host of a network filesystem, or in another
 * pid namespace).
 */
static void holders(int fd, char *buf, size_t len)
{
	struct stat st;
	char line[256], comm[64], path[64], want[64];
	size_t used = 0;
	FILE *f;

	buf[0] = '\0';
	if (fstat(fd, &st) != 0 || !(f = fopen("/proc/locks", "re")))
		return;
	snprintf(want, sizeof(want), "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
		 (unsigned long long)st.st_ino);
	while (fgets(line, sizeof(line), f)) {
		char kind[16], id[64];
		long pid;
		FILE *c;

		/* "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; "->" lines wait. */
		if (strstr(line, "->") ||
		    sscanf(line, "%*s %15s %*s %*s %ld %63s", kind, &pid, id) != 3 ||
		    strcmp(kind, "FLOCK") != 0 || strcmp(id, want) != 0 || pid <= 0 ||
		    pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		comm[0] = '\0';
		if ((c = fopen(path, "re"))) {
			if (fgets(comm, sizeof(comm), c))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(c);
		}
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%spid %ld%s%s%s",
						 used ? ", " : "", pid, comm[0] ? " (" : "",
						 comm, comm[0] ? ")" : "");
	}
	fclose(f);
}

/*
 * flock() without waiting for another process; on contention fill @e
 * naming the holders. A holder no process shows may be this one: a run
 * before (--precondition's writes) whose lock the kernel lets go of only
 * when the last reference to its file goes, which io_uring's rings torn
 * down in a work item can hold for a moment after close. Such a holder is
 * waited for, a second at most.
 */
static int do_flock(struct atio_lock *l, bool exclusive, struct atio_error *e)
{
	char who[256];
	int i;

	for (i = 0;; i++) {
		if (flock(l->fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0) {
			l->exclusive = exclusive;
			return 0;
		}
		if (errno != EWOULDBLOCK)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot lock: %s",
					      l->path, strerror(errno));
		holders(l->fd, who, sizeof(who));
		if (who[0] || i == 100)
			break;
		usleep(10000);
	}
	return atio_error_set(e, ATIO_EXIT_FAIL, EAGAIN,
			      "%s: another atio is working on this dataset (%s holds %s); "
			      "wait until it ends%s", l->path,
			      who[0] ? who : "a process not visible from here",
			      l->file ? "its lock file" : l->dir ? "a lock on its directory"
			      : "the device",
			      exclusive ? ": a write test or a fill needs the dataset alone" : "");
}

/*
 * The directory of the dataset whose lock file is @path: what a reader
 * locks where no lock file can be made. Returns an open descriptor, or
 * -errno.
 */
static int open_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
	int fd;

	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd < 0 ? -errno : fd;
}

/*
 * A writer, holding the lock file alone: no reader may hold the directory
 * (a reader that could make no lock file). The directory is locked alone
 * for a moment only: another writer's look is waited for (a second at
 * most), a reader's lasts its run. A directory that cannot be opened has
 * no reader of that kind either.
 */
static int no_dir_reader(const struct atio_lock *l, struct atio_error *e)
{
	char who[256];
	int fd = open_dir(l->path), ret = 0, i;

	if (fd < 0)
		return 0;
	for (i = 0; i < 100 && flock(fd, LOCK_EX | LOCK_NB) != 0; i++) {
		if (errno != EWOULDBLOCK) {
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot lock its "
					     "directory: %s", l->path, strerror(errno));
			break;
		}
		usleep(10000);
	}
	if (!ret && i == 100) {
		holders(fd, who, sizeof(who));
		ret = atio_error_set(e, ATIO_EXIT_FAIL, EAGAIN,
				     "%s: another atio is reading the files in its directory "
				     "without a lock file (%s holds a lock on the directory); "
				     "wait until it ends: a write test or a fill needs the "
				     "dataset alone", l->path,
				     who[0] ? who : "a process not visible from here");
	}
	close(fd);
	return ret;
}

/* Take @l exclusive: its lock file, then no reader on the directory. */
static int flock_exclusive(struct atio_lock *l, struct atio_error *e)
{
	int ret = do_flock(l, true, e);

	if (!ret && l->file && (ret = no_dir_reader(l, e)) != 0) {
		flock(l->fd, LOCK_SH | LOCK_NB);
		l->exclusive = false;
	}
	return ret;
}

/* Whether the open file @fd carries the mark of a lock file atio made. */
static bool lock_marked(int fd)
{
	char v[sizeof(LOCK_MARK)];
	ssize_t n = fgetxattr(fd, ATIO_OWNER_XATTR, v, sizeof(v));

	return n == (ssize_t)strlen(LOCK_MARK) && memcmp(v, LOCK_MARK, (size_t)n) == 0;
}

/* What is at the lock file's name, by is_lock_file(). */
enum lock_found {
	LOCK_FOREIGN,              /* not an atio lock file: left alone */
	LOCK_OURS,                 /* atio's: its line, or its mark */
	LOCK_LEFTOVER,             /* what a crash may leave, without the mark */
};

/*
 * Whether the open file @fd is an atio lock file, by what it holds: its
 * line; or what a crash leaves of that line where it was never synced: an
 * empty file, a first part of the line, or zeros no longer than it. An
 * empty file may also be one that another atio has just made and not yet
 * written: that one is as good, its flock() tells. Such a file is atio's
 * to remove only with the mark atio gives the lock files it makes (a
 * user's empty file at that name is used for the lock, and kept).
 */
static enum lock_found is_lock_file(int fd)
{
	char buf[sizeof(LOCK_TEXT)];
	size_t len = strlen(LOCK_TEXT);
	ssize_t n = pread(fd, buf, sizeof(buf), 0);
	bool zeros = true;

	if (n < 0 || (size_t)n > len)
		return LOCK_FOREIGN;
	if ((size_t)n == len && memcmp(buf, LOCK_TEXT, len) == 0)
		return LOCK_OURS;
	for (ssize_t i = 0; i < n; i++)
		zeros &= buf[i] == '\0';
	if (!zeros && memcmp(buf, LOCK_TEXT, (size_t)n) != 0)
		return LOCK_FOREIGN;
	return lock_marked(fd) ? LOCK_OURS : LOCK_LEFTOVER;
}

/* Refuse the file at l->path, not an atio lock file: exit 2, left alone. */
static int foreign(const struct atio_lock *l, struct atio_error *e)
{
	return atio_error_set(e, ATIO_EXIT_USAGE, EEXIST,
			      "%s: not atio's lock file, where atio keeps its lock: "
			      "atio leaves it alone; move it away or choose another -f", l->path);
}

/* open_lock_file()'s answer for a reader that can make no lock file: errno + this. */
#define NO_FILE_BASE 1000
#define NO_FILE(err) (-(NO_FILE_BASE + (err)))

/*
 * Open (or create) the lock file at l->path. A file there must be an atio
 * lock file; one that is not is left alone and refused. A reader that
 * cannot create it (read-only, no permission, no space) gets NO_FILE(errno)
 * and no message.
 */
static int open_lock_file(struct atio_lock *l, bool exclusive, struct atio_error *e)
{
	int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
	size_t len = strlen(LOCK_TEXT);
	enum lock_found found;
	struct stat st;

	l->keep = false;
	l->fd = open(l->path, flags | O_RDWR | O_CREAT | O_EXCL, 0644);
	if (l->fd >= 0) {
		ssize_t n;

		/* Marked first: what a crash leaves of it is still known as atio's. */
		fsetxattr(l->fd, ATIO_OWNER_XATTR, LOCK_MARK, strlen(LOCK_MARK), 0);
		errno = 0;
		n = write(l->fd, LOCK_TEXT, len);
		if (n != (ssize_t)len) {
			int err = n >= 0 || !errno ? ENOSPC : errno;

			/* Empty or cut short, it is still one: a full disk keeps it so. */
			if (err == ENOSPC || err == EDQUOT)
				return 0;
			unlink(l->path);
			return atio_error_set(e, ATIO_EXIT_FAIL, err, "%s: cannot write the "
					      "lock file: %s", l->path, strerror(err));
		}
		return 0;
	}
	if (!exclusive && (errno == EROFS || errno == EACCES || errno == EPERM ||
			   errno == ENOSPC || errno == EDQUOT))
		return NO_FILE(errno);
	if (errno != EEXIST)
		return atio_error_set(e, errno == EACCES || errno == EROFS ? ATIO_EXIT_USAGE
				      : ATIO_EXIT_FAIL, errno, "%s: cannot create the lock file: %s",
				      l->path, strerror(errno));
	/*
	 * Only a regular file may be atio's: what else is there (a socket,
	 * which no open() takes, a FIFO, a device, a directory) is foreign,
	 * not opened. A symbolic link is not followed (O_NOFOLLOW).
	 */
	if (lstat(l->path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return foreign(l, e);
	l->fd = open(l->path, flags | O_RDONLY);
	if (l->fd < 0 && errno == ELOOP)
		return atio_error_set(e, ATIO_EXIT_USAGE, ELOOP,
				      "%s: is a symbolic link, where atio keeps its lock file; "
				      "atio does not follow it (its target is left alone): "
				      "remove the link or choose another -f", l->path);
	if (l->fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot open the lock "
				      "file: %s", l->path, strerror(errno));
	found = fstat(l->fd, &st) == 0 && S_ISREG(st.st_mode) ? is_lock_file(l->fd)
							      : LOCK_FOREIGN;
	l->keep = found == LOCK_LEFTOVER;
	if (found == LOCK_FOREIGN)
		return foreign(l, e);
	return 0;
}

/*
 * Whether l->path still names the file we locked: a run that ended may
 * have removed it after we opened it, and then its lock locks nothing.
 */
static bool still_linked(const struct atio_lock *l)
{
	return atio_owner_same(l->fd, l->path);
}

/*
 * A reader that can make no lock file (@why, an errno): a shared lock on
 * the dataset's directory, which writers look at (no_dir_reader()). Then
 * a lock file made meanwhile by a writer is looked for: 1 when there is
 * one, or a writer holds the directory for its look (the caller tries
 * again), 0 with the directory held, or -errno.
 */
static int take_dir(struct atio_lock *l, int why, struct atio_error *e)
{
	struct stat st;
	int ret;

	l->fd = open_dir(l->path);
	if (l->fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, -l->fd, "%s: cannot create the lock "
				      "file (%s), nor open its directory to lock that: %s",
				      l->path, strerror(why), strerror(-l->fd));
	l->dir = true;
	l->why = why;
	ret = do_flock(l, false, e);
	/* Held alone: a writer looking, for a moment; its lock file tells next. */
	if (ret == -EAGAIN)
		usleep(10000);
	if (ret && ret != -EAGAIN)
		return ret;
	if (ret || lstat(l->path, &st) == 0) {
		close(l->fd);
		l->fd = -1;
		l->dir = false;
		return 1;
	}
	return 0;
}

/*
 * Open what locks the block device at l->path: its entry in sysfs,
 * /sys/dev/block/MAJOR:MINOR/dev, one inode for the device whatever node
 * names it (a second node made by mknod, a chroot's /dev), where the
 * node's own inode would be one lock a node. Without sysfs, the node.
 * Returns 0 or -errno with @e filled.
 */
static int open_device(struct atio_lock *l, struct atio_error *e)
{
	char sys[64];
	struct stat st;
	int fd = open(l->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot open: %s", l->path,
				      strerror(errno));
	l->fd = fd;
	if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode))
		return 0;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/dev", major(st.st_rdev),
		 minor(st.st_rdev));
	fd = open(sys, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(l->fd);
		l->fd = fd;
	}
	return 0;
}

int atio_lock_take(struct atio_lock *l, const char *prefix, bool device, bool exclusive,
		   struct atio_error *e)
{
	int ret;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	if (device ? !(l->path = strdup(prefix)) : asprintf(&l->path, "%slock", prefix) < 0) {
		l->path = NULL;
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	for (int tries = 0; tries < 100; tries++) {
		if (device) {
			ret = open_device(l, e);
		} else {
			ret = open_lock_file(l, exclusive, e);
			/* Only a file made by atio, or found to be one, is ever removed. */
			l->file = ret == 0;
		}
		if (ret <= -NO_FILE_BASE) {
			ret = take_dir(l, -ret - NO_FILE_BASE, e);
			if (ret != 1)
				break;
			/* Tried often enough: a writer keeps the directory or its lock file. */
			ret = atio_error_set(e, ATIO_EXIT_FAIL, EAGAIN, "%s: another atio is "
					     "working on this dataset (its lock file or a lock on "
					     "its directory came and went for a second); wait until "
					     "it ends", l->path);
			continue;
		}
		if (!ret)
			ret = exclusive ? flock_exclusive(l, e) : do_flock(l, false, e);
		if (ret || device || still_linked(l))
			break;
		close(l->fd);
		l->fd = -1;
	}
	if (ret)
		atio_lock_release(l);
	return ret;
}

int atio_lock_exclusive(struct atio_lock *l, struct atio_error *e)
{
	if (l->dir)
		return atio_error_set(e, l->why == EROFS || l->why == EACCES || l->why == EPERM
				      ? ATIO_EXIT_USAGE : ATIO_EXIT_FAIL, l->why,
				      "%s: cannot create the lock file: %s; a run that writes "
				      "needs it", l->path, strerror(l->why));
	if (l->fd < 0 || l->exclusive)
		return 0;
	return flock_exclusive(l, e);
}

void atio_lock_release(struct atio_lock *l)
{
	if (l->fd >= 0) {
		/* Remove the file only while no one else can hold it. */
		if (l->file && !l->keep && (l->exclusive || flock(l->fd, LOCK_EX | LOCK_NB) == 0) &&
		    still_linked(l))
			unlink(l->path);
		close(l->fd);
	}
	free(l->path);
	memset(l, 0, sizeof(*l));
	l->fd = -1;
}
