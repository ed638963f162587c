/* SPDX-License-Identifier: MIT */
/*
 * Before a run: the memory its buffers need, and the dataset surveyed and
 * filled (or emptied for --expand) on a thread of its own while the main
 * thread watches the signals; --prepare's report.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "atio/base/clock.h"
#include "atio/run/genmap.h"
#include "atio/data/journal.h"
#include "atio/base/node.h"
#include "atio/data/pool.h"
#include "atio/data/target.h"
#include "atio/print/report.h"
#include "atio/base/units.h"
#include "atio/run/worker.h"

/*
 * The memory @n threads' buffers of @each bytes take (@what they are),
 * checked against MemAvailable before they are made; @o_threads is -p. Returns 0, or
 * -ENOMEM with @e filled (exit 2) and the figures.
 */
static int check_memory(unsigned o_threads, unsigned n, uint64_t each, const char *what,
			struct atio_error *e)
{
	uint64_t need = each * n, avail = atio_node_meminfo("MemAvailable");

	if (!avail || need <= avail)
		return 0;
	return atio_error_set(e, ATIO_EXIT_USAGE, ENOMEM,
			      "-p %u: the %s of %u threads need %.2f MiB of memory (%.2f MiB "
			      "a thread), more than the %.2f MiB available (MemAvailable); use "
			      "%sa smaller -s or --iodepth",
			      o_threads, what, n, atio_mib(need), atio_mib(each), atio_mib(avail),
			      n > 1 ? "fewer threads (-p), " : "");
}

/*
 * Bytes a thread of @o keeps besides its write pool: --mix's and --rewrite's
 * read buffers, --verify's map.
 */
static uint64_t pool_extras(const struct atio_opts *o, unsigned depth)
{
	return atio_genmap_bytes(o) +
	       (atio_mode_two_way(o->mode) ? 4096 + (uint64_t)o->bs * depth : 0);
}

void plan_pool(struct atio_opts *o, unsigned depth, bool no_io)
{
	uint64_t avail = atio_node_meminfo("MemAvailable"), extra = pool_extras(o, depth);
	uint64_t share, cover;

	o->pool_cover = o->pool_share = 0;
	if (!atio_mode_writes(o->mode))
		return;
	share = atio_genmap_thread_blocks(o, true) * o->bs;
	cover = share < ATIO_POOL_CAP ? share : ATIO_POOL_CAP;
	/* Nothing is written: no storage to cheapen, and the loop alone is measured. */
	if (no_io)
		cover = 0;
	/* Pools above the least take at most half of what is available. */
	while (cover > ATIO_POOL_MIN && avail &&
	       (atio_pool_bytes(o->bs, depth, cover) + extra) * o->threads > avail / 2)
		cover /= 2;
	o->pool_cover = atio_pool_windows(o->bs, depth, cover) * o->bs;
	o->pool_share = share;
}

/*
 * --verify's maps alone against MemAvailable: they keep a word for every
 * block of -u whatever -p is, so the advice is a larger -s or a smaller
 * -u. Returns 0, or -ENOMEM with @e filled (exit 2) and the figures.
 */
static int check_maps(const struct atio_opts *o, struct atio_error *e)
{
	uint64_t maps = atio_genmap_maps_bytes(o), avail = atio_node_meminfo("MemAvailable");
	char u[32], s[32];

	if (!avail || maps <= avail)
		return 0;
	atio_format_size(u, sizeof(u), o->total);
	atio_format_size(s, sizeof(s), o->bs);
	return atio_error_set(e, ATIO_EXIT_USAGE, ENOMEM,
			      "--verify -u %s -s %s: the map of the last write to every block "
			      "(%zu bytes a block of -u, however many threads share it) needs "
			      "%.2f MiB of memory, more than the %.2f MiB available "
			      "(MemAvailable); use a larger -s or a smaller -u",
			      u, s, sizeof(uint32_t), atio_mib(maps), atio_mib(avail));
}

