/* SPDX-License-Identifier: MIT */
/*
 * The dataset: which files, who works where, and making them complete
 * before the measured run. See include/atio/data/dataset.h for the rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "atio/data/dataset.h"
#include "atio/data/owner.h"
#include "atio/data/pool.h"

/*
 * Decide the directory and the file-name prefix: "DIR/atio." when -f is a
 * directory, "PATH." when it is not one and its parent is.
 */
static int name_prefix(const char *path, char **prefix, char **dirp, struct atio_error *e)
{
	struct stat st;
	char *dir;
	const char *slash;
	int ret;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		dir = strdup(path);
		ret = asprintf(prefix, "%s%satio.", path,
			       path[strlen(path) - 1] == '/' ? "" : "/");
	} else {
		slash = strrchr(path, '/');
		if (slash && slash[1] == '\0')
			return atio_error_set(e, ATIO_EXIT_USAGE, ENOENT,
					      "-f %s: no such directory", path);
		dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path))
			    : strdup(".");
		ret = asprintf(prefix, "%s.", path);
	}
	if (!dir || ret < 0) {
		free(dir);
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		ret = atio_error_set(e, ATIO_EXIT_USAGE, ENOENT,
				     "-f %s: directory %s does not exist", path, dir);
	else
		ret = 0;
	if (ret) {
		free(dir);
		free(*prefix);
		*prefix = NULL;
		return ret;
	}
	*dirp = dir;
	return 0;
}

/*
 * Cut the files into equal segments. With n <= p, the k = ceil(p/n) threads
 * that may share a file each get file_size / k rounded down to whole blocks,
 * the same for every thread so that they all do the same work; a file with
 * fewer sharers leaves its tail unused. With n > p a thread owns whole files.
 */
static int plan_segments(struct atio_dataset *d, const struct atio_opts *o)
{
	unsigned p = o->threads, n = o->nfiles, nsegs = n > p ? n : p;

	d->segs = calloc(nsegs, sizeof(*d->segs));
	d->first_seg = calloc(p + 1, sizeof(*d->first_seg));
	if (!d->segs || !d->first_seg)
		return -ENOMEM;

	if (n <= p) {
		unsigned k = (p + n - 1) / n;

		d->seg_blocks = d->file_size / k / o->bs;
		for (unsigned t = 0; t < p; t++) {
			d->first_seg[t] = t;
			d->segs[t].file = t % n;
			d->segs[t].start = (uint64_t)(t / n) * d->seg_blocks * o->bs;
		}
	} else {
		unsigned s = 0;

		d->seg_blocks = d->file_size / o->bs;
		for (unsigned t = 0; t < p; t++) {
			d->first_seg[t] = s;
			for (unsigned f = t; f < n; f += p, s++)
				d->segs[s].file = f;
		}
	}
	d->first_seg[p] = nsegs;
	for (unsigned s = 0; s < nsegs; s++) {
		d->segs[s].fd = -1;
		d->segs[s].blocks = d->seg_blocks;
	}
	return 0;
}

uint64_t atio_dataset_file_size(const struct atio_opts *o)
{
	return (o->total / o->nfiles) & ~(uint64_t)4095;
}

int atio_dataset_plan(struct atio_dataset *d, const struct atio_opts *o, struct atio_error *e)
{
	char *prefix = NULL;
	struct stat st;
	int ret;

	memset(d, 0, sizeof(*d));
	d->lock.fd = -1;
	d->device = o->path && stat(o->path, &st) == 0 && S_ISBLK(st.st_mode);
	if (d->device && o->nfiles != 1)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "-f %s: a block device is "
				      "one file: -n must be 1", o->path);
	if (o->path && !d->device) {
		ret = name_prefix(o->path, &prefix, &d->dir, e);
		if (ret)
			return ret;
	}

	d->nfiles = o->nfiles;
	d->nthreads = o->threads;
	d->expand = o->mode == ATIO_MODE_EXPAND;
	d->file_size = atio_dataset_file_size(o);
	d->files = calloc(d->nfiles, sizeof(*d->files));
	ret = d->files ? plan_segments(d, o) : -ENOMEM;
	for (unsigned i = 0; ret == 0 && i < d->nfiles; i++) {
		d->files[i].fd = -1;
		if (prefix && asprintf(&d->files[i].path, "%s%u", prefix, i) < 0) {
			d->files[i].path = NULL;
			ret = -ENOMEM;
		}
	}
	if (ret == 0 && d->device && !(d->files[0].path = strdup(o->path)))
		ret = -ENOMEM;
	d->prefix = prefix;
	if (ret) {
		atio_dataset_free(d);
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	return 0;
}

