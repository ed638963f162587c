/* SPDX-License-Identifier: MIT */
/*
 * The io_uring engine, through liburing: one ring per thread, created on
 * the thread that uses it. The thread's files and its whole buffer area
 * (the write pool, or the read buffers) are registered, so requests use
 * fixed files and READ_FIXED/WRITE_FIXED and the kernel neither looks up a
 * file nor pins pages per I/O. The buffers are left unregistered when they
 * are base pages and a request is larger than MAX_FIXED_BASE_BLOCK: the
 * kernel keeps a registered buffer as one vector entry per page, and the
 * block layer counts each entry as a segment of its own, so a 1 MiB request
 * (256 pages) on a device that takes 254 segments (a virtio disk; many NVMe
 * drives take 127) is split in two, the second of two pages: twice the
 * device requests. Pinned per I/O, physically adjacent pages join into one
 * segment and most requests stay whole. Huge pages make few segments either
 * way. The ring asks for SINGLE_ISSUER and DEFER_TASKRUN (completions are
 * run when the thread waits, not by interrupting it), else COOP_TASKRUN,
 * else nothing, as the kernel allows.
 *
 * queue() only fills a submission entry; reap() submits everything queued
 * and waits in one io_uring_enter() system call, then takes the
 * completions in one batch.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>

#include <liburing.h>

#include "atio/engine/engine.h"
#include "atio/base/opts.h"

/* The kernel registers at most 1 GiB per buffer. */
#define MAX_FIXED_BUF (1UL << 30)
/* The largest request of base pages in a registered buffer: 32 segments. */
#define MAX_FIXED_BASE_BLOCK (128UL << 10)

struct uring {
	struct io_uring ring;
	bool fixed_files;
	bool fixed_bufs;
	struct io_uring_cqe *cqes[];
};

static int uring_probe(void)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(2, &ring, 0);

	if (ret == 0)
		io_uring_queue_exit(&ring);
	return ret;
}

/*
 * A ring of @depth entries is refused with EINVAL above the kernel's
 * IORING_MAX_ENTRIES (32768 today): find the largest accepted, by halving.
 * Rings are per thread, so the thread count does not matter.
 */
static int uring_depth_limit(unsigned threads, unsigned depth, unsigned *max)
{
	struct io_uring ring;
	unsigned lo = 1, hi = depth;
	int ret = io_uring_queue_init(depth, &ring, 0);

	(void)threads;
	if (ret == 0) {
		io_uring_queue_exit(&ring);
		return 0;
	}
	if (ret != -EINVAL)
		return ret;
	while (lo + 1 < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (io_uring_queue_init(mid, &ring, 0) == 0) {
			io_uring_queue_exit(&ring);
			lo = mid;
		} else {
			hi = mid;
		}
	}
	*max = lo;
	return -E2BIG;
}