int check_run_memory(const struct atio_opts *o, unsigned depth, struct atio_error *e)
{
	uint64_t v = atio_genmap_bytes(o), pool = atio_pool_bytes(o->bs, depth, o->pool_cover);
	int ret = check_maps(o, e);

	if (ret)
		return ret;

	if (o->mode == ATIO_MODE_READ)
		return check_memory(o->threads, o->threads, o->bs * depth,
				    "read buffers (one per I/O in flight)", e);
	if (atio_mode_two_way(o->mode))
		return check_memory(o->threads, o->threads, pool + pool_extras(o, depth),
				    v ? "write pools, read buffers and --verify's maps"
				      : "write pools and read buffers", e);
	return check_memory(o->threads, o->threads, pool + v,
			    v ? "write pools and --verify's maps" : "write pools", e);
}

struct fill_arg {
	struct atio_dataset *ds;
	const struct atio_opts *o;
	struct watch *wt;
	struct atio_error e;
	int ret;
};

static void *fill_main(void *p)
{
	struct fill_arg *fa = p;
	uint64_t one = 1;

	fa->ret = atio_dataset_fill(fa->ds, fa->o, fa->wt->stop, &fa->e);
	(void)!write(fa->wt->done_fd, &one, sizeof(one));
	return NULL;
}

/* Say when atio could not mark the files it created as its own. */
static void warn_unmarked(const struct atio_dataset *ds, const struct atio_opts *o)
{
	if (ds->unmarked)
		say("warning: the filesystem of -f %s keeps no user extended attributes: "
		    "atio could not mark the %u file(s) it created, and a later run will "
		    "not take them for its own (use --remove, or --take-over next time)",
		    o->path, ds->unmarked);
}

/*
 * What a block device cannot give a run, said before it: a journal of the
 * acknowledged writes for --fsync or --fdatasync with --verify (atio/data/
 * journal.h); and, read from a loop device on a sparse file, reads of
 * storage (a hole reads as zeros that no device held).
 */
static void warn_device(const struct atio_dataset *ds, const struct atio_opts *o)
{
	char file[4096];
	uint64_t alloc, size;
	struct stat st;

	if (!ds->device)
		return;
	if (o->verify && (o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC))
		say("warning: -f %s: a block device keeps no journal: --verify checks what "
		    "this run reads back, but a later --check cannot tell a synced write "
		    "lost (a crash, a rollback) from one never made", o->path);
	if (o->mode == ATIO_MODE_READ && stat(o->path, &st) == 0 &&
	    atio_blockdev_sparse_backing(st.st_rdev, file, sizeof(file), &alloc, &size))
		say("warning: -f %s: a loop device on %s, a sparse file (%.2f of %.2f MiB "
		    "allocated): its holes read as zeros that no storage holds, which "
		    "measures memory, not storage; write the device first", o->path, file,
		    atio_mib(alloc), atio_mib(size));
}

static void *empty_main(void *p)
{
	struct fill_arg *fa = p;
	uint64_t one = 1;

	fa->ret = atio_dataset_empty(fa->ds, &fa->e);
	(void)!write(fa->wt->done_fd, &one, sizeof(one));
	return NULL;
}

/*
 * --expand, after the survey @fs: no fill; every file is made empty, to
 * grow in the run, while signals are watched (truncating large files
 * takes a while).
 */
static int empty_files(struct atio_dataset *ds, const struct atio_opts *o,
		       const struct atio_fill_stats *fs, struct watch *wt, struct atio_error *e)
{
	struct fill_arg fa = { .ds = ds, .o = o, .wt = wt };
	pthread_t th;

	if (o->verbose >= 1)
		say("--expand: emptying %u file(s): %u new, %u taken over, %u of atio's "
		    "truncated to zero", ds->nfiles, fs->created, fs->taken,
		    ds->nfiles - fs->created - fs->taken);
	if (pthread_create(&th, NULL, empty_main, &fa) != 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, EAGAIN, "cannot start the thread "
				      "that empties the files");
	wait_threads(wt, 1, NULL, NULL);
	pthread_join(th, NULL);
	warn_unmarked(ds, o);
	if (fa.ret)
		*e = fa.e;
	return fa.ret;
}

