/* SPDX-License-Identifier: MIT */
/*
 * The survey of the dataset before a run: the open-file limit, the lock,
 * and for every file whether it is atio's, complete, short, holed or too
 * long, and whether the filesystem has room for what is missing. Nothing
 * here changes a file. See include/atio/data/dataset.h for the rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "atio/data/dataset.h"
#include "atio/data/owner.h"
#include "atio/base/units.h"

/* Descriptors a run needs beside its files: std streams, signalfd, eventfd,
 * the lock, a ring per thread, and room for the libraries. */
#define FD_SPARE 32u

/*
 * How much of an existing file can be trusted: its size, cut at the first
 * hole, rounded down to a fill chunk unless the file is complete.
 */
static int trusted_length(int fd, uint64_t size, uint64_t target, uint64_t *valid)
{
	uint64_t v;
	int ret = atio_owner_data_end(fd, size, &v);

	if (ret)
		return ret;
	if (v > target)
		v = target;
	if (v < target)
		v -= v % ATIO_FILL_CHUNK;
	*valid = v;
	return 0;
}

/*
 * Why an existing file at one of atio's names is not one of its files, for
 * the refusal; NULL when it is.
 */
static const char *not_ours(int owner)
{
	switch (owner) {
	case ATIO_OWNER_OURS:
	case ATIO_OWNER_OLD:
		return NULL;
	case ATIO_OWNER_OTHER_NAME:
		return "it carries atio's mark for another file name (copied or renamed?)";
	case ATIO_OWNER_MALFORMED:
		return "its user.atio mark starts as atio's but is malformed, no mark atio "
		       "writes (edited or damaged; atio --check names what is wrong)";
	case ATIO_OWNER_NO_XATTR:
		return "the filesystem keeps no user extended attributes, so atio cannot "
		       "mark its files there nor tell them from others";
	case ATIO_OWNER_OTHER_DATASET:
		return "it carries atio's mark of another dataset than the other files' "
		       "(a file of another dataset put in its place?)";
	default:
		return "it has no user.atio mark (files made by an atio that did not mark "
		       "its files have none either: --take-over adopts them, rewriting "
		       "them)";
	}
}

/*
 * Read the mark of every file there is into f->owner and f->mark_id
 * (ATIO_OWNER_FOREIGN for a file that is not a regular one: survey_file()
 * refuses it). Returns 0 or -errno with @e filled.
 */
static int read_marks(struct atio_dataset *d, struct atio_error *e)
{
	for (unsigned i = 0; i < d->nfiles; i++) {
		struct atio_file *f = &d->files[i];
		int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		struct stat st;

		f->owner = ATIO_OWNER_FOREIGN;
		f->mark_id = 0;
		if (fd < 0) {
			if (errno == ENOENT || errno == ELOOP)
				continue;
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot open: %s",
					      f->path, strerror(errno));
		}
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			continue;
		}
		f->owner = atio_owner_check(fd, atio_owner_basename(f->path), &f->mark_id);
		close(fd);
		if (f->owner < 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, -f->owner, "%s: cannot read its "
					      "user.atio mark: %s", f->path, strerror(-f->owner));
	}
	return 0;
}

/* Whether file @f carries a mark of this version (its own name's or another's). */
static bool has_id(const struct atio_file *f)
{
	return (f->owner == ATIO_OWNER_OURS || f->owner == ATIO_OWNER_OTHER_NAME) && f->mark_id;
}

/*
 * Decide the dataset's id from the marks (atio/data/dataset.h): the id most
 * files' marks name (a mark of another file name counts: a renamed file
 * is still of its dataset), the first such file's on a tie; else the one
 * drawn for this dataset (once), or 0 where marks cannot be kept. A file
 * marked with its own name but another id becomes
 * ATIO_OWNER_OTHER_DATASET.
 */
static int pick_id(struct atio_dataset *d, struct atio_error *e)
{
	unsigned best = 0;
	uint64_t id = 0;
	int xattrs;

	for (unsigned i = 0; i < d->nfiles; i++) {
		unsigned same = 0;

		if (!has_id(&d->files[i]))
			continue;
		for (unsigned j = 0; j < d->nfiles; j++)
			same += has_id(&d->files[j]) && d->files[j].mark_id == d->files[i].mark_id;
		if (same > best) {
			best = same;
			id = d->files[i].mark_id;
		}
	}
	d->marked = best;
	if (best) {
		d->id = id;
		for (unsigned i = 0; i < d->nfiles; i++)
			if (d->files[i].owner == ATIO_OWNER_OURS && d->files[i].mark_id != id)
				d->files[i].owner = ATIO_OWNER_OTHER_DATASET;
		return 0;
	}
	xattrs = atio_owner_xattrs(d->dir);
	if (xattrs < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, -xattrs, "%s: cannot tell whether it "
				      "keeps user extended attributes: %s", d->dir,
				      strerror(-xattrs));
	if (!xattrs) {
		d->id = 0;
		return 0;
	}
	if (!d->id_new) {
		int ret = atio_owner_new_id(&d->id_new);

		if (ret)
			return atio_error_set(e, ATIO_EXIT_FAIL, -ret, "cannot draw a dataset "
					      "id: %s", strerror(-ret));
	}
	d->id = d->id_new;
	return 0;
}

