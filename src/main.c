/* SPDX-License-Identifier: MIT */
/*
 * atio: parse, plan, prepare, run, report. With the cmd_*.c files, the
 * command layer: the only code that prints diagnostics and decides the exit
 * status (see cmd.h, also for signals).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "config.h"
#include "atio/base/buf.h"
#include "atio/out/check_report.h"
#include "atio/cli/cli.h"
#include "atio/base/clock.h"
#include "atio/data/dataset.h"
#include "atio/engine/engine.h"
#include "atio/run/genmap.h"
#include "atio/data/journal.h"
#include "atio/base/node.h"
#include "atio/data/pool.h"
#include "atio/out/report.h"
#include "atio/data/target.h"
#include "atio/base/units.h"
#include "atio/run/worker.h"

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
 * --start-at -: everything before the load is done (files checked, opened,
 * cache dropped, buffers and rings set up, threads waiting). Say so on
 * stderr with the line "atio: ready: ...", then read the start instant
 * from one line of stdin, as --start-at takes it. Returns 0 with @ns set;
 * -EPIPE (exit 1) when stdin ends first, -EINVAL (exit 2) for a line that
 * is no instant; @e is filled on every error. A signal that comes first
 * returns 0 with @ns untouched: the threads are asked to stop and the run
 * ends as interrupted, not failed.
 */
static int read_start_at(struct watch *wt, int64_t *ns, struct atio_error *e)
{
	struct pollfd pfd[2] = { { .fd = wt->sig_fd, .events = POLLIN },
				 { .fd = STDIN_FILENO, .events = POLLIN } };
	char line[128];
	size_t len = 0;

	say("ready: waiting for the start instant (seconds since the epoch) on standard input");
	fflush(stderr);
	while (!wt->signo) {
		char c;
		ssize_t n;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "--start-at -: poll: %s",
					      strerror(errno));
		}
		if (pfd[0].revents & POLLIN)
			take_signal(wt);
		if (pfd[1].revents & POLLNVAL)
			return atio_error_set(e, ATIO_EXIT_USAGE, EBADF,
					      "--start-at -: standard input is closed");
		if (!(pfd[1].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(STDIN_FILENO, &c, 1);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno,
					      "--start-at -: cannot read standard input: %s",
					      strerror(errno));
		if (n == 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, EPIPE,
					      "--start-at -: standard input ended before a start "
					      "instant came: not starting");
		if (c == '\n') {
			line[len] = '\0';
			if (len && line[len - 1] == '\r')
				line[len - 1] = '\0';
			if (atio_cli_start_at(line, ns, e) == 0)
				return 0;
			memmove(e->msg + 30, e->msg, sizeof(e->msg) - 31);
			memcpy(e->msg, "--start-at -: standard input: ", 30);
			e->msg[sizeof(e->msg) - 1] = '\0';
			return -EINVAL;
		}
		if (len + 1 >= sizeof(line))
			return atio_error_set(e, ATIO_EXIT_USAGE, 0,
					      "--start-at -: a line of more than %zu bytes on "
					      "standard input is no start instant", sizeof(line) - 2);
		line[len++] = c;
	}
	return 0;
}

/*
 * Start the workers at one instant, wait for them, and fill @res. Returns
 * 0, or a negative errno with @e filled when a worker could not start or an
 * I/O failed.
 */
static int run(struct atio_shared *sh, struct atio_worker *w, struct watch *wt,
	       struct atio_result *res, struct atio_error *e)
{
	const struct atio_opts *o = sh->opts;
	unsigned started = 0;
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
	pthread_barrier_init(&sh->ready, NULL, o->threads + 1);
	pthread_barrier_init(&sh->go, NULL, o->threads + 1);
	for (; started < o->threads; started++)
		if (pthread_create(&w[started].thread, NULL, atio_worker_main, &w[started]))
			break;
	if (started < o->threads) {
		/* The barriers count on every thread: nothing can run. */
		say("cannot start thread %u of %u: %s", started + 1, o->threads, strerror(EAGAIN));
		_exit(ATIO_EXIT_FAIL);
	}

