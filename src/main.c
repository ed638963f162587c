/* SPDX-License-Identifier: MIT */
/*
 * atio: parse, plan, prepare, run, report. The only file that prints
 * diagnostics and decides the exit status.
 *
 * Signals. SIGINT, SIGTERM and SIGHUP (a terminal or an SSH session gone)
 * are blocked in every thread and read from a signalfd by the main thread,
 * which meanwhile waits for the worker (or fill) threads on an eventfd. The
 * first signal asks the threads to stop and the results of the time run
 * are printed (none when the measured time had not begun); a second one
 * exits at once. SIGPIPE is ignored, so that output gone with the session
 * is an error to report, not the end of the process before --remove.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "atio/buf.h"
#include "atio/check.h"
#include "atio/check_report.h"
#include "atio/cli.h"
#include "atio/clock.h"
#include "atio/dataset.h"
#include "atio/engine.h"
#include "atio/genmap.h"
#include "atio/journal.h"
#include "atio/merge.h"
#include "atio/node.h"
#include "atio/pool.h"
#include "atio/report.h"
#include "atio/target.h"
#include "atio/units.h"
#include "atio/worker.h"

struct watch {
	int sig_fd;
	int done_fd;
	int *stop;                 /* the flag the threads poll */
	int signo;                 /* first signal received, or 0 */
	uint64_t sig_ns;           /* CLOCK_MONOTONIC instant of it */
	const char *phase;         /* what atio is doing, for messages */
	const char *sig_phase;     /* what it was doing at the first signal */
};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("atio: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct timespec ns_to_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				  .tv_nsec = (long)(ns % 1000000000u) };
}

static const char *sig_name(int signo)
{
	return signo == SIGINT ? "SIGINT" : signo == SIGHUP ? "SIGHUP" : "SIGTERM";
}

/*
 * Handle what arrived on the signalfd: the first SIGINT, SIGTERM or SIGHUP
 * sets the stop flag, a second one ends the process without results.
 */
static void take_signal(struct watch *wt)
{
	struct signalfd_siginfo si;

	while (read(wt->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (wt->signo) {
			say("interrupted again: exiting without results");
			_exit(ATIO_EXIT_INTERRUPTED);
		}
		wt->signo = (int)si.ssi_signo;
		wt->sig_ns = atio_now_ns();
		wt->sig_phase = wt->phase;
		__atomic_store_n(wt->stop, 1, __ATOMIC_RELAXED);
		say("%s: stopping; press Ctrl-C again to exit at once", sig_name(wt->signo));
	}
}

/*
 * Block SIGINT, SIGTERM and SIGHUP in every thread to come and read them
 * from wt->sig_fd; ignore SIGPIPE; make wt->done_fd, the eventfd threads
 * signal when they end. Returns 0, or -1 after saying why.
 */
static int watch_open(struct watch *wt)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	wt->sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	wt->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (wt->sig_fd >= 0 && wt->done_fd >= 0)
		return 0;
	say("cannot set up signal handling: %s", strerror(errno));
	return -1;
}

/*
 * Wait until @count threads have signalled the eventfd, handling signals
 * meanwhile. @tick, when not NULL, is called about once a second with the
 * number of seconds waited so far.
 */
static void wait_threads(struct watch *wt, unsigned count,
			 void (*tick)(void *arg, unsigned sec), void *arg)
{
	struct pollfd pfd[2] = { { .fd = wt->sig_fd, .events = POLLIN },
				 { .fd = wt->done_fd, .events = POLLIN } };
	uint64_t next = atio_now_ns() + 1000000000u;
	unsigned done = 0, sec = 0;

	while (done < count) {
		uint64_t now = atio_now_ns(), n;
		int timeout = tick ? (now >= next ? 0 : (int)((next - now) / 1000000u) + 1) : -1;

		if (poll(pfd, 2, timeout) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN)
			take_signal(wt);
		if ((pfd[1].revents & POLLIN) && read(wt->done_fd, &n, sizeof(n)) == sizeof(n))
			done += (unsigned)n;
		if (tick && atio_now_ns() >= next) {
			next += 1000000000u;
			tick(arg, ++sec);
		}
	}
}

/*
 * Sleep until the CLOCK_REALTIME instant @ns, or a signal. poll() watches
 * the signals but sleeps in whole milliseconds, up to one late; the last
 * 2 ms go to clock_nanosleep() on the absolute instant, which wakes within
 * the timer slack (50 us by default), so that hosts given one instant start
 * within their clocks' offsets of each other.
 */
