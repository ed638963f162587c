/* SPDX-License-Identifier: MIT */
/* --steady's warm-up by rounds, and how it ends (atio/run/rounds.h). */
#include "atio/run/cursor.h"
#include "atio/run/loop.h"
#include "atio/run/pace.h"
#include "atio/run/rounds.h"
#include "atio/run/worker.h"

uint64_t atio_rounds_slice_ns(uint64_t round_ns)
{
	uint64_t parts = (round_ns + 999999999u) / 1000000000u;

	return round_ns / (parts ? parts : 1);
}

bool atio_rounds_pass(uint64_t *word, uint64_t i)
{
	uint64_t v = __atomic_load_n(word, __ATOMIC_ACQUIRE);

	for (;;) {
		if (v & ATIO_ROUNDS_END)
			return (v & ~ATIO_ROUNDS_END) <= i;
		if (v >= i)
			return false;
		if (__atomic_compare_exchange_n(word, &v, i, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return false;
	}
}

uint64_t atio_rounds_end(uint64_t *word)
{
	uint64_t v = __atomic_load_n(word, __ATOMIC_ACQUIRE);

	while (!(v & ATIO_ROUNDS_END) &&
	       !__atomic_compare_exchange_n(word, &v, (v + 1) | ATIO_ROUNDS_END, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
	return v & ATIO_ROUNDS_END ? v & ~ATIO_ROUNDS_END : v + 1;
}

bool atio_rounds_run(struct atio_worker *w, struct atio_cursor *c, uint64_t *start)
{
	struct atio_shared *sh = w->sh;
	const struct atio_opts *o = sh->opts;
	uint64_t slice = atio_rounds_slice_ns(o->round_ns), i;

	atio_ival_rec_restart(&w->iv, o->round_ns, o->rounds + 2u);
	atio_ival_rec_start(&w->iv, sh->start_ns);
	for (i = 1;; i++) {
		uint64_t end = sh->start_ns + i * slice;

		if (atio_run_until(w, c, end) || atio_worker_stopped(w))
			return true;
		/* --rate: nothing was due before the slice's end; its time passes first. */
		if (c->idle && !atio_pace_idle(end, &sh->stop))
			return true;
		c->idle = false;
		if (atio_rounds_pass(&sh->rounds_word, i))
			break;
	}
	/* What the rounds did is never reported as the run's: the steady state has it. */
	*start = sh->start_ns + i * slice;
	atio_stats_init(&w->st);
	if (w->dir)
		atio_dir_stats_init(w->dir);
	atio_ival_rec_restart(&w->iv, o->interval_ns, atio_worker_expected_ivals(o));
	__atomic_add_fetch(&sh->measuring, 1, __ATOMIC_RELEASE);
	return false;
}
