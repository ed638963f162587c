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
#include "steady.h"
#include "config.h"
#include "atio/base/clock.h"
#include "atio/base/node.h"
#include "atio/base/units.h"
#include "atio/run/rounds.h"

/*
 * Warn when the page cache may hold much of a --cached dataset. Not with
 * -u auto: twice MemTotal is the guard this warning asks for.
 */
static void warn_cache(const struct atio_opts *o)
{
	uint64_t ram = atio_node_meminfo("MemTotal");

	char total[24];

	atio_format_mib(total, sizeof(total), o->total);
	if (!o->direct && !o->total_auto && ram && o->total < 2 * ram)
		say("warning: the dataset (-u %s) is smaller than twice the RAM "
		    "(%.2f MiB): the page cache may serve part of this --cached test; "
		    "use a larger -u or --uncached", total, atio_mib(ram));
}

/* The measured start: after -w's time, or where --steady's rounds ended (none yet: UINT64_MAX). */
static uint64_t measured_start(const struct run_result *out)
{
	const struct atio_shared *sh = &out->sh;

	if (sh->opts->steady)
		return out->measure_ns ? out->measure_ns : UINT64_MAX;
	return sh->start_ns + sh->opts->warmup_ns;
}

struct progress {
	const struct atio_opts *o;
	struct run_result *out;    /* --steady: the job whose rounds are judged each tick */
	struct atio_worker *w;
	const struct atio_ival_series *const *ivs; /* [threads]: each worker's series */
	char name[24];             /* "job N" in a run of several jobs, else empty */
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
static void progress_tick(struct progress *pg)
{
	size_t ready = SIZE_MAX;
	unsigned late = 0;
	char line[512];
	uint64_t now = atio_now_ns();

	/* --steady: the rounds judged; -vv's lines once every thread measures. */
	if (pg->out) {
		steady_tick(pg->out, pg->name);
		/*
		 * The measured start is known as soon as the rounds' end is
		 * decided, before it comes: the device's counters are read then.
		 */
		if (pg->out->measure_ns && pg->start_ns != pg->out->measure_ns) {
			if (pg->out->dev && atio_device_begin_at(pg->out->dev, pg->out->measure_ns))
				say("warning: cannot start the reader of the device's counters: "
				    "no device line");
			pg->start_ns = pg->out->measure_ns;
		}
		if (!steady_measuring(pg->out))
			return;
	}
	if (pg->o->verbose < 2)
		return;
	for (unsigned i = 0; i < pg->o->threads; i++)
		if (atio_ival_rec_closed(&pg->w[i].iv) < ready)
			ready = atio_ival_rec_closed(&pg->w[i].iv);
	for (; pg->printed < ready; pg->printed++, pg->waiting = false) {
		atio_ival_live_line(line, sizeof(line), pg->ivs, pg->o->threads, pg->printed);
		if (pg->name[0])
			say("%s: %s", pg->name, line);
		else
			say("%s", line);
	}
	for (unsigned i = 0; i < pg->o->threads; i++)
		late += atio_ival_rec_closed(&pg->w[i].iv) == ready &&
			!__atomic_load_n(&pg->w[i].end_ns, __ATOMIC_RELAXED);
	/* A thread that ended closes no more intervals: no stall of it. */
	if (late && !pg->done && !pg->waiting && now > pg->start_ns &&
	    now - pg->start_ns > (pg->printed + 2) * pg->o->interval_ns) {
		say("%s%s%.1f s: interval %zu not closed by %u of %u threads: no I/O completed "
		    "in them since", pg->name, pg->name[0] ? ": " : "",
		    (double)(now - pg->start_ns) / 1e9, pg->printed + 1, late, pg->o->threads);
		pg->waiting = true;
	}
}

/* Every job's progress: what wait_threads() calls each tick. */
struct progress_all {
	struct progress *pg;
	unsigned n;
	void (*stop_all)(void *); /* with several jobs: stops them all */
	void *arg;
	bool failed;               /* a thread failed and the run was stopped */
};

/*
 * Each tick: -vv's lines of every job and, in a run of several jobs, a
 * thread's failure made the run's: the other jobs stop too, as a single
 * run's threads do when one of them fails.
 */
static void progress_all_tick(void *arg, unsigned sec)
{
	struct progress_all *pa = arg;

	(void)sec;
	for (unsigned j = 0; j < pa->n; j++) {
		for (unsigned i = 0; pa->stop_all && !pa->failed && i < pa->pg[j].o->threads; i++)
			if (__atomic_load_n(&pa->pg[j].w[i].failed, __ATOMIC_RELAXED)) {
				pa->stop_all(pa->arg);
				pa->failed = true;
			}
		progress_tick(&pa->pg[j]);
	}
}

/*
 * Start the load threads of one job. They wait at sh->gate until every one
 * that could be made exists, so that the barriers count exactly the
 * threads there are: when one cannot be made, the run is told to stop
 * (@stop_all) and those made end at once. Returns how many were started;
 * @e is filled when not all.
 */
static unsigned start_threads(struct atio_shared *sh, struct atio_worker *w,
			      void (*stop_all)(void *), void *arg, struct atio_error *e)
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
		stop_all(arg);
		atio_error_set(e, ATIO_EXIT_FAIL, err, "cannot start thread %u of %u: %s",
			       started + 1, n, strerror(err));
	}
	pthread_mutex_unlock(&sh->gate);
	return started;
}

