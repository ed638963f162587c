/* SPDX-License-Identifier: MIT */
/*
 * The threads of a metadata run (atio/run/meta.h): one operation a file,
 * each timed, in phases between barriers.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "atio/base/clock.h"
#include "atio/base/prng.h"
#include "atio/data/check_sector.h"
#include "atio/data/keystream.h"
#include "atio/data/meta_tree.h"
#include "atio/data/stamp.h"
#include "atio/run/meta.h"
#include "atio/run/worker.h"

#define PATH_LEN 4096

void atio_meta_root(char *buf, size_t len, const char *top, unsigned t, bool shared)
{
	if (shared)
		snprintf(buf, len, "%s/shared", top);
	else
		snprintf(buf, len, "%s/t%u", top, t);
}

void atio_meta_path(char *buf, size_t len, const char *root, const struct atio_opts *o,
		    unsigned t, uint64_t k, bool renamed)
{
	const struct atio_meta_opts *m = &o->meta;
	char c = renamed ? 'r' : 'f';

	if (m->shared)
		snprintf(buf, len, "%s/d%" PRIu64 "/t%u.%c%" PRIu64, root, k % m->dirs, t, c, k);
	else
		snprintf(buf, len, "%s/d%" PRIu64 "/%c%" PRIu64, root, k % m->dirs, c, k);
}

/*
 * mkdir @path; with --shared-by, a directory another member made is
 * taken (the tree's mark was found to be this run's).
 */
static int make_dir(const char *path, const struct atio_opts *o)
{
	struct stat st;

	if (mkdir(path, 0755) == 0)
		return 0;
	if (errno != EEXIST || !o->meta.members)
		return -1;
	if (lstat(path, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = EEXIST;
		return -1;
	}
	return 0;
}

int atio_meta_dirs(const char *top, const struct atio_opts *o, bool make, struct atio_error *e)
{
	const struct atio_meta_opts *m = &o->meta;
	unsigned trees = m->shared ? 1 : o->threads;
	char root[PATH_LEN], dir[PATH_LEN + 16];

	for (unsigned t = 0; t < trees; t++) {
		atio_meta_root(root, sizeof(root), top, t, m->shared);
		if (make && make_dir(root, o) != 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: mkdir: %s", root,
					      strerror(errno));
		for (unsigned d = 0; d < m->dirs; d++) {
			snprintf(dir, sizeof(dir), "%s/d%u", root, d);
			if ((make ? make_dir(dir, o) : rmdir(dir)) != 0)
				return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s: %s", dir,
						      make ? "mkdir" : "rmdir", strerror(errno));
		}
		if (!make && rmdir(root) != 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: rmdir: %s", root,
					      strerror(errno));
	}
	return 0;
}

int atio_meta_member_remove(const char *top, const struct atio_opts *o, struct atio_error *e)
{
	const struct atio_meta_opts *m = &o->meta;
	char root[PATH_LEN], path[PATH_LEN + 64];
	struct stat st;

	atio_meta_root(root, sizeof(root), top, 0, true);
	for (unsigned t = m->member * o->threads; t < (m->member + 1) * o->threads; t++)
		for (uint64_t k = 0; k < m->files; k++)
			for (int renamed = 0; renamed < 2; renamed++) {
				atio_meta_path(path, sizeof(path), root, o, t, k, renamed);
				if (lstat(path, &st) != 0 && errno == ENOENT)
					continue;
				if (!S_ISREG(st.st_mode))
					return atio_error_set(e, ATIO_EXIT_FAIL, ENOTEMPTY, "%s: "
							      "not a file atio made: left "
							      "there", path);
				if (unlink(path) != 0 && errno != ENOENT)
					return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: "
							      "unlink: %s", path,
							      strerror(errno));
			}
	return 0;
}

/*
 * The tag of the data of file @k of thread @t: of the tree's id and the
 * file's number. Reads of another node's tree (--neighbour-dir) take its id.
 */
