/* SPDX-License-Identifier: MIT */
/*
 * --expand: the size files grow to, and emptying a full one during the
 * run. See include/atio/run/expand.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atio/base/clock.h"
#include "atio/data/dataset.h"
#include "atio/run/expand.h"

uint64_t atio_expand_max_size(const struct atio_opts *o)
{
	uint64_t share = o->nfiles ? atio_dataset_file_size(o) : 0;

	return o->bs ? share / o->bs * o->bs : 0;
}

int atio_expand_restart(struct atio_worker *w, unsigned seg, bool tracing)
{
	const struct atio_segment *s = &w->segs[seg];
	struct atio_file *f = &w->sh->ds->files[s->file];
	uint64_t t0 = atio_ticks();
	int ret = 0;

	if (!w->engine->no_io && ftruncate(s->fd, 0) != 0)
		ret = errno;
	if (tracing)
		fprintf(stderr, "atio: [%u] ftruncate(fd %d, 0) = %d in %.3f usec\n", w->id,
			s->fd, ret ? -1 : 0, (double)atio_ticks_to_ns(atio_ticks() - t0) / 1e3);
	if (ret) {
		atio_error_set(&w->err, ATIO_EXIT_FAIL, ret, "%s: truncating to zero for "
			       "--expand: %s", f->path ? f->path : "?", strerror(ret));
		__atomic_store_n(&w->failed, true, __ATOMIC_RELEASE);
		__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
		return -1;
	}
	f->grown = 0;
	w->st.truncations++;
	return 0;
}