/* The jobs of one measured run, as run_threads() goes through them. */
struct jobs {
	struct run *const *rs;
	struct run_result *outs;
	unsigned n;
};

static void stop_jobs(void *arg)
{
	const struct jobs *js = arg;

	for (unsigned j = 0; j < js->n; j++)
		__atomic_store_n(&js->outs[j].sh.stop, 1, __ATOMIC_RELAXED);
}

/* One job's figures once its threads are joined: its total, time and timeline. */
static int job_figures(struct run_result *out, struct atio_error *e)
{
	const struct atio_shared *sh = &out->sh;
	const struct atio_opts *o = sh->opts;
	struct atio_result *res = &out->res;
	struct atio_worker *w = out->w;
	uint64_t measure, last_end = 0, mono, real;
	int ret = 0;

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
	measure = measured_start(out);
	res->elapsed_ns = last_end > measure ? last_end - measure : 0;
	out->end_ns = last_end;
	mono = atio_now_ns();
	if (measure > mono)
		measure = mono;
	real = realtime_ns();
	res->wall_start = ns_to_ts(real - (mono - measure));
	res->wall_end = ns_to_ts(real - (mono - (last_end > measure ? last_end : measure)));
	if (atio_report_timeline(res))
		say("warning: out of memory for the intervals: they are left out");
	return ret;
}

/*
 * Start every job's workers at one instant (each job's own after its
 * --delay), wait for them, and fill each job's result. Returns 0, or a
 * negative errno with @e filled when a worker could not start or an I/O
 * failed.
 */
