/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/error.h"

/*
 * A message longer than e->msg keeps its start and its end, where the
 * reason is, with "..." between: never a reason cut off.
 */
int atio_error_set(struct atio_error *e, int exit, int err, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		char *full = NULL;
		int n;

		va_start(ap, fmt);
		n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
		if (n >= (int)sizeof(e->msg)) {
			va_start(ap, fmt);
			if (vasprintf(&full, fmt, ap) >= 0) {
				size_t keep = sizeof(e->msg) / 2 - 2;

				memcpy(e->msg, full, keep);
				memcpy(e->msg + keep, "...", 3);
				strcpy(e->msg + keep + 3, full + strlen(full) - (sizeof(e->msg) - keep - 4));
				free(full);
			}
			va_end(ap);
		}
		e->err = err;
		e->exit = exit;
	}
	return err ? -err : -EINVAL;
}
