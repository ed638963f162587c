/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "atio/error.h"

int atio_error_set(struct atio_error *e, int exit, int err, const char *fmt, ...)
{
	if (e) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
		e->err = err;
		e->exit = exit;
	}
	return err ? -err : -EINVAL;
}
