/* SPDX-License-Identifier: MIT */
/*
 * --steady's rounds as the main thread judges them, --precondition's
 * writes before them, and the warning when they never became steady
 * (steady.h).
 */
#include <errno.h>
#include <string.h>

#include "steady.h"
#include "atio/base/units.h"
#include "atio/run/rounds.h"
#include "atio/stats/interval.h"

/* Round @k summed over the @n threads of @w, each of which has closed it. */
static void round_sum(const struct atio_worker *w, unsigned n, size_t k,
		      struct atio_steady_round *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (unsigned i = 0; i < n; i++) {
		const struct atio_ival *iv = atio_ival_get(&w[i].iv.s, k);

		for (unsigned d = 0; d < ATIO_DIRS; d++) {
			sum->ops += iv->ops[d];
			sum->bytes += iv->bytes[d];
			sum->lat_sum += iv->h[d].sum;
			sum->lat_count += iv->h[d].count;
		}
		if (iv->dur_ns > sum->dur_ns)
			sum->dur_ns = iv->dur_ns;
	}
}

void steady_tick(struct run_result *out, const char *name)
{
	struct atio_steady *s = &out->steady;
	const struct atio_opts *o = out->sh.opts;
	struct atio_steady_round sum;
	uint64_t slice;

	while (!s->over) {
		size_t k = s->n;

		for (unsigned i = 0; i < o->threads; i++)
			if (atio_ival_rec_closed(&out->w[i].iv) <= k)
				return;
		round_sum(out->w, o->threads, k, &sum);
		atio_steady_add(s, atio_steady_value(s->kind, &sum));
		if (o->verbose >= 1)
			say("%s%ssteady: round %zu: %.2f %s%s", name, name[0] ? ": " : "", k + 1,
			    s->value[k], atio_steady_unit(s->kind),
			    s->steady_at ? ": steady" : s->over ? ": the last round" : "");
	}
	/* Over: the warm-up ends at the next slice no thread has passed. */
	if (!out->measure_ns) {
		slice = atio_rounds_slice_ns(o->round_ns);
		s->warm_ns = atio_rounds_end(&out->sh.rounds_word) * slice;
		out->measure_ns = out->sh.start_ns + s->warm_ns;
	}
}

bool steady_measuring(const struct run_result *out)
{
	return __atomic_load_n(&out->sh.measuring, __ATOMIC_ACQUIRE) == out->sh.opts->threads;
}

/*
 * The precondition's options: @o's dataset, engine, depth and cache mode;
 * sequential writes of 128K blocks over each thread's share twice
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
			const struct atio_target *tg, uint64_t *bytes, uint64_t *ns)
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
	if (o->verbose >= 1)
		say("precondition: sequential writes of twice the dataset (%.2f MiB) in 128K "
		    "blocks", atio_mib(2 * o->total));
	if (run_open(&r, &p, engine, &e) || run_measure(&r, &rr, &e))
		status = fail(&e);
	if (!status && r.wt.signo) {
		say("%s in the precondition, before the rounds: no result", sig_name(r.wt.signo));
		status = ATIO_EXIT_INTERRUPTED;
	}
	*bytes = rr.res.total.bytes;
	*ns = rr.res.elapsed_ns;
	run_result_free(&rr);
	if (run_close(&r, &e) && !status)
		status = fail(&e);
	return status;
}

void steady_warn(const struct run_result *out)
{
	const struct atio_steady *s = &out->steady;
	char round[32];

	if (!s->over || s->steady_at)
		return;
	atio_format_time(round, sizeof(round), s->round_ns);
	say("warning: not steady after %u rounds of %s sec: over the last %zu the range was "
	    "%.2f%% and the excursion %.2f%% of the average (at most %.0f%% and %.0f%%); the "
	    "measured time followed anyway", s->n, round, s->v.n, s->v.range_pct,
	    s->v.excursion_pct, ATIO_STEADY_RANGE_PCT, ATIO_STEADY_EXCURSION_PCT);
}
