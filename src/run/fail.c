/* SPDX-License-Identifier: MIT */
/* A load thread's I/O failures: see include/atio/run/fail.h. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "atio/run/fail.h"

const char *atio_worker_path(const struct atio_worker *w, int fd)
{
	for (unsigned s = 0; s < w->nsegs; s++)
		if (w->segs[s].fd == fd)
			return w->sh->ds->files[w->segs[s].file].path;
	return "?";
}

/*
 * Why a write of @r stopped after @done bytes: the engine's r->err when it
 * asked the kernel already; else, since the kernel tells only when asked
 * again, write the rest of the block, as any program that loops on write()
 * would, and name its error. The rest is written only when its start stays
 * aligned for O_DIRECT (a multiple of 4 KiB); otherwise, and when the rest
 * goes through, the reason stays unknown and *@err is EIO.
 */
static const char *short_write_reason(const struct atio_worker *w, const struct atio_req *r,
				      int64_t done, int *err)
{
	ssize_t n;

	*err = r->err ? r->err : EIO;
	if (r->err)
		return strerror(r->err);
	if (w->sh->opts->direct && done % 4096)
		return "the rest was not retried";
	do
		n = pwrite(r->fd, (const char *)r->buf + done, r->len - (size_t)done,
			   (off_t)(r->off + (uint64_t)done));
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		*err = errno;
		return strerror(errno);
	}
	return "writing the rest did not fail";
}

void atio_worker_stop(struct atio_worker *w)
{
	__atomic_store_n(&w->failed, true, __ATOMIC_RELEASE);
	__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
}

int atio_worker_fail(struct atio_worker *w, const struct atio_req *r, int64_t res)
{
	static const char *const verb[] = { "read", "write", "fsync", "fdatasync" };
	const char *path = atio_worker_path(w, r->fd);
	int err = res < 0 ? (int)-res : EIO;

	if (res >= 0 && r->op == ATIO_REQ_WRITE) {
		const char *why = short_write_reason(w, r, res, &err);

		atio_error_set(&w->err, ATIO_EXIT_FAIL, err,
			       "%s: short write at offset %" PRIu64 ": %" PRId64 " of %zu bytes (%s)",
			       path, r->off, res, r->len, why);
	} else if (res >= 0)
		atio_error_set(&w->err, ATIO_EXIT_FAIL, EIO,
			       "%s: short %s at offset %" PRIu64 ": %" PRId64 " of %zu bytes",
			       path, verb[r->op], r->off, res, r->len);
	else if (r->op >= ATIO_REQ_FSYNC)
		atio_error_set(&w->err, ATIO_EXIT_FAIL, err, "%s: %s: %s",
			       path, verb[r->op], strerror(err));
	else
		atio_error_set(&w->err, ATIO_EXIT_FAIL, err,
			       "%s: %s of %zu bytes at offset %" PRIu64 ": %s",
			       path, verb[r->op], r->len, r->off, strerror(err));
	atio_worker_stop(w);
	return -err;
}
