/* SPDX-License-Identifier: MIT */
/*
 * The dataset: which files, who works where, and making them complete
 * before the measured run. See include/atio/dataset.h for the rules.
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

#include "atio/dataset.h"
#include "atio/pool.h"

/* The fill appends in chunks of this size; a resumed fill restarts at one. */
#define FILL_CHUNK ATIO_FILL_CHUNK

static double mib(uint64_t bytes)
{
	return (double)bytes / (1 << 20);
}

/*
 * Decide the directory and the file-name prefix: "DIR/atio." when -f is a
 * directory, "PATH." when it is not one and its parent is.
 */
static int name_prefix(const char *path, char **prefix, struct atio_error *e)
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
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		ret = atio_error_set(e, ATIO_EXIT_USAGE, ENOENT,
				     "-f %s: directory %s does not exist", path, dir);
	} else if (access(dir, W_OK | X_OK) != 0) {
		ret = atio_error_set(e, ATIO_EXIT_USAGE, errno,
				     "-f %s: cannot create files in %s: %s",
				     path, dir, strerror(errno));
	} else {
		ret = 0;
	}
	free(dir);
	if (ret) {
		free(*prefix);
		*prefix = NULL;
	}
	return ret;
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

int atio_dataset_plan(struct atio_dataset *d, const struct atio_opts *o, struct atio_error *e)
{
	char *prefix = NULL;
	int ret;

	memset(d, 0, sizeof(*d));
	if (o->path) {
		ret = name_prefix(o->path, &prefix, e);
		if (ret)
			return ret;
	}

	d->nfiles = o->nfiles;
	d->nthreads = o->threads;
	d->file_size = (o->total / o->nfiles) & ~(uint64_t)4095;
	d->files = calloc(d->nfiles, sizeof(*d->files));
	ret = d->files ? plan_segments(d, o) : -ENOMEM;
	for (unsigned i = 0; ret == 0 && i < d->nfiles; i++) {
		d->files[i].fd = -1;
		if (prefix && asprintf(&d->files[i].path, "%s%u", prefix, i) < 0) {
			d->files[i].path = NULL;
			ret = -ENOMEM;
		}
	}
	free(prefix);
	if (ret) {
		atio_dataset_free(d);
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * How much of an existing file can be trusted: its size, cut at the first
 * hole, rounded down to a fill chunk unless the file is complete.
 */
static int trusted_length(int fd, uint64_t size, uint64_t target, uint64_t *valid)
{
	off_t hole = lseek(fd, 0, SEEK_HOLE);
	uint64_t v = size;

	if (hole < 0 && errno != ENXIO)
		return -errno;
	if (hole >= 0 && (uint64_t)hole < v)
		v = (uint64_t)hole;
	if (v > target)
		v = target;
	if (v < target)
		v -= v % FILL_CHUNK;
	*valid = v;
	return 0;
}

static int survey_file(struct atio_dataset *d, struct atio_file *f,
		       struct atio_fill_stats *fs, struct atio_error *e)
{
	struct stat st;
	int fd, ret;

	if (stat(f->path, &st) != 0) {
		if (errno != ENOENT)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s",
					      f->path, strerror(errno));
		f->size = f->valid = 0;
		fs->created++;
		fs->to_write += d->file_size;
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return atio_error_set(e, ATIO_EXIT_USAGE, EEXIST,
				      "%s: exists and is not a regular file", f->path);
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot open: %s",
				      f->path, strerror(errno));
	f->size = (uint64_t)st.st_size;
	ret = trusted_length(fd, f->size, d->file_size, &f->valid);
	close(fd);
	if (ret)
		return atio_error_set(e, ATIO_EXIT_FAIL, -ret, "%s: cannot look for holes: %s",
				      f->path, strerror(-ret));
	if (f->valid < d->file_size)
		fs->resumed++;
	else if (f->size > d->file_size)
		fs->truncated++;
	else
		fs->reused++;
	fs->to_write += d->file_size - f->valid;
	return 0;
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
	for (unsigned i = 0; i < d->nfiles; i++) {
		ret = survey_file(d, &d->files[i], fs, e);
		if (ret)
			return ret;
	}
	if (fs->to_write == 0)
		return 0;

	slash = strrchr(d->files[0].path, '/');
	dir = slash ? strndup(d->files[0].path, (size_t)(slash - d->files[0].path) + 1)
		    : strdup(".");
	if (!dir)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	ret = statvfs(dir, &sv);
	if (ret != 0) {
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: statvfs: %s", dir,
				     strerror(errno));
	} else {
		/* Leave room for the filesystem's own metadata: 1% and 16 MiB. */
		uint64_t reserve = fs->to_write / 100 + (16u << 20);

		avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		if (fs->to_write + reserve > avail)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, ENOSPC,
					     "%s: not enough free space: the files need %.2f MiB "
					     "more and atio keeps %.2f MiB spare for metadata, but "
					     "%.2f MiB are free; use a smaller -u",
					     dir, mib(fs->to_write), mib(reserve), mib(avail));
	}
	free(dir);
	return ret;
}