/* Create the ring with the best set-up flags this kernel accepts. */
static int make_ring(struct io_uring *ring, unsigned entries)
{
	static const unsigned flag_sets[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int ret = -EINVAL;

	for (size_t i = 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
		struct io_uring_params p = { .flags = flag_sets[i] };

		ret = io_uring_queue_init_params(entries, ring, &p);
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

static int uring_init(struct atio_engine_io *w)
{
	struct uring *u = calloc(1, sizeof(*u) + w->depth * sizeof(u->cqes[0]));
	struct iovec iov = { .iov_base = w->buf_base, .iov_len = w->buf_len };
	int ret;

	if (!u)
		return -ENOMEM;
	ret = make_ring(&u->ring, w->depth);
	if (ret) {
		free(u);
		return ret;
	}
	/* Registration saves work per I/O; without it the ring still runs. */
	u->fixed_files = io_uring_register_files(&u->ring, w->fds, w->nfds) == 0;
	u->fixed_bufs = w->buf_len <= MAX_FIXED_BUF &&
			(w->buf_huge || w->reqs[0].len <= MAX_FIXED_BASE_BLOCK) &&
			io_uring_register_buffers(&u->ring, &iov, 1) == 0;
	w->engine_data = u;
	return 0;
}

static enum atio_q uring_queue(struct atio_engine_io *w, struct atio_req *r)
{
	struct uring *u = w->engine_data;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->fixed_files ? (int)r->slot : r->fd;

	if (!sqe)
		return ATIO_Q_BUSY;
	switch (r->op) {
	case ATIO_REQ_READ:
		if (u->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, r->buf, (unsigned)r->len, r->off, 0);
		else
			io_uring_prep_read(sqe, fd, r->buf, (unsigned)r->len, r->off);
		break;
	case ATIO_REQ_WRITE:
		if (u->fixed_bufs)
			io_uring_prep_write_fixed(sqe, fd, r->buf, (unsigned)r->len, r->off, 0);
		else
			io_uring_prep_write(sqe, fd, r->buf, (unsigned)r->len, r->off);
		break;
	case ATIO_REQ_FSYNC:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	case ATIO_REQ_FDATASYNC:
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	}
	if (u->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, r);
	return ATIO_Q_QUEUED;
}

/* Sending waits for reap(), which submits and waits in one system call. */
static int uring_submit(struct atio_engine_io *w)
{
	return 0;
}

/* Hand the completions waiting in the ring back, at most @max. */
static int take(struct atio_engine_io *w, struct uring *u, unsigned max)
{
	unsigned n = io_uring_peek_batch_cqe(&u->ring, u->cqes, max);

	for (unsigned i = 0; i < n; i++) {
		struct atio_req *r = io_uring_cqe_get_data(u->cqes[i]);

		r->res = u->cqes[i]->res;
		w->done[i] = r;
	}
	io_uring_cq_advance(&u->ring, n);
	return (int)n;
}

static int uring_reap(struct atio_engine_io *w, unsigned min, unsigned max)
{
	struct uring *u = w->engine_data;
	int ret;

	do
		ret = io_uring_submit_and_wait(&u->ring, min);
	while (ret == -EINTR);
	if (ret < 0)
		return ret;
	return take(w, u, max);
}

/* Submit, and wait for one completion at most @timeout_ns (-ETIME: none). */
static int uring_reap_timed(struct atio_engine_io *w, unsigned max, uint64_t timeout_ns)
{
	struct uring *u = w->engine_data;
	struct __kernel_timespec ts = { .tv_sec = (long long)(timeout_ns / 1000000000u),
					.tv_nsec = (long long)(timeout_ns % 1000000000u) };
	struct io_uring_cqe *cqe;
	int ret;

	do
		ret = io_uring_submit_and_wait_timeout(&u->ring, &cqe, 1, &ts, NULL);
	while (ret == -EINTR);
	if (ret < 0 && ret != -ETIME)
		return ret;
	return take(w, u, max);
}

/*
 * The kernel tears a ring down in a work item after close, holding its
 * registered files (and so their filesystem: umount says "busy") for tens
 * of milliseconds after the process has gone. Unregistering waits until
 * the kernel has let go of them, so the files are closed for real when
 * atio exits.
 */
static void uring_cleanup(struct atio_engine_io *w)
{
	struct uring *u = w->engine_data;

	if (u->fixed_files)
		io_uring_unregister_files(&u->ring);
	if (u->fixed_bufs)
		io_uring_unregister_buffers(&u->ring);
	io_uring_queue_exit(&u->ring);
	free(u);
	w->engine_data = NULL;
}

const struct atio_engine_ops atio_engine_io_uring = {
	.name = "io_uring",
	.async = true,
	.max_iodepth = ATIO_MAX_IODEPTH,
	.direct_batch = 8,
	.probe = uring_probe,
	.depth_limit = uring_depth_limit,
	.init = uring_init,
	.queue = uring_queue,
	.submit = uring_submit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
	.reap_timed = uring_reap_timed,
};
