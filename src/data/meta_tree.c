/* SPDX-License-Identifier: MIT */
/* The tree of a metadata run: its mark, its lock, its removal (atio/data/meta_tree.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "atio/data/meta_tree.h"
#include "atio/data/owner.h"

#define MARK_WORD "atio-meta 1 "

/* How long a member waits for the mark of a tree another member just made: 10 s. */
#define MARK_WAIT_STEPS 500u
#define MARK_WAIT_STEP_US 20000u

static const char *const states[] = {
	[ATIO_META_EMPTY] = "empty",
	[ATIO_META_FILES] = "files",
	[ATIO_META_RENAMED] = "renamed",
	[ATIO_META_PARTIAL] = "partial",
};

const char *atio_meta_state_name(enum atio_meta_state s)
{
	return (unsigned)s <= ATIO_META_PARTIAL ? states[s] : "?";
}

int atio_meta_mark_format(char *buf, size_t len, const struct atio_meta_mark *m)
{
	return snprintf(buf, len, MARK_WORD "%016" PRIx64 " %s %u %" PRIu64 " %u %" PRIu64
			" %u %" PRIu64, m->id, atio_meta_state_name(m->state), m->threads,
			m->files, m->dirs, m->file_size, m->members ? m->members : m->shared,
			m->seed);
}

int atio_meta_mark_parse(const char *text, struct atio_meta_mark *m)
{
	char state[16], check[256];
	unsigned shared;
	int n = -1;

	if (strncmp(text, MARK_WORD, strlen(MARK_WORD)) != 0)
		return -EINVAL;
	if (sscanf(text + strlen(MARK_WORD), "%16" SCNx64 " %15s %u %" SCNu64 " %u %" SCNu64
		   " %u %" SCNu64 "%n", &m->id, state, &m->threads, &m->files, &m->dirs,
		   &m->file_size, &shared, &m->seed, &n) != 8 || n < 0 || text[strlen(MARK_WORD) + n])
		return -EINVAL;
	/* SHARED: 0 a tree each thread, 1 one for all, N one for N members. */
	m->shared = shared >= 1;
	m->members = shared >= 2 ? shared : 0;
	for (unsigned s = 0; s <= ATIO_META_PARTIAL; s++)
		if (strcmp(state, states[s]) == 0) {
			m->state = (enum atio_meta_state)s;
			/* Only what this function writes is a mark: the same text again. */
			atio_meta_mark_format(check, sizeof(check), m);
			return strcmp(check, text) == 0 ? 0 : -EINVAL;
		}
	return -EINVAL;
}

static int write_mark(const char *top, const struct atio_meta_mark *m, struct atio_error *e)
{
	char text[256];
	int fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s", top, strerror(errno));
	atio_meta_mark_format(text, sizeof(text), m);
	if (fsetxattr(fd, ATIO_OWNER_XATTR, text, strlen(text), 0) != 0)
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot mark the tree as "
				     "atio's (%s): %s", top, ATIO_OWNER_XATTR,
				     errno == EOPNOTSUPP ? "the filesystem keeps no user "
				     "extended attributes" : strerror(errno));
	close(fd);
	return ret;
}

/* Whether directory @fd holds anything. */
static bool holds_something(int fd)
{
	int dup_fd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	bool some = false;
	DIR *d;

	if (dup_fd < 0)
		return true;
	d = fdopendir(dup_fd);
	if (!d) {
		close(dup_fd);
		return true;
	}
	while (!some && (de = readdir(d)) != NULL)
		some = strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return some;
}

/*
 * Read the mark of directory @top into @m: 0; -ENOENT when there is no
 * @top; -EEXIST when it bears no mark of this format. With @wait, an
 * empty directory without the mark is looked at again for a while:
 * another member of a shared tree may be between its mkdir and its mark.
 */
