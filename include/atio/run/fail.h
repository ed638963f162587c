/* SPDX-License-Identifier: MIT */
#ifndef ATIO_FAIL_H
#define ATIO_FAIL_H

/*
 * A load thread's failures: the message naming the file, the operation and
 * the error goes to the thread's w->err, the thread is marked failed and
 * every other thread is asked to stop. The run loop returns; only the
 * command layer prints.
 */

#include <stdint.h>

#include "atio/engine/engine.h"
#include "atio/run/worker.h"

/*
 * The path of @w's file open as @fd ("?" when none of its segments has
 * it).
 */
const char *atio_worker_path(const struct atio_worker *w, int fd);

/*
 * Request @r of @w completed with @res: a negative errno, or a byte count
 * short of r->len. Why a short write stopped is asked of the kernel by
 * writing the rest of the block (when its start stays aligned for
 * O_DIRECT). Fills w->err (exit 1), sets w->failed and the run's stop.
 * Returns the negative errno.
 */
int atio_worker_fail(struct atio_worker *w, const struct atio_req *r, int64_t res)
	__attribute__((cold));

/*
 * Mark @w failed with w->err already filled, and ask every thread to
 * stop.
 */
void atio_worker_stop(struct atio_worker *w);

#endif
