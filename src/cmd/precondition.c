/* SPDX-License-Identifier: MIT */
/*
 * --precondition: SNIA's workload-independent preconditioning before
 * --steady's rounds, as a write run of its own (steady.h).
 */
#include <errno.h>
#include <string.h>

#include "steady.h"
#include "atio/base/units.h"

/*
 * The precondition's options: @o's dataset, engine and depth; O_DIRECT
 * whatever @o's cache mode, so that its writes reach the device as they
 * are made (the page cache would merge them into its own writeback, and
 * the second pass would overwrite the first in memory); sequential writes of 128K blocks over each thread's share twice
 * (--loops 2), incompressible and unique, with the final sync, and
 * nothing else of @o's workload.
 */
static void precondition_opts(struct atio_opts *p, const struct atio_opts *o)
{
	*p = *o;
	p->mode = ATIO_MODE_WRITE;
	p->random = p->backward = false;
	p->stride = 0;
	p->bs = 128u << 10;
	p->direct = true;
	memset(p->bsmix, 0, sizeof(p->bsmix));
	p->bs_text = NULL;
	p->bs_unit = 0;
	memset(&p->dist, 0, sizeof(p->dist));
	p->dist_text = NULL;
	p->mix = 0;
	p->open_sync = ATIO_OPEN_PLAIN;
	p->fadvise = ATIO_FADVISE_NONE;
	p->fadvise_given = false;
	p->rate = 0;
	p->rate_text = NULL;
	p->verify = false;
	p->compress = p->dedup = 0;
	p->compress_text = p->dedup_text = NULL;
	p->time_ns = p->warmup_ns = p->delay_ns = 0;
	p->size = 0;
	p->loops = 2;
	p->steady = ATIO_STEADY_NONE;
	p->precondition = false;
	p->skip_sync = false;
	p->remove = false;
	p->json = false;
	p->verbose = 0;
	p->start_at_ns = 0;
	p->start_at_stdin = false;
	p->iodepth_batch = o->iodepth_batch > o->iodepth ? o->iodepth : o->iodepth_batch;
}

int steady_precondition(const struct atio_opts *o, const struct atio_engine_ops *engine,
			const struct atio_target *tg, uint64_t *bytes, uint64_t *ns, int *signo)
{
	struct atio_error e = { 0 };
	struct atio_opts p;
	struct run r;
	struct run_result rr = { 0 };
	int status = 0;

	precondition_opts(&p, o);
	/* The rules of a write run on this target: a device only with --allow-device-write. */
	if (!engine->no_io && tg->kind != ATIO_TARGET_NONE && atio_target_check(tg, &p, &e)) {
		say("--precondition writes the dataset: %s", e.msg);
		return e.exit ? e.exit : ATIO_EXIT_USAGE;
	}
	plan_pool(&p, p.iodepth, engine->no_io);
	if (run_open(&r, &p, engine, &e)) {
		/* A filesystem without O_DIRECT: refused, not preconditioned through the cache. */
		if (e.exit == ATIO_EXIT_USAGE && e.err == EINVAL)
			say("--precondition: its writes are O_DIRECT (--uncached), and the target "
			    "refuses them: leave --precondition out");
		status = fail(&e);
	} else {
		/* Said once the files are open and a signal is atio's to take. */
		if (o->verbose >= 1)
			say("precondition: sequential O_DIRECT writes of twice the dataset "
			    "(%.2f MiB) in 128K blocks", atio_mib(2 * o->total));
		if (run_measure(&r, &rr, &e))
			status = fail(&e);
	}
	if (!status && r.wt.signo) {
		say("%s in the precondition, before the rounds: no result", sig_name(r.wt.signo));
		status = ATIO_EXIT_INTERRUPTED;
	}
	*bytes = rr.res.total.bytes;
	*ns = rr.res.elapsed_ns;
	*signo = r.wt.signo;
	run_result_free(&rr);
	if (run_close(&r, &e) && !status)
		status = fail(&e);
	return status;
}
