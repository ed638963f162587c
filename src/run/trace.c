/* SPDX-License-Identifier: MIT */
/* -vvv's lines of a load thread: see include/atio/run/trace.h. */
#include <inttypes.h>
#include <stdio.h>

#include "atio/run/trace.h"

static const char *const op_name[] = { "read", "write", "fsync", "fdatasync" };

void atio_trace_submit(const struct atio_worker *w, const struct atio_req *r)
{
	fprintf(stderr, "atio: [%u] submit %s(fd %d, %zu bytes, offset %" PRIu64 ")\n",
		w->id, op_name[r->op], r->fd, r->len, r->off);
}

void atio_trace_done(const struct atio_worker *w, const struct atio_req *r, uint64_t ns)
{
	fprintf(stderr, "atio: [%u] %s(fd %d, %zu bytes, offset %" PRIu64 ") = %" PRId64
		" in %.3f usec\n", w->id, op_name[r->op], r->fd, r->len, r->off, r->res, ns / 1e3);
}