static int read_mark(const char *top, struct atio_meta_mark *m, bool wait)
{
	char text[256];
	ssize_t n = -1;
	bool some;
	int fd, err;

	for (unsigned i = 0; i < (wait ? MARK_WAIT_STEPS : 1u); i++) {
		if (i)
			usleep(MARK_WAIT_STEP_US);
		fd = open(top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		/*
		 * Its contents looked at first: a member marks the top before it
		 * puts anything in it, so a top seen holding something and then
		 * without the mark is no member's.
		 */
		some = wait && holds_something(fd);
		n = fgetxattr(fd, ATIO_OWNER_XATTR, text, sizeof(text) - 1);
		err = errno;
		close(fd);
		if (n >= 0 || err != ENODATA || some)
			break;
	}
	if (n < 0)
		return -EEXIST;
	text[n] = '\0';
	return atio_meta_mark_parse(text, m) ? -EEXIST : 0;
}

int atio_meta_tree_open(struct atio_meta_tree *t, const char *dir, bool member,
			struct atio_error *e)
{
	char prefix[4096 + 16];
	struct stat st;
	int ret;

	*t = (struct atio_meta_tree){ .lock = { .fd = -1 } };
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return atio_error_set(e, ATIO_EXIT_USAGE, errno ? errno : ENOTDIR,
				      "-f %s: %s: a metadata run makes its tree in a directory",
				      dir, errno == ENOENT ? "no such directory" : "not a directory");
	if (asprintf(&t->top, "%s/%s", dir, ATIO_META_TREE) < 0) {
		t->top = NULL;
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	snprintf(prefix, sizeof(prefix), "%s.", t->top);
	/* The members of a shared tree share its lock; any other run holds it alone. */
	ret = atio_lock_take(&t->lock, prefix, false, !member, e);
	if (ret)
		return ret;
	ret = read_mark(t->top, &t->mark, member);
	if (ret == -ENOENT)
		return 0;
	if (ret != 0 && ret != -EEXIST)
		return atio_error_set(e, ATIO_EXIT_USAGE, -ret, "%s: %s: not a tree atio made; "
				      "it is left as it is", t->top, strerror(-ret));
	if (ret)
		return atio_error_set(e, ATIO_EXIT_USAGE, EEXIST, "%s: a directory atio did not "
				      "make (no mark of atio's metadata tree): it is left as it "
				      "is; give -f another directory, or remove it", t->top);
	t->exists = true;
	return 0;
}

int atio_meta_tree_peek(const char *dir, struct atio_meta_mark *m, struct atio_error *e)
{
	char top[4096 + 16], text[256];
	ssize_t n;
	int fd;

	snprintf(top, sizeof(top), "%s/%s", dir, ATIO_META_TREE);
	fd = open(top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "--neighbour-dir: %s: %s: no "
				      "tree to stat and read", top, strerror(errno));
	n = fgetxattr(fd, ATIO_OWNER_XATTR, text, sizeof(text) - 1);
	close(fd);
	if (n >= 0)
		text[n] = '\0';
	if (n < 0 || atio_meta_mark_parse(text, m))
		return atio_error_set(e, ATIO_EXIT_USAGE, EEXIST, "--neighbour-dir: %s: a "
				      "directory atio did not make (no mark of atio's metadata "
				      "tree)", top);
	return 0;
}

int atio_meta_tree_make(struct atio_meta_tree *t, const struct atio_meta_mark *m,
			struct atio_error *e)
{
	if (mkdir(t->top, 0755) != 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: mkdir: %s", t->top,
				      strerror(errno));
	t->mark = *m;
	t->mark.state = ATIO_META_EMPTY;
	t->exists = true;
	if (write_mark(t->top, &t->mark, e)) {
		rmdir(t->top);
		t->exists = false;
		return -EIO;
	}
	return 0;
}

/* Whether @a and @b are the marks of one shared tree (its state aside). */
static bool same_tree(const struct atio_meta_mark *a, const struct atio_meta_mark *b)
{
	return a->id == b->id && a->threads == b->threads && a->files == b->files &&
	       a->dirs == b->dirs && a->file_size == b->file_size && a->shared == b->shared &&
	       a->members == b->members && a->seed == b->seed;
}

int atio_meta_tree_join(struct atio_meta_tree *t, const struct atio_meta_mark *m,
			struct atio_error *e)
{
	struct atio_meta_mark found;
	int ret;

	if (mkdir(t->top, 0755) == 0) {
		t->mark = *m;
		t->mark.state = ATIO_META_EMPTY;
		t->exists = true;
		if (write_mark(t->top, &t->mark, e)) {
			rmdir(t->top);
			t->exists = false;
			return -EIO;
		}
		return 0;
	}
	if (errno != EEXIST)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: mkdir: %s", t->top,
				      strerror(errno));
	/* Another member made it first: ours only with this run's mark. */
	ret = read_mark(t->top, &found, true);
	if (ret)
		return atio_error_set(e, ATIO_EXIT_USAGE, EEXIST, "%s: a directory atio did not "
				      "make (no mark of atio's metadata tree): it is left as it "
				      "is; give -f another directory, or remove it", t->top);
	if (!same_tree(&found, m))
		return atio_meta_tree_other(t->top, &found, m, e);
	t->mark = found;
	t->exists = true;
	return 0;
}

int atio_meta_tree_other(const char *top, const struct atio_meta_mark *found,
			 const struct atio_meta_mark *want, struct atio_error *e)
{
	char by[48] = "", seed[48] = "";

	if (found->members)
		snprintf(by, sizeof(by), " --shared-by ?/%u", found->members);
	else if (found->shared)
		snprintf(by, sizeof(by), " --shared-dir");
	if (found->seed != want->seed)
		snprintf(seed, sizeof(seed), " --seed %" PRIu64, found->seed);
	return atio_error_set(e, ATIO_EXIT_USAGE, EEXIST, "%s: the tree of another run (made "
			      "with -p %u --files %" PRIu64 " --dirs %u --file-size %" PRIu64
			      "%s%s), not this one's (--shared-by ?/%u): it is left as it is; "
			      "once none of its members runs, a run without --shared-by that "
			      "begins with create removes it", top, found->threads, found->files,
			      found->dirs, found->file_size, by, seed, want->members);
}

int atio_meta_tree_prune(struct atio_meta_tree *t, unsigned dirs, struct atio_error *e)
{
	char path[4096 + 32];
	int ret = 0;

	for (unsigned d = 0; d <= dirs + 1 && !ret; d++) {
		if (d < dirs)
			snprintf(path, sizeof(path), "%s/shared/d%u", t->top, d);
		else if (d == dirs)
			snprintf(path, sizeof(path), "%s/shared", t->top);
		else
			snprintf(path, sizeof(path), "%s", t->top);
		/* Another member removed it, or still has files there: the last one removes it. */
		if (rmdir(path) != 0 && errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: rmdir: %s", path,
					     strerror(errno));
	}
	if (!ret)
		t->exists = false;
	return ret;
}

int atio_meta_tree_state(struct atio_meta_tree *t, enum atio_meta_state state,
			 struct atio_error *e)
{
	t->mark.state = state;
	return write_mark(t->top, &t->mark, e);
}

/* A run of decimal digits from @s to its end (or to @end), no leading zero but "0". */
static bool number(const char *s, const char *end)
{
	if (!end)
		end = s + strlen(s);
	if (s == end || (s[0] == '0' && end - s > 1))
		return false;
	for (; s < end; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

bool atio_meta_tree_name(const char *name, bool dir)
{
	const char *dot;

	if (dir)
		return strcmp(name, "shared") == 0 ||
		       ((name[0] == 't' || name[0] == 'd') && number(name + 1, NULL));
	dot = strchr(name, '.');
	if (dot) {
		if (name[0] != 't' || !number(name + 1, dot))
			return false;
		name = dot + 1;
	}
	return (name[0] == 'f' || name[0] == 'r') && number(name + 1, NULL);
}

/*
 * Remove directory @name of directory @at (shown as @path) and what it
 * holds, of the tree's names: @depth 0 the top (thread trees in it), 1 a
 * thread's tree (directories), 2 a directory (files). Every step is made
 * relative to the directory above it and never follows a link: a link, a
 * file where a directory belongs (or the reverse), or another filesystem
 * mounted in the tree (@dev: the top's, 0 at the top) is not atio's and is
 * left there, named, with the directories that hold it.
 */
static int remove_at(int at, const char *name, const char *path, int depth, dev_t dev,
		     struct atio_error *e)
{
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *de;
	struct stat st;
	char sub[4096];
	int ret = 0;
	DIR *d;

	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s%s", path, strerror(errno),
				      errno == ELOOP || errno == ENOTDIR ?
				      ": not a directory atio made: left there" : "");
	if (fstat(fd, &st) != 0 || (dev && st.st_dev != dev)) {
		ret = atio_error_set(e, ATIO_EXIT_FAIL, EXDEV, "%s: another filesystem mounted "
				     "in atio's metadata tree: left there", path);
		close(fd);
		return ret;
	}
	dev = st.st_dev;
	d = fdopendir(fd);
	if (!d) {
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s", path, strerror(errno));
		close(fd);
		return ret;
	}
	while (!ret && (errno = 0, de = readdir(d)) != NULL) {
		bool isdir = depth < 2;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (!atio_meta_tree_name(de->d_name, isdir) ||
		    (depth == 0 && de->d_name[0] == 'd') || (depth == 1 && de->d_name[0] != 'd'))
			ret = atio_error_set(e, ATIO_EXIT_FAIL, ENOTEMPTY, "%s: not a name atio "
					     "gives in its metadata tree: left there, with the "
					     "directories that hold it", sub);
		else if (isdir)
			ret = remove_at(dirfd(d), de->d_name, sub, depth + 1, dev, e);
		else if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s", sub,
					     strerror(errno));
		else if (!S_ISREG(st.st_mode))
			ret = atio_error_set(e, ATIO_EXIT_FAIL, ENOTEMPTY, "%s: not a file atio "
					     "made (a link, a directory or a device): left there, "
					     "with the directories that hold it", sub);
		else if (unlinkat(dirfd(d), de->d_name, 0) != 0)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: unlink: %s", sub,
					     strerror(errno));
	}
	if (!ret && errno)
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: readdir: %s", path,
				     strerror(errno));
	closedir(d);
	if (!ret && unlinkat(at, name, AT_REMOVEDIR) != 0)
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: rmdir: %s", path,
				     strerror(errno));
	return ret;
}