static void wait_realtime(struct watch *wt, uint64_t ns)
{
	struct pollfd pfd = { .fd = wt->sig_fd, .events = POLLIN };
	struct timespec at = ns_to_ts(ns);

	while (!wt->signo) {
		uint64_t now = realtime_ns();

		if (now >= ns)
			break;
		if (ns - now <= 2000000u) {
			while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) == EINTR)
				;
			break;
		}
		if (poll(&pfd, 1, (int)((ns - now - 2000000u) / 1000000u)) > 0)
			take_signal(wt);
	}
}

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
			      "fewer threads (-p), a smaller -s or --iodepth",
			      o_threads, what, n, atio_mib(need), atio_mib(each), atio_mib(avail));
}

/*
 * The run's buffers: a write pool a thread (atio/pool.h), or a read buffer
 * per I/O; with --verify on writes, the generation map (atio/genmap.h).
 */
static int check_run_memory(const struct atio_opts *o, unsigned depth, struct atio_error *e)
{
	uint64_t v = atio_genmap_bytes(o);

	if (o->mode == ATIO_MODE_READ)
		return check_memory(o->threads, o->threads, o->bs * depth,
				    "read buffers (one per I/O in flight)", e);
	if (o->mode == ATIO_MODE_MIX)
		return check_memory(o->threads, o->threads,
				    atio_pool_bytes(o->bs, depth) + 4096 + o->bs * depth + v,
				    v ? "write pools, read buffers and --verify's maps"
				      : "write pools and read buffers", e);
	return check_memory(o->threads, o->threads, atio_pool_bytes(o->bs, depth) + v,
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

/*
 * Survey the files and fill what is missing, while watching for signals;
 * what the survey found in @fs, the fill's time in @fill_ns.
 */
static int prepare(struct atio_dataset *ds, const struct atio_opts *o, struct watch *wt,
		   struct atio_fill_stats *out, uint64_t *fill_ns, struct atio_journal *jn,
		   struct atio_error *e)
{
	struct atio_fill_stats fs = { 0 };
	struct fill_arg fa = { .ds = ds, .o = o, .wt = wt };
	pthread_t th;
	unsigned nfill;
	uint64_t t0;
	int ret;

	*fill_ns = 0;
	ret = atio_dataset_survey(ds, o, &fs, e);
	*out = fs;
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
	nfill = fs.created + fs.resumed + fs.truncated + fs.taken;
	ret = check_memory(o->threads, nfill < o->threads ? nfill : o->threads,
			   ATIO_FILL_CHUNK, "fill buffers", e);
	if (ret)
		return ret;
	say("preparing %u file(s) of %.2f MiB: %u new, %u to resume, %u reused, %u truncated, "
	    "%u taken over; writing %.2f MiB", ds->nfiles, atio_mib(ds->file_size), fs.created,
	    fs.resumed, fs.reused, fs.truncated, fs.taken, atio_mib(fs.to_write));
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
	uint64_t ops, bytes, syncs;
};

/* -vv: one line a second on stderr, from the workers' relaxed counters. */
static void progress_tick(void *arg, unsigned sec)
{
	struct progress *pg = arg;
	uint64_t ops = 0, bytes = 0, syncs = 0;

	for (unsigned i = 0; i < pg->o->threads; i++) {
		ops += __atomic_load_n(&pg->w[i].st.ops, __ATOMIC_RELAXED);
		bytes += __atomic_load_n(&pg->w[i].st.bytes, __ATOMIC_RELAXED);
		syncs += __atomic_load_n(&pg->w[i].st.syncs, __ATOMIC_RELAXED);
	}
	/* Counters restart after the warm-up; never print a negative step. */
	if (ops < pg->ops || bytes < pg->bytes || syncs < pg->syncs)
		pg->ops = pg->bytes = pg->syncs = 0;
	say("%u s: %.2f MB/s, %" PRIu64 " IOPS, %" PRIu64 " sync/s", sec,
	    atio_mib(bytes - pg->bytes), ops - pg->ops, syncs - pg->syncs);
	pg->ops = ops;
	pg->bytes = bytes;
	pg->syncs = syncs;
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
	struct progress pg = { .o = o, .w = w };
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
	pthread_barrier_wait(&sh->go);

	wait_threads(wt, o->threads, o->verbose >= 2 ? progress_tick : NULL, &pg);
	for (unsigned i = 0; i < o->threads; i++)
		pthread_join(w[i].thread, NULL);
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
	return ret;
}

/*
 * Flush stdout and say when anything written to it was lost (a full disk,
 * a closed pipe), naming @what. Returns 0, or -1 after the message.
 */
static int flush_stdout(const char *what)
{
	int bad = fflush(stdout) != 0, err = errno;

	if (!bad && !ferror(stdout))
		return 0;
	say("cannot write %s to standard output: %s", what,
	    strerror(bad && err ? err : errno ? errno : EIO));
	return -1;
}

static int fail(const struct atio_error *e)
{
	say("%s", e->msg);
	return e->exit ? e->exit : ATIO_EXIT_FAIL;
}

/*
 * --verify on writes, after the run: read back every block written, one
 * thread per load thread, while watching for signals (atio/readback.h).
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

/* --prepare: the fill's outcome on stdout; the files stay. Returns the exit status. */
static int prepare_done(const struct atio_opts *o, const struct atio_dataset *ds,
			const struct atio_fill_stats *fs, uint64_t fill_ns)
{
	struct atio_prepare_result p = {
		.opts = o, .version = ATIO_VERSION, .files = ds->nfiles,
		.file_size = ds->file_size, .created = fs->created, .resumed = fs->resumed,
		.reused = fs->reused, .truncated = fs->truncated, .taken = fs->taken,
		.written = fs->to_write, .elapsed_ns = fill_ns,
	};

	if (o->json)
		atio_report_prepare_json(stdout, &p);
	else
		atio_report_prepare_text(stdout, &p);
	return ATIO_EXIT_OK;
}

static int run_test(struct atio_opts *o, const struct atio_engine_ops *engine)
{
	struct atio_error e = { 0 };
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
	int ret = 0, status, signo;

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
	if (!w || !per || (o->mode == ATIO_MODE_MIX && !dir)) {
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
	if (!ret && res.readback && uses_files && !signo)
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
out:
	if (uses_files && atio_dataset_close(&ds, o->remove, &e) && status == ATIO_EXIT_OK)
		status = fail(&e);
	atio_journal_end(&jn, &ds, o->remove && ds.surveyed && !ds.remove_kept);
	if (ds.remove_kept)
		say("warning: --remove: another atio is using the files of -f %s: they are kept",
		    o->path);
	for (unsigned i = 0; w && i < o->threads; i++)
		atio_worker_teardown(&w[i]);
	free(w);
	free(per);
	free(dir);
	atio_dataset_free(&ds);
	if (flush_stdout("the results") && status == ATIO_EXIT_OK)
		status = ATIO_EXIT_FAIL;
	return status;
}

/* -v: one line a second on stderr while --check reads. */
static void check_tick(void *arg, unsigned sec)
{
	struct atio_check *c = arg;
	uint64_t done = __atomic_load_n(&c->checked, __ATOMIC_RELAXED);

	say("check: %u s: %.2f of %.2f MiB (%.0f%%)", sec, atio_mib(done),
	    atio_mib(c->to_check), c->to_check ? 100.0 * (double)done / (double)c->to_check : 100.0);
}

/*
 * --check: plan the dataset as a run of the same -p, -n, -u and -f would,
 * look at its files (shared lock, foreign files refused), read them whole
 * and check every sector. Exit 0 when every sector is good and no file is
 * missing; 1 when one is not (the report names them) or the check failed;
 * 130 when interrupted, after printing what was checked.
 */
static int check_main(struct atio_opts *o)
{
	struct atio_error e = { 0 };
	struct atio_dataset ds;
	int stop = 0, ret, status;
	struct watch wt = { .stop = &stop, .phase = "while checking" };
	struct atio_check c = { .ds = &ds, .unit = (size_t)o->bs, .nthreads = o->threads,
				.direct = o->direct, .stop = &stop };

	if (watch_open(&wt))
		return ATIO_EXIT_FAIL;
	c.done_fd = wt.done_fd;
	if (atio_dataset_plan(&ds, o, &e))
		return fail(&e);
	ret = atio_dataset_look(&ds, o, &e);
	if (!ret)
		ret = atio_journal_load(&c.journal, &ds, &e);
	if (!ret)
		ret = atio_check_start(&c, &e);
	if (ret) {
		status = fail(&e);
		goto out;
	}
	wait_threads(&wt, c.started, o->verbose ? check_tick : NULL, &c);
	ret = atio_check_finish(&c, &e);
	if (ret) {
		status = fail(&e);
		goto out;
	}
	if (o->json)
		atio_check_report_json(stdout, &c, ATIO_VERSION, wt.signo != 0);
	else
		atio_check_report_text(stdout, &c, wt.signo != 0);
	status = wt.signo ? ATIO_EXIT_INTERRUPTED
		: atio_check_ok(&c) ? ATIO_EXIT_OK : ATIO_EXIT_FAIL;
out:
	atio_check_free(&c);
	atio_journal_claims_free(c.journal);
	atio_dataset_close(&ds, false, &e);
	atio_dataset_free(&ds);
	if (flush_stdout("the check") && status == ATIO_EXIT_OK)
		status = ATIO_EXIT_FAIL;
	return status;
}

/*
 * atio merge [--json] [[--clock-offset SEC] FILE]...: read every file as an
 * atio --json result, add them up and print the merge. --clock-offset
 * gives how far the clock of the host that wrote the next FILE ran ahead
 * of this one's: its start and end instants are moved back by it, so that
 * the skew compares instants of one clock. Exit 0; 1 when a document was
 * of an interrupted run (its figures cover less than its time); 2 for bad
 * usage or a file that is not a readable atio result, naming it.
 */
static int merge_main(int argc, char **argv)
{
	struct atio_error e = { 0 };
	struct atio_merge_doc *docs;
	struct atio_merge m;
	bool json = false, options = true, have_offset = false;
	double offset = 0;
	int n = 0, status = ATIO_EXIT_OK;

	docs = calloc((size_t)argc, sizeof(*docs));
	if (!docs) {
		say("merge: out of memory for %d documents", argc);
		return ATIO_EXIT_FAIL;
	}
	atio_merge_init(&m);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end;
		int bad;

		if (options && strcmp(a, "--") == 0) {
			options = false;
			continue;
		}
		if (options && strcmp(a, "--json") == 0) {
			json = true;
			continue;
		}
		if (options && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
			free(docs);
			atio_cli_usage(stdout);
			return fflush(stdout) ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
		}
		if (options && strcmp(a, "--clock-offset") == 0) {
			if (i + 1 == argc) {
				say("merge: --clock-offset: give the seconds and the FILE they are for");
				free(docs);
				return ATIO_EXIT_USAGE;
			}
			a = argv[++i];
			errno = 0;
			offset = strtod(a, &end);
			if (!a[0] || *end || errno || offset != offset || offset > 1e6 || offset < -1e6) {
				say("merge: --clock-offset %s: not a number of seconds", a);
				free(docs);
				return ATIO_EXIT_USAGE;
			}
			have_offset = true;
			continue;
		}
		if (options && a[0] == '-' && a[1]) {
			say("merge: %s: unknown option (merge takes --json, --clock-offset and files)", a);
			fputs("Try 'atio --help' for more information.\n", stderr);
			free(docs);
			return ATIO_EXIT_USAGE;
		}
		bad = atio_merge_read(a, &docs[n], &e);
		if (!bad && have_offset) {
			if (docs[n].start_epoch)
				docs[n].start_epoch -= offset;
			if (docs[n].end_epoch)
				docs[n].end_epoch -= offset;
		}
		have_offset = false;
		if (bad || atio_merge_add(&m, &docs[n], &e)) {
			say("merge: %s", e.msg);
			free(docs);
			return ATIO_EXIT_USAGE;
		}
		if (docs[n].interrupted) {
			say("merge: %s: an interrupted run: its figures cover less than its time",
			    docs[n].file);
			status = ATIO_EXIT_FAIL;
		}
		n++;
	}
	if (have_offset || n < 1) {
		say("merge: %s: atio merge [--json] [[--clock-offset SEC] FILE]... "
		    "(atio --json results)", have_offset ? "--clock-offset without a FILE after it"
							  : "no file given");
		free(docs);
		return ATIO_EXIT_USAGE;
	}
	if (json)
		atio_merge_json(stdout, &m, docs, (unsigned)n);
	else
		atio_merge_text(stdout, &m, docs, (unsigned)n);
	free(docs);
	if (fflush(stdout) != 0) {
		say("merge: cannot write the result: %s", strerror(errno));
		return ATIO_EXIT_FAIL;
	}
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
	if (!o->settings_only && io && atio_target_check(tg, o, &e))
		return fail(&e);
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
	char why[256];
	int act, status;

	open_std_fds();
	if (argc >= 2 && strcmp(argv[1], "merge") == 0)
		return merge_main(argc - 1, argv + 1);

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