struct fill_job {
	struct atio_dataset *d;
	uint64_t seed;
	const char *after;         /* what becomes of a partial fill */
	const int *stop;
	unsigned next;             /* next file to take, atomically */
	int failed;                /* set atomically by the first failure */
	pthread_mutex_t lock;      /* guards err */
	struct atio_error err;
};

/*
 * Whether the open file @fd is still the file @f the survey found.
 */
static bool same_file(int fd, const struct atio_file *f)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino;
}

/*
 * Open @f for the fill: create it (O_EXCL: nothing may have appeared at its
 * name since the survey) and mark it, or open the file the survey found and
 * check that it is still that one; a file taken over is marked first.
 * Returns the descriptor, or -errno with @e filled.
 */
static int open_for_fill(struct atio_dataset *d, struct atio_file *f, struct atio_error *e)
{
	int flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
	int fd, ret = 0;
	struct stat st;

	fd = open(f->path, flags | (f->exists ? 0 : O_CREAT | O_EXCL), 0644);
	if (fd < 0)
		return atio_error_set(e, errno == EEXIST || errno == ELOOP ? ATIO_EXIT_USAGE
				      : ATIO_EXIT_FAIL, errno, "%s: cannot %s: %s%s", f->path,
				      f->exists ? "open" : "create", strerror(errno),
				      f->exists ? "" : " (something appeared at the name since "
				      "atio looked: atio leaves it alone)");
	if (!f->exists && fstat(fd, &st) == 0) {
		f->dev = st.st_dev;
		f->ino = st.st_ino;
	} else if (f->exists && !same_file(fd, f)) {
		ret = atio_error_set(e, ATIO_EXIT_FAIL, ESTALE, "%s: replaced by another "
				     "file since atio looked at it; atio leaves it alone",
				     f->path);
	}
	if (ret == 0 && (!f->exists || f->take)) {
		ret = atio_owner_mark(fd, atio_owner_basename(f->path), d->id);
		if (ret == -EOPNOTSUPP) {
			__atomic_fetch_add(&d->unmarked, 1, __ATOMIC_RELAXED);
			ret = 0;
		} else if (ret) {
			ret = atio_error_set(e, ATIO_EXIT_FAIL, -ret, "%s: cannot mark it as "
					     "atio's (user.atio): %s", f->path, strerror(-ret));
		}
	}
	if (ret) {
		close(fd);
		return ret;
	}
	f->exists = true;
	f->take = false;
	return fd;
}

/*
 * Append keystream to one file from f->valid to the planned size. Every
 * chunk has its own keystream position and stamps, so no two blocks of the
 * dataset are alike. Returns 0, -EINTR when stopped, or -errno.
 */
static int fill_file(struct fill_job *job, struct atio_file *f, unsigned char *buf,
		     struct atio_error *e)
{
	uint64_t size = job->d->file_size, off = f->valid;
	uint64_t key = atio_data_key(job->seed, f->path, 0);
	uint64_t tag = atio_stamp_tag(job->d->id, (uint64_t)(f - job->d->files));
	int fd, ret = 0;

	fd = open_for_fill(job->d, f, e);
	if (fd < 0)
		return fd;
	while (off < size && ret == 0) {
		size_t len = size - off < ATIO_FILL_CHUNK ? (size_t)(size - off) : ATIO_FILL_CHUNK;
		size_t done = 0;

		if (__atomic_load_n(job->stop, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&job->failed, __ATOMIC_RELAXED)) {
			ret = -EINTR;
			break;
		}
		ret = atio_keystream(buf, len, key, off);
		if (ret) {
			atio_error_set(e, ATIO_EXIT_FAIL, EIO, "keystream generation failed");
			break;
		}
		atio_stamp_put(buf, len, off, off, key, 0, ATIO_STAMP_FILL, tag);
		while (done < len) {
			ssize_t n = pwrite(fd, buf + done, len - done, (off_t)(off + done));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				int err = n < 0 ? errno : ENOSPC;

				ret = atio_error_set(e, ATIO_EXIT_FAIL, err,
						     "%s: filling at offset %llu of %llu: %s; %s",
						     f->path, (unsigned long long)(off + done),
						     (unsigned long long)size, strerror(err), job->after);
				break;
			}
			done += (size_t)n;
		}
		off += done;
	}
	if (ret == 0 && fdatasync(fd) != 0)
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: fdatasync after fill: %s",
				     f->path, strerror(errno));
	if (close(fd) != 0 && ret == 0)
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: close after fill: %s",
				     f->path, strerror(errno));
	if (ret == 0)
		f->size = f->valid = size;
	return ret;
}