void say_lock(const struct atio_lock *l)
{
	if (l->dir)
		say("%s: cannot create the lock file: %s; reading with a shared lock on "
		    "its directory instead (a run that writes there is refused meanwhile)",
		    l->path, strerror(l->why));
}

int prepare(struct atio_dataset *ds, const struct atio_opts *o, struct watch *wt,
	    struct atio_fill_stats *out, uint64_t *fill_ns, struct atio_journal *jn,
	    struct atio_error *e)
{
	struct atio_fill_stats fs = { 0 };
	struct fill_arg fa = { .ds = ds, .o = o, .wt = wt };
	char each[24], writing[24];
	pthread_t th;
	unsigned nfill;
	uint64_t t0;
	int ret;

	*fill_ns = 0;
	ret = atio_dataset_survey(ds, o, &fs, e);
	*out = fs;
	if (!ret) {
		say_lock(&ds->lock);
		warn_device(ds, o);
	}
	/* Before anything is written: a journal begins, or an old one goes. */
	if (!ret && ds->lock.exclusive)
		ret = atio_journal_begin(jn, ds, o, e);
	if (ret)
		return ret;
	if (o->mode == ATIO_MODE_EXPAND)
		return empty_files(ds, o, &fs, wt, e);
	if (fs.to_write == 0 && fs.truncated == 0) {
		if (o->verbose && !ds->device)
			say("dataset complete: %u file(s) of %.2f MiB: 0 new, %u reused; "
			    "nothing to write", ds->nfiles, atio_mib(ds->file_size), fs.reused);
		return 0;
	}
	/* One fill thread per file to fill, at most -p, each with a chunk buffer. */
	nfill = fs.created + fs.resumed + fs.truncated + fs.taken + fs.older;
	ret = check_memory(o->threads, nfill < o->threads ? nfill : o->threads,
			   ATIO_FILL_CHUNK, "fill buffers", e);
	if (ret)
		return ret;
	atio_format_mib(each, sizeof(each), ds->file_size);
	atio_format_mib(writing, sizeof(writing), fs.to_write);
	say("preparing %u file(s) of %s: %u new, %u to resume, %u reused, %u truncated, "
	    "%u taken over; writing %s", ds->nfiles, each, fs.created, fs.resumed,
	    fs.reused, fs.truncated, fs.taken, writing);
	if (fs.older > fs.strays)
		say("%u file(s) made by an older atio (stamp version 1, which this atio does "
		    "not check) are made again", fs.older - fs.strays);
	if (fs.strays)
		say("%u file(s) of atio's whose mark names another dataset than the other "
		    "files' are made again as this dataset's", fs.strays);
	t0 = atio_now_ns();
	if (pthread_create(&th, NULL, fill_main, &fa) != 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, EAGAIN, "cannot start the fill thread");
	wait_threads(wt, 1, NULL, NULL);
	pthread_join(th, NULL);
	*fill_ns = atio_now_ns() - t0;
	warn_unmarked(ds, o);
	if (fa.ret)
		*e = fa.e;
	return fa.ret;
}

int prepare_done(const struct atio_opts *o, const struct atio_dataset *ds,
		 const struct atio_fill_stats *fs, uint64_t fill_ns)
{
	struct atio_prepare_result p = {
		.opts = o, .version = ATIO_VERSION, .files = ds->nfiles,
		.file_size = ds->file_size, .created = fs->created,
		/* A file of an older format is filled again from its start. */
		.resumed = fs->resumed + fs->older,
		.reused = fs->reused, .truncated = fs->truncated, .taken = fs->taken,
		.written = fs->to_write, .elapsed_ns = fill_ns,
	};

	if (o->json)
		atio_report_prepare_json(stdout, &p);
	else
		atio_report_prepare_text(stdout, &p);
	return ATIO_EXIT_OK;
}