static int survey_file(struct atio_dataset *d, const struct atio_opts *o,
		       struct atio_file *f, struct atio_fill_stats *fs, struct atio_error *e)
{
	struct stat st;
	const char *why;
	int fd, ret, owner;

	f->exists = false;
	f->take = false;
	if (lstat(f->path, &st) != 0) {
		if (errno != ENOENT)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s",
					      f->path, strerror(errno));
		f->size = f->valid = 0;
		fs->created++;
		fs->to_write += d->file_size;
		fs->to_allocate += d->file_size;
		return 0;
	}
	if (S_ISLNK(st.st_mode))
		return atio_error_set(e, ATIO_EXIT_USAGE, ELOOP,
				      "%s: is a symbolic link, at the name of one of atio's files; "
				      "atio does not follow it (its target is left alone): "
				      "remove the link or choose another -f", f->path);
	if (!S_ISREG(st.st_mode))
		return atio_error_set(e, ATIO_EXIT_USAGE, EEXIST,
				      "%s: exists and is not a regular file", f->path);
	fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot open: %s",
				      f->path, strerror(errno));
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->size = (uint64_t)st.st_size;
	owner = f->owner;
	/*
	 * A file of atio's, at its own name, marked for another dataset: one
	 * of an earlier dataset at these names (a run with fewer files made a
	 * new one beside it) or one put there. A run makes it again as this
	 * dataset's and says so; a read test with --verify, asked to check
	 * what is there, leaves it alone and refuses it.
	 */
	if (owner == ATIO_OWNER_OTHER_DATASET && !(o->verify && o->mode == ATIO_MODE_READ)) {
		owner = ATIO_OWNER_OLD;
		fs->strays++;
	}
	why = not_ours(owner);
	if (owner == ATIO_OWNER_OTHER_DATASET && !o->take_over) {
		ret = atio_error_set(e, ATIO_EXIT_USAGE, EEXIST,
				     "%s: a file of atio's whose mark names another dataset than "
				     "the other files' (put in its place?): a read test with "
				     "--verify reads the dataset as it is and refuses it; atio "
				     "--check names its sectors, a run without --verify makes it "
				     "again as this dataset's", f->path);
	} else if (why && !o->take_over) {
		ret = atio_error_set(e, ATIO_EXIT_USAGE, EEXIST,
				     "%s: not a file atio made: %s; atio does not truncate, "
				     "fill, reuse or remove files it did not make: move it "
				     "away, choose another -f, or give --take-over to let atio "
				     "rewrite it", f->path, why);
	} else if (why || owner == ATIO_OWNER_OLD) {
		/* Taken over, or atio's of an older format: rewritten whole. */
		f->take = true;
		f->valid = 0;
		ret = 0;
	} else {
		ret = trusted_length(fd, f->size, d->file_size, &f->valid);
		if (ret)
			atio_error_set(e, ATIO_EXIT_FAIL, -ret, "%s: cannot look for holes: %s",
				       f->path, strerror(-ret));
	}
	close(fd);
	if (ret)
		return ret;
	f->exists = true;
	if (owner == ATIO_OWNER_OLD)
		fs->older++;
	else if (f->take)
		fs->taken++;
	else if (f->valid < d->file_size)
		fs->resumed++;
	else if (f->size > d->file_size)
		fs->truncated++;
	else
		fs->reused++;
	fs->to_write += d->file_size - f->valid;
	/*
	 * The fill first cuts every file at what it trusts, which gives back
	 * what an atio file holds past that (xfs keeps blocks beyond the end
	 * of a file grown by appends after it was truncated), then appends.
	 */
	fs->to_allocate += d->file_size - f->valid;
	if (!why && atio_file_needs_work(d, f) &&
	    (uint64_t)st.st_blocks * 512 > f->valid)
		fs->to_free += (uint64_t)st.st_blocks * 512 - f->valid;
	return 0;
}

/*
 * RLIMIT_NOFILE: the run holds every file open at once. Raise the soft
 * limit to the hard one when that is enough; refuse when even that is not.
 */
