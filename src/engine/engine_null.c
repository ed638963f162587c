/* SPDX-License-Identifier: MIT */
/*
 * The null engine: no system call, every request completes in queue().
 * What it measures is atio's own cost per I/O: drawing the offset, taking
 * and stamping a write window, two clock reads and the histogram.
 */
#include "atio/engine/engine.h"
#include "atio/base/opts.h"

static int null_probe(void)
{
	return 0;
}

static int null_init(struct atio_engine_io *w)
{
	return 0;
}

static enum atio_q null_queue(struct atio_engine_io *w, struct atio_req *r)
{
	r->res = r->op <= ATIO_REQ_WRITE ? (int64_t)r->len : 0;
	return ATIO_Q_COMPLETED;
}

static int null_submit(struct atio_engine_io *w)
{
	return 0;
}

static int null_reap(struct atio_engine_io *w, unsigned min, unsigned max)
{
	return 0;
}

static void null_cleanup(struct atio_engine_io *w)
{
}

const struct atio_engine_ops atio_engine_null = {
	.name = "null",
	.no_io = true,
	.async = false,
	.max_iodepth = 1,
	.probe = null_probe,
	.init = null_init,
	.queue = null_queue,
	.submit = null_submit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};
