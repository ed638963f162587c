/* SPDX-License-Identifier: MIT */
#ifndef ATIO_OUT_DEVICE_REPORT_H
#define ATIO_OUT_DEVICE_REPORT_H

/*
 * The devices under the target and the caps in force on atio, over the
 * measured window (atio/data/device.h), in the result
 * (src/print/device_report.c): a "device:" line per device in text (the
 * target's first, then those beneath it) and a "cgroup:" line per cap; a
 * "device" object in JSON.
 */

#include <stdio.h>

#include "atio/base/json.h"
#include "atio/data/device.h"

/* The text lines; nothing when @w is NULL or has no device. */
void atio_device_report_text(FILE *f, const struct atio_device_window *w);

/*
 * The "device" object: {"devices": [...], "caps": [...], "cgroup_v1",
 * "cgroup_v2", "io_pressure"}, or null when @w is NULL or has no device.
 */
void atio_device_report_json(struct atio_json *j, const struct atio_device_window *w);

/*
 * The "Device:" line of the header: the device under target @path and its
 * disk's queue (scheduler, read_ahead_kb, nr_requests, write cache,
 * rotational with a note for a virtual device); nothing when none is found.
 */
void atio_device_report_header(FILE *f, const char *path);

#endif
