/* SPDX-License-Identifier: MIT */
/*
 * A run as a step (run.h): the dataset prepared once, then one measured
 * window of the load threads, started at one instant and merged into a
 * result; -S's sync and --verify's read-back after it. The main thread
 * watches for signals and prints -vv's interval lines meanwhile.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "run.h"
#include "start.h"
#include "config.h"
#include "atio/base/clock.h"
#include "atio/base/node.h"
#include "atio/base/units.h"

/*
 * Warn when the page cache may hold much of a --cached dataset. Not with
 * -u auto: twice MemTotal is the guard this warning asks for.
 */
static void warn_cache(const struct atio_opts *o)
{
	uint64_t ram = atio_node_meminfo("MemTotal");

	if (!o->direct && !o->total_auto && ram && o->total < 2 * ram)
		say("warning: the dataset (-u %.2f MiB) is smaller than twice the RAM "
		    "(%.2f MiB): the page cache may serve part of this --cached test; "
		    "use a larger -u or --uncached", atio_mib(o->total), atio_mib(ram));
}

struct progress {
	const struct atio_opts *o;
	struct atio_worker *w;
	const struct atio_ival_series *const *ivs; /* [threads]: each worker's series */
	uint64_t start_ns;         /* the measured start, once the threads go */
	size_t printed;            /* intervals printed */
	bool waiting, done;
};

/*
 * -vv: the line of each interval every thread has closed (each publishes
 * its count with a release store), from the same records as the JSON.
 * When the next one is overdue by a whole interval, one line says which
 * threads have not closed it: they have completed nothing since.
 */
static void progress_tick(void *arg, unsigned sec)
{
	struct progress *pg = arg;
	size_t ready = SIZE_MAX;
	unsigned late = 0;
	char line[256];
	uint64_t now = atio_now_ns();

	(void)sec;
	for (unsigned i = 0; i < pg->o->threads; i++)
		if (atio_ival_rec_closed(&pg->w[i].iv) < ready)
			ready = atio_ival_rec_closed(&pg->w[i].iv);
	for (; pg->printed < ready; pg->printed++, pg->waiting = false) {
		atio_ival_live_line(line, sizeof(line), pg->ivs, pg->o->threads, pg->printed);
		say("%s", line);
	}
	for (unsigned i = 0; i < pg->o->threads; i++)
		late += atio_ival_rec_closed(&pg->w[i].iv) == ready;
	if (!pg->done && !pg->waiting && now > pg->start_ns &&
	    now - pg->start_ns > (pg->printed + 2) * pg->o->interval_ns) {
		say("%.1f s: interval %zu not closed by %u of %u threads: no I/O completed in "
		    "them since", (double)(now - pg->start_ns) / 1e9, pg->printed + 1, late,
		    pg->o->threads);
		pg->waiting = true;
	}
}

/*
 * Start the load threads. They wait at sh->gate until every one that could
 * be made exists, so that the barriers count exactly the threads there
 * are: when one cannot be made, those made are told to stop and end at
 * once. Returns how many were started; @e is filled when not all.
 */
static unsigned start_threads(struct atio_shared *sh, struct atio_worker *w,
			      struct atio_error *e)
{
	unsigned n = sh->opts->threads, started = 0;
	int err = 0;

	pthread_mutex_lock(&sh->gate);
	for (; started < n; started++) {
		err = pthread_create(&w[started].thread, NULL, atio_worker_main, &w[started]);
		if (err)
			break;
	}
	pthread_barrier_init(&sh->ready, NULL, started + 1);
	pthread_barrier_init(&sh->go, NULL, started + 1);
	if (started < n) {
		__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
		atio_error_set(e, ATIO_EXIT_FAIL, err, "cannot start thread %u of %u: %s",
			       started + 1, n, strerror(err));
	}
	pthread_mutex_unlock(&sh->gate);
	return started;
}

/*
 * Start the workers at one instant, wait for them, and fill @res. Returns
 * 0, or a negative errno with @e filled when a worker could not start or an
 * I/O failed.
 */
static int run_threads(struct atio_shared *sh, struct atio_worker *w, struct watch *wt,
		       struct atio_result *res, struct atio_error *e)
{
	const struct atio_opts *o = sh->opts;
	unsigned started;
	uint64_t measure, last_end = 0, mono, real;
	struct progress pg = { .o = o, .w = w,
		.ivs = (const struct atio_ival_series **)res->thread_ivals };
	int64_t start_at = o->start_at_ns;
	int ret = 0;

	for (unsigned i = 0; i < o->threads; i++)
		if (atio_worker_setup(&w[i], sh, i)) {
			*e = w[i].err;
			return -ENOMEM;
		}
	started = start_threads(sh, w, e);
	if (started < o->threads)
		ret = -EAGAIN;

