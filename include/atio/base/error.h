/* SPDX-License-Identifier: MIT */
#ifndef ATIO_ERROR_H
#define ATIO_ERROR_H

/*
 * Error reporting between modules and main.
 *
 * Modules never print and never exit. A function that fails fills a
 * struct atio_error with a one-line message (without the "atio: " prefix),
 * the errno that caused it (0 if none) and the exit status main should use,
 * and returns a negative errno. main.c alone turns it into output and an
 * exit status.
 */

#include <stddef.h>

enum atio_exit {
	ATIO_EXIT_OK = 0,
	ATIO_EXIT_FAIL = 1,        /* the run failed: I/O error, no space ... */
	ATIO_EXIT_USAGE = 2,       /* bad usage or bad input */
	ATIO_EXIT_INTERRUPTED = 130,
};

struct atio_error {
	int err;                   /* errno behind the failure, or 0 */
	int exit;                  /* one of enum atio_exit */
	char msg[9216];           /* room for two paths of PATH_MAX and a reason */
};

/*
 * Record an error: format @fmt into e->msg and remember @err and @exit.
 * Returns -err when err is non-zero, -EINVAL otherwise, so a caller can write
 * "return atio_error_set(e, ...)". @e may be NULL, then nothing is recorded.
 */
int atio_error_set(struct atio_error *e, int exit, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