static void *fill_thread(void *arg)
{
	struct fill_job *job = arg;
	struct atio_error e = { 0 };
	unsigned char *buf;
	int ret = 0;

	if (posix_memalign((void **)&buf, 4096, ATIO_FILL_CHUNK)) {
		ret = atio_error_set(&e, ATIO_EXIT_FAIL, ENOMEM, "out of memory for the fill");
		buf = NULL;
	}
	while (ret == 0) {
		unsigned i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);

		if (i >= job->d->nfiles)
			break;
		if (atio_file_needs_work(job->d, &job->d->files[i]))
			ret = fill_file(job, &job->d->files[i], buf, &e);
	}
	free(buf);
	/* The first real failure wins; a file abandoned because of it does not. */
	if (ret && ret != -EINTR) {
		pthread_mutex_lock(&job->lock);
		if (!job->failed)
			job->err = e;
		__atomic_store_n(&job->failed, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&job->lock);
	}
	return NULL;
}

/*
 * Cut a file that needs work at what the survey trusts of it, before any
 * file is appended to: also at an unchanged size, since that gives back
 * the blocks it holds past its end, which the survey counted as free.
 */
static int cut_file(struct atio_dataset *d, struct atio_file *f, struct atio_error *e)
{
	int fd = open_for_fill(d, f, e), ret = 0;

	if (fd < 0)
		return fd;
	if (ftruncate(fd, (off_t)f->valid) != 0)
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot truncate to %" PRIu64
				     ": %s", f->path, f->valid, strerror(errno));
	close(fd);
	if (ret == 0)
		f->size = f->valid;
	return ret;
}

int atio_dataset_fill(struct atio_dataset *d, const struct atio_opts *o,
		      const int *stop, struct atio_error *e)
{
	struct fill_job job = {
		.d = d, .seed = o->seed, .stop = stop, .lock = PTHREAD_MUTEX_INITIALIZER,
		.after = o->remove ? "--remove deletes the partial files"
				   : "the next run resumes the fill",
	};
	unsigned nth = 0, want = 0;
	pthread_t *th;

	for (unsigned i = 0; i < d->nfiles; i++) {
		struct atio_file *f = &d->files[i];
		int ret;

		if (!atio_file_needs_work(d, f))
			continue;
		want++;
		if (f->exists && (ret = cut_file(d, f, e)) != 0)
			return ret;
	}
	if (want == 0)
		return 0;
	if (want > o->threads)
		want = o->threads;
	th = calloc(want, sizeof(*th));
	if (!th)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	for (; nth < want; nth++)
		if (pthread_create(&th[nth], NULL, fill_thread, &job) != 0)
			break;
	if (nth == 0)
		fill_thread(&job);
	for (unsigned i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	free(th);

	if (job.failed) {
		*e = job.err;
		return -(e->err ? e->err : EIO);
	}
	if (__atomic_load_n(stop, __ATOMIC_RELAXED))
		return atio_error_set(e, ATIO_EXIT_INTERRUPTED, EINTR,
				      "interrupted while filling the files; %s", job.after);
	return 0;
}

/*
 * See dataset.h. Emptying is durable before the run: an fdatasync() would
 * not cover the size change everywhere, so fsync().
 */
int atio_dataset_empty(struct atio_dataset *d, struct atio_error *e)
{
	for (unsigned i = 0; i < d->nfiles; i++) {
		struct atio_file *f = &d->files[i];
		int fd = open_for_fill(d, f, e), ret = 0;

		if (fd < 0)
			return fd;
		if (ftruncate(fd, 0) != 0)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot truncate "
					     "to zero for --expand: %s", f->path, strerror(errno));
		else if (fsync(fd) != 0)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: fsync: %s",
					     f->path, strerror(errno));
		close(fd);
		if (ret)
			return ret;
		f->size = f->valid = f->grown = 0;
	}
	return 0;
}

