/* SPDX-License-Identifier: MIT */
#ifndef ATIO_FLUSH_H
#define ATIO_FLUSH_H

/*
 * -S leaves the final sync out of the measured time, so a write test can
 * end with its data still in the page cache. Writeback that fails later
 * (a dying disk, a thin pool or a network volume out of space) loses those
 * writes, and only a sync after the run can tell: fsync() returns the
 * error the kernel recorded for a file since the descriptor was opened.
 * So after the measured time, outside the result, every file of the
 * dataset is synced through the descriptor the run opened.
 */

#include "atio/data/dataset.h"
#include "atio/base/error.h"

/*
 * fsync() every file of @ds, one after the other, through the descriptors
 * atio_dataset_open() made; stop before the next file when *@stop is set.
 * Returns 0 when every file was synced; -EINTR when *@stop came first
 * (@e untouched); else the first failure's -errno with @e filled (exit 1)
 * naming the file and the error.
 */
int atio_flush_dataset(const struct atio_dataset *ds, const int *stop, struct atio_error *e);

#endif
