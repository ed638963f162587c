/* SPDX-License-Identifier: MIT */
/*
 * The libaio engine: Linux native AIO, io_submit() of every request queued
 * since the last submit; completions are read straight from the ring the
 * kernel shares with the process, and io_getevents() is called only to
 * wait when none is there.
 *
 * Native AIO is asynchronous only with O_DIRECT. With the page cache the
 * kernel does the I/O inside io_submit(), so a --cached run with libaio
 * behaves like the sync engine with extra system calls; main warns.
 * Syncs are done in queue() with fsync()/fdatasync(): the worker issues a
 * sync only when nothing is in flight, so nothing is lost by not queueing
 * it, and IOCB_CMD_FSYNC is not supported by every filesystem.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libaio.h>

#include "atio/engine/engine.h"
#include "atio/base/opts.h"

struct aio {
	io_context_t ctx;
	unsigned npending;
	struct iocb **pending;     /* [depth]: queued, not yet submitted */
	struct iocb *iocbs;        /* [depth]: one per request, by r->index */
	struct io_event *events;   /* [depth] */
};

static int aio_probe(void)
{
	io_context_t ctx = 0;
	int ret = io_setup(1, &ctx);

	if (ret == 0)
		io_destroy(ctx);
	return ret;
}

/* A number from a /proc/sys file, or -1. */
static long long proc_number(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "re");

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * Each thread's io_setup() charges the depth it asks for to fs.aio-nr,
 * against fs.aio-max-nr, shared by every process (the kernel sizes the
 * ring larger, but counts only what was asked for). The contexts of all
 * threads must fit in what is left.
 */
static int aio_depth_limit(unsigned threads, unsigned depth, unsigned long long *left)
{
	long long max = proc_number("/proc/sys/fs/aio-max-nr");
	long long used = proc_number("/proc/sys/fs/aio-nr");
	unsigned long long each = depth, room;

	if (max < 0 || used < 0)
		return -ENOENT;
	room = max > used ? (unsigned long long)(max - used) : 0;
	*left = room / threads;
	return each * threads <= room ? 0 : -E2BIG;
}

static int aio_depth_check(unsigned threads, unsigned depth, unsigned *max)
{
	unsigned long long left = 0;
	int ret = aio_depth_limit(threads, depth, &left);

	*max = left > depth ? depth : (unsigned)left;
	return ret;
}

static void aio_free(struct aio *a)
{
	free(a->pending);
	free(a->iocbs);
	free(a->events);
	free(a);
}

static int aio_init(struct atio_engine_io *w)
{
	struct aio *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	a->pending = calloc(w->depth, sizeof(*a->pending));
	a->iocbs = calloc(w->depth, sizeof(*a->iocbs));
	a->events = calloc(w->depth, sizeof(*a->events));
	if (!a->pending || !a->iocbs || !a->events) {
		aio_free(a);
		return -ENOMEM;
	}
	ret = io_setup((int)w->depth, &a->ctx);
	if (ret < 0) {
		aio_free(a);
		return ret;
	}
	w->engine_data = a;
	return 0;
}

static enum atio_q aio_queue(struct atio_engine_io *w, struct atio_req *r)
{
	struct aio *a = w->engine_data;
	struct iocb *cb = &a->iocbs[r->index];

	switch (r->op) {
	case ATIO_REQ_READ:
		io_prep_pread(cb, r->fd, r->buf, r->len, (long long)r->off);
		break;
	case ATIO_REQ_WRITE:
		io_prep_pwrite(cb, r->fd, r->buf, r->len, (long long)r->off);
		break;
	case ATIO_REQ_FSYNC:
		r->res = fsync(r->fd) ? -errno : 0;
		return ATIO_Q_COMPLETED;
	case ATIO_REQ_FDATASYNC:
		r->res = fdatasync(r->fd) ? -errno : 0;
		return ATIO_Q_COMPLETED;
	}
	cb->data = r;
	a->pending[a->npending++] = cb;
	return ATIO_Q_QUEUED;
}