/*
 * Check that O_DIRECT works on @fd at @bs: one aligned read at offset 0.
 * Filesystems that refuse O_DIRECT at open have been caught already; this
 * catches those that require a larger alignment than the block size. A
 * length equal to @bs modulo 64 KiB tells the same of every alignment up to
 * 64 KiB (the largest block size of Linux filesystems), so a larger block
 * is probed with 64 to 128 KiB, into one buffer kept as long as the dataset.
 * Pages freed just before the threads make their buffers go to them first,
 * in reverse order: a whole 16M probe of each file, freed there, left the
 * threads' buffers scattered, and their large requests reached the device
 * in more, smaller pieces.
 */
#define PROBE_MOD (64u << 10)

static size_t probe_len(uint64_t bs)
{
	return bs <= 2 * PROBE_MOD ? bs : PROBE_MOD + bs % PROBE_MOD;
}

static int probe_direct(int fd, const char *path, uint64_t bs, void *buf, struct atio_error *e)
{
	ssize_t n = pread(fd, buf, probe_len(bs), 0);
	int err = errno;

	if (n >= 0)
		return 0;
	if (err == EINVAL)
		return atio_error_set(e, ATIO_EXIT_USAGE, err,
				      "%s: the filesystem refuses O_DIRECT reads of %llu bytes "
				      "(--uncached); try a larger -s that is a multiple of its "
				      "block size, or --cached", path, (unsigned long long)bs);
	return atio_error_set(e, ATIO_EXIT_FAIL, err, "%s: O_DIRECT read at offset 0: %s",
			      path, strerror(err));
}

int atio_dataset_open(struct atio_dataset *d, const struct atio_opts *o, struct atio_error *e)
{
	/* Reads open read-only, so that they run on a read-only mount. */
	int flags = (o->mode == ATIO_MODE_READ ? O_RDONLY : O_RDWR) | O_CLOEXEC |
		    (o->direct ? O_DIRECT : 0) | (d->device ? 0 : O_NOFOLLOW);

	/*
	 * --dsync, --osync: only this open, for the run; the fill and the
	 * cache drop before it stay as fast as without.
	 */
	if (o->open_sync == ATIO_OPEN_DSYNC)
		flags |= O_DSYNC;
	else if (o->open_sync == ATIO_OPEN_OSYNC)
		flags |= O_SYNC;
	/* A device written to is opened exclusively: not while mounted or claimed. */
	if (d->device && o->mode != ATIO_MODE_READ)
		flags |= O_EXCL;
	if (o->direct && !d->probe_buf && posix_memalign(&d->probe_buf, 4096, probe_len(o->bs)))
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	for (unsigned i = 0; i < d->nfiles; i++) {
		struct atio_file *f = &d->files[i];

		f->fd = open(f->path, flags);
		if (f->fd < 0 && d->device && errno == EBUSY)
			return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "%s: the device is in "
					      "use (mounted or claimed): writes refused", f->path);
		if (f->fd < 0 && o->direct && errno == EINVAL)
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
					      "%s: the filesystem does not support O_DIRECT "
					      "(--uncached); use --cached", f->path);
		if (f->fd < 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot open: %s",
					      f->path, strerror(errno));
		if (!d->device && !same_file(f->fd, f))
			return atio_error_set(e, ATIO_EXIT_FAIL, ESTALE, "%s: replaced by another "
					      "file since atio prepared it; atio leaves it alone",
					      f->path);
		if (o->direct && probe_direct(f->fd, f->path, o->bs, d->probe_buf, e))
			return -e->err;
	}
	for (unsigned s = 0; s < d->first_seg[d->nthreads]; s++) {
		d->segs[s].fd = d->files[d->segs[s].file].fd;
		d->segs[s].tag = atio_stamp_tag(d->id, d->segs[s].file);
	}
	return 0;
}

int atio_dataset_drop_cache(struct atio_dataset *d, struct atio_error *e)
{
	for (unsigned i = 0; i < d->nfiles; i++) {
		struct atio_file *f = &d->files[i];
		int err;

		if (fdatasync(f->fd) != 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: fdatasync: %s",
					      f->path, strerror(errno));
		err = posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
		if (err)
			return atio_error_set(e, ATIO_EXIT_FAIL, err,
					      "%s: cannot drop from the page cache: %s",
					      f->path, strerror(err));
	}
	return 0;
}

