/* SPDX-License-Identifier: MIT */
/*
 * One load thread's life: set up on the thread itself (its buffers and
 * engine, src/run/worker_setup.c), wait for the common start, an optional
 * warm-up whose counts are dropped (-w's time, or --steady's rounds:
 * src/run/rounds.c), the measured time (src/run/loop.c),
 * the final sync, and the thread's figures: elapsed and CPU time, the
 * interval series closed, --mix's directions folded into the total.
 *
 * The descriptor table. A thread starts by taking a private copy of the
 * process's table (unshare(CLONE_FILES)), before it opens anything. The
 * kernel looks a descriptor up without taking a reference to its file when
 * no other thread shares the table, as it does for a process of one thread;
 * with a shared table every pread(), pwrite() and sync pays an atomic get
 * and put on the file's count, 4-5% of a 4K read from the page cache here
 * (doc/performance.md). Every file of the run is open
 * before the threads start; what a thread opens itself (its engine's ring)
 * stays in its own table and it closes it. The copies go with the thread.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "atio/base/clock.h"
#include "atio/run/cursor.h"
#include "atio/run/limits.h"
#include "atio/run/loop.h"
#include "atio/run/pace.h"
#include "atio/run/rounds.h"
#include "atio/run/sync.h"
#include "atio/run/worker.h"

/* What the calling thread has used so far: CPU time and context switches. */
struct usage {
	uint64_t user_ns, sys_ns, vol, invol;
};

static struct usage thread_usage(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (struct usage){
		.user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
			   (uint64_t)ru.ru_utime.tv_usec * 1000u,
		.sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
			  (uint64_t)ru.ru_stime.tv_usec * 1000u,
		.vol = (uint64_t)ru.ru_nvcsw,
		.invol = (uint64_t)ru.ru_nivcsw,
	};
}

/* See worker.h. */
uint64_t atio_thread_cpu_ns(uint64_t *sys)
{
	struct usage u = thread_usage();

	*sys = u.sys_ns;
	return u.user_ns;
}

/*
 * Sleep until the CLOCK_MONOTONIC instant @ns: a job's start, which its
 * --delay may put hours away. The last sleep is on the instant itself;
 * before it, one every 10 ms looks at @stop. Returns true when stopped.
 */
static bool wait_until(uint64_t ns, const int *stop)
{
	for (;;) {
		uint64_t now = atio_now_ns(), until;
		struct timespec ts;

		if (now >= ns)
			return false;
		if (__atomic_load_n(stop, __ATOMIC_RELAXED))
			return true;
		until = ns - now > 10000000u ? now + 10000000u : ns;
		ts = (struct timespec){ .tv_sec = (time_t)(until / 1000000000u),
					.tv_nsec = (long)(until % 1000000000u) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
}

void *atio_worker_main(void *arg)
{
	struct atio_worker *w = arg;
	struct atio_shared *sh = w->sh;
	const struct atio_opts *o = sh->opts;
	struct atio_cursor c = { 0 };
	uint64_t start, end, end_ns;
	struct usage u0, u1;
	uint64_t one = 1;
	bool engine_up, flushed = false;

	/* A private descriptor table (see the top of this file); without one, only slower. */
	(void)unshare(CLONE_FILES);
	engine_up = atio_worker_buffers(w) == 0 && atio_worker_engine_start(w) == 0;
	w->setup_failed = !engine_up;
	atio_range_init(&c.segs, w->nsegs);
	atio_range_init(&c.blocks, w->segs[0].blocks);
	atio_cursor_start(w, &c);
	if (o->random && o->dist.kind != ATIO_DIST_UNIFORM)
		atio_cursor_dist_start(w, &c);

	/* The barriers are made for the threads there are once all are made. */
	pthread_mutex_lock(&sh->gate);
	pthread_mutex_unlock(&sh->gate);
	pthread_barrier_wait(&sh->ready);
	pthread_barrier_wait(&sh->go);
	if (w->setup_failed || atio_worker_stopped(w))
		goto out;

	if (wait_until(sh->start_ns, &sh->stop))
		goto out;
	if (o->rate > 0)
		atio_pace_start_arrivals(&c.pace, sh->start_ns, o->rate_interval_ns,
					 o->arrivals_exponential,
					 o->seed ^ (w->id * 0x9e3779b97f4a7c15ULL));
	start = sh->start_ns;
	/* --steady: rounds until the main thread finds them steady (atio/run/rounds.h). */
	if (o->steady && atio_rounds_run(w, &c, &start))
		goto out;
	if (!o->steady && o->warmup_ns) {
		bool quit;

		start += o->warmup_ns;
		quit = atio_run_until(w, &c, start) || atio_worker_stopped(w);
		/* What the warm-up did is never reported, even when it is cut short. */
		atio_stats_init(&w->st);
		if (w->dir)
			atio_dir_stats_init(w->dir);
		if (quit)
			goto out;
	}
	atio_ival_rec_start(&w->iv, start);
	end = o->time_ns ? start + o->time_ns : ATIO_LIMITS_NO_END;
	atio_limits_start(w, &c);
	u0 = thread_usage();
	/*
	 * --rate: a thread that did every I/O due before the end (and synced)
	 * waits for the end, and its time is the whole time: it did all the
	 * schedule asked inside it, and a late wake-up at the end is no I/O's
	 * doing.
	 */
	c.idle = false;
	if (atio_run_until(w, &c, end) == 0 && o->mode != ATIO_MODE_READ && !o->skip_sync)
		flushed = atio_worker_sync(w, ATIO_REQ_FSYNC, false, o->verbose >= 3) == 0;
	atio_limits_end(w, &c, atio_ticks());
	/* Stored once: the main thread watches it (a job that ended says no stall). */
	end_ns = atio_now_ns();
	if (c.idle && !w->failed)
		end_ns = atio_pace_idle(end, &sh->stop) && end_ns < end ? end : atio_now_ns();
	__atomic_store_n(&w->end_ns, end_ns, __ATOMIC_RELEASE);
	u1 = thread_usage();
	/*
	 * An idle --rate thread had nothing in flight at its end; a thread
	 * whose final flush completed ended with it: the flush's intervals
	 * show no I/O, but the flush is the end of the time, not a stall.
	 */
	atio_ival_rec_finish(&w->iv, w->end_ns, !c.idle && !flushed);
	if (w->dir)
		atio_dir_stats_fold(&w->st, w->dir);
	w->st.elapsed_ns = w->end_ns - start;
	w->st.cpu_user_ns = u1.user_ns - u0.user_ns;
	w->st.cpu_sys_ns = u1.sys_ns - u0.sys_ns;
	w->st.ctx_vol = u1.vol - u0.vol;
	w->st.ctx_invol = u1.invol - u0.invol;
out:
	if (engine_up)
		w->engine->cleanup(&w->io);
	/* An eventfd write of 1 cannot fail short of a kernel bug. */
	(void)!write(sh->done_fd, &one, sizeof(one));
	return NULL;
}
