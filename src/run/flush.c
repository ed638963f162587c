/* SPDX-License-Identifier: MIT */
/* The sync after a -S run: see include/atio/run/flush.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "atio/run/flush.h"

int atio_flush_dataset(const struct atio_dataset *ds, const int *stop, struct atio_error *e)
{
	for (unsigned i = 0; i < ds->nfiles; i++) {
		const struct atio_file *f = &ds->files[i];

		if (__atomic_load_n(stop, __ATOMIC_RELAXED))
			return -EINTR;
		if (f->fd < 0)
			continue;
		if (fsync(f->fd) != 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno,
					      "-S: %s: the sync after the measured time failed: "
					      "%s; writes of this run did not reach the storage, "
					      "and its result counts data that was lost",
					      f->path, strerror(errno));
	}
	return 0;
}
