/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CMD_START_H
#define ATIO_CMD_START_H

#include <stdint.h>

#include "cmd.h"

/*
 * --start-at -: everything before the load is done (files checked, opened,
 * cache dropped, buffers and rings set up, threads waiting). Say so on
 * stderr with the line "atio: ready: ...", then read the start instant
 * from one line of stdin, as --start-at takes it. Returns 0 with @ns set;
 * -EPIPE (exit 1) when stdin ends first, -EINVAL (exit 2) for a line that
 * is no instant; @e is filled on every error. A signal that comes first
 * returns 0 with @ns untouched: the threads are asked to stop and the run
 * ends as interrupted, not failed.
 */
int read_start_at(struct watch *wt, int64_t *ns, struct atio_error *e);

#endif
