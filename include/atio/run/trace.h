/* SPDX-License-Identifier: MIT */
#ifndef ATIO_TRACE_H
#define ATIO_TRACE_H

/*
 * -vvv: a line on stderr when a request is handed to the engine, and one
 * when it has completed, with its result and latency. The order of these
 * lines is the order in which the thread saw things happen, which is what
 * a test needs to check that every sync was issued only after its writes
 * completed.
 */

#include <stdint.h>

#include "atio/engine/engine.h"
#include "atio/run/worker.h"

/* Say that @w hands @r to its engine. */
void atio_trace_submit(const struct atio_worker *w, const struct atio_req *r);

/* Say that @r of @w completed with r->res, @ns nanoseconds after it was handed over. */
void atio_trace_done(const struct atio_worker *w, const struct atio_req *r, uint64_t ns);

#endif