	pthread_barrier_wait(&sh->ready);
	for (unsigned i = 0; i < o->threads; i++) {
		if (w[i].setup_failed) {
			*e = w[i].err;
			ret = -EIO;
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
			break;
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
	wait_threads(wt, o->threads, o->verbose >= 2 ? progress_tick : NULL, &pg);
	for (unsigned i = 0; i < o->threads; i++)
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
		if (w[i].end_ns > last_end)
			last_end = w[i].end_ns;
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

/*
 * A signal before the threads ran (in the fill): the text or JSON document
 * of a run in which nothing was measured ("measured": false).
 */
static void report_unmeasured(struct atio_result *res, const struct watch *wt)
{
	res->interrupted = res->nothing_measured = true;
	res->signo = wt->signo;
	atio_stats_init(&res->total);
	res->wall_start = res->wall_end = ns_to_ts(realtime_ns());
	if (res->opts->json)
		atio_report_json(stdout, res);
	else
		atio_report_text(stdout, res);
}

static int run_test(struct atio_opts *o, const struct atio_engine_ops *engine)
{
	struct atio_error e = { 0 }, fe = { 0 };
	struct atio_dataset ds;
	struct atio_shared sh = { .opts = o, .ds = &ds, .engine = engine, .depth = o->iodepth };
	struct watch wt = { .stop = &sh.stop, .phase = "while preparing" };
	struct atio_worker *w = NULL;
	struct atio_stats *per = NULL;
	struct atio_dir_stats *dir = NULL;
	struct atio_result res = { .opts = o, .version = ATIO_VERSION, .engine = engine->name };
	struct atio_fill_stats fs;
	struct atio_journal jn = { .fd = -1 };
	struct atio_readback rb = { .no_io = engine->no_io };
	uint64_t fill_ns;
	bool uses_files;
	int ret = 0, status, signo, flush_ret = 0;

	if (watch_open(&wt))
		return ATIO_EXIT_FAIL;
	sh.done_fd = wt.done_fd;

	if ((!o->prepare && check_run_memory(o, sh.depth, &e)) ||
	    atio_dataset_plan(&ds, o, &e))
		return fail(&e);
	if (o->prepare && ds.device) {
		atio_dataset_free(&ds);
		say("--prepare: -f %s is a block device: atio never fills one; nothing to "
		    "prepare", o->path);
		return ATIO_EXIT_USAGE;
	}
	/* The null engine does no I/O: no file is made, opened or dropped. */
	uses_files = !engine->no_io;
	if (uses_files) {
		ret = prepare(&ds, o, &wt, &fs, &fill_ns, &jn, &e);
		sh.journal = jn.fd >= 0 ? &jn : NULL;
		rb.journal = jn.fd >= 0 ? jn.path : NULL;
		if (!ret && o->prepare) {
			status = prepare_done(o, &ds, &fs, fill_ns);
			goto out;
		}
		if (!ret)
			ret = atio_dataset_open(&ds, o, &e);
		if (!ret && !o->keep_cache)
			ret = atio_dataset_drop_cache(&ds, &e);
	}
	if (ret) {
		status = fail(&e);
		/* A signal in the fill: nothing measured, said as for the warm-up. */
		if (wt.signo && e.exit == ATIO_EXIT_INTERRUPTED && !o->prepare)
			report_unmeasured(&res, &wt);
		goto out;
	}

	w = calloc(o->threads, sizeof(*w));
	per = calloc(o->threads, sizeof(*per));
	if (o->mode == ATIO_MODE_MIX) {
		dir = malloc(ATIO_DIRS * sizeof(*dir));
		if (dir)
			atio_dir_stats_init(dir);
		res.dir = dir;
	}
	res.thread_ivals = calloc(o->threads, sizeof(*res.thread_ivals));
	for (unsigned i = 0; w && res.thread_ivals && i < o->threads; i++)
		res.thread_ivals[i] = &w[i].iv.s;
	if (!w || !per || (o->mode == ATIO_MODE_MIX && !dir) || !res.thread_ivals) {
		say("out of memory for %u threads", o->threads);
		status = ATIO_EXIT_FAIL;
		goto out;
	}
	ret = run(&sh, w, &wt, &res, &e);
	if (!ret && uses_files)
		ret = atio_dataset_verify(&ds, &e);
	if (o->verify && atio_mode_writes(o->mode))
		res.readback = &rb;
	signo = wt.signo;          /* the run's: a signal in the read-back ends only that */
	/* -S: the files synced after the time; a failure is said below the result. */
	if (!ret && uses_files && !signo && o->skip_sync && atio_mode_writes(o->mode))
		flush_ret = flush_after(&ds, &wt, &fe);
	if (!ret && res.readback && uses_files && !signo && !flush_ret)
		ret = read_back(&sh, w, &wt, &rb, &e);
	for (unsigned i = 0; ret && o->json && i < o->threads; i++)
		if (w[i].vfailed) {
			/* --verify --json: the bad block as a record, beside the message. */
			atio_check_report_verify_json(stdout, ATIO_VERSION, w[i].vpath,
						      &w[i].vbad, &w[i].vfound);
			break;
		}
	if (ret) {
		status = fail(&e);
		goto out;
	}
	for (unsigned i = 0; i < o->threads; i++) {
		per[i] = w[i].st;
		if (dir && w[i].dir)
			atio_dir_stats_merge(dir, w[i].dir);
	}
	res.nthreads = o->threads;
	res.threads = per;
	res.interrupted = signo != 0;
	res.signo = signo;
	res.nothing_measured = signo && wt.sig_ns < sh.start_ns + o->warmup_ns;
	res.in_final_sync = signo && atio_mode_writes(o->mode) && !o->skip_sync &&
			    wt.sig_ns >= sh.start_ns + o->warmup_ns + o->time_ns;
	if (res.nothing_measured)
		say("%s before the measured time began (%s): no result", sig_name(wt.signo),
		    sh.start_ns <= wt.sig_ns ? "in the warm-up" : wt.sig_phase);
	if (o->json)
		atio_report_json(stdout, &res);
	else
		atio_report_text(stdout, &res);
	status = wt.signo ? ATIO_EXIT_INTERRUPTED : ATIO_EXIT_OK;
	if (rb.bad || rb.err)
		status = fail(&rb.e);
	if (flush_ret)
		status = fail(&fe);
out:
	if (uses_files && atio_dataset_close(&ds, o->remove, &e) && status == ATIO_EXIT_OK)
		status = fail(&e);
	atio_journal_end(&jn, &ds, o->remove && ds.surveyed && !ds.remove_kept);
	if (ds.remove_kept)
		say("warning: --remove: another atio is using the files of -f %s: they are kept",
		    o->path);
	for (unsigned i = 0; w && i < o->threads; i++)
		atio_worker_teardown(&w[i]);
	atio_report_timeline_free(&res);
	free(res.thread_ivals);
	free(w);
	free(per);
	free(dir);
	atio_dataset_free(&ds);
	if (flush_stdout("the results") && status == ATIO_EXIT_OK)
		status = ATIO_EXIT_FAIL;
	return status;
}

/*
 * What -f is and what it is on, for the header and JSON; then, unless only
 * the settings are asked for (or @io is false: the null engine), whether
 * atio may work there. Returns 0 or an
 * exit status.
 */
static int check_target(struct atio_opts *o, struct atio_target *tg, bool io)
{
	struct atio_error e = { 0 };

	if (atio_target_identify(tg, o->path, &e))
		return o->settings_only || !io ? 0 : fail(&e);
	o->fstype = tg->fstype[0] ? tg->fstype : NULL;
	atio_target_defaults(tg, o);
	if (o->settings_only || !io)
		return 0;
	if (atio_target_check(tg, o, &e))
		return fail(&e);
	/* A file-name prefix, said: a mistyped directory would make files beside it. */
	if (tg->kind == ATIO_TARGET_PREFIX && o->nfiles > 1)
		say("-f %s: not a directory: files %s.0 .. %s.%u in %s", o->path, o->path,
		    o->path, o->nfiles - 1, tg->dir);
	else if (tg->kind == ATIO_TARGET_PREFIX)
		say("-f %s: not a directory: file %s.0 in %s", o->path, o->path, tg->dir);
	return 0;
}

/*
 * Give a closed standard descriptor /dev/null: left closed, the next file
 * atio opens would take its number, and stdin, stdout or stderr would be
 * that file.
 */
static void open_std_fds(void)
{
	for (int fd = 0; fd <= STDERR_FILENO; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY) < 0)
			break;
}

int main(int argc, char **argv)
{
	struct atio_error e = { 0 };
	struct atio_opts o;
	const struct atio_engine_ops *engine;
	struct atio_target tg;
	char why[1024];
	int act, status;

	open_std_fds();
	if (argc >= 2 && strcmp(argv[1], "merge") == 0)
		return merge_main(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "report") == 0)
		return report_main(argc - 1, argv + 1);

	act = atio_cli_parse(argc, argv, &o, &e);
	if (act < 0) {
		say("%s", e.msg);
		fputs("Try 'atio --help' for more information.\n", stderr);
		return ATIO_EXIT_USAGE;
	}
	if (act == ATIO_CLI_HELP) {
		errno = 0;
		atio_cli_usage(stdout);
		return flush_stdout("the help") ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
	}
	if (act == ATIO_CLI_VERSION) {
		printf("atio %s\n", ATIO_VERSION);
		return flush_stdout("the version") ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
	}
	if (!o.seed_given && getrandom(&o.seed, sizeof(o.seed), 0) != sizeof(o.seed))
		o.seed = realtime_ns() ^ ((uint64_t)getpid() << 32);
	engine = atio_engine_choose(o.engine, &o.iodepth, why, sizeof(why), &e);
	if (!engine)
		return fail(&e);
	if (why[0])
		say("%s", why);
	if (atio_engine_check_depth(engine, o.threads, o.iodepth, &e))
		return fail(&e);
	atio_opts_batch(&o, engine->direct_batch);
	/* Say what the buffers will be, not what was hoped for. */
	if (o.thp && !atio_buf_thp_available())
		o.thp = false;
	if (strcmp(engine->name, "libaio") == 0 && !o.direct)
		say("warning: libaio is only asynchronous with --uncached: with the page "
		    "cache each submit waits for its I/O, as the sync engine does");

	/* The null engine touches no file: nothing to refuse. */
	status = check_target(&o, &tg, !engine->no_io);
	if (status)
		return status;
	if (o.check)
		return check_main(&o);
	plan_pool(&o, o.iodepth, engine->no_io);
	if (o.settings_only) {
		if (o.json)
			atio_report_settings_json(stdout, &o, ATIO_VERSION, engine->name);
		else
			atio_report_header(stdout, &o, ATIO_VERSION, engine->name);
		return flush_stdout("the settings") ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
	}
	if (o.verbose && !o.json && !o.prepare) {
		atio_report_header(stdout, &o, ATIO_VERSION, engine->name);
		fflush(stdout);
	}
	atio_clock_init();
	return run_test(&o, engine);
}