	pthread_barrier_wait(&sh->ready);
	for (unsigned i = 0; !ret && i < started; i++) {
		if (w[i].setup_failed) {
			*e = w[i].err;
			ret = -EIO;
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
		}
	}
	/* Every thread is ready: a warning about the measurement is due now. */
	if (!ret && !sh->engine->no_io)
		warn_cache(o);
	if (o->start_at_stdin || o->start_at_ns)
		wt->phase = "waiting for the start instant";
	if (!ret && o->start_at_stdin) {
		ret = read_start_at(wt, &start_at, e);
		if (ret)
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	}
	if (!ret && start_at) {
		uint64_t now = realtime_ns();

		if (now > (uint64_t)start_at)
			say("warning: --start-at passed %.3f s ago (clock skew, or set too "
			    "close); starting now", (double)(now - (uint64_t)start_at) / 1e9);
		else if (o->verbose >= 1)
			say("waiting %.3f s for the start instant %.6f", (double)((uint64_t)start_at - now) / 1e9,
			    (double)start_at / 1e9);
		wait_realtime(wt, (uint64_t)start_at);
	}
	sh->start_ns = atio_now_ns();
	pg.start_ns = sh->start_ns + o->warmup_ns;
	pthread_barrier_wait(&sh->go);

	wt->tick_ns = o->interval_ns < 1000000000u ? o->interval_ns : 1000000000u;
	wait_threads(wt, started, o->verbose >= 2 && !ret ? progress_tick : NULL, &pg);
	for (unsigned i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	pg.done = true;
	if (o->verbose >= 2 && !ret)
		progress_tick(&pg, 0);
	pthread_barrier_destroy(&sh->ready);
	pthread_barrier_destroy(&sh->go);
	if (ret)
		return ret;

	atio_stats_init(&res->total);
	for (unsigned i = 0; i < o->threads; i++) {
		if (w[i].failed && !ret) {
			*e = w[i].err;
			ret = -EIO;
		}
		atio_stats_merge(&res->total, &w[i].st);
		if (w[i].end_ns > last_end) {
			last_end = w[i].end_ns;
			res->ended = w[i].ended;
		}
	}
	measure = sh->start_ns + o->warmup_ns;
	res->elapsed_ns = last_end > measure ? last_end - measure : 0;
	mono = atio_now_ns();
	real = realtime_ns();
	res->wall_start = ns_to_ts(real - (mono - measure));
	res->wall_end = ns_to_ts(real - (mono - (last_end > measure ? last_end : measure)));
	if (atio_report_timeline(res))
		say("warning: out of memory for the intervals: they are left out");
	return ret;
}

/*
 * --verify on writes, after the run: read back every block written, one
 * thread per load thread, while watching for signals (atio/run/readback.h).
 */
static int read_back(struct atio_shared *sh, struct atio_worker *w, struct watch *wt,
		     struct atio_readback *rb, struct atio_error *e)
{
	unsigned n = sh->opts->threads, started;
	pthread_t *th = calloc(n, sizeof(*th));

	if (!th)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	wt->phase = "while reading back";
	started = atio_readback_start(w, n, th, e);
	wait_threads(wt, started, NULL, NULL);
	atio_readback_finish(w, n, started, th, rb);
	free(th);
	return started < n ? -EAGAIN : 0;
}

int run_open(struct run *r, struct atio_opts *o, const struct atio_engine_ops *engine,
	     struct atio_error *e)
{
	*r = (struct run){ .o = o, .engine = engine, .jn = { .fd = -1 },
			   .wt = { .phase = "while preparing", .sig_fd = -1, .done_fd = -1 } };
	r->wt.stop = &r->fill_stop;
	r->uses_files = !engine->no_io;
	if (watch_open(&r->wt, e))
		return -EIO;
	if (!o->prepare && check_run_memory(o, o->iodepth, e))
		return -ENOMEM;
	if (atio_dataset_plan(&r->ds, o, e))
		return -EINVAL;
	r->planned = true;
	if (o->prepare && r->ds.device)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "--prepare: -f %s is a block device: atio never fills "
				      "one; nothing to prepare", o->path);
	/* The null engine does no I/O: no file is made, opened or dropped. */
	if (!r->uses_files)
		return 0;
	return prepare(&r->ds, o, &r->wt, &r->fs, &r->fill_ns, &r->jn, e);
}

void run_unmeasured(struct run *r, struct atio_result *res)
{
	*res = (struct atio_result){ .opts = r->o, .version = ATIO_VERSION,
				     .engine = r->engine->name };
	res->interrupted = res->nothing_measured = true;
	res->signo = r->wt.signo;
	atio_stats_init(&res->total);
	res->wall_start = res->wall_end = ns_to_ts(realtime_ns());
}

/* The run's memory: threads, their figures, --mix's directions. */
static int alloc_result(struct run_result *out, const struct atio_opts *o)
{
	out->w = calloc(o->threads, sizeof(*out->w));
	out->per = calloc(o->threads, sizeof(*out->per));
	out->res.thread_ivals = calloc(o->threads, sizeof(*out->res.thread_ivals));
	if (o->mode == ATIO_MODE_MIX) {
		out->dir = malloc(ATIO_DIRS * sizeof(*out->dir));
		if (out->dir)
			atio_dir_stats_init(out->dir);
	}
	if (!out->w || !out->per || !out->res.thread_ivals ||
	    (o->mode == ATIO_MODE_MIX && !out->dir))
		return -ENOMEM;
	for (unsigned i = 0; i < o->threads; i++)
		out->res.thread_ivals[i] = &out->w[i].iv.s;
	out->res.dir = out->dir;
	return 0;
}

