/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CMD_H
#define ATIO_CMD_H

/*
 * The command layer: main.c and the files of src/cmd/. Only this layer prints
 * diagnostics and decides exit statuses; the modules below it fill a
 * struct atio_error and return.
 *
 * Signals. SIGINT, SIGTERM and SIGHUP (a terminal or an SSH session gone)
 * are blocked in every thread and read from a signalfd by the main thread,
 * which meanwhile waits for the worker (or fill, or check) threads on an
 * eventfd. The first signal asks the threads to stop and the results so far
 * are printed (none when the measured time had not begun); a second one
 * exits at once. SIGPIPE is ignored, so that output gone with the session
 * is an error to report, not the end of the process before --remove.
 */

#include <stdint.h>
#include <time.h>

#include "atio/base/opts.h"
#include "atio/data/dataset.h"
#include "atio/base/error.h"
#include "atio/data/journal.h"

struct watch {
	int sig_fd;
	int done_fd;
	int *stop;                 /* the flag the threads poll */
	int **more_stops;          /* [nmore]: those of a run's other jobs */
	unsigned nmore;
	int signo;                 /* first signal received, or 0 */
	uint64_t sig_ns;           /* CLOCK_MONOTONIC instant of it */
	const char *phase;         /* what atio is doing, for messages */
	const char *sig_phase;     /* what it was doing at the first signal */
	uint64_t tick_ns;          /* wait_threads()' tick period; 0 for a second */
};

/* One line on stderr, "atio: " first. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * When the run holds its dataset through a lock on the directory (a reader
 * that could make no lock file, atio/data/lock.h), say so on stderr.
 */
void say_lock(const struct atio_lock *l);

/* Say @e's message; return its exit status (1 when it has none). */
int fail(const struct atio_error *e);

/*
 * Flush stdout and say when anything written to it was lost (a full disk,
 * a closed pipe), naming @what. Returns 0, or -1 after the message.
 */
int flush_stdout(const char *what);

uint64_t realtime_ns(void);
struct timespec ns_to_ts(uint64_t ns);

/*
 * atio merge --record, --iteration-record, --test-summary, --matrix or
 * --output-file (cmd_driver.c): the cluster driver's JSON and -o file.
 * Returns the exit status, or -1 when @argv names none of these modes.
 */
int driver_main(int argc, char **argv);

/* "SIGINT", "SIGTERM" or "SIGHUP". */
const char *sig_name(int signo);

/*
 * Block SIGINT, SIGTERM and SIGHUP in every thread to come and read them
 * from wt->sig_fd; ignore SIGPIPE; make wt->done_fd, the eventfd threads
 * signal when they end. Returns 0, or -errno with @e filled.
 */
int watch_open(struct watch *wt, struct atio_error *e);

/* Close what watch_open() opened (a descriptor of -1 is left alone). */
void watch_close(struct watch *wt);

/*
 * Handle what arrived on wt->sig_fd: the first SIGINT, SIGTERM or SIGHUP
 * sets the stop flag, a second one ends the process without results.
 */
void take_signal(struct watch *wt);

/*
 * Wait until @count threads have signalled the eventfd, handling signals
 * meanwhile. @tick, when not NULL, is called every wt->tick_ns (a second
 * when 0) with the number of ticks so far.
 */
void wait_threads(struct watch *wt, unsigned count,
		  void (*tick)(void *arg, unsigned sec), void *arg);

/*
 * Sleep until the CLOCK_REALTIME instant @ns, or a signal (handled as
 * wait_threads() does).
 */
void wait_realtime(struct watch *wt, uint64_t ns);

/*
 * Size the write pools of @o's threads with @depth requests in flight
 * (atio/data/pool.h): set o->pool_share to the bytes of the largest thread's
 * share of the files and o->pool_cover to the keystream its pool holds,
 * enough to cover the share where ATIO_POOL_CAP and memory allow (pools
 * beyond the least take at most half of MemAvailable), never less than
 * the least pool. With @no_io (the null engine: nothing is written, so
 * nothing can be compressed) the least pool, so that the null engine
 * measures atio's loop and not the cache misses of a pool larger than
 * the caches. Both 0 in modes that do not write.
 */
void plan_pool(struct atio_opts *o, unsigned depth, bool no_io);

/*
 * The run's buffers checked against MemAvailable before they are made:
 * a write pool a thread (of plan_pool()'s size), or a read buffer per I/O
 * in flight; with --verify on writes, the generation map (atio/run/genmap.h).
 * Returns 0, or
 * -ENOMEM with @e filled (exit 2) and the figures.
 */
int check_run_memory(const struct atio_opts *o, unsigned depth, struct atio_error *e);

/*
 * Survey the files and fill what is missing (or, with --expand, empty
 * them), while watching for signals; what the survey found in @out, the
 * fill's time in @fill_ns. A run that writes begins the journal @jn
 * (--fsync/--fdatasync --verify) or removes an old one (atio/data/journal.h).
 * Returns 0 or -errno with @e filled.
 */
int prepare(struct atio_dataset *ds, const struct atio_opts *o, struct watch *wt,
	    struct atio_fill_stats *out, uint64_t *fill_ns, struct atio_journal *jn,
	    struct atio_error *e);

/* --prepare: the fill's outcome on stdout; the files stay. Returns the exit status. */
int prepare_done(const struct atio_opts *o, const struct atio_dataset *ds,
		 const struct atio_fill_stats *fs, uint64_t fill_ns);

/*
 * -S, after the measured time of a write test: sync every file of @ds
 * (atio/run/flush.h) while the signals are watched (the phase is named for
 * messages). Returns 0; -EINTR with @e filled (exit 130) when a signal
 * came before every file was synced; or -errno with @e filled (exit 1)
 * when a sync failed: writes of the run were lost.
 */
int flush_after(const struct atio_dataset *ds, struct watch *wt, struct atio_error *e);

/* --check: read the dataset whole and check every sector. Returns the exit status. */
int check_main(struct atio_opts *o);

/*
 * atio [run] OPTIONS (cmd_run.c): @argv[0] is "run" or the program's
 * name. Returns the exit status.
 */
int run_main(int argc, char **argv);

/* atio --meta: a metadata run of the options @o parsed (src/cmd/cmd_meta.c); its exit status. */
int meta_main(struct atio_opts *o);

/* atio sweep AXIS=LIST...: a grid of runs, its peak and knees (src/cmd/cmd_sweep.c). */
int sweep_main(int argc, char **argv);

/* atio with --and, --then or --jobs: a plan of jobs and phases (src/cmd/cmd_plan.c). */
int plan_main(int argc, char **argv);

/* atio merge ...: @argv[0] is "merge". Returns the exit status. */
int merge_main(int argc, char **argv);

/*
 * atio merge of metadata documents (src/cmd/cmd_merge_meta.c): -1 when
 * the first file is none, else the exit status of their merge.
 */
int merge_meta_main(int argc, char **argv);

/*
 * atio report [-o FILE] FILE...: @argv[0] is "report". Read the documents,
 * write the page to FILE through a temporary file renamed over it.
 * Returns the exit status; errors are said as "atio: report: ...".
 */
int report_main(int argc, char **argv);

#endif
