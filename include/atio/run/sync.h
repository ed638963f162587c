/* SPDX-License-Identifier: MIT */
#ifndef ATIO_SYNC_H
#define ATIO_SYNC_H

/*
 * A load thread's syncs. In --fsync/--fdatasync modes a sync must cover
 * exactly the -q writes before it. The kernel does not order requests in
 * flight, so after the q-th write the run loop stops queueing, waits until
 * every write has completed, and only then syncs here. Writing runs end
 * with a final sync of the same kind, outside the workload's counts.
 * With --verify the journal records what each sync acknowledged
 * (atio/data/journal.h).
 */

#include <stdbool.h>

#include "atio/engine/engine.h"
#include "atio/run/worker.h"

/*
 * Sync every file of @w (one in the usual one-file-per-thread layout) with
 * @op, one after the other, and wait; nothing else of the thread may be in
 * flight. With @tracing each sync is traced (atio/run/trace.h). Then, with
 * --verify's journal, commit the writes noted since the last sync. With
 * @timed it is a sync point of the workload, recorded in the sync
 * histogram and counted; otherwise the final sync. Returns 0, or a
 * negative errno with w->err filled and every thread asked to stop.
 */
int atio_worker_sync(struct atio_worker *w, enum atio_req_op op, bool timed, bool tracing);

#endif