static int fd_limit(const struct atio_dataset *d, const struct atio_opts *o,
		    struct atio_error *e)
{
	struct rlimit rl;
	uint64_t need = (uint64_t)d->nfiles + o->threads + FD_SPARE;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    need <= rl.rlim_cur)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || need <= rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
			return 0;
	}
	return atio_error_set(e, ATIO_EXIT_USAGE, EMFILE,
			      "-n %u: the run holds %u files open at once and needs about "
			      "%llu descriptors, but the open-file limit is %llu (hard limit "
			      "%llu); raise it (ulimit -n) or use fewer files",
			      d->nfiles, d->nfiles, (unsigned long long)need,
			      (unsigned long long)rl.rlim_cur,
			      (unsigned long long)rl.rlim_max);
}

/* Look at every file; with @fs counting what is to be written. */
static int survey_files(struct atio_dataset *d, const struct atio_opts *o,
			struct atio_fill_stats *fs, struct atio_error *e)
{
	int ret = read_marks(d, e);

	if (!ret)
		ret = pick_id(d, e);
	if (ret)
		return ret;
	memset(fs, 0, sizeof(*fs));
	for (unsigned i = 0; ret == 0 && i < d->nfiles; i++)
		ret = survey_file(d, o, &d->files[i], fs, e);
	return ret;
}

int atio_dataset_survey(struct atio_dataset *d, const struct atio_opts *o,
			struct atio_fill_stats *fs, struct atio_error *e)
{
	struct statvfs sv;
	uint64_t avail;
	const char *slash;
	char *dir;
	int ret;

	memset(fs, 0, sizeof(*fs));
	ret = fd_limit(d, o, e);
	if (ret)
		return ret;
	if (d->device) {
		d->files[0].size = d->files[0].valid = d->file_size;
		d->files[0].exists = true;
		ret = atio_lock_take(&d->lock, d->files[0].path, true,
				     o->mode != ATIO_MODE_READ, e);
		d->surveyed = ret == 0;
		return ret;
	}
	ret = atio_lock_take(&d->lock, d->prefix, false, o->mode != ATIO_MODE_READ, e);
	if (!ret)
		ret = survey_files(d, o, fs, e);
	/* Something to write: have the dataset alone, and look again. */
	if (!ret && (fs->to_write || fs->truncated) && !d->lock.exclusive) {
		ret = atio_lock_exclusive(&d->lock, e);
		if (!ret)
			ret = survey_files(d, o, fs, e);
	}
	d->surveyed = ret == 0;
	if (ret || (fs->to_write == 0 && fs->truncated == 0))
		return ret;

	slash = strrchr(d->files[0].path, '/');
	dir = slash ? strndup(d->files[0].path, (size_t)(slash - d->files[0].path) + 1)
		    : strdup(".");
	if (!dir)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	ret = statvfs(dir, &sv);
	if (ret == 0 && access(dir, W_OK | X_OK) != 0) {
		ret = atio_error_set(e, ATIO_EXIT_USAGE, errno,
				     "-f %s: cannot create files in %s: %s",
				     o->path, dir, strerror(errno));
	} else if (ret != 0) {
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: statvfs: %s", dir,
				     strerror(errno));
	} else {
		/* What the fill takes beyond what it gives back first. */
		uint64_t need = fs->to_allocate > fs->to_free ? fs->to_allocate - fs->to_free : 0;
		/* Leave room for the filesystem's own metadata: 1% and 16 MiB. */
		uint64_t reserve = need / 100 + (16u << 20);

		avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		/*
		 * No blocks at all (ramfs): the filesystem does not count space.
		 * Nothing to allocate: the fill writes where the files hold blocks.
		 */
		if (sv.f_blocks != 0 && need && need + reserve > avail)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, ENOSPC,
					     "%s: not enough free space: the files need %.2f MiB "
					     "more than they already hold and atio keeps %.2f MiB "
					     "spare for metadata, but %.2f MiB are free; use a "
					     "smaller -u",
					     dir, atio_mib(need), atio_mib(reserve),
					     atio_mib(avail));
	}
	free(dir);
	return ret;
}

int atio_dataset_look(struct atio_dataset *d, const struct atio_opts *o, struct atio_error *e)
{
	struct atio_fill_stats fs;
	/* Reading changes nothing: files without atio's mark are read too. */
	struct atio_opts ro = *o;
	int ret = fd_limit(d, o, e);

	if (ret)
		return ret;
	if (d->device) {
		d->files[0].size = d->files[0].valid = d->file_size;
		d->files[0].exists = true;
		ret = atio_lock_take(&d->lock, d->files[0].path, true, false, e);
	} else {
		ret = atio_lock_take(&d->lock, d->prefix, false, false, e);
		ro.take_over = true;
		if (!ret)
			ret = survey_files(d, &ro, &fs, e);
	}
	/* What a look accepted may be closed, never removed: it wrote nothing. */
	d->surveyed = false;
	return ret;
}