int atio_dataset_verify(struct atio_dataset *d, struct atio_error *e)
{
	for (unsigned i = 0; !d->device && i < d->nfiles; i++) {
		const struct atio_file *f = &d->files[i];
		uint64_t want = d->expand ? f->grown : d->file_size, end;
		struct stat st, now;
		off_t hole;
		const char *how = NULL;
		bool named;

		if (f->fd < 0)
			continue;
		if (fstat(f->fd, &st) != 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: fstat: %s",
					      f->path, strerror(errno));
		named = lstat(f->path, &now) == 0;
		/* Replaced: the size said is the replacement's, the file now at the name. */
		if (named && (now.st_ino != st.st_ino || now.st_dev != st.st_dev))
			return atio_error_set(e, ATIO_EXIT_FAIL, ESTALE,
					      "%s: it was replaced during the run (by a file of %llu "
					      "bytes, planned %llu): another program works on the "
					      "dataset; no result", f->path,
					      (unsigned long long)now.st_size,
					      (unsigned long long)want);
		if (!named || st.st_nlink == 0)
			how = "it was removed";
		else if ((uint64_t)st.st_size != want)
			how = "its size changed";
		if (how)
			return atio_error_set(e, ATIO_EXIT_FAIL, ESTALE,
					      "%s: %s during the run (%llu bytes, planned %llu): "
					      "another program works on the dataset; no result",
					      f->path, how, (unsigned long long)st.st_size,
					      (unsigned long long)want);
		/*
		 * The size alone misses a file cut and grown again (truncated,
		 * then extended by a write at its end, or a hole punched):
		 * reads of a hole return zeros from no device, writes into it
		 * allocate anew. Every file was whole when the run began.
		 * SEEK_HOLE alone, not FIEMAP: with -S the run's last writes
		 * may still be in writeback, in extents unwritten until then.
		 */
		hole = lseek(f->fd, 0, SEEK_HOLE);
		end = hole < 0 ? want : (uint64_t)hole;
		if (end < want)
			return atio_error_set(e, ATIO_EXIT_FAIL, ESTALE,
					      "%s: a hole appeared in it during the run (at byte "
					      "%llu of %llu): another program works on the "
					      "dataset; no result",
					      f->path, (unsigned long long)end,
					      (unsigned long long)want);
	}
	return 0;
}

int atio_dataset_close(struct atio_dataset *d, bool remove, struct atio_error *e)
{
	struct atio_error shared = { 0 };
	int ret = 0;

	/* Files another atio may be reading stay where they are. */
	if (remove && d->surveyed && !d->device && atio_lock_exclusive(&d->lock, &shared)) {
		d->remove_kept = true;
		remove = false;
	}
	for (unsigned i = 0; i < d->nfiles; i++) {
		struct atio_file *f = &d->files[i];
		struct stat st;
		bool ours;

		/*
		 * Remove only a file of atio's that the run used, not what
		 * replaced it since, and nothing when the survey refused the
		 * dataset (a refused run leaves every file as it was).
		 */
		ours = d->surveyed && f->exists && !f->take && !d->device &&
		       lstat(f->path, &st) == 0 && S_ISREG(st.st_mode) &&
		       st.st_dev == f->dev && st.st_ino == f->ino;
		if (f->fd >= 0 && close(f->fd) != 0 && ret == 0)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: close: %s",
					     f->path, strerror(errno));
		f->fd = -1;
		if (remove && ours && unlink(f->path) != 0 && errno != ENOENT && ret == 0)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot remove: %s",
					     f->path, strerror(errno));
	}
	atio_lock_release(&d->lock);
	return ret;
}

void atio_dataset_free(struct atio_dataset *d)
{
	if (d->lock.path)
		atio_lock_release(&d->lock);
	for (unsigned i = 0; d->files && i < d->nfiles; i++)
		free(d->files[i].path);
	free(d->files);
	free(d->prefix);
	free(d->dir);
	free(d->segs);
	free(d->first_seg);
	free(d->probe_buf);
	memset(d, 0, sizeof(*d));
}
