/* SPDX-License-Identifier: MIT */
/* A load thread's syncs: see include/atio/run/sync.h. */
#include <errno.h>
#include <string.h>

#include "atio/base/clock.h"
#include "atio/run/fail.h"
#include "atio/run/sync.h"
#include "atio/run/trace.h"

/*
 * Hand one request to the engine and wait for it; nothing else may be in
 * flight. Returns the request's result, or a negative errno from the
 * engine itself.
 */
static int64_t execute(struct atio_worker *w, struct atio_req *r)
{
	const struct atio_engine_ops *eng = w->engine;
	int n;

	if (eng->queue(&w->io, r) == ATIO_Q_COMPLETED)
		return r->res;
	n = eng->submit(&w->io);
	if (n >= 0)
		n = eng->reap(&w->io, 1, 1);
	if (n == 0)
		n = -EIO;
	return n < 0 ? n : w->done[0]->res;
}

/* The journal could not be written: the run fails. */
static int journal_fail(struct atio_worker *w, int err)
{
	atio_error_set(&w->err, ATIO_EXIT_FAIL, err, "%s: cannot append to the journal: %s",
		       w->sh->journal->path, strerror(err));
	atio_worker_stop(w);
	return -err;
}

int atio_worker_sync(struct atio_worker *w, enum atio_req_op op, bool timed, bool tracing)
{
	struct atio_req r = { .op = op };
	uint64_t t0 = atio_ticks(), t = t0;

	for (unsigned i = 0; i < w->nfds; i++) {
		r.fd = w->fds[i];
		r.slot = i;
		if (tracing)
			atio_trace_submit(w, &r);
		r.res = execute(w, &r);
		if (tracing) {
			uint64_t now = atio_ticks();

			atio_trace_done(w, &r, atio_ticks_to_ns(now - t));
			t = now;
		}
		if (r.res < 0)
			return atio_worker_fail(w, &r, r.res);
	}
	if (w->jl.recs && w->sh->journal) {
		r.res = atio_journal_commit(w->sh->journal, &w->jl);
		if (r.res < 0)
			return journal_fail(w, (int)-r.res);
	}
	if (timed) {
		uint64_t t1 = atio_ticks();

		atio_ival_seen(&w->iv, t1, 0);
		atio_hist_record(&w->st.sync_lat, atio_ticks_to_ns(t1 - t0));
		__atomic_store_n(&w->st.syncs, w->st.syncs + 1, __ATOMIC_RELAXED);
	}
	return 0;
}