static uint64_t file_id(const struct atio_meta_shared *sh, unsigned t, uint64_t k)
{
	uint64_t id = sh->neighbour_top && sh->phase == ATIO_META_READ ? sh->neighbour_id
		      : sh->tree_id;

	return atio_stamp_fmix(id + t * sh->o->meta.files + k + 1);
}

int atio_meta_worker_setup(struct atio_meta_worker *w, struct atio_meta_shared *sh, unsigned id)
{
	const struct atio_opts *o = sh->o;
	uint64_t size = o->meta.file_size, window = (size + 511) / 512 * 512;
	char root[PATH_LEN];
	int ret;

	*w = (struct atio_meta_worker){ .sh = sh, .id = id,
					.gid = o->meta.member * o->threads + id };
	atio_hist_init(&w->lat);
	atio_stats_init(&w->st);
	if (atio_ival_rec_init(&w->iv, &w->st, NULL, o->interval_ns, 0))
		return atio_error_set(&w->err, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	atio_meta_root(root, sizeof(root), sh->top, id, o->meta.shared);
	w->root = strdup(root);
	if (!w->root)
		return atio_error_set(&w->err, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	if (window) {
		ret = atio_pool_init(&w->pool, window, 1,
				     atio_data_key(o->seed ^ sh->tree_id, "meta", w->gid), false);
		w->rbuf = malloc(window);
		w->ks = o->verify ? malloc(window) : NULL;
		if (ret || !w->rbuf || (o->verify && !w->ks))
			return atio_error_set(&w->err, ATIO_EXIT_FAIL, ret ? -ret : ENOMEM,
					      "thread %u: no memory for its buffers", id);
	}
	if (o->random) {
		struct atio_prng r;
		struct atio_range g;

		w->order = malloc(o->meta.files * sizeof(*w->order));
		if (!w->order)
			return atio_error_set(&w->err, ATIO_EXIT_FAIL, ENOMEM,
					      "thread %u: no memory for its order of files", id);
		atio_prng_seed(&r, o->seed, id);
		for (uint64_t k = 0; k < o->meta.files; k++)
			w->order[k] = k;
		for (uint64_t k = o->meta.files - 1; k > 0; k--) {
			uint64_t j, t = w->order[k];

			atio_range_init(&g, k + 1);
			j = atio_prng_below(&r, &g);
			w->order[k] = w->order[j];
			w->order[j] = t;
		}
	}
	return 0;
}

void atio_meta_worker_teardown(struct atio_meta_worker *w)
{
	if (w->pool.base)
		atio_pool_free(&w->pool);
	atio_keystream_end(&w->kctx);
	free(w->rbuf);
	free(w->ks);
	free(w->order);
	free(w->root);
	atio_ival_rec_free(&w->iv);
	w->root = NULL;
	w->rbuf = w->ks = NULL;
	w->order = NULL;
}

/*
 * A failure of @w in its phase at @path: the run stops, and the message
 * names the phase, the file and the errno (and, for ENOSPC, whether the
 * filesystem ran out of inodes).
 */
static void fail(struct atio_meta_worker *w, const char *op, const char *path, int err)
{
	struct statvfs vfs;
	const char *inodes = "";

	if (err == ENOSPC && statvfs(w->root, &vfs) == 0 && vfs.f_files && !vfs.f_favail)
		inodes = ": no free inodes left on the filesystem";
	atio_error_set(&w->err, ATIO_EXIT_FAIL, err, "%s: %s: %s: %s (%s)%s",
		       atio_meta_phase_name(w->sh->phase), path, op, strerror(err),
		       strerrorname_np(err) ? strerrorname_np(err) : "?", inodes);
	w->failed = true;
	__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
}

/* Write @len bytes of @buf to @fd whole. */
static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int create_one(struct atio_meta_worker *w, const char *path, uint64_t k)
{
	const struct atio_meta_opts *m = &w->sh->o->meta;
	size_t whole = m->file_size / 512 * 512;
	unsigned char *buf = NULL;
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644), err = 0;

	if (fd < 0) {
		fail(w, "open", path, errno);
		return -1;
	}
	if (m->file_size) {
		buf = w->pool.base;
		if (whole)
			buf = atio_pool_take_len(&w->pool, 0, k, 0,
						 atio_stamp_tag(file_id(w->sh, w->gid, k), 0), whole);
		err = write_all(fd, buf, m->file_size);
		if (err)
			fail(w, "write", path, err);
	}
	if (!err && m->fsync_files && fsync(fd) != 0) {
		err = errno;
		fail(w, "fsync", path, err);
	}
	if (close(fd) != 0 && !err) {
		err = errno;
		fail(w, "close", path, err);
	}
	return err ? -1 : 0;
}

/*
 * --verify: the @len bytes read of file @k of thread @t against their
 * stamps, and the bytes past the last whole sector against the keystream
 * the first sector's stamp names.
 */
static int verify_one(struct atio_meta_worker *w, const char *path, unsigned t, uint64_t k,
		      size_t len)
{
	struct atio_file file = { .path = (char *)path, .fd = -1 };
	struct atio_dataset ds = { .files = &file, .nfiles = 1, .id = file_id(w->sh, t, k),
				   .file_size = len };
	size_t whole = len / 512 * 512;
	struct atio_check_bad bad = { 0 };
	struct atio_stamp found = { 0 };
	char what[512];
	int ret;

	ret = atio_check_block(w->rbuf, whole, 0, &ds, 0, &w->kctx, w->ks, &bad, &found);
	if (ret < 0) {
		fail(w, "verify: cannot make the keystream", path, -ret);
		return -1;
	}
	if (ret == 0 && whole < len && atio_stamp_get(w->rbuf, &found) == 0) {
		ret = atio_keystream_at(&w->kctx, w->ks, 512, found.key, found.pos + whole);
		if (ret == 0 && memcmp(w->ks, w->rbuf + whole, len - whole) != 0) {
			atio_error_set(&w->err, ATIO_EXIT_FAIL, EILSEQ, "read: %s: verify: the "
				       "bytes from offset %zu to the end are not the data atio "
				       "wrote there", path, whole);
			w->failed = true;
			__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
			return -1;
		}
	}
	if (ret == 0)
		return 0;
	atio_check_describe(what, sizeof(what), &bad, &found);
	atio_error_set(&w->err, ATIO_EXIT_FAIL, EILSEQ, "read: %s: verify: the sector at "
		       "offset %" PRIu64 " holds %s", path, bad.off, what);
	w->failed = true;
	__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
	return -1;
}

static int read_one(struct atio_meta_worker *w, const char *path, unsigned t, uint64_t k,
		    uint64_t *t1)
{
	size_t want = w->sh->o->meta.file_size, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0) {
		fail(w, "open", path, errno);
		return -1;
	}
	while (got < want) {
		ssize_t n = read(fd, w->rbuf + got, want - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : EIO;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	*t1 = atio_ticks();
	if (err == EIO && got < want) {
		atio_error_set(&w->err, ATIO_EXIT_FAIL, EIO, "read: %s: %zu of its %zu bytes: "
			       "the file was cut", path, got, want);
		w->failed = true;
		__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
		return -1;
	}
	if (err) {
		fail(w, "read", path, err);
		return -1;
	}
	return w->sh->o->verify ? verify_one(w, path, t, k, want) : 0;
}

/* One operation of the phase on file @k (the file of thread @t): its latency recorded. */
static int one(struct atio_meta_worker *w, unsigned t, uint64_t k)
{
	const struct atio_meta_shared *sh = w->sh;
	char path[PATH_LEN], to[PATH_LEN], root[PATH_LEN];
	const char *r = w->root;
	bool renamed = sh->renamed;
	uint64_t t0, t1 = 0;
	struct stat st;
	int ret = 0;

	if (sh->neighbour_top && (sh->phase == ATIO_META_STAT || sh->phase == ATIO_META_READ)) {
		/* --neighbour-dir: the same thread's files in the other node's tree. */
		atio_meta_root(root, sizeof(root), sh->neighbour_top, t, sh->o->meta.shared);
		r = root;
		renamed = sh->neighbour_renamed;
	} else if (sh->o->meta.members && t != w->gid) {
		/* --shared-by --neighbour: the next member's files, at their names. */
		renamed = sh->neighbour_renamed;
	} else if (t != w->id && !sh->o->meta.shared) {
		atio_meta_root(root, sizeof(root), sh->top, t, false);
		r = root;
	}
	atio_meta_path(path, sizeof(path), r, sh->o, t, k, renamed);
	t0 = atio_ticks();
	switch (sh->phase) {
	case ATIO_META_CREATE:
		ret = create_one(w, path, k);
		break;
	case ATIO_META_STAT:
		if (stat(path, &st) != 0)
			fail(w, "stat", path, errno), ret = -1;
		break;
	case ATIO_META_READ:
		ret = read_one(w, path, t, k, &t1);
		break;
	case ATIO_META_RENAME:
		atio_meta_path(to, sizeof(to), r, sh->o, t, k, !sh->renamed);
		if (rename(path, to) != 0)
			fail(w, "rename", path, errno), ret = -1;
		break;
	case ATIO_META_DELETE:
		if (unlink(path) != 0)
			fail(w, "unlink", path, errno), ret = -1;
		break;
	default:
		break;
	}
	if (!t1)
		t1 = atio_ticks();
	if (!ret) {
		/* As a data run's completion: its interval first, then its latency there. */
		atio_ival_seen(&w->iv, t1, 0);
		atio_hist_record(w->iv.cur[0], atio_ticks_to_ns(t1 - t0));
		__atomic_store_n(&w->st.ops, w->st.ops + 1, __ATOMIC_RELAXED);
		if (sh->phase == ATIO_META_CREATE || sh->phase == ATIO_META_READ)
			w->st.bytes += sh->o->meta.file_size;
	}
	return ret;
}

/* --fsync-dir: sync the directories this thread filled. */
static void sync_dirs(struct atio_meta_worker *w)
{
	const struct atio_opts *o = w->sh->o;
	char dir[PATH_LEN + 16];

	for (unsigned d = 0; d < o->meta.dirs && !w->failed; d++) {
		int fd;

		if (o->meta.shared && d % (o->threads * (o->meta.members ? o->meta.members : 1))
		    != w->gid)
			continue;
		snprintf(dir, sizeof(dir), "%s/d%u", w->root, d);
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || fsync(fd) != 0)
			fail(w, fd < 0 ? "open" : "fsync", dir, errno);
		if (fd >= 0)
			close(fd);
	}
}

/* One phase of @w: every file of its own (or its neighbour's). */
static void phase(struct atio_meta_worker *w)
{
	const struct atio_meta_shared *sh = w->sh;
	const struct atio_opts *o = sh->o;
	bool other = o->meta.neighbour &&
		     (sh->phase == ATIO_META_STAT || sh->phase == ATIO_META_READ);
	bool ordered = sh->phase == ATIO_META_STAT || sh->phase == ATIO_META_READ;
	unsigned t = w->gid;
	uint64_t user, sys;

	if (other && o->meta.members)
		t = (o->meta.member + 1) % o->meta.members * o->threads + w->id;
	else if (other)
		t = (w->id + 1) % o->threads;

	w->ops = 0;
	user = atio_thread_cpu_ns(&sys);
	w->start_ns = atio_now_ns();
	for (uint64_t i = 0; i < o->meta.files; i++) {
		uint64_t k = ordered && w->order ? w->order[i] : i;

		if (__atomic_load_n(&w->sh->stop, __ATOMIC_RELAXED) || one(w, t, k))
			break;
		w->ops++;
	}
	if (sh->phase == ATIO_META_CREATE && o->meta.fsync_dir && !w->failed &&
	    !__atomic_load_n(&w->sh->stop, __ATOMIC_RELAXED))
		sync_dirs(w);
	w->end_ns = atio_now_ns();
	atio_ival_rec_finish(&w->iv, w->end_ns, false);
	atio_hist_merge(&w->lat, &w->st.lat);
	w->cpu_user_ns = atio_thread_cpu_ns(&w->cpu_sys_ns) - user;
	w->cpu_sys_ns -= sys;
}

void *atio_meta_worker_main(void *arg)
{
	struct atio_meta_worker *w = arg;

	pthread_mutex_lock(&w->sh->gate);
	pthread_mutex_unlock(&w->sh->gate);
	for (;;) {
		pthread_barrier_wait(&w->sh->start);
		if (w->sh->quit)
			return NULL;
		phase(w);
		if (w->sh->done_fd >= 0) {
			uint64_t one = 1;

			/* The main thread waits on it, watching the signals meanwhile. */
			if (write(w->sh->done_fd, &one, sizeof(one)) != sizeof(one))
				__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
		}
		pthread_barrier_wait(&w->sh->end);
	}
}

/*
 * The threads' intervals of the phase merged into @rec->timeline (the
 * last pass's), their rates in ops a second; none when memory is short.
 */
static void gather_intervals(struct atio_meta_rec *rec, struct atio_meta_worker *w, unsigned n,
			     uint64_t last)
{
	const struct atio_ival_series **in = calloc(n, sizeof(*in));
	struct atio_ival_series *t = rec->timeline ? rec->timeline : malloc(sizeof(*t));
	uint64_t base = w[0].sh->phase_ns;

	if (rec->timeline)
		atio_ival_series_free(t);
	rec->timeline = NULL;
	if (!in || !t) {
		free(in);
		free(t);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		in[i] = &w[i].iv.s;
	atio_ival_series_init(t, w[0].iv.s.interval_ns, false);
	if (atio_ival_merge(t, (const struct atio_ival_series *const *)in, n,
			    last > base ? last - base : 0, false)) {
		atio_ival_series_free(t);
		free(t);
	} else {
		atio_ival_rates(t, ATIO_IVAL_IOPS);
		rec->timeline = t;
	}
	free(in);
}

void atio_meta_begin(struct atio_meta_worker *w, unsigned n)
{
	uint64_t now = atio_now_ns();

	for (unsigned i = 0; i < n; i++) {
		atio_stats_init(&w[i].st);
		atio_ival_rec_restart(&w[i].iv, w[i].sh->o->interval_ns, 0);
		atio_ival_rec_start(&w[i].iv, now);
	}
	w[0].sh->phase_ns = now;
}

void atio_meta_gather(struct atio_meta_rec *rec, struct atio_meta_worker *w, unsigned n)
{
	uint64_t first = UINT64_MAX, last = 0, ns;

	for (unsigned i = 0; i < n; i++) {
		rec->ops += w[i].ops;
		rec->thread_ops[i] += w[i].ops;
		rec->thread_ns[i] += w[i].end_ns - w[i].start_ns;
		rec->cpu_user_ns += w[i].cpu_user_ns;
		rec->cpu_sys_ns += w[i].cpu_sys_ns;
		atio_hist_merge(&rec->lat, &w[i].lat);
		atio_hist_init(&w[i].lat);
		if (w[i].start_ns < first)
			first = w[i].start_ns;
		if (w[i].end_ns > last)
			last = w[i].end_ns;
	}
	ns = last > first ? last - first : 0;
	gather_intervals(rec, w, n, last);
	rec->elapsed_ns += ns;
	if (!rec->passes || ns < rec->shortest_ns)
		rec->shortest_ns = ns;
	rec->passes++;
}

double atio_meta_thread_sum(const struct atio_meta_rec *rec, unsigned threads)
{
	double sum = 0;

	for (unsigned i = 0; i < threads; i++)
		if (rec->thread_ns[i])
			sum += (double)rec->thread_ops[i] * 1e9 / (double)rec->thread_ns[i];
	return sum;
}