static int aio_submit(struct atio_engine_io *w)
{
	struct aio *a = w->engine_data;
	unsigned done = 0;

	while (done < a->npending) {
		int ret = io_submit(a->ctx, (long)(a->npending - done), a->pending + done);

		if (ret == -EINTR)
			continue;
		if (ret <= 0)
			return ret < 0 ? ret : -EAGAIN;
		done += (unsigned)ret;
	}
	a->npending = 0;
	return 0;
}

/*
 * The completion ring the kernel shares with the process: the AIO context
 * handle is its address. Completed events sit between head (the process's
 * side) and tail (the kernel's), so reaping what is already there needs no
 * system call; io_getevents() is only needed to wait. The layout is the
 * kernel's ABI (fs/aio.c, struct aio_ring); the magic number says it is one.
 */
struct aio_ring {
	unsigned id, nr, head, tail;
	unsigned magic, compat_features, incompat_features, header_length;
	struct io_event events[];
};

#define AIO_RING_MAGIC 0xa10a10a1u

/* Take up to @max events from the ring into @ev; returns how many. */
static unsigned ring_take(io_context_t ctx, struct io_event *ev, unsigned max)
{
	struct aio_ring *ring = (struct aio_ring *)ctx;
	unsigned head = ring->head, tail, n = 0;

	if (ring->magic != AIO_RING_MAGIC)
		return 0;
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	while (head != tail && n < max) {
		ev[n++] = ring->events[head];
		if (++head == ring->nr)
			head = 0;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return n;
}

/* Hand the @n events taken back as completed requests. */
static int give(struct atio_engine_io *w, struct aio *a, int n)
{
	for (int i = 0; i < n; i++) {
		struct atio_req *r = a->events[i].data;

		/* res carries a byte count, or a negative errno cast to unsigned. */
		r->res = (long)a->events[i].res;
		w->done[i] = r;
	}
	return n;
}

static int aio_reap(struct atio_engine_io *w, unsigned min, unsigned max)
{
	struct aio *a = w->engine_data;
	int n = (int)ring_take(a->ctx, a->events, max);

	while (n < (int)min) {
		int got = io_getevents(a->ctx, (long)(min - (unsigned)n),
				       (long)(max - (unsigned)n), a->events + n, NULL);

		if (got == -EINTR)
			continue;
		if (got < 0)
			return got;
		n += got;
	}
	return give(w, a, n);
}

/* What is there, else wait for one completion at most @timeout_ns. */
static int aio_reap_timed(struct atio_engine_io *w, unsigned max, uint64_t timeout_ns)
{
	struct aio *a = w->engine_data;
	struct timespec ts = { .tv_sec = (time_t)(timeout_ns / 1000000000u),
			       .tv_nsec = (long)(timeout_ns % 1000000000u) };
	int n = (int)ring_take(a->ctx, a->events, max);

	if (n == 0 && timeout_ns) {
		do
			n = io_getevents(a->ctx, 1, (long)max, a->events, &ts);
		while (n == -EINTR);
		if (n < 0)
			return n;
	}
	return give(w, a, n);
}

static void aio_cleanup(struct atio_engine_io *w)
{
	struct aio *a = w->engine_data;

	io_destroy(a->ctx);
	aio_free(a);
	w->engine_data = NULL;
}

/*
 * --iodepth-batch 16 by default for random O_DIRECT I/O, io_uring's 8
 * doubled: completions come off the shared ring without a system call, so
 * each refill's io_submit() is most of the thread's system calls (io_uring
 * submits and reaps in one), and at 8 the threads spent more CPU per I/O
 * than fio (doc/performance.md).
 */
const struct atio_engine_ops atio_engine_libaio = {
	.name = "libaio",
	.async = true,
	.max_iodepth = ATIO_MAX_IODEPTH,
	.direct_batch = 16,
	.probe = aio_probe,
	.depth_limit = aio_depth_check,
	.init = aio_init,
	.queue = aio_queue,
	.submit = aio_submit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
	.reap_timed = aio_reap_timed,
};