/*
 * A run's id: 64 bits no other run draws. From the kernel's random pool
 * when it answers at once; else (no getrandom() in a container's filter,
 * a pool not yet ready at boot) the clock, the pid and a count of the
 * runs of this process, which no other run shares either.
 */
static uint64_t draw_run_id(void)
{
	static uint64_t runs;
	uint64_t id;

	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) == sizeof(id))
		return id;
	return realtime_ns() ^ ((uint64_t)getpid() << 32) ^ (++runs << 56);
}

int run_measure(struct run *r, struct run_result *out, struct atio_error *e)
{
	struct atio_opts *o = r->o;
	struct atio_shared *sh = &out->sh;
	struct watch *wt = &r->wt;
	int ret = 0, signo;

	*out = (struct run_result){
		.res = { .opts = o, .version = ATIO_VERSION, .engine = r->engine->name },
		.rb = { .no_io = r->engine->no_io,
			.journal = r->jn.fd >= 0 ? r->jn.path : NULL },
		.sh = { .opts = o, .ds = &r->ds, .engine = r->engine, .depth = o->iodepth,
			.journal = r->jn.fd >= 0 ? &r->jn : NULL,
			.gate = PTHREAD_MUTEX_INITIALIZER, .done_fd = wt->done_fd },
	};
	sh->run_id = draw_run_id();
	wt->stop = &sh->stop;
	if (r->uses_files && !r->opened) {
		ret = atio_dataset_open(&r->ds, o, e);
		r->opened = ret == 0;
	}
	if (!ret && r->uses_files && !o->keep_cache)
		ret = atio_dataset_drop_cache(&r->ds, e);
	if (ret)
		return ret;
	if (alloc_result(out, o))
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory for %u threads",
				      o->threads);

	ret = run_threads(sh, out->w, wt, &out->res, e);
	if (!ret && r->uses_files)
		ret = atio_dataset_verify(&r->ds, e);
	if (o->verify && atio_mode_writes(o->mode))
		out->res.readback = &out->rb;
	signo = wt->signo;         /* the run's: a signal in the read-back ends only that */
	/* -S: the files synced after the time; a failure is said below the result. */
	if (!ret && r->uses_files && !signo && o->skip_sync && atio_mode_writes(o->mode))
		out->flush_ret = flush_after(&r->ds, wt, &out->flush_err);
	if (!ret && out->res.readback && r->uses_files && !signo && !out->flush_ret)
		ret = read_back(sh, out->w, wt, &out->rb, e);
	if (ret)
		return ret;

	for (unsigned i = 0; i < o->threads; i++) {
		out->per[i] = out->w[i].st;
		if (out->dir && out->w[i].dir)
			atio_dir_stats_merge(out->dir, out->w[i].dir);
	}
	out->res.nthreads = o->threads;
	out->res.threads = out->per;
	if (atio_report_passes(&out->res))
		say("warning: out of memory for the passes: they are left out");
	out->res.interrupted = signo != 0;
	out->res.signo = signo;
	out->res.nothing_measured = signo && wt->sig_ns < sh->start_ns + o->warmup_ns;
	out->res.in_final_sync = signo && atio_mode_writes(o->mode) && !o->skip_sync &&
				 o->time_ns && wt->sig_ns >= sh->start_ns + o->warmup_ns + o->time_ns;
	return 0;
}

void run_result_free(struct run_result *out)
{
	const struct atio_opts *o = out->sh.opts;

	for (unsigned i = 0; out->w && o && i < o->threads; i++)
		atio_worker_teardown(&out->w[i]);
	atio_report_timeline_free(&out->res);
	atio_report_passes_free(&out->res);
	free(out->res.thread_ivals);
	free(out->w);
	free(out->per);
	free(out->dir);
	out->res.thread_ivals = NULL;
	out->w = NULL;
	out->per = NULL;
	out->dir = NULL;
}

int run_close(struct run *r, struct atio_error *e)
{
	const struct atio_opts *o = r->o;
	int ret = 0;

	/* The last run's stop flag goes with its result. */
	r->wt.stop = &r->fill_stop;
	watch_close(&r->wt);
	if (!r->planned)
		return 0;
	if (r->uses_files)
		ret = atio_dataset_close(&r->ds, o->remove, e);
	atio_journal_end(&r->jn, &r->ds, o->remove && r->ds.surveyed && !r->ds.remove_kept);
	if (r->ds.remove_kept)
		say("warning: --remove: another atio is using the files of -f %s: they are kept",
		    o->path);
	atio_dataset_free(&r->ds);
	r->planned = false;
	return ret;
}