/* Whether the survey found @f anything but complete at the planned size. */
static bool needs_work(const struct atio_dataset *d, const struct atio_file *f)
{
	return f->size != d->file_size || f->valid != d->file_size;
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
 * Append keystream to one file from f->valid to the planned size. Every
 * chunk has its own keystream position and stamps, so no two blocks of the
 * dataset are alike. Returns 0, -EINTR when stopped, or -errno.
 */
static int fill_file(struct fill_job *job, struct atio_file *f, unsigned char *buf,
		     struct atio_error *e)
{
	uint64_t size = job->d->file_size, off = f->valid;
	uint64_t key = atio_data_key(job->seed, f->path, 0);
	int fd, ret = 0;

	fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot create: %s",
				      f->path, strerror(errno));
	/* Drop what is not trusted (or beyond the plan) before appending. */
	if (f->size != f->valid && ftruncate(fd, (off_t)f->valid) != 0) {
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot truncate to %" PRIu64
				     ": %s", f->path, f->valid, strerror(errno));
		close(fd);
		return ret;
	}
	f->size = f->valid;
	while (off < size && ret == 0) {
		size_t len = size - off < FILL_CHUNK ? (size_t)(size - off) : FILL_CHUNK;
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
		atio_stamp_put(buf, len, off, off, key, 0, ATIO_STAMP_FILL);
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

	if (posix_memalign((void **)&buf, 4096, FILL_CHUNK)) {
		ret = atio_error_set(&e, ATIO_EXIT_FAIL, ENOMEM, "out of memory for the fill");
		buf = NULL;
	}
	while (ret == 0) {
		unsigned i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);

		if (i >= job->d->nfiles)
			break;
		if (needs_work(job->d, &job->d->files[i]))
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

	for (unsigned i = 0; i < d->nfiles; i++)
		want += needs_work(d, &d->files[i]);
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
 * Check that O_DIRECT works on @fd at @bs: one aligned read of a block.
 * Filesystems that refuse O_DIRECT at open have been caught already; this
 * catches those that require a larger alignment than the block size.
 */
static int probe_direct(int fd, const char *path, uint64_t bs, struct atio_error *e)
{
	void *buf;
	ssize_t n;
	int err;

	if (posix_memalign(&buf, 4096, bs))
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	n = pread(fd, buf, bs, 0);
	err = errno;
	free(buf);
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
	int flags = O_RDWR | O_CLOEXEC | (o->direct ? O_DIRECT : 0);

	for (unsigned i = 0; i < d->nfiles; i++) {
		struct atio_file *f = &d->files[i];

		f->fd = open(f->path, flags);
		if (f->fd < 0 && o->direct && errno == EINVAL)
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
					      "%s: the filesystem does not support O_DIRECT "
					      "(--uncached); use --cached", f->path);
		if (f->fd < 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot open: %s",
					      f->path, strerror(errno));
		if (o->direct && probe_direct(f->fd, f->path, o->bs, e))
			return -e->err;
	}
	for (unsigned s = 0; s < d->first_seg[d->nthreads]; s++)
		d->segs[s].fd = d->files[d->segs[s].file].fd;
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

int atio_dataset_close(struct atio_dataset *d, bool remove, struct atio_error *e)
{
	int ret = 0;

	for (unsigned i = 0; i < d->nfiles; i++) {
		struct atio_file *f = &d->files[i];

		if (f->fd >= 0 && close(f->fd) != 0 && ret == 0)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: close: %s",
					     f->path, strerror(errno));
		f->fd = -1;
		if (remove && unlink(f->path) != 0 && errno != ENOENT && ret == 0)
			ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: cannot remove: %s",
					     f->path, strerror(errno));
	}
	return ret;
}

void atio_dataset_free(struct atio_dataset *d)
{
	for (unsigned i = 0; d->files && i < d->nfiles; i++)
		free(d->files[i].path);
	free(d->files);
	free(d->segs);
	free(d->first_seg);
	memset(d, 0, sizeof(*d));
}