static int run_threads(const struct jobs *js, struct watch *wt, struct atio_error *e)
{
	const struct atio_opts *o0 = js->rs[0]->o;
	struct progress_all pa = { .n = js->n };
	unsigned *started, all = 0;
	int64_t start_at = o0->start_at_ns;
	uint64_t start, tick = o0->interval_ns;
	bool ticks = false;
	int ret = 0;

	started = calloc(js->n, sizeof(*started));
	pa.pg = calloc(js->n, sizeof(*pa.pg));
	if (!started || !pa.pg) {
		free(started);
		free(pa.pg);
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	for (unsigned j = 0; !ret && j < js->n; j++) {
		struct run_result *out = &js->outs[j];

		for (unsigned i = 0; i < out->sh.opts->threads; i++)
			if (atio_worker_setup(&out->w[i], &out->sh, i)) {
				*e = out->w[i].err;
				ret = -ENOMEM;
				break;
			}
	}
	if (ret)
		goto out;
	for (unsigned j = 0; j < js->n; j++) {
		struct run_result *out = &js->outs[j];
		const struct atio_opts *o = out->sh.opts;
		started[j] = start_threads(&out->sh, out->w, stop_jobs, (void *)js, e);
		if (started[j] < o->threads && !ret)
			ret = -EAGAIN;
		all += started[j];
		pa.pg[j] = (struct progress){ .o = o, .w = out->w, .out = o->steady ? out : NULL,
			.ivs = (const struct atio_ival_series **)out->res.thread_ivals };
		if (js->n > 1)
			snprintf(pa.pg[j].name, sizeof(pa.pg[j].name), "job %u", j + 1);
		ticks |= o->verbose >= 2 || o->steady;
		if (o->interval_ns < tick)
			tick = o->interval_ns;
		/* --steady: a few ticks a slice, so that the rounds end soon after the verdict. */
		if (o->steady && atio_rounds_slice_ns(o->round_ns) / 4 < tick)
			tick = atio_rounds_slice_ns(o->round_ns) / 4;
	}

	for (unsigned j = 0; j < js->n; j++)
		pthread_barrier_wait(&js->outs[j].sh.ready);
	for (unsigned j = 0; !ret && j < js->n; j++)
		for (unsigned i = 0; !ret && i < started[j]; i++)
			if (js->outs[j].w[i].setup_failed) {
				*e = js->outs[j].w[i].err;
				ret = -EIO;
				stop_jobs((void *)js);
			}
	/* Every thread is ready: a warning about the measurement is due now. */
	for (unsigned j = 0; !ret && j < js->n; j++)
		if (!js->rs[j]->engine->no_io)
			warn_cache(js->rs[j]->o);
	if (o0->start_at_stdin || o0->start_at_ns)
		wt->phase = "waiting for the start instant";
	if (!ret && o0->start_at_stdin) {
		ret = read_start_at(wt, &start_at, e);
		if (ret)
			stop_jobs((void *)js);
	}
	if (!ret && start_at) {
		uint64_t now = realtime_ns();

		if (now > (uint64_t)start_at)
			say("warning: --start-at passed %.3f s ago (clock skew, or set too "
			    "close); starting now", (double)(now - (uint64_t)start_at) / 1e9);
		else if (o0->verbose >= 1)
			say("waiting %.3f s for the start instant %.6f", (double)((uint64_t)start_at - now) / 1e9,
			    (double)start_at / 1e9);
		wait_realtime(wt, (uint64_t)start_at);
	}
	start = atio_now_ns();
	for (unsigned j = 0; j < js->n; j++) {
		struct atio_shared *sh = &js->outs[j].sh;

		sh->start_ns = start + sh->opts->delay_ns;
		pa.pg[j].start_ns = measured_start(&js->outs[j]);
	}
	/*
	 * The devices' counters at each job's measured start, after its
	 * warm-up; with --steady when its rounds end (progress_tick).
	 */
	for (unsigned j = 0; j < js->n; j++)
		if (js->outs[j].dev && !js->outs[j].sh.opts->steady &&
		    atio_device_begin_at(js->outs[j].dev, js->outs[j].sh.start_ns +
					 js->outs[j].sh.opts->warmup_ns))
			say("warning: cannot start the reader of the device's counters: "
			    "no device line");
	for (unsigned j = 0; j < js->n; j++)
		pthread_barrier_wait(&js->outs[j].sh.go);

	/* Several jobs: a tick of 0.1 s at most, to stop them all soon after a failure. */
	if (js->n > 1) {
		pa.stop_all = stop_jobs;
		pa.arg = (void *)js;
		if (tick > 100000000u)
			tick = 100000000u;
	}
	wt->tick_ns = tick < 1000000000u ? tick : 1000000000u;
	wait_threads(wt, all, (ticks || js->n > 1) && !ret ? progress_all_tick : NULL, &pa);
	for (unsigned j = 0; j < js->n; j++)
		if (js->outs[j].dev)
			atio_device_end(js->outs[j].dev);
	for (unsigned j = 0; j < js->n; j++) {
		for (unsigned i = 0; i < started[j]; i++)
			pthread_join(js->outs[j].w[i].thread, NULL);
		pa.pg[j].done = true;
	}
	if ((ticks || js->n > 1) && !ret)
		progress_all_tick(&pa, 0);
	for (unsigned j = 0; j < js->n; j++) {
		pthread_barrier_destroy(&js->outs[j].sh.ready);
		pthread_barrier_destroy(&js->outs[j].sh.go);
	}
	for (unsigned j = 0; !ret && j < js->n; j++)
		ret = job_figures(&js->outs[j], e);
out:
	free(started);
	free(pa.pg);
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
	if (atio_mode_two_way(o->mode)) {
		out->dir = malloc(ATIO_DIRS * sizeof(*out->dir));
		if (out->dir)
			atio_dir_stats_init(out->dir);
	}
	if (!out->w || !out->per || !out->res.thread_ivals ||
	    (atio_mode_two_way(o->mode) && !out->dir))
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

/*
 * Before the threads of one job: its result's memory, its run id, its
 * files opened (the first time) and dropped from the page cache.
 */
static int measure_begin(struct run *r, struct run_result *out, int done_fd,
			 struct atio_error *e)
{
	struct atio_opts *o = r->o;
	int ret = 0;

	*out = (struct run_result){
		.res = { .opts = o, .version = ATIO_VERSION, .engine = r->engine->name },
		.rb = { .no_io = r->engine->no_io,
			.journal = r->jn.fd >= 0 ? r->jn.path : NULL },
		.sh = { .opts = o, .ds = &r->ds, .engine = r->engine, .depth = o->iodepth,
			.journal = r->jn.fd >= 0 ? &r->jn : NULL,
			.gate = PTHREAD_MUTEX_INITIALIZER, .done_fd = done_fd },
	};
	out->sh.run_id = draw_run_id();
	if (r->uses_files && !r->opened) {
		ret = atio_dataset_open(&r->ds, o, e);
		r->opened = ret == 0;
	}
	if (!ret && r->uses_files && !o->keep_cache)
		ret = atio_dataset_drop_cache(&r->ds, e);
	if (ret)
		return ret;
	if (r->uses_files && (out->dev = malloc(sizeof(*out->dev))) &&
	    !atio_device_resolve(out->dev, o->path)) {
		free(out->dev);
		out->dev = NULL;
	}
	if (out->dev)
		atio_device_aim(out->dev, o);
	if (alloc_result(out, o) || (o->steady && atio_steady_init(&out->steady, o)))
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory for %u threads",
				      o->threads);
	if (o->steady) {
		out->steady.preconditioned = r->preconditioned;
		out->steady.pre_bytes = r->pre_bytes;
		out->steady.pre_ns = r->pre_ns;
		out->res.steady = &out->steady;
	}
	return 0;
}

/*
 * After the threads of one job: its files checked, -S's sync and the
 * read-back of --verify, its figures where the result shows them.
 */
static int measure_end(struct run *r, struct run_result *out, struct watch *wt,
		       struct atio_error *e)
{
	const struct atio_opts *o = r->o;
	struct atio_shared *sh = &out->sh;
	uint64_t measured = measured_start(out);
	int ret = 0, signo;
	bool hit;

	if (r->uses_files)
		ret = atio_dataset_verify(&r->ds, e);
	if (o->verify && atio_mode_writes(o->mode))
		out->res.readback = &out->rb;
	/*
	 * The run's signal, for what follows: a signal in one job's read-back
	 * ends the others' too. It cut this job only when it came before the
	 * job's end: not when the job had ended (another job went on, or a
	 * read-back ran), nor when it came in a read-back.
	 */
	signo = wt->signo;
	hit = signo && (!out->end_ns || wt->sig_ns < out->end_ns);
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
	/* -v's per-thread lines of each direction; without the memory, none. */
	if (out->dir && (out->thread_dir = calloc(o->threads, sizeof(*out->thread_dir)))) {
		bool all = true;

		for (unsigned i = 0; i < o->threads; i++) {
			out->thread_dir[i] = out->w[i].dir;
			all = all && out->w[i].dir;
		}
		out->res.thread_dir = all ? out->thread_dir : NULL;
	}
	out->res.nthreads = o->threads;
	out->res.threads = out->per;
	if (atio_report_passes(&out->res))
		say("warning: out of memory for the passes: they are left out");
	out->res.device = out->dev && atio_device_measured(out->dev) ? out->dev : NULL;
	out->res.interrupted = hit;
	out->res.signo = hit ? signo : 0;
	out->res.nothing_measured = hit && wt->sig_ns < measured;
	out->res.in_final_sync = hit && atio_mode_writes(o->mode) && !o->skip_sync &&
				 o->time_ns && wt->sig_ns >= measured + o->time_ns;
	return 0;
}

int run_measure_jobs(struct run *const *rs, struct run_result *outs, unsigned n,
		     struct atio_error *e)
{
	struct watch *wt = &rs[0]->wt;
	struct jobs js = { .rs = rs, .outs = outs, .n = n };
	int **more = n > 1 ? calloc(n - 1, sizeof(*more)) : NULL;
	int ret = 0;

	for (unsigned j = 0; j < n; j++)
		outs[j] = (struct run_result){ 0 };
	if (n > 1 && !more)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	for (unsigned j = 0; !ret && j < n; j++)
		ret = measure_begin(rs[j], &outs[j], wt->done_fd, e);
	if (ret) {
		free(more);
		return ret;
	}
	/* One watch for the run: a signal stops every job. */
	wt->stop = &outs[0].sh.stop;
	for (unsigned j = 1; j < n; j++)
		more[j - 1] = &outs[j].sh.stop;
	wt->more_stops = more;
	wt->nmore = n - 1;
	/* A signal while the files were opened or dropped: the threads stop at once. */
	if (wt->signo)
		stop_jobs(&js);

	ret = run_threads(&js, wt, e);
	for (unsigned j = 0; !ret && j < n; j++)
		ret = measure_end(rs[j], &outs[j], wt, e);
	wt->more_stops = NULL;
	wt->nmore = 0;
	free(more);
	return ret;
}

int run_measure(struct run *r, struct run_result *out, struct atio_error *e)
{
	return run_measure_jobs(&r, out, 1, e);
}

void run_result_free(struct run_result *out)
{
	const struct atio_opts *o = out->sh.opts;

	for (unsigned i = 0; out->w && o && i < o->threads; i++)
		atio_worker_teardown(&out->w[i]);
	atio_report_timeline_free(&out->res);
	atio_report_passes_free(&out->res);
	atio_steady_free(&out->steady);
	free(out->res.thread_ivals);
	free(out->w);
	free(out->per);
	free(out->dir);
	free(out->dev);
	out->dev = NULL;
	out->res.device = NULL;
	free(out->thread_dir);
	out->thread_dir = NULL;
	out->res.thread_dir = NULL;
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
