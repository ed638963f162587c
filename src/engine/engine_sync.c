/* SPDX-License-Identifier: MIT */
/*
 * The synchronous engine: pread(), pwrite(), fsync(), fdatasync(), one
 * request at a time on the worker's thread. queue() does the system call
 * and always completes, so the worker never calls submit() or reap().
 *
 * The transfers go through syscall(2). The C library's pread() and
 * pwrite() are cancellation points: in a process of more than one thread
 * each call turns asynchronous cancellation on before the system call and
 * off after it, two atomic operations on the thread's state that cost ~1%
 * of a 4 KiB read from the page cache. atio never cancels a thread.
 */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "atio/engine/engine.h"
#include "atio/base/opts.h"

static int sync_probe(void)
{
	return 0;
}

static int sync_init(struct atio_engine_io *w)
{
	return 0;
}

/* pread() or pwrite() without the cancellation point (see above). */
static inline ssize_t rw(bool read, int fd, void *buf, size_t len, off_t off)
{
#if __SIZEOF_LONG__ == 8
	/* The offset is one argument only where a register holds 64 bits. */
	return syscall(read ? SYS_pread64 : SYS_pwrite64, fd, buf, len, off);
#else
	return read ? pread(fd, buf, len, off) : pwrite(fd, buf, len, off);
#endif
}

/*
 * Transfer the whole request, retrying short transfers (a signal, a
 * filesystem splitting a large request). A read that meets end of file, or
 * a transfer that fails after part of the request, returns the bytes it got
 * (so that the error message can say what was written), the latter with
 * its errno in r->err; the worker treats the short count as an error. A
 * failure before any byte returns -errno.
 */
static int64_t transfer(struct atio_req *r)
{
	size_t done = 0;

	while (done < r->len) {
		char *p = (char *)r->buf + done;
		ssize_t n = rw(r->op == ATIO_REQ_READ, r->fd, p, r->len - done,
			       (off_t)(r->off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (!done)
				return -errno;
			r->err = errno;
			break;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (int64_t)done;
}

static enum atio_q sync_queue(struct atio_engine_io *w, struct atio_req *r)
{
	switch (r->op) {
	case ATIO_REQ_READ:
	case ATIO_REQ_WRITE:
		r->res = transfer(r);
		break;
	case ATIO_REQ_FSYNC:
		r->res = fsync(r->fd) ? -errno : 0;
		break;
	case ATIO_REQ_FDATASYNC:
		r->res = fdatasync(r->fd) ? -errno : 0;
		break;
	}
	return ATIO_Q_COMPLETED;
}

static int sync_submit(struct atio_engine_io *w)
{
	return 0;
}

static int sync_reap(struct atio_engine_io *w, unsigned min, unsigned max)
{
	return 0;
}

static void sync_cleanup(struct atio_engine_io *w)
{
}

const struct atio_engine_ops atio_engine_sync = {
	.name = "sync",
	.async = false,
	.max_iodepth = 1,
	.probe = sync_probe,
	.init = sync_init,
	.queue = sync_queue,
	.submit = sync_submit,
	.reap = sync_reap,
	.cleanup = sync_cleanup,
};