int atio_meta_tree_remove(struct atio_meta_tree *t, struct atio_error *e)
{
	int ret;

	if (!t->exists)
		return 0;
	/* Cut short, what is left is part of the files. */
	ret = atio_meta_tree_state(t, ATIO_META_PARTIAL, e);
	if (!ret)
		ret = remove_at(AT_FDCWD, t->top, t->top, 0, 0, e);
	if (!ret)
		t->exists = false;
	return ret;
}

void atio_meta_tree_close(struct atio_meta_tree *t)
{
	atio_lock_release(&t->lock);
	free(t->top);
	t->top = NULL;
}

int atio_meta_tree_drop(const struct atio_meta_tree *t, char *why, size_t len)
{
	int fd = open(t->top, O_RDONLY | O_DIRECTORY | O_CLOEXEC), dc, err = 0;

	if (fd >= 0 && syncfs(fd) != 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (fd < 0 || err) {
		snprintf(why, len, "%s: syncfs: %s", t->top, strerror(fd < 0 ? errno : err));
		return -(fd < 0 ? errno : err);
	}
	dc = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (dc < 0 || write(dc, "3\n", 2) != 2) {
		err = errno;
		snprintf(why, len, "/proc/sys/vm/drop_caches: %s%s", strerror(err),
			 err == EACCES || err == EPERM || err == EROFS ? " (only root, outside "
			 "a container, may drop the caches)" : "");
		if (dc >= 0)
			close(dc);
		return -err;
	}
	close(dc);
	return 0;
}
